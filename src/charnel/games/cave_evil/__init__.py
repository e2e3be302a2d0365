"""Cave Evil (Emperors of Eternal Evil, 2011): card fields and checks, and the rules engine."""

from .game import CaveEvil

game = CaveEvil()
