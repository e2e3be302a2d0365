"""The bundled game's release 1.1, as `charnel diff` tells it against 1.0."""

from __future__ import annotations

import json

from projects import BUNDLED
from typer.testing import CliRunner

from charnel.cli import app


def test_the_bundled_1_1_lists_exactly_the_changes_it_made():
    result = CliRunner().invoke(app, ["diff", "1.0", "1.1", "--root", str(BUNDLED), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    clauses = {(c["old_number"], c["new_number"], tuple(c["kinds"])) for c in data["clauses"]}
    assert clauses == {
        ("11.1c", "11.1c", ("changed",)),
        (None, "14.13b", ("added",)),
        ("14.13b", "14.13c", ("renumbered",)),
        ("14.13c", "14.13d", ("renumbered",)),
    }
    assert [(t["slug"], t["kind"]) for t in data["terms"]] == [("ripper", "changed")]
    cards = {c["slug"]: (c["kind"], c["functional"]) for c in data["cards"]}
    assert cards == {
        "pay-the-ferryman": ("erratum", False),
        "the-sunken-bell": ("erratum", True),
    }
    explained = [c for c in data["clauses"] if c["kinds"] != ["renumbered"]] + data["cards"]
    assert all(c["reason"] for c in explained)
