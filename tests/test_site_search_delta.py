"""The search index after an edit: the main bundle kept, the changed pages in a delta bundle,
the main bundle's results for them hidden, and the delta folded into the main one when it grows."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from site_fixtures import GAME, build, make_project

import charnel.site
from charnel.site import search
from charnel.site.search_canonical import SIGNATURE


def fragments(bundle: Path) -> dict[str, str]:
    """Each page's URL in a bundle -> its id."""
    found = {}
    for path in (bundle / "fragment").glob("*.pf_fragment"):
        url = json.loads(gzip.decompress(path.read_bytes())[len(SIGNATURE):])["url"]
        found[url] = path.name.removesuffix(".pf_fragment")
    return found


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def inline_reading(site: Path, page: str) -> dict:
    """The reading a page that hosts the search box carries, as site.js reads it."""
    html = (site / page).read_text()
    start = html.index('<script type="application/json" id="search-reading">')
    body = html[html.index(">", start) + 1: html.index("</script>", start)]
    return json.loads(body)


def edit(project: Path, card: str, old: str, new: str) -> None:
    path = project / "cards" / GAME / "base" / f"{card}.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_edits_go_to_a_delta_and_fold_into_the_main_bundle(tmp_path, monkeypatch):
    project = make_project(tmp_path / "p")
    site = build(project, tmp_path / "b")
    main = files(site / search.MAIN)
    old_ids = fragments(site / search.MAIN)

    edit(project, "grave-hound", "three valleys", "four valleys")
    build(project, tmp_path / "b")
    assert charnel.site.last_stats.indexed == [search.DELTA]
    assert files(site / search.MAIN) == main  # the main bundle is kept as it was
    reading = json.loads((site / "assets" / "search.json").read_text())
    assert reading["bundles"] == [f"/{GAME}/pagefind/", f"/{GAME}/pagefind-delta/"]
    assert old_ids["/cards/grave-hound/"] in reading["hidden"]
    delta = fragments(site / search.DELTA)
    assert "/cards/grave-hound/" in delta
    assert len(delta) < len(old_ids) / search.FOLD
    assert not set(delta.values()) & set(reading["hidden"])
    # the pages that host the search box carry the same reading: no request for it
    for page in ("index.html", "search/index.html"):
        assert inline_reading(site, page) == reading

    # a second edit: the delta holds both cards' pages, the main bundle still the same
    edit(project, "ash-hound", "flavor:", "flavor: Smoulders.")
    build(project, tmp_path / "b")
    delta = fragments(site / search.DELTA)
    assert {"/cards/grave-hound/", "/cards/ash-hound/"} <= set(delta)
    assert files(site / search.MAIN) == main
    hidden = json.loads((site / "assets" / "search.json").read_text())["hidden"]
    assert {old_ids["/cards/grave-hound/"], old_ids["/cards/ash-hound/"]} <= set(hidden)

    # nothing changed: nothing indexed, the same reading, the pages carrying it as they were
    home = (site / "index.html").read_bytes()
    build(project, tmp_path / "b")
    assert charnel.site.last_stats.indexed == []
    assert json.loads((site / "assets" / "search.json").read_text())["hidden"] == hidden
    assert (site / "index.html").read_bytes() == home

    # past the threshold the delta folds into a main bundle of every page
    monkeypatch.setattr(search, "FOLD", 10**6)
    edit(project, "grave-hound", "four valleys", "five valleys")
    build(project, tmp_path / "b")
    assert charnel.site.last_stats.indexed == [search.MAIN]
    assert not (site / search.DELTA).exists()
    assert json.loads((site / "assets" / "search.json").read_text()) == {
        "bundles": [f"/{GAME}/pagefind/"], "hidden": []}
    assert inline_reading(site, "search/index.html") == {
        "bundles": [f"/{GAME}/pagefind/"], "hidden": []}
    folded = fragments(site / search.MAIN)
    assert set(folded) == set(old_ids)
    text = gzip.decompress((site / search.MAIN / "fragment" /
                            f"{folded['/cards/grave-hound/']}.pf_fragment").read_bytes())
    assert b"five valleys" in text


def test_a_removed_page_is_hidden_from_the_main_bundle(tmp_path):
    project = make_project(tmp_path / "p")
    site = build(project, tmp_path / "b")
    old_ids = fragments(site / search.MAIN)
    (project / "cards" / GAME / "base" / "mischief.yaml").unlink()
    build(project, tmp_path / "b")
    reading = json.loads((site / "assets" / "search.json").read_text())
    assert old_ids["/cards/mischief/"] in reading["hidden"]
    # still in the main bundle, where its id hides it, and in no delta
    assert fragments(site / search.MAIN)["/cards/mischief/"] == old_ids["/cards/mischief/"]
    for bundle in reading["bundles"][1:]:
        assert "/cards/mischief/" not in fragments(site.parent / bundle.strip("/"))


def test_a_lost_delta_file_makes_the_delta_again(tmp_path):
    project = make_project(tmp_path / "p")
    site = build(project, tmp_path / "b")
    edit(project, "grave-hound", "three valleys", "four valleys")
    build(project, tmp_path / "b")
    before = files(site / search.DELTA)
    next((site / search.DELTA / "fragment").iterdir()).unlink()
    build(project, tmp_path / "b")
    assert charnel.site.last_stats.indexed == [search.DELTA]
    assert files(site / search.DELTA) == before


def test_the_main_bundles_ids_are_read_once_for_its_life(tmp_path, monkeypatch):
    """Which id each page has in the main bundle is read from its fragments once, and kept in
    the search state through builds that hide nothing (an edit put back), not read again."""
    project = make_project(tmp_path / "p")
    site = build(project, tmp_path / "b")
    reads = []
    real = search._ids
    monkeypatch.setattr(search, "_ids", lambda bundle: reads.append(bundle) or real(bundle))
    for _ in range(2):
        edit(project, "grave-hound", "three valleys", "four valleys")
        build(project, tmp_path / "b")
        edit(project, "grave-hound", "four valleys", "three valleys")  # as the main bundle has it
        build(project, tmp_path / "b")
    assert len(reads) == 1
    assert json.loads((site / "assets" / "search.json").read_text())["hidden"] == []
