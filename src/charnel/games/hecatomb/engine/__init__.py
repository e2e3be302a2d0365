"""The Hecatomb rules engine: runs examples written in the example language, through the
core runner (`charnel.engine`)."""

from .protocol import HecatombEngine

__all__ = ["HecatombEngine"]
