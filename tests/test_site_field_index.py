"""The field index a static copy searches with (charnel.site.field_index): made from the game's
declared search fields, in the order results are listed, the same bytes on every build. What
the browser makes of it is held to the server's in tests/browser/test_field_search_browser.py."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from charnel import compile, pipeline, registry
from charnel.diagnostics import Problems
from charnel.query import load_choices
from charnel.site.field_index import FOLDER, MANIFEST, SHARD, files

REPO = Path(__file__).resolve().parent.parent


# the bundled games: those whose cards this repository holds
GAMES = sorted(g for g in registry.available() if (REPO / "cards" / g).is_dir())


@pytest.fixture(scope="module", params=GAMES)
def game_db(request, tmp_path_factory):
    problems = Problems()
    prepared = pipeline.prepare(REPO, request.param, problems)
    assert prepared is not None and not problems, problems.summary()
    path = tmp_path_factory.mktemp("fields") / f"{request.param}.db"
    return request.param, compile.write(prepared.verified, prepared.outcomes, path)


def test_the_manifest_is_the_games_declared_fields(game_db):
    game, db = game_db
    fields = registry.get(game).search_fields()
    made = files(db, fields)
    manifest = json.loads(made[FOLDER + MANIFEST])
    assert list(manifest["names"]) == list(fields)  # every name and alias, none more
    with sqlite3.connect(db) as conn:
        choices = load_choices(conn, fields)
    for name, f in fields.items():
        entry = manifest["fields"][manifest["names"][name]]
        assert entry["kind"] == f.kind
        assert entry.get("choices") == (list(choices[f]) if f in choices else None)
        if "blocks" in entry:  # free text: its blocks, and the blocks of each three letters
            blocks = entry["blocks"]
            assert f.kind == "text" and f not in choices
            assert FOLDER + f"{blocks['file']}-{blocks['count'] - 1}.json" in made
            assert FOLDER + f"{blocks['file']}-grams-{blocks['grams'] - 1}.json" in made
            assert FOLDER + entry["file"] in made  # and whole
        else:
            assert FOLDER + entry["file"] in made
    # aliases share one entry; the names are free text
    assert manifest["names"]["t"] == manifest["names"]["type"]
    assert "blocks" in manifest["fields"][manifest["names"]["name"]]


def test_cards_are_in_result_order_and_values_come_from_the_fields_sql(game_db):
    game, db = game_db
    fields = registry.get(game).search_fields()
    made = files(db, fields)
    manifest = json.loads(made[FOLDER + MANIFEST])
    with sqlite3.connect(db) as conn:
        order = [r[0] for r in conn.execute("select id from cards order by name, id")]
        number = next(f for n, f in fields.items() if f.kind == "number")
        sql = f"select {number.expr} from cards order by name, id"
        expected = [r[0] for r in conn.execute(sql)]
    rows = [row for n in range(0, len(order), SHARD)
            for row in json.loads(made[f"{FOLDER}cards-{n // SHARD}.json"])]
    assert [row[manifest["columns"].index("id")] for row in rows] == order
    named = next(n for n, f in fields.items() if f is number)
    entry = manifest["fields"][manifest["names"][named]]
    column = json.loads(made[FOLDER + entry["file"]])
    values = ([column["values"][c] for c in column["codes"]] if "codes" in column
              else column["values"])
    assert values == expected


def test_the_same_database_gives_the_same_bytes(game_db):
    game, db = game_db
    fields = registry.get(game).search_fields()
    assert files(db, fields) == files(db, registry.get(game).search_fields())


def test_the_browser_reads_every_kind_of_field_the_language_has():
    """A kind added to the language and not to the browser's reading would be refused there
    with a plain message (test_field_search_browser.py); this says which to add."""
    from typing import get_args

    from charnel.query import Kind

    script = (REPO / "site_templates" / "site" / "fieldsearch.js").read_text("utf-8")
    read = re.search(r"const MEANINGS = \[([^\]]*)\]", script).group(1)
    assert sorted(re.findall(r'"(\w+)"', read)) == sorted(get_args(Kind))


def test_a_free_text_block_holds_the_words_its_three_letters_say(game_db):
    """Each value is in the block the grams name for every three letters of it: the browser
    skips the other blocks, so a value left out of them would be a match never found."""
    from charnel.site.field_index import gram_file

    game, db = game_db
    made = files(db, registry.get(game).search_fields())
    manifest = json.loads(made[FOLDER + MANIFEST])
    blocks = manifest["fields"][manifest["names"]["name"]]["blocks"]
    for block in range(blocks["count"]):
        for value in json.loads(made[f"{FOLDER}{blocks['file']}-{block}.json"]):
            text = value.translate(str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                                                 "abcdefghijklmnopqrstuvwxyz"))
            for i in range(len(text) - 2):
                grams = json.loads(made[f"{FOLDER}{blocks['file']}-grams-"
                                        f"{gram_file(text[i:i + 3])}.json"])
                assert block in grams[text[i:i + 3]]


def test_three_letters_name_only_the_blocks_holding_them_in_order(game_db):
    """The other direction: a block listed for three letters has a value with them, each list
    rises, and each file lists its groups in order (the same bytes whatever order they were
    found in)."""
    from charnel.site.field_index import gram_file

    game, db = game_db
    made = files(db, registry.get(game).search_fields())
    manifest = json.loads(made[FOLDER + MANIFEST])
    blocks = manifest["fields"][manifest["names"]["name"]]["blocks"]
    lower = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
    held = ["\n".join(v.translate(lower) for v in json.loads(
        made[f"{FOLDER}{blocks['file']}-{block}.json"]) if v is not None)
        for block in range(blocks["count"])]
    for at in range(blocks["grams"]):
        listed = json.loads(made[f"{FOLDER}{blocks['file']}-grams-{at}.json"])
        assert list(listed) == sorted(listed)
        for gram, found in listed.items():
            assert gram_file(gram) == at
            assert found == sorted(set(found))
            assert all(gram in held[block] for block in found)
