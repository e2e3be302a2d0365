"""Game packages broken on purpose, for the bad-input tests: one declares a field twice, one
gives no game."""

from dice_duel.game import FIELDS, DiceDuel

from charnel.fields import CardField


class TwiceDuel(DiceDuel):
    fields = (
        *FIELDS,
        CardField("might", int, "Declared again."),
    )


twice = TwiceDuel()


class EnginelessDuel(DiceDuel):
    """Dice Duel without its engine hook: its examples cannot run."""

    def engine(self, records):
        return None


engineless = EnginelessDuel()
