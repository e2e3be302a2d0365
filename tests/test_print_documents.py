"""The printed PDFs, read back: contents pages, clause numbers, the aid's size, hostile card text.

One print of the bundled project and the toy game's (plus a card with awkward text in the toy
game) serves every test here.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from projects import BUNDLED, DUEL, WITH_RELEASES, copy_project, only_game
from pypdf import PdfReader
from typer.testing import CliRunner

from charnel.cli import app
from charnel.diagnostics import Problems
from charnel.printing import layout
from charnel.sources import loader

GAME = only_game(DUEL)  # the game a card with awkward text is added to
GAMES = sorted([GAME, *(p.name for p in (BUNDLED / "rules").iterdir() if p.is_dir())])
HOSTILE_NAME = "Ülrich «the ↻ Unbound»"
HOSTILE_SENTENCE = "<script>alert('x')</script> & «Draw 1.» — ü ↻ ☠"

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")


@pytest.fixture(scope="module")
def built(tmp_path_factory, bundled_build) -> Path:
    root = tmp_path_factory.mktemp("print")
    copy_project(root, BUNDLED, WITH_RELEASES)
    copy_project(root, DUEL)
    card_set = sorted((root / "cards" / GAME).iterdir())[0]
    model = sorted(card_set.glob("*.yaml"))[0]
    card = yaml.safe_load(model.read_text(encoding="utf-8"))
    card.update(name=HOSTILE_NAME, rulings=[], examples=[])
    card["text"] = f"{card.get('text', '')} {HOSTILE_SENTENCE}".strip()
    (card_set / "zz-hostile.yaml").write_text(yaml.safe_dump(card, allow_unicode=True), "utf-8")
    out = root / "build" / "print"
    # the PDFs of the bundled sources as a build left them: only the toy game's are laid out
    shutil.copytree(bundled_build / "build" / "print", out)
    result = CliRunner().invoke(app, ["print", "--root", str(root), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture(scope="module", params=GAMES)
def game(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def records(built: Path, game: str):
    return loader.load_or_raise(built, game)


def printed(built: Path, game: str) -> list[Path]:
    """The game's PDFs: every game of the project is printed into the same folder."""
    return sorted((built / "build" / "print").glob(f"{game}-*.pdf"))


def pdf(built: Path, name: str) -> Path:
    path = built / "build" / "print" / name
    assert path.exists(), f"{name} was not written"
    return path


def pages(path: Path, *, layout: bool = False) -> list[str]:
    """Each page's text as poppler reads it (with `layout`, columns stay side by side)."""
    text = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", *(["-layout"] if layout else []), str(path), "-"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    return text.split("\f")[:-1]


def words(text: str) -> str:
    return r"\s+".join(re.escape(w) for w in text.split())


def contents_page(laid_out: list[str], label: str, flowing: list[str] = ()) -> int:
    """The page number the contents give after `label` (its leader dots skipped). A title
    that wraps in the two-column contents is read from the text in reading order instead."""
    m = None
    for texts in (laid_out, flowing):
        front = "\n".join(texts[: first_body_page(texts)]) if texts else ""
        m = m or re.search(rf"(?<![\d.]){words(label)}[ .]*?(\d+)(?!\S)", front)
    assert m, f"contents list no entry for {label!r}"
    return int(m[1])


def first_body_page(page_texts: list[str]) -> int:
    """Index of the first page after the cover and contents."""
    for i, text in enumerate(page_texts):
        if i > 0 and not re.search(r"^\s*Contents\s*$", text, re.MULTILINE):
            return i
    raise AssertionError("no body pages")


def test_build_writes_every_document(built: Path, game: str, records):
    names = [p.name for p in printed(built, game)]
    sets = sorted({c.set_code for c in records.cards})
    folder = built / "releases" / game
    releases = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []
    expected = [f"{game}-checklist-{s}.pdf" for s in sets] + [
        f"{game}-player-aid.pdf",
        f"{game}-rules.pdf",
        f"{game}-rules-compact.pdf",
    ] + [f"{game}-errata-{v}.pdf" for v in releases]
    assert sorted(names) == sorted(expected)
    assert not list((built / "build" / "print").glob(".*.tmp"))


