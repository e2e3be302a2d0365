"""A store kept as a base and the changes since (`kept.Layered`) reads back what was saved,
whether the changes were written beside the base or the whole store again, and ignores
changes that are not those of its base."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from charnel import kept

STAMP = "stamp"


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def _store(n: int) -> dict:
    return {"runs": {"read": "r1", "cards": {f"card-{i:03}": [("ok", i)] for i in range(n)}},
            "database": {"file": [1, 2, 3], "html": {"a": "<p>a</p>"}}}


def _saved(path: Path, value: dict, fold: int = kept.Layered._FOLD) -> kept.Layered:
    store = kept.Layered(path, STAMP)
    store._FOLD = fold
    store.save(value, _write)
    return kept.Layered(path, STAMP)


def test_changes_are_kept_beside_the_base_and_read_back(tmp_path: Path):
    path = tmp_path / ".game.kept"
    first = _store(2000)
    assert _saved(path, first).value() == first
    base = path.read_bytes()
    second = _store(2000)
    second["runs"]["cards"]["card-007"] = [("changed", 7)]
    del second["runs"]["cards"]["card-008"]
    second["runs"]["cards"]["card-new"] = [("new", 0)]
    second["database"]["file"] = [4, 5, 6]
    second["database"]["html"] = {}  # smaller than its changes: kept whole
    second["checks"] = {"read": "c1"}
    assert _saved(path, second).value() == second
    assert path.read_bytes() == base  # the base as it was: the changes are beside it
    assert (tmp_path / ".game.kept.delta").is_file()
    third = _store(2000)  # back to the first: the changes from the base are none but the file
    third["database"]["file"] = [7, 8, 9]
    assert _saved(path, third).value() == third
    assert path.read_bytes() == base


def test_many_changes_write_the_base_again(tmp_path: Path):
    path = tmp_path / ".game.kept"
    _saved(path, _store(2000))
    base = path.read_bytes()
    changed = _store(2000)
    changed["runs"]["cards"] = {k: [("other",)] for k in changed["runs"]["cards"]}
    assert _saved(path, changed).value() == changed
    assert path.read_bytes() != base
    assert not (tmp_path / ".game.kept.delta").exists()


@pytest.mark.parametrize("bad", ["another base", "not plain", "wrong shape"])
def test_changes_not_of_the_base_are_ignored(tmp_path: Path, bad: str):
    path = tmp_path / ".game.kept"
    first = _store(2000)
    _saved(path, first)
    second = _store(2000)
    second["runs"]["cards"]["card-001"] = [("changed", 1)]
    _saved(path, second)
    delta = tmp_path / ".game.kept.delta"
    if bad == "another base":  # the base written again since, by another build
        _write(path, path.read_bytes())
    elif bad == "not plain":
        delta.write_bytes(pickle.dumps((STAMP, (None, [Path("x")]))))
    else:
        stamp, (base_id, changes) = pickle.loads(delta.read_bytes())
        delta.write_bytes(pickle.dumps((stamp, (base_id, [(*changes[0][:2], "entries", 5)]))))
    assert kept.Layered(path, STAMP).value() == first


def test_a_fresh_store_reads_nothing_and_writes_whole(tmp_path: Path):
    path = tmp_path / ".game.kept"
    _saved(path, _store(2000))
    store = kept.Layered(path, STAMP, fresh=True)
    assert store.value() == {}
    store.save(_store(10), _write)
    assert kept.read(path, STAMP) == _store(10)
    assert not (tmp_path / ".game.kept.delta").exists()
