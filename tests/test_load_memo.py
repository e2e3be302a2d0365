"""The watcher's builds keep what the last one loaded in the server's memory (`charnel.memo`):
after an edit only the edited file is validated again, the outputs are those of a build from
nothing of the same sources, a bad file is reported at every build, and a file put back loads
as it did."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from loads import recorded, snapshot
from projects import DUEL, copy_project, only_game

from charnel import memo, outputs, pipeline
from charnel.diagnostics import InputError
from charnel.serve import rebuild
from charnel.serve.live import Live
from charnel.sources import loader, parsed, rules_md

GAME = only_game(DUEL)
CARD = f"cards/{GAME}/embers/cinder-knight.yaml"
# what the home and search pages say of the search index, which a rebuild adds a delta to
READING = re.compile(rb'<script type="application/json" id="search-reading">.*?</script>', re.S)


class Counted:
    """How many card files, and other YAML documents, the load validates; how many rules
    documents it parses."""

    def __init__(self, monkeypatch):
        self.cards: list[str] = []
        self.others: list[str] = []
        self.rules: list[str] = []
        validate, parse = loader.validate, rules_md.parse

        def counted_validate(model, doc, problems, *, what):
            (self.cards if what == "card file" else self.others).append(doc.origin.path)
            return validate(model, doc, problems, what=what)

        def counted_parse(path, *args, **kwargs):
            self.rules.append(path)
            return parse(path, *args, **kwargs)

        monkeypatch.setattr(loader, "validate", counted_validate)
        monkeypatch.setattr(rules_md, "parse", counted_parse)

    def reset(self) -> None:
        self.cards.clear()
        self.others.clear()
        self.rules.clear()


class Watcher:
    """A `Rebuilder` of a copy of the project, built as a save makes it build."""

    def __init__(self, project: Path):
        self.project, self.out = project, project / "build"
        self.said: list[str] = []
        self.rebuilder = rebuild.Rebuilder(project, [GAME], self.out, Live(self.out),
                                           self.said.append, self._problems)
        self.problems: list[list[str]] = []

    def _problems(self, problems) -> None:
        self.problems.append([p.render(self.project) for p in problems])

    def build(self) -> str:
        self.rebuilder.build()
        return self.said[-1]


def _edit(project: Path, old: str, new: str, rel: str = CARD) -> None:
    path = project / rel
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _outputs(out: Path) -> dict[str, bytes]:
    """The database and every page of the site, but the search index's files (a rebuild adds
    a delta bundle to the kept one; a build from nothing makes one bundle), what lists them,
    and the build's own bookkeeping."""
    shown = outputs.visible(out)
    site = shown / "site" / GAME
    found = {f"{GAME}.db": (shown / f"{GAME}.db").read_bytes()}
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if path.is_file() and "pagefind" not in rel and not rel.startswith(".charnel-") \
                and rel not in ("assets/search.json", "sw.js"):
            found[rel] = READING.sub(b"", path.read_bytes())
    return found


def _from_nothing(project: Path, tmp_path: Path, name: str) -> dict[str, bytes]:
    """The outputs of a separate build, from nothing, of the project's sources as they are."""
    fresh = copy_project(tmp_path / name, project)
    pipeline.build_all(fresh, [GAME], fresh / "build", whole=False, site=True, force=True)
    return _outputs(fresh / "build")


def _same(mine: dict[str, bytes], theirs: dict[str, bytes]) -> None:
    assert sorted(mine) == sorted(theirs)
    assert [rel for rel in mine if mine[rel] != theirs[rel]] == []


@pytest.fixture
def trusted(monkeypatch):
    """The copied files are trusted by their metadata, as files not touched for a while are:
    the edits come a whole build later."""
    monkeypatch.setattr(parsed, "RACY_NS", 0)


def test_an_edit_validates_only_the_edited_card(tmp_path: Path, monkeypatch, trusted):
    project = copy_project(tmp_path / "project", DUEL)
    watcher = Watcher(project)
    assert watcher.build().startswith("rebuilt in")
    counted = Counted(monkeypatch)
    _edit(project, "flavor: It lights its own way.", "flavor: It lights the way of others.")
    assert watcher.build().startswith("rebuilt in")
    assert counted.cards == [CARD]
    # neither the glossary nor the rules again; game.yaml is read alone for the check across
    # games (`pipeline.check_across_games`), as by every build
    assert counted.others == [f"rules/{GAME}/game.yaml"] and counted.rules == []
    _same(_outputs(watcher.out), _from_nothing(project, tmp_path, "fresh"))
    assert b"the way of others" in _outputs(watcher.out)["cards/cinder-knight/index.html"]


def test_without_a_memo_every_card_is_validated(tmp_path: Path, monkeypatch, trusted):
    """A plain build keeps nothing in memory: every card is validated again (from the values
    kept on disk), as before there was a memo."""
    project = copy_project(tmp_path / "project", DUEL)
    out = project / "build"
    pipeline.build_all(project, [GAME], out, whole=False, site=True)
    counted = Counted(monkeypatch)
    _edit(project, "flavor: It lights its own way.", "flavor: It lights the way of others.")
    pipeline.build_all(project, [GAME], out, whole=False, site=True)
    assert len(counted.cards) == len(list((project / "cards").rglob("*.yaml")))
    assert counted.others and counted.rules


