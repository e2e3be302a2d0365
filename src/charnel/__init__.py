"""charnel: a rules-and-card database for tabletop card games."""

__version__ = "0.1.0"
