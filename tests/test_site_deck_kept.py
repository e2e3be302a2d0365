"""The deck page's data after an edit: each card's part kept from the last build while its page
is unchanged, the whole the same bytes as a build from nothing."""

from __future__ import annotations

import json

from site_fixtures import GAME, build, make_project


def test_the_deck_data_after_an_edit_is_what_a_fresh_build_makes(tmp_path):
    project = make_project(tmp_path / "p")
    site = build(project, tmp_path / "b")
    card = project / "cards" / GAME / "base" / "grave-hound.yaml"
    text = card.read_text()
    assert "name: Grave Hound" in text
    card.write_text(text.replace("name: Grave Hound", "name: Grave Hound the Second"))
    build(project, tmp_path / "b")
    fresh = build(project, tmp_path / "fresh")
    for name in ("deck-pool.json", "deck-rulings.json"):
        kept = (site / "assets" / name).read_bytes()
        assert kept == (fresh / "assets" / name).read_bytes(), name
    pool = json.loads((site / "assets" / "deck-pool.json").read_text())
    assert any(c[0] == "Grave Hound the Second" for c in pool["cards"])
    rulings = json.loads((site / "assets" / "deck-rulings.json").read_text())
    assert "Grave Hound the Second" in {c["name"] for c in rulings["cards"]}
    assert any("Grave Hound the Second" in c["cards"] for c in rulings["clauses"])
