"""Card files kept parsed between builds (`charnel.sources.parsed`) load as parsing them would:
the same records and the same problems at the same places, and a build after a one-card edit
parses that one file."""

from __future__ import annotations

import pickle
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


def _load(root: Path, kept: dict | None):
    problems = Problems()
    records = loader.load(root, GAME, problems, parsed=kept)
    if records is not None:
        verify(records, problems)
    return records, problems


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_reads_the_same_from_kept_values(case, tmp_path: Path):
    copy_project(tmp_path, DUEL)
    kept: dict = {}
    _load(tmp_path, kept)  # the clean project, kept
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


def _stored(tmp_path: Path, kept: dict) -> Path:
    path = tmp_path / "kept"
    path.write_bytes(parsed.dumps(kept))
    return path


def test_a_store_that_is_not_plain_values_is_ignored(tmp_path: Path):
    class Shell:
        def __reduce__(self):
            return (print, ("not plain",))

    path = tmp_path / "kept"
    path.write_bytes(pickle.dumps((parsed._stamp(), {"x": Shell()})))
    assert parsed.read(path) == {}
    path.write_bytes(b"not a pickle")
    assert parsed.read(path) == {}
    assert parsed.read(tmp_path / "missing") == {}
    stored = _stored(tmp_path, {"abc": {"name": "Grave Hound", "n": [1, 2.5, None, True]}})
    assert parsed.read(stored) == {"abc": {"name": "Grave Hound", "n": [1, 2.5, None, True]}}


def test_a_build_after_one_card_edit_parses_that_card(tmp_path: Path, monkeypatch):
    copy_project(tmp_path, DUEL)
    out = tmp_path / "build"
    pipeline.build_all(tmp_path, [GAME], out)
    card = tmp_path / "cards" / GAME / "embers" / "cinder-knight.yaml"
    card.write_text(card.read_text().replace("flavor: It lights its own way.",
                                             "flavor: It burns."))
    seen = []
    real = yamltext.parse
    monkeypatch.setattr(yamltext, "parse", lambda text, origin, *a, **k: seen.append(
        origin.path) or real(text, origin, *a, **k))
    pipeline.build_all(tmp_path, [GAME], out)
    assert [p for p in seen if p.startswith("cards/")] == [
        f"cards/{GAME}/embers/cinder-knight.yaml"]


def test_the_store_is_written_again_when_it_is_more_than_a_few_files_behind(tmp_path: Path):
    copy_project(tmp_path, DUEL)
    out = tmp_path / "build"
    pipeline.build_all(tmp_path, [GAME], out)
    store = out / "current" / f".{GAME}.parsed"
    first = parsed.read(store)
    assert first
    card = tmp_path / "cards" / GAME / "embers" / "cinder-knight.yaml"
    card.write_text(card.read_text().replace("flavor: It lights its own way.",
                                             "flavor: It burns."))
    pipeline.build_all(tmp_path, [GAME], out)
    assert parsed.read(out / "current" / f".{GAME}.parsed") == first  # one file behind: kept
    assert not parsed.worth_writing(set(first), {**first, "edited": {}})
    many = {f"new-{n}": {} for n in range(100)}
    assert parsed.worth_writing(set(first), {**first, **many})
    assert parsed.worth_writing(set(), {"one": {}})  # a first build writes what it parsed
