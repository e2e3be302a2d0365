"""CSV import and JSON/CSV export: a pool exported and imported again is the same pool, and a
sheet's bad rows are refused each with its reason."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
import yaml
from projects import DUEL, copy_project, only_game
from typer.testing import CliRunner

from charnel import pipeline
from charnel.cli import app
from charnel.exporter import export
from charnel.importer import import_csv

GAME = only_game(DUEL)  # the sheets below are in its columns
HEADER = "name,type,might,clan,set,text,flavor\n"
TEXT = "Each blow of this champion adds its might."


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "p", DUEL)


def build(root: Path) -> Path:
    return pipeline.build(root, GAME, root / "build", force=True).database


def table(database: Path, name: str) -> list[tuple]:
    conn = sqlite3.connect(database)
    try:
        skip = {"path", "line"}  # where a record was written, not what it says
        columns = [r[1] for r in conn.execute(f'PRAGMA table_info("{name}")') if r[1] not in skip]
        cols = ", ".join(f'"{c}"' for c in columns)
        return conn.execute(f'SELECT {cols} FROM "{name}" ORDER BY 1, 2').fetchall()
    finally:
        conn.close()


def empty_project(source: Path, target: Path) -> Path:
    """The same rules, no cards."""
    shutil.copytree(source / "rules", target / "rules")
    (target / "cards" / GAME).mkdir(parents=True)
    return target


def test_csv_round_trip_gives_the_same_cards(project: Path, tmp_path: Path):
    database = build(project)
    sheet = tmp_path / "pool.csv"
    sheet.write_text(export(database, "csv"), encoding="utf-8")
    other = empty_project(project, tmp_path / "again")

    result = import_csv(other, GAME, sheet)

    assert result.errors == []
    assert len(result.written) == len(list((project / f"cards/{GAME}").glob("*/*.yaml"))) == 3
    again = build(other)
    for name in ("cards", "rulings", "sets", "examples", "example_results"):
        assert table(again, name) == table(database, name), name
    assert table(database, "rulings") and table(database, "example_results")
    # and exporting the imported pool gives the same sheet
    assert export(again, "csv") == sheet.read_text(encoding="utf-8")


def test_json_export_nests_rulings(project: Path):
    database = build(project)
    document = json.loads(export(database, "json"))
    cards = {c["id"]: c for c in document["cards"]}

    assert set(cards) == {"ash-page", "cinder-knight", "rime-warden"}
    assert {s["code"] for s in document["sets"]} == {"embers", "frosts"}
    assert "cards fully executable" in document["meta"]["coverage"]
    knight = cards["cinder-knight"]
    assert (knight["type"], knight["might"], knight["clan"], knight["set"]) == (
        "champion", 3, "ember", "embers")
    assert (knight["text"], knight["flavor"]) == (TEXT, "It lights its own way.")
    assert isinstance(knight["executable"], bool)
    assert [(r["date"], r["rules"]) for r in knight["rulings"]] == [("2026-11-25", ["2.1a"])]
    assert all({"date", "source", "text", "rules"} <= set(r) for r in knight["rulings"])
    assert export(database, "json") == export(database, "json")


def test_jsonl_export_is_the_json_cards_one_a_line(project: Path):
    database = build(project)
    lines = export(database, "jsonl").splitlines()
    assert [json.loads(line) for line in lines] == json.loads(export(database, "json"))["cards"]


def test_an_imported_row_is_a_card_file_that_checks(project: Path, tmp_path: Path):
    sheet = tmp_path / "new.csv"
    sheet.write_text(HEADER + f"Frost Lancer,champion,2,frost,,{TEXT},Cold and patient.\n",
                     encoding="utf-8")
    result = import_csv(project, GAME, sheet, set_code="frosts")
    assert result.errors == []
    (path,) = result.written
    assert path == project / f"cards/{GAME}/frosts/frost-lancer.yaml"
    card = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert (card["name"], card["type"], card["might"], card["clan"]) == (
        "Frost Lancer", "champion", 2, "frost")
    assert card["flavor"] == "Cold and patient."
    check = CliRunner().invoke(app, ["check", "--root", str(project)])
    assert check.exit_code == 0, check.output


def test_bad_rows_are_reported_by_row_and_not_written(project: Path, tmp_path: Path):
    sheet = tmp_path / "mixed.csv"
    rows = [
        "Fine Fellow,champion,1,ember,embers,,,",
        ",champion,1,ember,embers,,,",
        "Strong Arm,champion,three,ember,embers,,,",
        "Odd Clan,champion,1,purple,embers,,,",
        "Lost Set,champion,1,ember,nowhere,,,",
        "Cinder Knight,champion,1,ember,embers,,,",
        "Escapee,champion,1,ember,embers,,,../../evil",
        "Too Mighty,champion,12,ember,embers,,,",
    ]
    sheet.write_text(HEADER.replace("flavor", "flavor,id") + "\n".join(rows) + "\n",
                     encoding="utf-8")

    result = import_csv(project, GAME, sheet)

    assert [p.name for p in result.written] == ["fine-fellow.yaml"]
    assert not (project / f"cards/{GAME}/embers/odd-clan.yaml").exists()
    reasons = {int(e.split(":")[1]): e for e in result.errors}
    assert set(reasons) == {3, 4, 5, 6, 7, 8, 9}
    assert all(e.startswith(f"{sheet}:{row}: ") for row, e in reasons.items())
    assert "'name' column is empty" in reasons[3]
    assert "column 'might' must be a whole number (got 'three')" in reasons[4]
    assert "clan: input should be 'ember' or 'frost'" in reasons[5]
    assert "set 'nowhere' is not declared" in reasons[6]
    assert "'cinder-knight' already exists" in reasons[7]
    assert "id '../../evil' is not a file name" in reasons[8]
    assert not (tmp_path.parent / "evil.yaml").exists()
    assert "might: input should be less than or equal to 9" in reasons[9]


def test_cli_import_and_export(project: Path, tmp_path: Path):
    runner = CliRunner()
    exported = runner.invoke(
        app, ["export", "--root", str(project), "--out", str(project / "build"),
              "--game", GAME, "--format", "json", "--output", "-"],
    )
    assert exported.exit_code == 0, exported.output
    assert len(json.loads(exported.stdout)["cards"]) == 3
    written = runner.invoke(
        app, ["export", "--root", str(project), "--out", str(project / "build"), "--format", "csv"]
    )
    assert written.exit_code == 0, written.output
    sheet = project / "build" / f"{GAME}-cards.csv"
    assert sheet.read_text(encoding="utf-8").startswith("id,name,set,type,might,clan,text,")

    bad = tmp_path / "bad.csv"
    bad.write_text(HEADER + "Nameless,champion,1,ember,,,\n")
    refused = runner.invoke(
        app, ["import", "csv", str(bad), "--root", str(project), "--game", GAME]
    )
    assert refused.exit_code == 1
    assert f"{bad}:2: no set" in refused.stderr


def test_cli_counts_refused_rows_not_reasons(project: Path, tmp_path: Path):
    sheet = tmp_path / "twice.csv"
    sheet.write_text(
        HEADER
        + "Cinder Knight,champion,1,purple,embers,,\n"
        + "Nameless,champion,1,ember,,,\n"
    )
    refused = CliRunner().invoke(
        app, ["import", "csv", str(sheet), "--root", str(project), "--game", GAME]
    )
    assert refused.exit_code == 1
    assert len([line for line in refused.stderr.splitlines() if f"{sheet}:2:" in line]) == 2
    assert "0 card files written, 2 rows refused" in refused.stderr


def test_imported_cards_name_a_schema_that_exists(project: Path, tmp_path: Path):
    other = empty_project(project, tmp_path / "fresh")
    sheet = tmp_path / "one.csv"
    sheet.write_text(HEADER + "Fine Fellow,champion,1,ember,embers,,\n")
    result = import_csv(other, GAME, sheet)
    assert result.errors == [] and len(result.written) == 1
    first = result.written[0].read_text(encoding="utf-8").splitlines()[0]
    pointed = first.partition("$schema=")[2]
    schema = (result.written[0].parent / pointed).resolve()
    assert schema.is_file(), first
    assert json.loads(schema.read_text())["title"]


@pytest.mark.parametrize("fmt", ["xml"])
def test_unknown_export_format_is_refused(project: Path, fmt: str):
    result = CliRunner().invoke(app, ["export", "--root", str(project), "--format", fmt])
    assert result.exit_code != 0
