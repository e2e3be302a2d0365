"""The Hecatomb rules engine: runs examples written in the example language."""

from charnel.games.hecatomb.engine.runner import RunResult, run, states_of

__all__ = ["RunResult", "run", "states_of"]
