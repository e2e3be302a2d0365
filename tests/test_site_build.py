"""The built site: links, safety, accessibility basics, determinism and cheap rebuilds."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from site_fixtures import GAME, build, build_duel, make_project

import charnel.site
from charnel import pipeline
from charnel.site import linkcheck, search
from charnel.site.search_canonical import canonicalize


@pytest.fixture(scope="module")
def built(built_site) -> tuple[Path, Path]:
    return built_site


@pytest.fixture(scope="module", params=["shared", "duel"])
def any_site(request, tmp_path_factory) -> Path:
    """The shared site's game and Dice Duel: what holds for every game is tested on both."""
    if request.param == "shared":
        return request.getfixturevalue("built")[1]
    return build_duel(tmp_path_factory.mktemp("duel"))


def pages(site: Path) -> list[Path]:
    return [p for p in sorted(site.rglob("*.html")) if "pagefind" not in p.parts]


def test_no_broken_links_or_anchors(any_site):
    assert len(pages(any_site)) > 10
    assert linkcheck.check(any_site.parent) == []


def test_link_checker_finds_missing_pages_and_anchors(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<h1 id="top">A</h1><a href="/a/#top">ok</a>')
    (tmp_path / "index.html").write_text(
        '<a href="/a/">ok</a><a href="/a/#nope">bad anchor</a><a href="/b/">bad page</a>'
        '<a href="/sql/x/cards/1">datasette</a><a href="#here">bad local</a>'
        '<a href="/a/#example=id%3A%20x">a page\'s state</a><a href="/b/#example=x">bad page</a>'
    )
    found = [(b.href, b.reason.split(" ")[0]) for b in linkcheck.check(tmp_path)]
    assert found == [("#here", "no"), ("/a/#nope", "no"), ("/b/", "no"), ("/b/#example=x", "no")]


def test_clause_permalinks_redirect_to_their_anchor(built):
    project, site = built
    page = (site / "rules" / "13.1a" / "index.html").read_text()
    m = re.search(r'http-equiv="refresh" content="0; url=([^"]+)"', page)
    assert m and m[1].endswith("#13.1a")
    section = site.parent / m[1].split("#")[0].lstrip("/") / "index.html"
    assert 'id="13.1a"' in section.read_text()


def test_no_raw_html_from_sources_reaches_a_page(built):
    _, site = built
    for page in pages(site):
        text = page.read_text()
        assert "<script>alert" not in text, page
        assert "onerror=alert" not in text.replace("onerror=alert(2)&gt;", ""), page
        assert "<b>bold</b>" not in text and "<i>nobody</i>" not in text, page
    card = (site / "cards" / "mischief" / "index.html").read_text()
    assert "&lt;script&gt;alert(&#39;text&#39;)&lt;/script&gt;" in card
    assert "&lt;b&gt;bold&lt;/b&gt;" in card
    svg = (site / "cards" / "mischief" / "card.svg").read_text()
    assert "<script" not in svg and "&lt;script&gt;" in svg


def test_accessibility_basics(any_site):
    site = any_site
    for page in pages(site):
        text = page.read_text()
        assert re.search(r'<html lang="en"[ >]', text), page
        assert len(re.findall(r"<h1[ >]", text)) == 1, page
        for img in re.findall(r"<img [^>]*>", text):
            alt = re.search(r'alt="([^"]*)"', img)
            assert alt and alt[1].strip(), (page, img)
    home = (site / "index.html").read_text()
    assert re.search(r'<label for="q">', home) and 'id="q"' in home


def test_downloads(built):
    _, site = built
    data = site / "data"
    assert (data / f"{GAME}.db").read_bytes()[:16] == b"SQLite format 3\x00"
    assert "name" in (data / "cards.csv").read_text().splitlines()[0].split(",")
    assert '"cards"' in (data / f"{GAME}.json").read_text()


def test_search_index_is_written_in_bundles(built):
    _, site = built
    reading = json.loads((site / "assets" / "search.json").read_text())
    for bundle in reading["bundles"]:
        assert (site.parent / bundle.strip("/") / "pagefind.js").is_file(), bundle
        assert list((site.parent / bundle.strip("/") / "fragment").glob("*.pf_fragment")), bundle
    # one bundle after a full build: each further bundle costs a first query three requests
    assert reading == {"bundles": [f"/{GAME}/pagefind/"], "hidden": []}
    term = next(site.glob("glossary/*/index.html")).parent.name
    for page in ("cards/grave-hound/", "rules/13.1a/", f"glossary/{term}/", "rulings/"):
        assert search.bundle_of(f"{page}index.html") == "pagefind", page
    listing = next(site.glob("cards/by-*/*/index.html")).relative_to(site).as_posix()
    assert search.bundle_of(listing) is None  # a list of cards by one value
    assert search.bundle_of("rules/13-damage/index.html") is None


def test_every_searched_page_is_indexed_from_its_main_element(any_site):
    # Pagefind reads each searched page from its <main> (--root-selector): a page whose
    # indexed part were elsewhere would be left out of the search
    searched = [p for p in sorted(any_site.rglob("index.html"))
                if search.bundle_of(p.relative_to(any_site).as_posix())]
    assert len(searched) > 10
    for page in searched:
        html = page.read_text("utf-8")
        main = re.search(r"<main\b[^>]*>", html)
        assert main and "data-pagefind-body" in main[0], page
        assert html.count("data-pagefind-body") == 1, page


def test_the_bundle_made_from_cut_pages_is_the_one_made_from_whole_pages(any_site, tmp_path):
    # the index is made from each searched page cut to what Pagefind reads (search_cut):
    # Pagefind over the whole pages, with the same flags, must give the same bytes
    whole = tmp_path / "whole"
    for page in sorted(any_site.rglob("index.html")):
        path = page.relative_to(any_site).as_posix()
        if search.bundle_of(path):
            (whole / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(page, whole / path)
    out = tmp_path / "bundle"
    subprocess.run([*search._pagefind(), "--site", str(whole), "--output-path", str(out),
                    "--silent", "--force-language", "en", "--include-characters", ".",
                    "--root-selector", "main"], check=True, capture_output=True)
    canonicalize(out)
    for name in search.UNUSED:
        (out / name).unlink()

    def files(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes()
                for p in sorted(root.rglob("*")) if p.is_file()}

    assert files(out) == files(any_site / search.MAIN)


def test_two_builds_are_identical(built, tmp_path):
    project, site = built
    other = build(project, tmp_path / "again")

    def files(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes()
                for p in sorted(root.rglob("*")) if p.is_file()}

    first, second = files(site), files(other)
    assert sorted(first) == sorted(second)
    assert any(name.startswith("pagefind/fragment/") for name in first)
    assert any(name.endswith("/pagefind.js") for name in first)
    different = [name for name in first if first[name] != second[name]]
    assert different == []

    # Pagefind writes filter values in a random hash-map order; the build sorts them.
    from charnel.site.search_canonical import SIGNATURE, decode

    filters = [decode(gzip.decompress(v)[len(SIGNATURE):])
               for k, v in first.items() if "/filter/" in k]
    assert filters and all(values == sorted(values) for _, values in filters)


def test_rebuild_after_one_card_changes_renders_and_writes_only_what_changed(tmp_path):
    project = make_project(tmp_path / "p")
    site = build(project, tmp_path / "b")
    before = {p: p.stat().st_mtime_ns for p in (site / "cards").rglob("index.html")}
    card = project / "cards" / GAME / "base" / "grave-hound.yaml"
    card.write_text(card.read_text().replace("three valleys", "four valleys"))
    build(project, tmp_path / "b")
    stats = charnel.site.last_stats
    assert stats.rendered < stats.pages / 3
    changed = {p for p, t in before.items() if p.stat().st_mtime_ns != t}
    names = {p.parent.name for p in changed}
    assert "grave-hound" in names
    assert "ash-hound" not in names
    assert "four valleys" in (site / "cards" / "grave-hound" / "index.html").read_text()
    assert stats.indexed == ["pagefind-delta"]  # the changed pages only


@pytest.fixture
def edited_after_build(tmp_path):
    """A built site, a snapshot of its files, and then one card edited in the sources."""
    project = make_project(tmp_path / "p")
    site = build(project, tmp_path / "b")
    snapshot = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    card = project / "cards" / GAME / "base" / "grave-hound.yaml"
    card.write_text(card.read_text().replace("three valleys", "four valleys"))
    return project, site, snapshot


def test_a_failed_build_leaves_the_previous_site(edited_after_build, tmp_path, monkeypatch):
    project, site, snapshot = edited_after_build

    def broken(self):
        raise RuntimeError("template failed")

    monkeypatch.setattr(charnel.site.pages.Pages, "home", broken)
    with pytest.raises(RuntimeError):
        build(project, tmp_path / "b")
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == snapshot


def test_a_failed_search_index_leaves_the_previous_site(edited_after_build, tmp_path,
                                                        monkeypatch):
    project, site, snapshot = edited_after_build
    monkeypatch.setattr(search.Indexer, "_index", lambda self, name, view: f"{name} broke")
    with pytest.raises(pipeline.BuildFailed, match="broke; the previous outputs are unchanged"):
        build(project, tmp_path / "b")
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == snapshot
    # nothing staged or half-indexed is left beside the site
    assert not [p.name for p in site.parent.iterdir() if p.name.startswith(f".{site.name}.")]


def test_a_page_deleted_from_the_site_is_made_again(tmp_path):
    project = make_project(tmp_path / "p")
    site = build(project, tmp_path / "b")
    page = site / "cards" / "ash-hound" / "index.html"
    before = page.read_bytes()
    page.unlink()
    build(project, tmp_path / "b")
    assert page.read_bytes() == before
    assert charnel.site.last_stats.written == 1


def test_removed_card_pages_are_deleted(tmp_path):
    project = make_project(tmp_path / "p")
    site = build(project, tmp_path / "b")
    assert (site / "cards" / "mischief" / "index.html").exists()
    (project / "cards" / GAME / "base" / "mischief.yaml").unlink()
    build(project, tmp_path / "b")
    assert not (site / "cards" / "mischief").exists()
    assert linkcheck.check(site.parent) == []
    shutil.rmtree(tmp_path / "b")


def test_a_tiny_pool_is_one_search_bundle(tmp_path):
    project = make_project(tmp_path / "p")
    for card in sorted((project / "cards" / GAME).glob("*/*.yaml"))[1:]:
        if card.stem not in ("grave-hound", "seep-of-madness"):  # a rules example names it
            card.unlink()
    site = build(project, tmp_path / "b")
    bundles = json.loads((site / "assets" / "search.json").read_text())["bundles"]
    assert bundles == [f"/{GAME}/pagefind/"]
    for bundle in bundles:
        assert (site.parent / bundle.strip("/") / "pagefind.js").is_file()
    assert linkcheck.check(site.parent) == []


def test_a_kept_page_key_is_taken_only_for_inputs_its_digest_would_not_tell_apart():
    """A rebuilding process takes a page's last key when its inputs compare equal (`_same`),
    never when the digest of them would differ: values equal in Python but written otherwise
    (1, 1.0 and True in an example's body), a clause's text edited, a clause moved."""
    from charnel.diagnostics import Origin
    from charnel.records import Clause, Example
    from charnel.site.pages import _digest, _identity, _same

    def clause(text="Draw a card.", line=3):
        return Clause("1.1", "1", 1, "", text, "", "1", 2, Origin("rules/g/01-a.md", line, 1))

    inputs = [(Example("e", "E", "card", "c", {"n": n}, "", None),) for n in (1, 1.0, True)]
    inputs += [(clause(),), (clause(),), (clause("Draw two cards."),), (clause(line=4),)]
    inputs += [([clause()], "x", 1), ([clause()], "x", 1), ([clause()], "x", 2)]
    # rows of values, as the judge page's cards: strings compared as they are, others not
    inputs += [([("a", "b")],), ([("a", "b")],), ([("a", "c")],), ([("a", 1)],), ([("a", True)],)]
    for a in inputs:
        for b in inputs:
            same_key = _digest([_identity(i) for i in a]) == _digest([_identity(i) for i in b])
            assert (_same(a) == _same(b)) == same_key, (a, b)
