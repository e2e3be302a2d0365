"""Cave Evil (Emperors of Eternal Evil, 2011): card fields and checks, and the rules engine."""

from charnel.games.cave_evil.game import CaveEvil

game = CaveEvil()
