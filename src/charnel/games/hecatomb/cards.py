"""The fields of a Hecatomb card, beyond the ones every game has."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from sqlmodel import Field as Column
from sqlmodel import SQLModel

from charnel.records import CardBase, Record

Doom = Literal["corruption", "deceit", "destruction", "greed"]


class Conditional(Record):
    doom: Doom
    text: str


class HecatombCard(CardBase):
    combat: bool = False  # a combat minion or combat fate
    doom: Doom
    strength: int | None = Field(default=None, ge=0)
    subtype: str | None = None
    triggers: list[Doom] | None = None  # four corner triggers of a minion, clockwise from top left
    conditional: Conditional | None = None


class HecatombCardColumns(SQLModel):
    doom: str = Column(index=True, description="The card's doom: corruption, deceit, destruction or greed.")
    combat: bool = Column(description="True for combat minions and combat fates, playable during an attack.")
    strength: int | None = Column(default=None, description="A minion's printed strength.")
    subtype: str | None = Column(default=None, description="Subtype, such as Undead or Curse.")
    triggers: str | None = Column(default=None, description="A minion's four corner triggers, comma-separated.")
    conditional_doom: str | None = Column(default=None, description="Doom of the conditional-ability text box.")
    conditional_text: str | None = Column(default=None, description="Conditional ability text, as printed.")
