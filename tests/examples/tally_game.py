"""A tiny game for testing the core engine without any real game: a tally that dice and
scripted choices add to, spent only while it lasts."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from charnel import example_language
from charnel.diagnostics import Problems
from charnel.engine import (
    Ability,
    Action,
    Engine,
    ExampleError,
    Illegal,
    Script,
    outcomes,
    reject_unknown,
    runner,
)
from charnel.records import Example, Outcome

HERE = Path(__file__).resolve().parent


@dataclass
class Tally:
    total: int
    script: Script = field(default_factory=Script)
    bonus: int = 0  # added to every roll (the one ability of this game's cards)


def roll(state: Tally, args: dict) -> None:
    sides = args.get("sides", 6)
    for _ in range(args.get("times", 1)):
        die = state.script.roll(sides, f"a roll of {args.get('times', 1)}d{sides}")
        state.total += die + state.bonus


def capped_roll(state: Tally, args: dict) -> None:
    total = state.total + state.script.roll(args["sides"], f"a capped d{args['sides']}")
    if total > args["cap"]:
        raise Illegal("over-cap", f"the tally would be {total}")
    state.total = total


def take(state: Tally, args: dict) -> None:
    choice = state.script.choose("number")
    if choice is None:
        raise ExampleError((), "take needs a scripted 'number' choice")
    state.total += choice.value


def spend(state: Tally, args: dict) -> None:
    if args["amount"] > state.total:
        raise Illegal("too-few", f"the tally is {state.total}")
    state.total -= args["amount"]


class TallyEngine(Engine):
    actions = {
        "roll": Action(roll, frozenset({"sides", "times"})),
        "capped_roll": Action(capped_roll, frozenset({"sides", "cap"})),
        "take": Action(take),
        "spend": Action(spend, frozenset({"amount"})),
    }
    choice_kinds = frozenset({"number"})

    def __init__(self) -> None:
        self.setups = 0  # how many runs were made, for testing that equal runs run once

    def body(self, example: Example) -> dict:
        given = example.body.get("given") or {}
        return example_language.substitute(example.body, {"bonus": given.get("bonus", 0)})

    def setup(self, given: dict, script: Script) -> Tally:
        self.setups += 1
        reject_unknown(given, {"total", "bonus"}, ("given",), "state field")
        return Tally(given.get("total", 0), script, given.get("bonus", 0))

    def compare(self, state: Tally, then: dict):
        reject_unknown(then, {"total"}, ("then",), "fact")
        if "total" in then and then["total"] != state.total:
            return [("total", then["total"], state.total)]
        return []

    def snapshot(self, state: Tally) -> dict:
        return {"total": state.total}

    # a card is {slug, name, bonus}; its bonus is defined by clause 3.1
    def abilities(self, card) -> list[Ability]:
        if not card.bonus:
            return []
        text = f"Bonus {card.bonus}"
        return [Ability("bonus", text, ("3.1",), f"the {text} card", card.bonus, card.bonus)]

    def subject(self, example: Example, ability: Ability):
        given = example.body.get("given") or {}
        return "bonus" if "bonus" in given else None

    def substitute(self, example: Example, subject, card, ability: Ability) -> dict:
        body = dict(example.body, given={**example.body["given"], "bonus": card.bonus})
        return example_language.substitute(body, {"bonus": card.bonus})

    def run_key(self, example: Example, card, ability: Ability):
        return card.bonus


def examples_in(name: str) -> list[Example]:
    problems = Problems()
    found = example_language.read_file(HERE / name, f"tests/examples/{name}", problems)
    assert not problems, [p.render(HERE.parents[1]) for p in problems]
    return found


def run(example: Example) -> Outcome:
    return outcomes.outcome(example, runner.run(example.body, TallyEngine()))
