"""Whether a card's change is functional: the engine can tell. A card is run, before and after
the change, through the examples that are about it (its own and those naming it) and its
abilities' examples with it substituted in; if any result differs, the change is functional.
A change to printed wording alone, with the encoding unchanged, is never functional."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from charnel import examples
from charnel.engine import outcomes
from charnel.records import CardBase, GameRecords

NOT_ENCODING = {"flavor", "rulings", "examples"}


def split(card: CardBase) -> tuple[dict[str, str], dict[str, Any]]:
    """The card's printed wording (every `text` field, by its path) and its encoding (every
    other field that says what it does; flavor, rulings and examples are neither)."""
    data = card.model_dump(mode="json", exclude=NOT_ENCODING)
    wording: dict[str, str] = {}

    def walk(value: Any, path: str) -> Any:
        if isinstance(value, dict):
            kept = {}
            for key, inner in value.items():
                where = f"{path}.{key}" if path else key
                if key == "text" and isinstance(inner, str):
                    wording[where] = inner
                else:
                    kept[key] = walk(inner, where)
            return kept
        if isinstance(value, list):
            return [walk(v, f"{path}[{i}]") for i, v in enumerate(value)]
        return value

    return wording, walk(data, "")


def encoding_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What changed between two encodings, one 'path: old -> new' a line, in path order."""
    a, b = _flat(old, ""), _flat(new, "")
    return [
        f"{path}: {a.get(path, 'none')} -> {b.get(path, 'none')}"
        for path in sorted(set(a) | set(b)) if a.get(path) != b.get(path)
    ]


def _flat(value: Any, path: str) -> dict[str, str]:
    if isinstance(value, dict) and value:
        out: dict[str, str] = {}
        for key, inner in value.items():
            out.update(_flat(inner, f"{path}.{key}" if path else str(key)))
        return out
    if isinstance(value, list) and value:
        out = {}
        for i, inner in enumerate(value):
            out.update(_flat(inner, f"{path}[{i}]"))
        return out
    return {path: json.dumps(value, sort_keys=True)}


def functional(old: CardBase, new: CardBase, records: GameRecords) -> bool:
    """`new` is the card as `records` (the later release) has it; `old` as it was."""
    if split(old)[1] == split(new)[1]:
        return False
    before = dataclasses.replace(
        records, cards=[old if c.slug == new.slug else c for c in records.cards]
    )
    return _results(new, records) != _results(old, before)


def _results(card: CardBase, records: GameRecords) -> list[tuple]:
    about = [
        e for e in records.examples
        if e.owner == card.slug or card.slug in json.dumps(e.body, default=str)
    ]
    runs = [(o.example, None, o.passed, o.message) for o in examples.run_examples(about, records)]
    verified = outcomes.verify_card(records.game, card, records)
    runs += [(o.example, o.card, o.passed, o.message) for o in verified]
    return sorted(runs, key=repr)
