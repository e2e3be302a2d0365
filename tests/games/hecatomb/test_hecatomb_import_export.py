"""CSV import and JSON/CSV export of the game's whole pool: exported and imported again it is the
same pool; its keywords and effects are nested in the JSON and parsed from a sheet's text."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from projects import only_game
from test_import_export import table
from typer.testing import CliRunner

from charnel import pipeline
from charnel.cli import app
from charnel.exporter import export
from charnel.importer import import_csv

GAME = only_game(Path(__file__).parent / "fixtures" / "project")  # the sheets are in its columns
HEADER = "name,type,doom,cost,strength,subtype,triggers,rarity,set,text,flavor\n"


def build(root: Path) -> Path:
    return pipeline.build(root, GAME, root / "build", force=True).database


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
    assert len(result.written) == len(list((project / f"cards/{GAME}").glob("*/*.yaml")))
    again = build(other)
    for name in ("cards", "card_keywords", "rulings", "sets", "examples", "example_results"):
        assert table(again, name) == table(database, name), name
    # and exporting the imported pool gives the same sheet
    assert export(again, "csv") == sheet.read_text(encoding="utf-8")


def test_json_export_nests_keywords_and_rulings(project: Path):
    database = build(project)
    document = json.loads(export(database, "json"))
    cards = {c["id"]: c for c in document["cards"]}

    assert len(cards) == len(table(database, "cards"))
    assert {s["code"] for s in document["sets"]} >= {"base", "drowned-sun"}
    assert "cards fully executable" in document["meta"]["coverage"]
    melt = cards["melt"]
    assert (melt["cost"], melt["type"], melt["set"]) == ("X+2", "fate", "base")
    assert melt["effects"] == [{"damage": {"amount": "X", "target": {"abomination": "any"}}}]
    assert isinstance(melt["executable"], bool) and isinstance(melt["combat"], bool)
    assert all({"date", "source", "text", "rules"} <= set(r) for r in melt["rulings"])
    assert [e["id"] for e in melt["examples"]] == ["melt-pays-x"]
    hound = cards["grave-hound"]
    assert [k["text"] for k in hound["keywords"]] == ["Evader (Corruption)", "Reaper +1"]
    assert hound["keywords"][0]["params"] == {"doom": "corruption"}
    assert export(database, "json") == export(database, "json")


def test_jsonl_export_is_the_json_cards_one_a_line(project: Path):
    database = build(project)
    lines = export(database, "jsonl").splitlines()
    assert [json.loads(line) for line in lines] == json.loads(export(database, "json"))["cards"]


def test_import_parses_keyword_text_into_the_encoding(project: Path, tmp_path: Path):
    sheet = tmp_path / "new.csv"
    sheet.write_text(
        HEADER
        + 'Tin Hyena,minion,greed,2,2,Beast,"greed,greed,deceit,corruption",common,,'
        '"Rager +2. Evader (Greed)\n↻3: Gain 1 soul.",A laugh like a can kicked downhill.\n',
        encoding="utf-8",
    )
    result = import_csv(project, GAME, sheet, set_code="drowned-sun")
    assert result.errors == []
    (path,) = result.written
    assert path == project / f"cards/{GAME}/drowned-sun/tin-hyena.yaml"
    card = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert card["keywords"] == [
        {"rager": 2}, {"evader": "greed"}, {"tap": {"size": 3, "effect": "Gain 1 soul"}},
    ]
    assert card["number"] == 57  # the next free collector number of the set
    assert card["triggers"] == ["greed", "greed", "deceit", "corruption"]
    check = CliRunner().invoke(app, ["check", "--root", str(project)])
    assert check.exit_code == 0, check.output


def test_bad_rows_are_reported_by_row_and_not_written(project: Path, tmp_path: Path):
    sheet = tmp_path / "mixed.csv"
    rows = [
        'Fine Fellow,minion,greed,1,1,Undead,"greed,greed,greed,greed",common,base,Martyr,',
        ',minion,greed,1,1,Undead,"greed,greed,greed,greed",common,base,,',
        'Strong Arm,minion,greed,1,three,Undead,"greed,greed,greed,greed",common,base,,',
        'Odd Doom,fate,purple,1,,Curse,,common,base,Gain 1 soul.,',
        'Typo Beast,minion,greed,1,1,Beast,"greed,greed,greed,greed",common,base,Evader (Purple),',
        'Lost Set,fate,greed,1,,Curse,,common,nowhere,Gain 1 soul.,',
        'Grave Hound,minion,greed,1,1,Beast,"greed,greed,greed,greed",common,base,,',
    ]
    header = HEADER.replace("flavor", "flavor,id")
    rows = [r + "," for r in rows] + [
        'Escapee,fate,greed,1,,Curse,,common,base,,,../../evil',
        'Heavy Fate,fate,greed,1,4,Curse,,common,base,Gain 1 soul.,,',
    ]
    sheet.write_text(header + "\n".join(rows) + "\n", encoding="utf-8")

    result = import_csv(project, GAME, sheet)

    assert [p.name for p in result.written] == ["fine-fellow.yaml"]
    assert not (project / f"cards/{GAME}/base/odd-doom.yaml").exists()
    reasons = {int(e.split(":")[1]): e for e in result.errors}
    assert set(reasons) == {3, 4, 5, 6, 7, 8, 9, 10}
    assert all(e.startswith(f"{sheet}:{row}: ") for row, e in reasons.items())
    assert "'name' column is empty" in reasons[3]
    assert "column 'strength' must be a whole number (got 'three')" in reasons[4]
    assert "doom" in reasons[5]
    assert "reads like the keyword Evader" in reasons[6]
    assert "set 'nowhere' is not declared" in reasons[7]
    assert "'grave-hound' already exists" in reasons[8]
    assert "id '../../evil' is not a file name" in reasons[9]
    assert not (tmp_path.parent / "evil.yaml").exists()
    assert "only minions have strength; a fate does not" in reasons[10]


def test_import_refuses_a_misspelt_keyword_naming_the_nearest(project: Path, tmp_path: Path):
    sheet = tmp_path / "typo.csv"
    row = 'Stubborn Husk,minion,greed,2,2,Undead,"greed,greed,greed,greed",common,base,Survivr +1,'
    sheet.write_text(HEADER + row + "\n", encoding="utf-8")

    result = import_csv(project, GAME, sheet)

    assert result.written == []
    assert result.errors == [
        f"{sheet}:2: 'Survivr +1' is not a keyword the glossary knows; nearest: 'Survivor +1'"
    ]


def test_cli_import_and_export(project: Path, tmp_path: Path):
    runner = CliRunner()
    exported = runner.invoke(
        app, ["export", "--root", str(project), "--out", str(project / "build"),
              "--game", GAME, "--format", "json", "--output", "-"],
    )
    assert exported.exit_code == 0, exported.output
    assert len(json.loads(exported.stdout)["cards"]) >= 150
    written = runner.invoke(
        app, ["export", "--root", str(project), "--out", str(project / "build"), "--format", "csv"]
    )
    assert written.exit_code == 0, written.output
    sheet = project / "build" / f"{GAME}-cards.csv"
    assert sheet.read_text(encoding="utf-8").startswith("id,name,set,number,rarity,type,cost,")

    bad = tmp_path / "bad.csv"
    bad.write_text(HEADER + 'Nameless,fate,greed,1,,Curse,,common,,Gain 1 soul.,\n')
    refused = runner.invoke(
        app, ["import", "csv", str(bad), "--root", str(project), "--game", GAME]
    )
    assert refused.exit_code == 1
    assert f"{bad}:2: no set" in refused.stderr


def test_cli_counts_refused_rows_not_reasons(project: Path, tmp_path: Path):
    sheet = tmp_path / "twice.csv"
    sheet.write_text(
        HEADER
        + 'Grave Hound,minion,purple,1,1,Beast,"greed,greed,greed,greed",common,base,,\n'
        + 'Nameless,fate,greed,1,,Curse,,common,,Gain 1 soul.,\n'
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
    sheet.write_text(
        HEADER + 'Fine Fellow,minion,greed,1,1,Undead,"greed,greed,greed,greed",common,base,,\n'
    )
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
