"""The benchmarks on Cave Evil's pool: a game whose groups have fixed sizes gets a synthetic
pool of its own fields, and the build figures are measured over it."""

from __future__ import annotations

import re

from test_bench_smoke import NUMBER, ROOT, SMALL, _run


def test_bench_game_chooses_the_pool(tmp_path):
    """A game whose groups have fixed sizes (Cave Evil's decks) still gets a pool of its own
    fields, and the build figures are measured over it."""
    said = _run("bench.py", "--only", "build", "--game", "cave-evil", *SMALL,
                "--tmp", str(tmp_path), tmp_path=tmp_path)
    assert "of cave-evil" in said
    assert re.search(rf"^compile: write +{NUMBER} s wall", said, re.M), said
    problems = re.search(r"problems \((\d+) problems in", said)
    assert problems is None or "deck holds" in said, said


def test_synth_writes_the_chosen_games_fields(tmp_path):
    _run("synth.py", str(tmp_path / "pool"), "--game", "cave-evil", *SMALL, tmp_path=tmp_path)
    cards = sorted((tmp_path / "pool" / "cards" / "cave-evil").glob("*/*.yaml"))
    real = sorted((ROOT / "cards" / "cave-evil").glob("*/*.yaml"))
    assert len(cards) == len(real)  # never fewer than the real cards, each kept as it is named
    assert {p.relative_to(tmp_path / "pool") for p in cards} == {p.relative_to(ROOT) for p in real}
    assert not (tmp_path / "pool" / "cards" / "hecatomb").exists()
    assert not any(re.search(r"^number:", p.read_text(), re.M) for p in cards)
