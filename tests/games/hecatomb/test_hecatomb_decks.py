"""Deck lists: `charnel deck check` against the bundled Hecatomb pool and its deck rules.
The fixture lists and the messages they must give are in tests/games/hecatomb/fixtures/decks/."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from charnel import decks
from charnel.diagnostics import Problems

REPO = Path(__file__).resolve().parents[3]
DECKS = Path(__file__).resolve().parent / "fixtures" / "decks"
POOL = [("Grave Hound", "grave-hound"), ("Ash Hound", "ash-hound")]


def charnel(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "charnel.cli", *args], cwd=REPO, capture_output=True, text=True
    )


def test_fixture_decks_give_their_messages():
    result = charnel("deck", "check", "tests/games/hecatomb/fixtures/decks/legal.txt",
                     "tests/games/hecatomb/fixtures/decks/illegal.txt")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "tests/games/hecatomb/fixtures/decks/legal.txt: 40 cards: legal" in result.stdout
    for line in (DECKS / "expected.txt").read_text().splitlines():
        assert line in result.stderr, f"missing: {line}\n--- got:\n{result.stderr}"
    assert "error: 4 problems in 1 file" in result.stderr


def test_a_legal_deck_exits_zero():
    result = charnel("deck", "check", "tests/games/hecatomb/fixtures/decks/legal.txt")
    assert result.returncode == 0, result.stderr


def test_a_missing_file_is_a_located_problem():
    result = charnel("deck", "check", "tests/games/hecatomb/fixtures/decks/nowhere.txt")
    assert result.returncode == 1
    assert "tests/games/hecatomb/fixtures/decks/nowhere.txt:1:1: not a deck list" in result.stderr


def check(text: str, **rules) -> tuple[decks.Deck, Problems]:
    problems = Problems()
    deck = decks.read(text, "d.txt", problems)
    decks.check(deck, POOL, decks.DeckRules(**rules), problems)
    return deck, problems


def test_copies_add_up_across_lines_and_names_match_case_insensitively():
    deck, problems = check("2 grave hound\n2 GRAVE HOUND\n", max_copies=3)
    assert deck.cards == 4
    assert deck.reasons == ["too-many-copies"]
    assert [p.origin.line for p in problems] == [2]


def test_comments_and_blank_lines_are_ignored():
    deck, problems = check("# mine\n\n3 Ash Hound // three\n  # indented\n", min_cards=3)
    assert not problems and deck.legal and deck.cards == 3


def test_a_deck_with_no_rules_is_only_matched():
    deck, problems = check("99 Ash Hound\n")
    assert deck.legal and not problems


def test_absurd_counts_are_refused():
    _, problems = check("0 Ash Hound\n100000 Ash Hound\n")
    assert [p.origin.line for p in problems] == [1, 2]


def test_another_games_list_is_called_the_wrong_game_without_suggestions():
    result = charnel("deck", "check", "--game", "cave-evil",
                     "tests/games/hecatomb/fixtures/decks/legal.txt")
    assert result.returncode == 1
    assert "wrong game? 14 of these names are Hecatomb cards: check the list with --game " \
        "hecatomb" in result.stderr
    assert result.stderr.count("wrong game?") == 1
    assert "did you mean" not in result.stderr


def test_a_few_unknown_names_still_get_suggestions():
    other = decks.OtherGame("other", "Other", frozenset({"bone pile"}))
    problems = Problems()
    deck = decks.read("3 Grave Hund\n2 Ash Hound\n", "d.txt", problems)
    decks.check(deck, POOL, decks.DeckRules(), problems, [other])
    said = ["no card named 'Grave Hund'; did you mean 'Grave Hound'?"]
    assert [p.message for p in problems] == said


def rulings(tmp_path: Path, text: str, *args: str) -> subprocess.CompletedProcess:
    deck = tmp_path / "deck.txt"
    deck.write_text(text, encoding="utf-8")
    return charnel("deck", "rulings", str(deck), *args)


def test_a_decks_rulings_by_card_and_by_rule(tmp_path: Path):
    result = rulings(tmp_path, "3 Grave Hound\n2 The Sunken Bell\n", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    hound, bell = data["cards"]
    assert (hound["name"], hound["count"], hound["url"]) == (
        "Grave Hound", 3, "/hecatomb/cards/grave-hound/")
    assert [k["printed"] for k in hound["keywords"]] == ["Evader (Corruption)", "Reaper +1"]
    assert hound["keywords"][0]["url"] == "/hecatomb/glossary/evader/"
    assert hound["rulings"] and {"14.11a", "14.1a"} <= set(hound["clauses"])
    assert [(e["version"], e["kind"]) for e in bell["errata"]] == [("1.1", "erratum")]
    by_rule = {c["number"]: c for c in data["clauses"]}
    assert by_rule["14.11a"]["cards"] == ["Grave Hound"]
    assert by_rule["14.11a"]["url"] == "/hecatomb/rules/14.11a/"
    text = rulings(tmp_path, "3 Grave Hound\n")
    assert "Grave Hound ×3" in text.stdout and "By rule" in text.stdout


def test_cave_evils_deck_is_the_cards_a_player_brings(tmp_path: Path):
    result = rulings(tmp_path, "1 Ghoul\n2 Cavelling\n", "--game", "cave-evil", "--json")
    assert result.returncode == 0, result.stderr
    ghoul = json.loads(result.stdout)["cards"][0]
    assert ghoul["name"] == "Ghoul" and ghoul["rulings"] and ghoul["clauses"]


def test_a_deck_rulings_list_with_an_unknown_card_is_a_located_problem(tmp_path: Path):
    result = rulings(tmp_path, "3 Grave Hund\n")
    assert result.returncode == 1
    said = "deck.txt:1:3: no card named 'Grave Hund'; did you mean 'Grave Hound'?"
    assert said in result.stderr


def test_a_count_of_five_thousand_digits_is_a_located_problem(tmp_path: Path):
    deck = tmp_path / "deck.txt"
    deck.write_text("9" * 5000 + " Ash Hound\n0000000000003 Grave Hound\n")
    result = charnel("deck", "check", str(deck), "--game", "hecatomb")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{deck}:1:1: a count is between 1 and {decks.MAX_COUNT:,}".replace(",", "") in (
        result.stderr)
    assert "the deck holds 3 cards" in result.stderr  # leading zeros are still a number


def test_a_name_with_terminal_controls_is_shown_escaped(tmp_path: Path):
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Gh\x1b[2J\x1b]0;owned\x07oul\n")
    result = charnel("deck", "check", str(deck), "--game", "hecatomb")
    assert result.returncode == 1
    assert "\x1b" not in result.stderr + result.stdout and "\x07" not in result.stderr
    assert "no card named 'Gh\\x1b[2J\\x1b]0;owned\\x07oul'" in result.stderr


def test_twenty_thousand_unknown_names_are_bounded_work(tmp_path: Path, monkeypatch):
    """Each distinct name is looked up once, and at most `Nearest.MOST` of them: counted,
    not timed; the real command gets a generous timeout only as a guard against a hang."""
    names = [f"1 Unknown Card {i:05d} // " + "x" * 26 for i in range(1, 20_001)]
    text = "\n".join(names) + "\n"
    assert len(text) > 1_000_000 - 100_000
    calls = []
    real = decks.difflib.get_close_matches
    monkeypatch.setattr(decks.difflib, "get_close_matches",
                        lambda *a, **k: calls.append(a) or real(*a, **k))
    problems = Problems()
    deck = decks.read(text, "d.txt", problems)
    decks.check(deck, POOL * 200, decks.DeckRules(), problems)
    assert len(problems) == 20_000 and len(calls) == decks.Nearest.MOST
    deck_file = tmp_path / "deck.txt"
    deck_file.write_text(text[:999_000])
    done = subprocess.run([sys.executable, "-m", "charnel.cli", "deck", "check", str(deck_file),
                           "--game", "hecatomb"], cwd=REPO, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.count("no card named") > 15_000


def test_a_repeated_unknown_name_is_looked_up_once():
    calls = []
    nearest = decks.Nearest(["Grave Hound", "Ash Hound"])
    real = decks.difflib.get_close_matches
    decks.difflib.get_close_matches = lambda *a, **k: calls.append(a) or real(*a, **k)
    try:
        assert [nearest(n) for n in ["Grave Hund", "grave hund", "Grave Hund"]] == \
            ["Grave Hound"] * 3
    finally:
        decks.difflib.get_close_matches = real
    assert len(calls) == 1


def test_a_lookup_compares_a_bounded_number_of_names_in_a_large_pool(monkeypatch):
    pool = [f"Hound of the {i:05d} Barrows" for i in range(20_000)] + ["Grave Hound"]
    nearest = decks.Nearest(pool)
    compared = []
    real = decks.difflib.get_close_matches
    monkeypatch.setattr(decks.difflib, "get_close_matches",
                        lambda word, names, **k: compared.append(len(names)) or real(
                            word, names, **k))
    assert nearest("Grave Hund") == "Grave Hound"
    assert nearest("hound of the 01234 barows") == "Hound of the 01234 Barrows"
    assert compared and max(compared) <= decks.Nearest.CANDIDATES
