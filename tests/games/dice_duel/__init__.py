"""Dice Duel: the test suite's second game, sharing nothing with Hecatomb. Two duellists trade
blows; a blow is a die plus the champion's might. Its cards have no cost, no rarity, no
keywords and no collector numbers: a might (a number) and a clan (a facet)."""

from .game import DiceDuel

game = DiceDuel()
