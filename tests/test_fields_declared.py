"""What the core derives from a game's field declarations, on declarations of a shape no
bundled game has: a cost in three resources, a record stored in two columns, a list of words."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import ValidationError

from charnel import fields
from charnel.fields import REQUIRED, CardField, Column, Cost, Search
from charnel.records import CardBase, Record


class Hold(Record):
    kind: Literal["none", "hold_only", "hold_use"]
    count: int = 0


DECLARED = (
    CardField("cost", dict[str, int] | None, "Cost in gold, iron and salt.",
              cost=Cost(lambda c: sum(c.values())), search=Search(("cost",), "Total cost.")),
    CardField("size", Literal["large", "small"], "Size.", REQUIRED, facet="size",
              search=Search(("size",), "Size.")),
    CardField("hold", Hold | None, "What it holds.", columns=(
        Column("hold_kind", str, "Hold kind.", lambda c: c.kind),
        Column("hold_count", int, "Held at once.", lambda c: c.count,
               search=Search(("holds",), "How many it holds.")),
    )),
    CardField("kin", list[str], "Kin.", [], search=Search(("kn",), "A kin.")),
    CardField("pace", int, "Steps a turn.", REQUIRED, rules={"ge": 0}, numbers=True,
              search=Search(("pc",), "Pace.")),
)


def test_the_model_validates_the_declared_fields():
    model = fields.card_model("ShapeCard", CardBase, DECLARED)
    card = model.model_validate({"name": "Ghoul", "type": "beast", "size": "small",
                                 "pace": 3, "cost": {"iron": 3}, "kin": ["Undead"],
                                 "hold": {"kind": "hold_use", "count": 1}})
    assert fields.card_row(DECLARED, card) == {
        "cost": '{"iron": 3}', "cost_value": 3, "size": "small", "hold_kind": "hold_use",
        "hold_count": 1, "kin": "Undead", "pace": 3,
    }
    with pytest.raises(ValidationError):
        model.model_validate({"name": "x", "type": "beast", "size": "huge", "pace": 1})
    with pytest.raises(ValidationError):  # a field no declaration names
        model.model_validate({"name": "x", "type": "c", "size": "small", "pace": 1,
                              "colour": "grey"})


def test_columns_and_search_fields():
    columns = fields.card_columns("ShapeColumns", DECLARED).model_fields
    assert list(columns) == ["cost", "cost_value", "size", "hold_kind", "hold_count",
                             "kin", "pace"]
    searched = fields.search_fields(DECLARED)
    assert searched["cost"].expr == "cost_value" and searched["cost"].kind == "number"
    assert searched["size"].kind == "exact" and "enum = 'size'" in searched["size"].choices
    assert searched["kn"].kind == "list" and searched["pc"].kind == "number"
    assert searched["holds"].expr == "hold_count" and searched["holds"].kind == "number"


def test_a_field_declared_twice_or_over_a_common_one_is_found():
    again = (*DECLARED, CardField("pace", int, "Again."), CardField("text", str, "Common."))
    assert fields.duplicates(again, list(CardBase.model_fields)) == ["pace", "text"]
