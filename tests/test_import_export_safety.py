"""CSV that a spreadsheet opens safely and an import that survives hostile sheets."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from projects import DUEL, copy_project, only_game

from charnel import pipeline
from charnel.exporter import export
from charnel.importer import import_csv
from charnel.site.downloads import _csv as table_csv
from charnel.spreadsheet import guard, unguard

GAME = only_game(DUEL)  # the sheets below are in its columns
HEADER = "name,type,might,clan,set,text,flavor,rulings\n"
ROW = "Fine Fellow,champion,1,ember,embers,,{flavor},{rulings}\n"


@pytest.mark.parametrize(
    "cell, shown",
    [
        ('=HYPERLINK("http://127.0.0.1:9/","x")', "'=HYPERLINK"),
        ("+1+1", "'+1+1"),
        ("-2 might", "'-2 might"),
        ("@SUM(A1)", "'@SUM"),
        ("\t=1", "'\t=1"),
        ("'=1", "''=1"),
        ("'Tis the season", "'Tis the season"),
        ("plain", "plain"),
        ("-2", "-2"),
        ("+1.5e3", "+1.5e3"),
        ("-2+3", "'-2+3"),
        ("'-2", "'-2"),
        ("", ""),
    ],
)
def test_guard_makes_formulas_text_and_unguard_undoes_it(cell: str, shown: str):
    assert guard(cell).startswith(shown)
    assert unguard(guard(cell)) == cell


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "p", DUEL)


def test_a_formula_name_is_guarded_in_the_export_and_imported_back(project: Path, tmp_path):
    card = project / f"cards/{GAME}/embers/ash-page.yaml"
    text = card.read_text("utf-8").replace("name: Ash Page", "name: '=cmd|'' /c calc''!A0'")
    card.write_text(text, "utf-8")
    database = pipeline.build(project, GAME, project / "build", force=True).database
    sheet = export(database, "csv")
    assert "'=cmd|" in sheet
    assert not any(cell.startswith("=") for line in sheet.splitlines() for cell in line.split(","))

    other = tmp_path / "again"
    shutil.copytree(project / "rules", other / "rules")
    (other / f"cards/{GAME}").mkdir(parents=True)
    (tmp_path / "pool.csv").write_text(sheet, "utf-8")
    result = import_csv(other, GAME, tmp_path / "pool.csv")
    assert result.errors == []
    again = pipeline.build(other, GAME, other / "build", force=True).database
    assert export(again, "csv") == sheet


def test_site_downloads_guard_formulas():
    conn = sqlite3.connect(":memory:")
    conn.execute("create table t (name text, n integer)")
    conn.execute("insert into t values ('=1+1', -3), ('@x', 2), ('fine', 1)")
    lines = table_csv(conn, "t").decode().splitlines()
    assert lines == ["name,n", "'=1+1,-3", "'@x,2", "fine,1"]


@pytest.mark.parametrize(
    "flavor, rulings, reason",
    [
        ("x" * 200_000, "", "cannot read the row: field larger than field limit"),
        ("", '"' + "[" * 60_000 + "]" * 60_000 + '"', "column 'rulings' must be a JSON list"),
        ("", '"' + "[" * 70 + "]" * 70 + '"', "column 'rulings' must be a JSON list"),
    ],
)
def test_hostile_sheets_are_row_errors(project: Path, tmp_path: Path, flavor, rulings, reason):
    sheet = tmp_path / "hostile.csv"
    sheet.write_text(HEADER + ROW.format(flavor=flavor, rulings=rulings), "utf-8")
    result = import_csv(project, GAME, sheet)
    assert result.written == []
    assert len(result.errors) == 1
    assert result.errors[0].startswith(f"{sheet}:2: ") and reason in result.errors[0]


def test_a_number_past_64_bits_is_a_row_error(project: Path, tmp_path: Path):
    sheet = tmp_path / "big.csv"
    row = ROW.format(flavor="", rulings="").replace(",1,ember,", ",9" + "9" * 30 + ",ember,")
    sheet.write_text(HEADER + row, "utf-8")
    result = import_csv(project, GAME, sheet)
    assert result.written == [] and "column 'might' must be a whole number" in result.errors[0]
