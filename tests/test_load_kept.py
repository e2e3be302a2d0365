"""Card files kept parsed between builds (`charnel.sources.parsed`) load as parsing them would:
the same records and the same problems at the same places, and a build after a one-card edit
reads and parses that one file."""

from __future__ import annotations

import os
import pickle
import time
from pathlib import Path

import pytest
from badinput import cases
from projects import DUEL, copy_project, only_game

from charnel import pipeline
from charnel.diagnostics import Problems
from charnel.sources import loader, parsed, yamltext
from charnel.verify import verify

CASES = cases()
GAME = only_game(DUEL)  # the core's bad inputs are written for its files


@pytest.fixture
def trusted(monkeypatch):
    """Files written a moment before their metadata are taken are recorded all the same: the
    tests' edits come a whole load later, never in the same tick of the clock."""
    monkeypatch.setattr(parsed, "RACY_NS", 0)


def _load(root: Path, kept: parsed.Kept | None):
    problems = Problems()
    if kept is not None:  # this load's view of the files, as a build's fingerprint takes it
        kept.stats = {p: parsed.stat_of(p) for p in loader.source_files(root, GAME)}
        kept.taken_ns = time.time_ns()
    records = loader.load(root, GAME, problems, parsed=kept)
    if records is not None:
        verify(records, problems)
    return records, problems


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_reads_the_same_from_kept_values(case, tmp_path: Path, trusted):
    copy_project(tmp_path, DUEL)
    kept = parsed.Kept()
    _load(tmp_path, kept)  # the clean project, kept
    assert kept.files  # every card file, by its metadata: the next load reads none of them
    assert kept.rules  # and the Markdown parse of every rules document, by its bytes
    kept = parsed.read(_stored(tmp_path, kept))
    case.apply(tmp_path)
    fresh, fresh_problems = _load(tmp_path, None)
    for _ in range(2):  # and once more from what that load kept: a bad file is not kept
        again, again_problems = _load(tmp_path, kept)
        assert [p.render(tmp_path) for p in again_problems] == [
            p.render(tmp_path) for p in fresh_problems
        ]
        assert (again is None) == (fresh is None)
        if fresh is not None:
            assert [c.model_dump() for c in again.cards] == [c.model_dump() for c in fresh.cards]
            assert [(c.slug, c.origin) for c in again.cards] == [
                (c.slug, c.origin) for c in fresh.cards
            ]
            assert [(e.id, e.origin, e.body) for e in again.examples] == [
                (e.id, e.origin, e.body) for e in fresh.examples
            ]


def _stored(tmp_path: Path, kept: parsed.Kept) -> Path:
    path = tmp_path / "kept"
    path.write_bytes(parsed.dumps(kept))
    return path


def test_a_store_that_is_not_plain_values_is_ignored(tmp_path: Path):
    class Shell:
        def __reduce__(self):
            return (print, ("not plain",))

    path = tmp_path / "kept"
    path.write_bytes(pickle.dumps((parsed._stamp(), ({"x": Shell()}, {}, {}))))
    assert parsed.read(path) == parsed.Kept()
    path.write_bytes(b"not a pickle")
    assert parsed.read(path) == parsed.Kept()
    assert parsed.read(tmp_path / "missing") == parsed.Kept()
    value = {"name": "Grave Hound", "n": [1, 2.5, None, True]}
    stored = _stored(tmp_path, parsed.Kept({"abc": value}, {"cards/a.yaml": (1, 2, 3, 4, "abc")}))
    assert parsed.read(stored) == parsed.Kept({"abc": value}, {"cards/a.yaml": (1, 2, 3, 4, "abc")})


def _seen(monkeypatch, module, name: str) -> list[str]:
    """The project paths `module.name` is called for from now on."""
    seen: list[str] = []
    real = getattr(module, name)

    def spy(first, origin, *a, **k):
        seen.append(str(origin.path if hasattr(origin, "path") else origin))
        return real(first, origin, *a, **k)

    monkeypatch.setattr(module, name, spy)
    return seen


