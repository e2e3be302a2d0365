"""The Cave Evil side of the example runner: an example's outcome, with the card pool read
once per loaded `GameRecords`."""

from __future__ import annotations

from typing import Any

from charnel.games.base import Outcome
from charnel.games.cave_evil.engine import runner
from charnel.games.cave_evil.engine.pieces import pool_of
from charnel.records import Example, GameRecords


def pool(records: GameRecords | None) -> dict[str, dict[str, Any]]:
    if records is None:
        return {}
    found = records.__dict__.get("_cave_evil_pool")
    if found is None:
        found = records.__dict__["_cave_evil_pool"] = pool_of(records)
    return found


def outcome(example: Example, result: runner.RunResult) -> Outcome:
    return Outcome(
        example.id,
        result.passed,
        result.message,
        list(result.diff),
        None,
        origin=None if result.passed else example.doc.at(result.path, key=result.key),
        broken=result.broken,
    )


def run_example(example: Example, records: GameRecords | None) -> Outcome:
    return outcome(example, runner.run(example.body, pool(records)))
