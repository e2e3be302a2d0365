"""The game-neutral rules engine: the example runner, scripted choices and dice, and card
verification. A game supplies an `Engine` (see `charnel.engine.protocol`)."""

from charnel.engine.errors import ExampleError, Illegal, reject_unknown
from charnel.engine.protocol import Ability, Action, Engine, Mismatch
from charnel.engine.runner import RunResult, run, states_of
from charnel.engine.script import Script

__all__ = [
    "Ability",
    "Action",
    "Engine",
    "ExampleError",
    "Illegal",
    "Mismatch",
    "RunResult",
    "Script",
    "reject_unknown",
    "run",
    "states_of",
]
