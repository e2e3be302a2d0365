"""Dice Duel's rules engine on the core protocol: a state of two life totals and a champion's
might each; a blow rolls one scripted die."""

from __future__ import annotations

from dataclasses import dataclass, field

from charnel.engine import Ability, Action, Engine, Illegal, Script, reject_unknown

PLAYERS = ("a", "b")


@dataclass
class Duel:
    life: dict[str, int]
    might: dict[str, int]
    script: Script = field(default_factory=Script)


def strike(state: Duel, args: dict) -> None:
    """Clause 2.1: a blow deals one d6 plus the striker's might to the other duellist."""
    by = args.get("by")
    if by not in PLAYERS:
        raise Illegal("no-such-duellist", f"'by' is one of {', '.join(PLAYERS)}")
    other = PLAYERS[1 - PLAYERS.index(by)]
    if state.life[by] <= 0:
        raise Illegal("fallen", f"duellist {by} has fallen and cannot strike")
    state.life[other] -= state.script.roll(6, f"the blow of {by}") + state.might[by]


class DuelEngine(Engine):
    actions = {"strike": Action(strike, frozenset({"by"}))}

    def setup(self, given: dict, script: Script) -> Duel:
        reject_unknown(given, {"life", "might"}, ("given",), "state field")
        life = {p: 10 for p in PLAYERS} | dict(given.get("life") or {})
        might = {p: 0 for p in PLAYERS} | dict(given.get("might") or {})
        return Duel(life, might, script)

    def compare(self, state: Duel, then: dict):
        reject_unknown(then, {"life"}, ("then",), "fact")
        return [
            (f"life of {p}", want, state.life[p])
            for p, want in sorted((then.get("life") or {}).items())
            if state.life.get(p) != want
        ]

    def snapshot(self, state: Duel) -> dict:
        return {"life": dict(state.life), "might": dict(state.might)}

    # A champion card's might is the ability its examples check: those of clause 2.1.
    def abilities(self, card) -> list[Ability]:
        return [Ability("might", f"Might {card.might}", ("2.1",), f"a might-{card.might} champion",
                        card.might, card.might)]

    def subject(self, example, ability: Ability):
        return "a" if "a" in ((example.body.get("given") or {}).get("might") or {}) else None

    def substitute(self, example, subject, card, ability: Ability) -> dict:
        """The example with the card as duellist a's champion; the expected life follows."""
        body = example.body
        given, then = body.get("given") or {}, body.get("then") or {}
        was = given["might"][subject]
        strikes = sum(1 for step in body.get("when", []) if step == {"strike": {"by": subject}})
        other = PLAYERS[1 - PLAYERS.index(subject)]
        life = dict(then.get("life") or {})
        if other in life:
            life[other] -= strikes * (card.might - was)
        return dict(body, given={**given, "might": {**given["might"], subject: card.might}},
                    then={**then, "life": life})

    def run_key(self, example, card, ability: Ability):
        return card.might
