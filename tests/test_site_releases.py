"""Each release as it was on the site, and the errata sheets (page and PDF), on a small project
whose releases the tests cut: a renumbered clause's banner gives its new number, a removed
clause's and card's say they are gone, the sheet puts functional changes first, the printed
sheet reads back with the same entries and is the same bytes twice, and no version that is
not one reaches a URL."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from projects import DUEL, copy_project
from test_history_releases import BLOWS, DUELLISTS, FALLEN, GAME, cut, edit

from charnel import pipeline
from charnel.diagnostics import Problems
from charnel.history import views
from charnel.history.current import sheet, since
from charnel.printing import errata, render
from charnel.site import linkcheck, offline
from charnel.site.urls import GameUrls, ReleaseUrls
from charnel.sources import loader

NO_CHAMPION = "A duellist without a champion may not strike."
ENDS = "2.1b A blow that leaves a duellist at 0 life ends the duel. [p. 2]"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """0.1; then 0.2 puts a clause before 1.1b (which becomes 1.1c), removes 2.1b and the Ash
    Page, and changes 1.1a's words."""
    root = copy_project(tmp_path_factory.mktemp("releases"), DUEL)
    edit(root, BLOWS, "[p. 2]\n", f"[p. 2]\n\n{ENDS}\n")
    assert cut(root, "0.1").exit_code == 0
    edit(root, DUELLISTS, FALLEN, f"1.1b {NO_CHAMPION} [p. 1]\n\n" + FALLEN.replace("1.1b", "1.1c"))
    edit(root, BLOWS, f"\n{ENDS}\n", "")
    edit(root, DUELLISTS, "with 10 life", "with ten life")
    (root / f"cards/{GAME}/embers/ash-page.yaml").unlink()
    made = cut(root, "0.2", "renumbered:\n  1.1b: 1.1c\nclauses:\n  1.1b: Says who may "
                            "strike.\n")
    assert made.exit_code == 0, made.output
    return root


@pytest.fixture(scope="module")
def site(project: Path) -> Path:
    pipeline.build_all(project, [GAME], project / "build", force=True, site=True)
    return project / "build" / "site" / GAME


def banner(site: Path, path: str) -> str:
    page = (site / path / "index.html").read_text("utf-8")
    found = re.search(r'<p class="past-release"[^>]*>(.*?)</p>', page, re.S)
    assert found, f"{path} has no banner"
    return re.sub(r"<[^>]+>", "", found[1])


def test_every_clause_and_card_of_each_release_has_its_page(project: Path, site: Path):
    for version in ("0.1", "0.2"):
        records = loader.load(project / "releases" / GAME / version, GAME, Problems())
        for clause in records.clauses:
            assert (site / version / "rules" / clause.number / "index.html").is_file()
        for card in records.cards:
            assert (site / version / "cards" / card.slug / "index.html").is_file()
            assert (site / version / "cards" / card.slug / "card.svg").is_file()
        assert (site / version / "rules" / "index.html").is_file()
        assert (site / version / "cards" / "index.html").is_file()
    assert linkcheck.check(site.parent) == []


def test_banners_follow_renumbering_and_say_what_is_gone(site: Path):
    assert "see the current text (it is rule 1.1c now, unchanged since)" in banner(
        site, "0.1/rules/1.1b")
    assert f'href="/{GAME}/rules/1.1c/"' in (site / "0.1/rules/1.1b/index.html").read_text()
    assert "see the current text (changed since)" in banner(site, "0.1/rules/1.1a")
    assert "this rule was removed in release 0.2" in banner(site, "0.1/rules/2.1b")
    assert "this card is not in the current pool" in banner(site, "0.1/cards/ash-page")
    assert "(unchanged since)" in banner(site, "0.1/cards/cinder-knight")
    assert banner(site, "0.2/rules/1.1b").startswith("You are reading release 0.2")


def test_past_pages_are_neither_searched_nor_kept_offline(site: Path):
    worker = (site / offline.WORKER).read_text("utf-8")
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", worker, re.S)[1])
    assert files and not any(re.match(fr"/{GAME}/\d", url) for url in files)
    assert f"/{GAME}/rules/1.1a/" in files
    indexed = (site / "pagefind").rglob("*")
    assert not any("0.1/" in p.read_bytes().decode("latin-1") for p in indexed
                   if p.suffix == ".pf_meta")


def test_the_errata_page_puts_functional_changes_first(site: Path):
    page = (site / "errata/0.1/index.html").read_text("utf-8")
    items = re.findall(r'data-functional="(true|false)"><a href="([^"]+)">([^<]+)</a>', page)
    assert [(f, label) for f, _, label in items] == [
        ("true", "Rule 1.1a"), ("true", "Rule 1.1b"), ("true", "Rule 2.1b"),
        ("true", "Ash Page"), ("false", "Rule 1.1c"),
    ]
    links = {label: href for _, href, label in items}
    assert links["Rule 1.1c"] == f"/{GAME}/rules/1.1c/"
    assert links["Rule 2.1b"] == f"/{GAME}/0.1/rules/2.1b/"  # gone: its page as it was
    assert links["Ash Page"] == f"/{GAME}/0.1/cards/ash-page/"
    assert f'href="/{GAME}/errata/0.2/"' in page  # the chooser


def test_the_printed_sheet_reads_back_with_its_entries_and_is_the_same_bytes_twice(project):
    from pypdf import PdfReader

    records = loader.load(project, GAME, Problems())
    (name, context), _ = errata.sheets(records)
    assert name == f"{GAME}-errata-0.1.pdf"
    markup = render.html("errata.html.j2", "a4", **context)
    data = render.pdf(render.layout(markup))
    assert render.pdf(render.layout(render.html("errata.html.j2", "a4", **context))) == data
    reader = PdfReader(io.BytesIO(data))
    text = " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    assert "Errata since release 0.1" in text
    body = text[text.index("Changes to how the game plays"):]
    order = [body.index(label) for label in
             ("Rule 1.1a", "Rule 1.1b", "Rule 2.1b", "Ash Page", "Other changes",
              "Rule 1.1c")]
    assert order == sorted(order)
    assert NO_CHAMPION in body  # an added clause's text
    assert f"/{GAME}/rules/1.1a/" in body  # each entry names its page
    links = [a.get_object() for p in reader.pages for a in p.get("/Annots", [])]
    # one link to each entry
    targets = sorted(str(a["/Dest"]) for a in links if "/Dest" in a)
    assert targets == sorted(e["id"] for e in context["entries"])


def test_the_sheet_and_the_pages_read_one_list(project):
    records = loader.load(project, GAME, Problems())
    history = views.of(records).source
    entries = sheet(since(history, records, "0.1").changelog)
    assert [e.functional for e in entries] == sorted((e.functional for e in entries),
                                                     reverse=True)


@pytest.mark.parametrize("version", ["../x", "1.0/../..", "", "1." + "9" * 5000, "1.0\n"])
def test_no_version_that_is_not_one_reaches_a_url(version: str):
    with pytest.raises(ValueError):
        ReleaseUrls(GAME, version)
    with pytest.raises(ValueError):
        GameUrls(GAME).errata(version)
