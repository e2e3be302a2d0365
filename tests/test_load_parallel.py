"""Loading in worker processes gives what loading in one process gives: the same records, the
same problems at the same places; and positions are found only when a problem needs one."""

from __future__ import annotations

from pathlib import Path

import pytest
from badinput import cases
from projects import BUNDLED, DUEL, copy_project, only_game

from charnel import compile
from charnel.diagnostics import Origin, Problems
from charnel.sources import loader, parallel
from charnel.sources.yamltext import KEY, parse
from charnel.verify import verify

CASES = cases()
GAME = only_game(DUEL)  # the core's bad inputs are written for its files
BUNDLED_GAMES = sorted(p.name for p in (BUNDLED / "cards").iterdir() if p.is_dir())


def _load(root: Path, *, workers: bool, monkeypatch, game: str = GAME):
    with monkeypatch.context() as m:
        if workers:
            # every file its own chunk, so chunks finish out of order across two workers
            m.setattr(parallel, "SERIAL_BELOW", 0)
            m.setattr(parallel, "CHUNK", 1)
            m.setattr(parallel, "_workers", lambda: 2)
            # what is compared here is what workers read; whether it is safe to fork beside
            # other threads (a server an earlier test left idle in this process) is its own
            # test below
            m.setattr(parallel, "_can_fork", lambda: True)
        else:
            m.setattr(parallel, "SERIAL_BELOW", 10**9)
        forked = []
        in_workers = parallel._in_workers
        m.setattr(parallel, "_in_workers", lambda *a: forked.append(1) or in_workers(*a))
        problems = Problems()
        records = loader.load(root, game, problems)
        if records is not None:
            verify(records, problems)
    assert bool(forked) == workers
    return records, problems


def _same(root: Path, monkeypatch, game: str = GAME) -> Problems:
    one, one_problems = _load(root, workers=False, monkeypatch=monkeypatch, game=game)
    many, many_problems = _load(root, workers=True, monkeypatch=monkeypatch, game=game)
    assert [p.render(root) for p in many_problems] == [p.render(root) for p in one_problems]
    assert many_problems.items == one_problems.items  # same order of discovery too
    assert (one is None) == (many is None)
    if one is not None:
        assert many.source_hash == one.source_hash
        assert [c.model_dump() for c in many.cards] == [c.model_dump() for c in one.cards]
        assert [(c.slug, c.set_code, c.origin) for c in many.cards] == [
            (c.slug, c.set_code, c.origin) for c in one.cards
        ]
        assert [(e.id, e.origin, e.body) for e in many.examples] == [
            (e.id, e.origin, e.body) for e in one.examples
        ]
    return one_problems


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_reads_the_same_in_workers(case, tmp_path: Path, monkeypatch):
    copy_project(tmp_path, DUEL)
    case.apply(tmp_path)
    _same(tmp_path, monkeypatch)


@pytest.mark.parametrize("game", BUNDLED_GAMES)
def test_the_bundled_pool_reads_the_same_in_workers(game: str, tmp_path: Path, monkeypatch):
    copy_project(tmp_path, BUNDLED)
    card_set = sorted(p for p in (tmp_path / "cards" / game).iterdir() if p.is_dir())[0]
    (card_set / "zz-broken.yaml").write_text("name: Broken\ntext: [1\n", encoding="utf-8")
    problems = _same(tmp_path, monkeypatch, game)
    assert any(p.origin.path.endswith("zz-broken.yaml") for p in problems)


def test_a_clean_load_check_and_compile_find_no_positions(tmp_path: Path, monkeypatch):
    """Positions cost more than the values; a project without problems never needs them."""
    copy_project(tmp_path, DUEL)
    records, problems = _load(tmp_path, workers=True, monkeypatch=monkeypatch)
    assert not problems, [str(p.origin) + " " + p.message for p in problems]
    compile.rows(verify(records, problems), [])
    assert records.cards
    assert all(card._doc._table._found is None for card in records.cards)


TEXT = """\
name: Grave Hound
rulings:
  - date: "2005-01-01"
    rules: [8.1, "9.2"]
  -   text: late
keywords:
  - shield: 2
"""


def test_positions_are_found_when_asked():
    doc = parse(TEXT, Origin("c.yaml"), Problems())
    assert doc._table._found is None
    assert doc.at(()) == Origin("c.yaml", 1, 1)
    assert doc._table._found is None  # the document's own place needs no table
    assert doc.at(("name",)) == Origin("c.yaml", 1, 7)
    assert doc.at(("rulings",), key=True) == Origin("c.yaml", 2, 1)
    assert doc.at(("rulings", 0, "rules", 1)) == Origin("c.yaml", 4, 18)
    assert doc.at(("rulings", 1, "text")) == Origin("c.yaml", 5, 13)
    assert doc.at(("rulings", 1, "missing", 3)) == Origin("c.yaml", 5, 7)  # nearest parent
    assert doc.positions[("keywords", 0, "shield", KEY)] == (7, 5)


def test_a_part_answers_from_the_whole():
    doc = parse(TEXT, Origin("c.yaml"), Problems())
    ruling = doc.sub(("rulings", 0))
    assert ruling.value == {"date": "2005-01-01", "rules": [8.1, "9.2"]}
    assert doc._table._found is None  # taking a part finds nothing yet
    assert ruling.origin == Origin("c.yaml", 3, 5)
    assert ruling.at(("rules", 0)) == Origin("c.yaml", 4, 13)
    assert ruling.at(("nothing",)) == ruling.origin  # never falls back past itself
    assert ruling.sub(("rules",)).at((1,)) == doc.at(("rulings", 0, "rules", 1))
    assert ruling.positions[()] == (3, 5)
    assert set(ruling.positions) == {p[2:] for p in doc.positions if p[:2] == ("rulings", 0)}


def test_positions_of_an_embedded_document_count_from_its_first_line():
    doc = parse("a: 1\nb:\n  - x\n", Origin("rules.md"), Problems(), line_offset=10)
    assert doc.origin == Origin("rules.md", 11, 1)
    assert doc.at(("b", 0)) == Origin("rules.md", 13, 5)


def test_no_workers_are_forked_beside_other_threads():
    """Forking copies only the calling thread: a lock another thread holds would stay locked
    in the worker, so with any other thread running the load stays in one process."""
    import threading

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    try:
        assert not parallel._can_fork()
    finally:
        stop.set()
        thread.join()
