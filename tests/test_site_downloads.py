"""The /data/ downloads of a rebuild: only the tables that changed are exported again, and
every file is what a fresh export of the new database would be."""

from __future__ import annotations

from pathlib import Path

import pytest
from site_fixtures import GAME, build, make_project

from charnel.site import downloads


@pytest.fixture
def rebuilt(tmp_path: Path):
    """A built site, the times of its data files, and a card's flavor text edited."""
    project = make_project(tmp_path / "p")
    site = build(project, tmp_path / "b")
    times = {p.name: p.stat().st_mtime_ns for p in (site / "data").iterdir()}
    card = project / "cards" / GAME / "base" / "grave-hound.yaml"
    card.write_text(card.read_text().replace("three valleys", "four valleys"))
    return project, site, times, tmp_path / "b"


def fresh_export(out: Path) -> dict[str, bytes]:
    return downloads.files(out / f"{GAME}.db", GAME)


def data_files(site: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (site / "data").iterdir()
            if p.suffix in (".csv", ".json", ".db")}


def test_a_rebuild_exports_only_the_tables_that_changed(rebuilt):
    project, site, _, out = rebuilt
    before = downloads.export(out / f"{GAME}.db", GAME)
    build(project, out)
    assert data_files(site) == fresh_export(out)
    last = site / "data"
    again = downloads.export(out / f"{GAME}.db", GAME, before.state, lambda name: last / name)
    assert {"cards.csv", f"{GAME}.json", f"{GAME}.db"} <= set(again.made)
    assert {"rulings.csv", "rules.csv", "glossary_terms.csv"} <= set(again.kept)
    assert again.made[f"{GAME}.json"] == fresh_export(out)[f"{GAME}.json"]


def test_a_download_deleted_from_the_site_is_made_again(rebuilt):
    project, site, _, out = rebuilt
    (site / "data" / "rules.csv").unlink()
    build(project, out)
    assert data_files(site) == fresh_export(out)


def test_a_json_file_changed_by_hand_is_made_again_not_cut_from(rebuilt):
    project, site, _, out = rebuilt
    json_file = site / "data" / f"{GAME}.json"
    json_file.write_bytes(json_file.read_bytes().replace(b'"rules":', b'"RULES":'))
    build(project, out)
    assert data_files(site) == fresh_export(out)


def test_a_table_stored_in_the_same_bytes_has_the_same_digest(tmp_path):
    """The digests that decide what is exported again: the same rows give the same digest even
    when another table grew, and changed rows give another."""
    project = make_project(tmp_path / "p")
    build(project, tmp_path / "b")
    first = downloads.export(tmp_path / "b" / f"{GAME}.db", GAME).state["tables"]
    card = project / "cards" / GAME / "base" / "grave-hound.yaml"
    card.write_text(card.read_text().replace("three valleys", "four valleys " * 50))
    build(project, tmp_path / "b")
    second = downloads.export(tmp_path / "b" / f"{GAME}.db", GAME).state["tables"]
    assert first["cards"] != second["cards"]
    assert first["rules"] == second["rules"] and first["glossary_terms"] == second["glossary_terms"]
