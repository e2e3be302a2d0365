"""Hecatomb (Wizards of the Coast, 2005): card fields, checks and the rules engine."""

from charnel.games.hecatomb.game import Hecatomb

game = Hecatomb()