def test_contents_page_numbers_are_the_pages_sections_start_on(built: Path, game, records):
    path = pdf(built, f"{game}-rules.pdf")
    texts, laid_out = pages(path), pages(path, layout=True)
    body = first_body_page(texts)
    checked = 0
    for clause in records.clauses:
        if clause.level == 0:
            label = f"{clause.number}. {clause.title}"
        elif clause.level == 1:
            label = f"{clause.number} {clause.title}"
        else:
            continue
        page = contents_page(laid_out, label, texts)
        heading = re.compile(rf"^{words(label)}", re.MULTILINE)
        assert heading.search(texts[page - 1]), f"{label!r} does not start on page {page}"
        for earlier in range(body, page - 1):
            assert not heading.search(texts[earlier]), f"{label!r} is already on page {earlier + 1}"
        checked += 1
    assert checked == sum(1 for c in records.clauses if c.level < 2)


def test_every_clause_number_is_printed_at_its_clause(built: Path, game, records):
    texts = pages(pdf(built, f"{game}-rules.pdf"))
    body = "\n".join(texts[first_body_page(texts) :])
    missing = [
        c.number
        for c in records.clauses
        if not re.search(rf"^{re.escape(c.number)}{'.' if c.level == 0 else ''}(\s|$)", body, re.M)
    ]
    assert not missing


def test_sections_are_bookmarked_and_keywords_indexed_by_page(built: Path, game, records):
    path = pdf(built, f"{game}-rules.pdf")
    reader = PdfReader(path)
    top = [
        (o.title, reader.get_destination_page_number(o) + 1)
        for o in reader.outline
        if not isinstance(o, list)
    ]
    titles = [t for t, _ in top]
    folder, version = built / "releases" / game, records.info.rules_version
    releases = sorted((p.name for p in folder.iterdir()) if folder.is_dir() else (),
                      key=lambda v: [int(n) for n in v.split(".")])
    before = releases[: releases.index(version)] if version in releases else []
    if before:  # the rules are a later release: what changed since the one before comes first
        assert titles[0] == f"What changed since {before[-1]}"
        titles = titles[1:]
    assert titles[: len(records.sections)] == [f"{s.number}. {s.title}" for s in records.sections]
    assert "Glossary" in titles
    if not records.keywords:  # a game without keywords has no index of them
        assert "Keyword index" not in titles
        return
    assert "Keyword index" in titles
    texts = pages(path)
    index_page = dict(top)["Keyword index"]
    index_text = "\n".join(texts[index_page - 1 :])
    for term in records.keywords:
        if not term.rules:
            continue
        rule = term.rules[0]
        m = re.search(rf"{re.escape(rule)}[\s.]*?(\d+)\s*$", index_text, re.MULTILINE)
        assert m, f"keyword index has no page for {term.term} ({rule})"
        page = int(m[1])
        assert re.search(rf"^{re.escape(rule)}(\s|$)", texts[page - 1], re.MULTILINE), (
            f"{term.term}: clause {rule} is not on page {page}"
        )


def test_pages_carry_running_heads_and_numbers(built: Path, game, records):
    texts = pages(pdf(built, f"{game}-rules.pdf"))
    titles = {f"{s.number}. {s.title}" for s in records.sections} | {"Glossary", "Keyword index"}
    titles |= {"World concepts"} if records.glossary.lore else set()
    body = first_body_page(texts)
    for number, text in enumerate(texts[body:], start=body + 1):
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        assert str(number) in lines, f"page {number} shows no page number"
        assert any(line in titles for line in lines), f"page {number} has no running head"


def test_player_aid_fits_its_pages_and_lists_every_keyword(built: Path, game, records):
    from charnel import registry

    plan = layout.load(registry.get(game), Problems())
    path = pdf(built, f"{game}-player-aid.pdf")
    assert len(PdfReader(path).pages) <= plan.aid_pages
    text = "\n".join(pages(path))
    for title, _ in registry.get(game).aid_figures():
        assert title in text
    for name in plan.aid_tables:  # each value of the list, with its notes, in a row
        for value in records.info.enums[name]:
            assert re.search(rf"^\s*{words(value.name)}\s+{words(' '.join(value.notes.values()))}",
                             "\n".join(pages(path, layout=True)), re.MULTILINE), value.name
    for part in layout.aid_sections(plan, records, Problems()):
        assert part.title in text
        for clause in part.clauses:
            assert re.search(rf"(?<![\w.]){re.escape(clause.number)}(?![\w])", text), clause.number
    for term in records.keywords:
        line = next((ln for ln in text.splitlines() if ln.startswith(term.term)), None)
        assert line is not None, f"{term.term} is missing from the aid"
        if term.rules:
            assert term.rules[0] in text