def test_a_rules_edit_parses_that_document_and_those_numbered_after_it(
        tmp_path: Path, monkeypatch, trusted):
    """A rules document's clauses are numbered after those of the documents before it: a
    document is taken from the memo only after as many clauses as when it was parsed."""
    project = copy_project(tmp_path / "project", DUEL)
    watcher = Watcher(project)
    watcher.build()
    first, second = sorted(p.relative_to(project).as_posix()
                           for p in (project / "rules" / GAME).glob("*.md"))
    counted = Counted(monkeypatch)
    _edit(project, "rolls one six-sided die", "rolls a six-sided die", second)
    assert watcher.build().startswith("rebuilt in")
    assert counted.rules == [second] and counted.cards == []
    counted.reset()
    text = (project / first).read_text(encoding="utf-8")
    _edit(project, text, text + "\n## 1.2 Standing\n\n1.2a A duellist who has not fallen is "
          "standing. [p. 1]\n", first)
    assert watcher.build().startswith("rebuilt in"), watcher.problems
    assert counted.rules == [first, second]
    _same(_outputs(watcher.out), _from_nothing(project, tmp_path, "fresh"))


def test_a_bad_edit_is_reported_at_every_build(tmp_path: Path, monkeypatch, trusted):
    project = copy_project(tmp_path / "project", DUEL)
    watcher = Watcher(project)
    watcher.build()
    _edit(project, "might: 3", "might: three")
    expected = _reported(project, tmp_path)
    assert any("might" in line for line in expected)
    for _ in range(2):
        assert watcher.build().startswith("build failed")
        assert watcher.problems[-1] == expected
    assert len(watcher.problems) == 2


def _reported(project: Path, tmp_path: Path) -> list[str]:
    """The problems a separate build from nothing of the project's sources reports."""
    fresh = copy_project(tmp_path / "reported", project)
    with pytest.raises(InputError) as failed:
        pipeline.build_all(fresh, [GAME], fresh / "build", whole=False, site=True, force=True)
    return [p.render(fresh) for p in failed.value.problems]


def test_a_file_put_back_loads_as_it_was(tmp_path: Path, monkeypatch, trusted):
    """Edited, broken, then put back as it was: each build's outputs are those of a build from
    nothing of the sources as they are then."""
    project = copy_project(tmp_path / "project", DUEL)
    watcher = Watcher(project)
    watcher.build()
    original = (project / CARD).read_text(encoding="utf-8")
    first = _outputs(watcher.out)
    _edit(project, "might: 3", "might: 4")
    watcher.build()
    assert _outputs(watcher.out) != first
    _same(_outputs(watcher.out), _from_nothing(project, tmp_path, "edited"))
    _edit(project, "might: 4", "might: four")
    assert watcher.build().startswith("build failed")
    (project / CARD).write_text(original, encoding="utf-8")
    assert watcher.build().startswith("rebuilt in")
    _same(_outputs(watcher.out), first)
    _same(first, _from_nothing(project, tmp_path, "put-back"))


def test_a_build_leaves_the_records_as_loaded(tmp_path: Path, monkeypatch, trusted):
    """The memo hands the next build the records the last one used: no stage after the load
    changes them (their fields, their places, their examples' bodies)."""
    project = copy_project(tmp_path / "project", DUEL)
    loads = recorded(monkeypatch)
    watcher = Watcher(project)
    watcher.build()
    _edit(project, "flavor: It lights its own way.", "flavor: It lights the way of others.")
    watcher.build()
    (first, _), (second, after_load) = loads
    assert snapshot(second) == after_load
    # the cards not edited are the very records of the first build
    same = {card.slug for card in second.cards if any(card is c for c in first.cards)}
    assert same == {c.slug for c in second.cards} - {"cinder-knight"}


def test_the_kept_store_is_read_once_while_it_is_the_same_file(
        tmp_path: Path, monkeypatch, trusted):
    """The card files' store (`.<game>.parsed`) is read from disk by the first build alone,
    and again only when another build wrote it."""
    project = copy_project(tmp_path / "project", DUEL)
    out = project / "build"
    reads: list[Path] = []
    read = parsed.read
    monkeypatch.setattr(parsed, "read", lambda path: reads.append(path) or read(path))
    kept = memo.Memo()
    pipeline.build_all(project, [GAME], out, whole=False, memo=kept)
    pipeline.build_all(project, [GAME], out, whole=False, force=True)  # writes it anew
    reads.clear()
    for step in range(3):
        _edit(project, "might: 3" if step % 2 == 0 else "might: 4",
              "might: 4" if step % 2 == 0 else "might: 3")
        pipeline.build_all(project, [GAME], out, whole=False, memo=kept)
    assert len(reads) == 1
