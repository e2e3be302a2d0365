"""What the core derives from a game's field declarations, on declarations of a shape no
bundled game has: a cost in three resources, a record stored in two columns, a list of words."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import ValidationError

from charnel import fields
from charnel.fields import REQUIRED, CardField, Column, Cost, Search
from charnel.records import CardBase, Record


class Carry(Record):
    kind: Literal["none", "carry_only", "carry_use"]
    count: int = 0


DECLARED = (
    CardField("cost", dict[str, int] | None, "Cost in metals, gore and shadowflame.",
              cost=Cost(lambda c: sum(c.values())), search=Search(("cost",), "Total cost.")),
    CardField("size", Literal["large", "small"], "Size.", REQUIRED, facet="size",
              search=Search(("size",), "Size.")),
    CardField("carry", Carry | None, "What it carries.", columns=(
        Column("carry_kind", str, "Carry kind.", lambda c: c.kind),
        Column("carry_count", int, "Carried at once.", lambda c: c.count,
               search=Search(("carries",), "How many it carries.")),
    )),
    CardField("species", list[str], "Species.", [], search=Search(("sp",), "A species.")),
    CardField("movement", int, "Hexes a turn.", REQUIRED, rules={"ge": 0}, numbers=True,
              search=Search(("mv",), "Movement.")),
)


def test_the_model_validates_the_declared_fields():
    model = fields.card_model("ShapeCard", CardBase, DECLARED)
    card = model.model_validate({"name": "Ghoul", "type": "creature", "size": "small",
                                 "movement": 3, "cost": {"gore": 3}, "species": ["Undead"],
                                 "carry": {"kind": "carry_use", "count": 1}})
    assert fields.card_row(DECLARED, card) == {
        "cost": '{"gore": 3}', "cost_value": 3, "size": "small", "carry_kind": "carry_use",
        "carry_count": 1, "species": "Undead", "movement": 3,
    }
    with pytest.raises(ValidationError):
        model.model_validate({"name": "x", "type": "creature", "size": "huge", "movement": 1})
    with pytest.raises(ValidationError):  # a field no declaration names
        model.model_validate({"name": "x", "type": "c", "size": "small", "movement": 1,
                              "rarity": "rare"})


def test_columns_and_search_fields():
    columns = fields.card_columns("ShapeColumns", DECLARED).model_fields
    assert list(columns) == ["cost", "cost_value", "size", "carry_kind", "carry_count",
                             "species", "movement"]
    searched = fields.search_fields(DECLARED)
    assert searched["cost"].expr == "cost_value" and searched["cost"].kind == "number"
    assert searched["size"].kind == "exact" and "enum = 'size'" in searched["size"].choices
    assert searched["sp"].kind == "list" and searched["mv"].kind == "number"
    assert searched["carries"].expr == "carry_count" and searched["carries"].kind == "number"


def test_a_field_declared_twice_or_over_a_common_one_is_found():
    again = (*DECLARED, CardField("movement", int, "Again."), CardField("text", str, "Common."))
    assert fields.duplicates(again, list(CardBase.model_fields)) == ["movement", "text"]
