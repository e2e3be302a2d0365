"""Hecatomb (Wizards of the Coast, 2005): card fields, checks and the rules engine."""

from .game import Hecatomb

game = Hecatomb()
