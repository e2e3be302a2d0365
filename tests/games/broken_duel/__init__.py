"""Game packages broken on purpose, for the bad-input tests: one declares a field twice, one
searches a field under a name the core's set field has, one gives no game."""

from dice_duel.game import FIELDS, DiceDuel

from charnel.fields import CardField, Search


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


class ClashingDuel(DiceDuel):
    """A speed searched as `s`, which every game's set is searched by."""

    fields = (
        *FIELDS,
        CardField("speed", int, "How soon it strikes.", search=Search(("s", "speed"), "Speed.")),
    )


clashing = ClashingDuel()
