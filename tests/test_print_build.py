"""`charnel build` prints the PDFs unless told not to; `charnel print` prints them on its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from projects import DUEL, copy_project, only_game
from pypdf import PdfReader
from typer.testing import CliRunner

from charnel.cli import app

GAME = only_game(DUEL)


@pytest.fixture
def small(tmp_path: Path) -> Path:
    return copy_project(tmp_path, DUEL)


def pdf_names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.pdf"))


def test_build_prints_unless_no_print(small: Path):
    args = ["build", "--root", str(small), "--out", str(small / "build"), "--no-site"]
    result = CliRunner().invoke(app, [*args, "--no-print"])
    assert result.exit_code == 0, result.output
    assert not (small / "build" / "print").exists()
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert pdf_names(small / "build" / "print") == [
        f"{GAME}-checklist-embers.pdf",
        f"{GAME}-checklist-frosts.pdf",
        f"{GAME}-player-aid.pdf",
        f"{GAME}-rules-compact.pdf",
        f"{GAME}-rules.pdf",
    ]


def test_print_command_writes_letter_pages(small: Path):
    out = small / "pdfs"
    args = ["print", "--root", str(small), "--out", str(out), "--paper", "letter"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert f"{GAME}: wrote" in result.stdout
    for name in pdf_names(out):
        box = PdfReader(out / name).pages[0].mediabox
        assert (round(box.width), round(box.height)) == (612, 792), name


def test_print_says_wrote_only_for_pdfs_it_laid_out(small: Path):
    out = small / "pdfs"
    args = ["print", "--root", str(small), "--out", str(out)]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.stdout.count(f"{GAME}: wrote") == len(pdf_names(out)) == 5
    checklist = out / f"{GAME}-checklist-embers.pdf"
    checklist.write_bytes(b"changed behind charnel's back")
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    assert again.stdout.count(f"{GAME}: wrote") == 1 and f"wrote {checklist}" in again.stdout
    assert again.stdout.count(f"{GAME}: kept (unchanged)") == 4


def test_print_command_rejects_unknown_paper_and_reports_bad_sources(small: Path):
    args = ["print", "--root", str(small), "--out", str(small / "pdfs")]
    assert CliRunner().invoke(app, [*args, "--paper", "a3"]).exit_code != 0
    card = next((small / "cards" / GAME / "embers").glob("*.yaml"))
    card.write_text(card.read_text(encoding="utf-8") + "bogus_field: 1\n", encoding="utf-8")
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1
    assert f"{card.relative_to(small).as_posix()}:" in result.stderr
    assert "unknown field 'bogus_field'" in result.stderr
    assert not (small / "pdfs").exists()


def test_a_set_without_cards_gets_no_checklist_and_old_ones_go(small: Path):
    out = small / "pdfs"
    stale = out / f"{GAME}-checklist-gone.pdf"
    out.mkdir()
    stale.write_bytes(b"from a set that no longer exists")
    other_game = out / "othergame-rules.pdf"
    other_game.write_bytes(b"not ours")
    result = CliRunner().invoke(app, ["print", "--root", str(small), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert not stale.exists() and other_game.exists()


def test_the_site_offers_the_pdfs(small: Path):
    from charnel.site.linkcheck import check as check_links

    result = CliRunner().invoke(app, ["build", "--root", str(small), "--out", str(small / "build")])
    assert result.exit_code == 0, result.output
    site = small / "build" / "site" / GAME
    printed = small / "build" / "print"
    for name in pdf_names(printed):
        assert (site / "data" / name).read_bytes() == (printed / name).read_bytes()
        assert f'href="/{GAME}/data/{name}"' in (site / "data" / "index.html").read_text()
    rules_index = (site / "rules" / "index.html").read_text()
    assert f'href="/{GAME}/data/{GAME}-rules.pdf"' in rules_index
    assert f'href="/{GAME}/data/{GAME}-player-aid.pdf"' in rules_index
    assert check_links(site.parent) == []


def test_each_paper_size_keeps_its_own_files(small: Path, monkeypatch):
    monkeypatch.chdir(small)
    assert CliRunner().invoke(app, ["build", "--no-site"]).exit_code == 0
    printed = small / "build" / "print"
    a4 = {name: (printed / name).read_bytes() for name in pdf_names(printed)}
    result = CliRunner().invoke(app, ["print", "--paper", "letter"])
    assert result.exit_code == 0, result.output
    letter = small / "build" / "print" / "letter"
    assert pdf_names(letter) == sorted(a4)
    assert {name: (printed / name).read_bytes() for name in a4} == a4
    box = PdfReader(letter / f"{GAME}-rules.pdf").pages[0].mediabox
    assert (round(box.width), round(box.height)) == (612, 792)
    assert "up to date" in CliRunner().invoke(app, ["build", "--no-site"]).output
