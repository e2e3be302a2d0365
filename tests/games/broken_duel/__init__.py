"""Game packages broken on purpose, for the bad-input tests: one declares a field twice, one
gives no game."""

from charnel.fields import CardField
from dice_duel.game import FIELDS, DiceDuel


class TwiceDuel(DiceDuel):
    fields = (
        *FIELDS,
        CardField("might", int, "Declared again."),
    )


twice = TwiceDuel()