def test_a_build_after_one_card_edit_reads_and_parses_that_card(tmp_path: Path, monkeypatch,
                                                                trusted):
    copy_project(tmp_path, DUEL)
    out = tmp_path / "build"
    pipeline.build_all(tmp_path, [GAME], out)
    card = tmp_path / "cards" / GAME / "embers" / "cinder-knight.yaml"
    card.write_text(card.read_text().replace("flavor: It lights its own way.",
                                             "flavor: It burns."))
    parsed_now = _seen(monkeypatch, yamltext, "parse")
    read_now = _seen(monkeypatch, yamltext, "read_file")  # (path, shown, problems)
    pipeline.build_all(tmp_path, [GAME], out)
    edited = f"cards/{GAME}/embers/cinder-knight.yaml"
    assert [p for p in parsed_now if p.startswith("cards/")] == [edited]
    assert [p for p in read_now if p.startswith("cards/")] == [edited]


def test_a_card_changed_under_the_same_size_and_time_is_read_again(tmp_path: Path, trusted):
    """Its inode's change time tells it apart, as git's index does."""
    copy_project(tmp_path, DUEL)
    kept = parsed.Kept()
    _load(tmp_path, kept)
    card = tmp_path / "cards" / GAME / "embers" / "cinder-knight.yaml"
    before = card.stat()
    text = card.read_text()
    card.write_text(text.replace("It lights its own way.", "It lights its own day."))
    os.utime(card, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert card.stat().st_size == before.st_size
    records, problems = _load(tmp_path, kept)
    assert not problems
    (edited,) = [c for c in records.cards if c.slug == "cinder-knight"]
    assert edited.flavor == "It lights its own day."


def test_a_file_changed_within_the_clock_s_tick_is_not_trusted(tmp_path: Path):
    """Metadata taken too soon after the file changed may stay the same through a second
    change: such a file is read again by the next load."""
    copy_project(tmp_path, DUEL)
    kept = parsed.Kept()
    _load(tmp_path, kept)  # the files were written a moment ago
    assert kept.values and not kept.files
    card = next((tmp_path / "cards" / GAME).glob("*/*.yaml"))
    stat = parsed.stat_of(card)
    late = parsed.Kept(stats={card: stat}, taken_ns=max(stat[1], stat[3]) + 1)
    late.record(card, "c.yaml", "abc")
    assert late.files == {}
    late.taken_ns += parsed.RACY_NS
    late.record(card, "c.yaml", "abc")
    assert late.files == {"c.yaml": (*stat, "abc")}


def test_the_store_is_written_again_when_it_is_more_than_a_few_files_behind(tmp_path: Path,
                                                                             trusted):
    copy_project(tmp_path, DUEL)
    out = tmp_path / "build"
    pipeline.build_all(tmp_path, [GAME], out)
    store = out / "current" / f".{GAME}.parsed"
    first = parsed.read(store)
    assert first.values and first.files
    card = tmp_path / "cards" / GAME / "embers" / "cinder-knight.yaml"
    card.write_text(card.read_text().replace("flavor: It lights its own way.",
                                             "flavor: It burns."))
    pipeline.build_all(tmp_path, [GAME], out)
    assert parsed.read(out / "current" / f".{GAME}.parsed") == first  # one file behind: kept
    edited = parsed.Kept({**first.values, "edited": {}}, first.files)
    assert not parsed.worth_writing(first.marks(), edited)
    many = parsed.Kept(first.values, {**first.files,
                                      **{f"new-{n}": (n, 0, 0, 0, "x") for n in range(100)}})
    assert parsed.worth_writing(first.marks(), many)
    # a first build writes what it read
    assert parsed.worth_writing(parsed.Kept().marks(), parsed.Kept({"one": {}}))
