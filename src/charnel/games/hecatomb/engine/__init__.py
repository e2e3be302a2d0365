"""The Hecatomb rules engine: runs examples written in the example language, through the
core runner (`charnel.engine`)."""

from charnel.games.hecatomb.engine.protocol import HecatombEngine

__all__ = ["HecatombEngine"]