def test_checklist_lists_cards_in_order_and_prints_odd_text_as_text(built: Path, game, records):
    numbered = hasattr(records.cards[0], "number")  # else by name, as a deck's checklist is
    for code in sorted({c.set_code for c in records.cards}):
        path = pdf(built, f"{game}-checklist-{code}.pdf")
        rows = "\n".join(pages(path, layout=True))
        order = (lambda c: (c.number, c.slug)) if numbered else (lambda c: (c.name, c.slug))
        cards = sorted((c for c in records.cards if c.set_code == code), key=order)
        at = []
        for card in cards:
            number = rf"{card.number}\s+" if numbered else ""
            m = re.search(rf"^\s*{number}{words(card.name)}", rows, re.MULTILINE)
            assert m, f"card {card.name} is not listed in {code}"
            at.append(m.start())
        assert at == sorted(at)
    if game != GAME:
        return
    hostile = next(c for c in records.cards if c.name == HOSTILE_NAME)
    checklist = pdf(built, f"{GAME}-checklist-{hostile.set_code}.pdf")
    flat = " ".join("\n".join(pages(checklist)).split())
    assert HOSTILE_NAME in flat
    assert "<script>alert('x')</script> & «Draw 1.» — ü ↻ ☠" in flat


@pytest.mark.slow
def test_same_sources_give_the_same_bytes(built: Path, tmp_path):
    from charnel import examples, pipeline
    from charnel.printing import build_print

    problems = Problems()
    verified = pipeline.check(built, GAME, problems)
    again = build_print(verified, examples.run_all(verified.records), tmp_path)
    first = built / "build" / "print"
    assert [p.name for p in again] == [p.name for p in printed(built, GAME)]
    for path in again:
        assert path.read_bytes() == (first / path.name).read_bytes(), path.name
    box = PdfReader(first / f"{GAME}-rules.pdf").pages[0].mediabox
    assert (round(box.width), round(box.height)) == (595, 842)


@pytest.mark.slow
def test_a_document_whose_markup_is_unchanged_is_not_laid_out_again(built: Path, monkeypatch):
    from charnel import examples, pipeline
    from charnel.printing import build_print, render

    problems = Problems()
    verified = pipeline.check(built, GAME, problems)
    outcomes = examples.run_all(verified.records)
    out = built / "build" / "print"
    before = {p.name: p.read_bytes() for p in printed(built, GAME)}
    laid_out = []
    real = render.layout
    monkeypatch.setattr(render, "layout", lambda markup: laid_out.append(markup) or real(markup))

    again = build_print(verified, outcomes, out)
    assert laid_out == []
    assert {p.name: p.read_bytes() for p in again} == before

    # a PDF changed behind charnel's back is made again, and only that one
    checklist = next(p for p in again if "-checklist-" in p.name)
    checklist.write_bytes(b"not the checklist")
    build_print(verified, outcomes, out)
    assert len(laid_out) == 1
    assert checklist.read_bytes() == before[checklist.name]


def test_documents_credit_charnel_and_cite_the_rulebook(built: Path, game, records):
    paths = printed(built, game)
    assert paths
    for path in paths:
        meta = PdfReader(path).metadata
        assert meta.author == "charnel", path.name
        assert records.info.publisher not in meta.author
        assert records.info.rulebook in (meta.subject or ""), path.name


def test_compact_booklet_has_every_clause_and_each_example_in_a_line(built: Path, game, records):
    full, compact = pdf(built, f"{game}-rules.pdf"), pdf(built, f"{game}-rules-compact.pdf")
    texts = pages(compact)
    body = "\n".join(texts[first_body_page(texts) :])
    for clause in records.clauses:
        label = re.escape(clause.number) + ("." if clause.level == 0 else "")
        assert re.search(rf"^{label}(\s|$)", body, re.M), clause.number
    ruled = [e for e in records.examples if e.owner_kind == "rule"]
    assert body.count("EXAMPLE") + body.count("Example") >= len(ruled)
    # examples shrink to a line each: a book of some length is a third shorter or more
    long, short = len(PdfReader(full).pages), len(PdfReader(compact).pages)
    assert short <= long
    if long >= 10:  # the toy game's book is four pages either way
        assert short < long / 1.5
    assert "Fact Before After" not in words(body)
