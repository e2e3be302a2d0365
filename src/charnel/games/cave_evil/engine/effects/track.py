"""Cards that move the Blood Eye along the Awaken Track. Reveal and Awaken are checked, as for
the track's own step, when the turn ends (rule 16.1)."""

from __future__ import annotations

from typing import Any

from . import Resolution, effect, whole


def _advance(done: Resolution, value: Any) -> None:
    done.state.blood_eye += value


effect(
    "blood_eye",
    kinds=("event", "spell"),
    clause="19.1a",
    role="the card that moves the Blood Eye",
    check=whole(1, 9),
    wording=lambda n: [f"The Blood Eye advances {n}"],
    run=_advance,
    variables=lambda n: {"advance": n},
)
