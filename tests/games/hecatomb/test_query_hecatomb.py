"""The card search language: every operator against a hand-made pool, and bad queries.

The pool is written straight into the game's real schema (so the SQL runs against the columns
the compiler creates) without going through card legality checks, which other tests own.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine

from charnel import registry, schema
from charnel.query import (
    QueryError,
    compile_query,
    load_choices,
    parse,
    result_columns,
    search,
    tokenize,
)

GAME = registry.get("hecatomb")
FIELDS = GAME.search_fields()

CARDS = [
    # id, name, type, doom, cost, strength, subtype, rarity, set, number, combat, text, triggers
    (
        "bone-hauler",
        "Bone Hauler",
        "minion",
        "greed",
        "2",
        3,
        "Beast",
        "common",
        "base",
        1,
        False,
        "Evader (Greed). Reaper +1",
        "greed,corruption,deceit,greed",
    ),
    (
        "grave-maw",
        "Grave Maw",
        "minion",
        "greed",
        "4",
        5,
        "Undead Beast",
        "rare",
        "base",
        2,
        False,
        "Evader (Corruption)",
        "greed,greed,greed,deceit",
    ),
    (
        "pale-tither",
        "Pale Tither",
        "minion",
        "corruption",
        "1",
        1,
        "Undead",
        "uncommon",
        "base",
        3,
        True,
        "Reaper +2",
        "corruption,corruption,greed,deceit",
    ),
    (
        "sudden-rot",
        "Sudden Rot",
        "fate",
        "corruption",
        "X",
        None,
        None,
        "rare",
        "base",
        4,
        True,
        "Destroy target abomination with strength X or less.",
        None,
    ),
    (
        "false-idol",
        "False Idol",
        "relic",
        "deceit",
        "X+2",
        None,
        None,
        "common",
        "dusk",
        17,
        False,
        "Whenever an abomination reaps, its controller draws a card.",
        None,
    ),
    (
        "ember_50%",
        "Ember 50%",
        "fate",
        "destruction",
        "0",
        None,
        None,
        "common",
        "dusk",
        5,
        False,
        "Deal 2 damage to target abomination.",
        None,
    ),
]
KEYWORDS = [  # card, keyword slug, printed
    ("bone-hauler", "evader", "Evader (Greed)"),
    ("bone-hauler", "reaper", "Reaper +1"),
    ("grave-maw", "evader", "Evader (Corruption)"),
    ("pale-tither", "reaper", "Reaper +2"),
]


def _default(column):
    if column.nullable:
        return None
    python = column.type.python_type
    return {str: "", int: 0, bool: False}.get(python, "")


@pytest.fixture(scope="module")
def pool(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("pool") / "hecatomb.db"
    db_schema = schema.for_game(GAME)
    engine = create_engine(f"sqlite:///{path}")
    db_schema.metadata.create_all(engine)
    engine.dispose()
    conn = sqlite3.connect(path)
    conn.execute("pragma foreign_keys = off")
    table = db_schema.table("cards")
    for (
        cid,
        name,
        type_,
        doom,
        cost,
        strength,
        subtype,
        rarity,
        set_code,
        number,
        combat,
        text,
        triggers,
    ) in CARDS:
        row = {c.name: _default(c) for c in table.columns}
        cost_value = int(cost) if cost.isdigit() else int(cost.partition("+")[2] or 0)
        row.update(
            id=cid,
            name=name,
            type=type_,
            doom=doom,
            cost=cost,
            cost_value=cost_value,
            strength=strength,
            subtype=subtype,
            rarity=rarity,
            set_code=set_code,
            number=number,
            combat=combat,
            text=text,
            triggers=triggers,
        )
        conn.execute(
            f"insert into cards ({', '.join(row)}) values ({', '.join('?' * len(row))})",
            list(row.values()),
        )
    for term in sorted({keyword for _, keyword, _ in KEYWORDS}):
        row = {c.name: _default(c) for c in db_schema.table("keywords").columns}
        row.update(term=term, name=term.title())
        conn.execute(
            f"insert into keywords ({', '.join(row)}) values ({', '.join('?' * len(row))})",
            list(row.values()),
        )
    for i, (card, keyword, printed) in enumerate(KEYWORDS):
        conn.execute(
            "insert into card_keywords values (?, ?, ?, '{}', ?)", (card, i, keyword, printed)
        )
    # The game's closed lists, as compile writes them (see CLOSED_LISTS).
    for position, (enum, value) in enumerate(ENUM_VALUES):
        conn.execute(
            "insert into enum_values (enum, id, name, position) values (?, ?, ?, ?)",
            (enum, value, value.title(), position),
        )
    for position, type_ in enumerate(("minion", "fate", "relic", "god")):
        conn.execute(
            "insert into card_types (id, name, plural, position) values (?, ?, ?, ?)",
            (type_, type_.title(), type_.title() + "s", position),
        )
    for code in ("base", "dusk"):
        row = {c.name: _default(c) for c in db_schema.table("sets").columns}
        row.update(code=code, name=code.title())
        conn.execute(
            f"insert into sets ({', '.join(row)}) values ({', '.join('?' * len(row))})",
            list(row.values()),
        )
    conn.commit()
    conn.close()
    return path


ENUM_VALUES = [
    *(("doom", d) for d in ("corruption", "deceit", "destruction", "greed")),
    *(("rarity", r) for r in ("common", "uncommon", "rare")),
]


def ids(pool: Path, query: str) -> set[str]:
    _, columns, rows = search(pool, query, FIELDS)
    return {row[columns.index("id")] for row in rows}


ALL = {c[0] for c in CARDS}

OPERATORS = [
    ("doom:greed", {"bone-hauler", "grave-maw"}),
    ("doom:GREED", {"bone-hauler", "grave-maw"}),
    ("d:corruption", {"pale-tither", "sudden-rot"}),
    ("t:minion", {"bone-hauler", "grave-maw", "pale-tither"}),
    ("type:fate", {"sudden-rot", "ember_50%"}),
    ('t:"combat fate"', {"sudden-rot"}),
    ("t:combat", {"pale-tither", "sudden-rot"}),
    ("t:undead", {"grave-maw", "pale-tither"}),
    ("t=relic", {"false-idol"}),
    ("sub:undead", {"grave-maw", "pale-tither"}),
    ("sub=undead", {"pale-tither"}),
    ("sub!=undead", ALL - {"pale-tither"}),
    ("str>=3", {"bone-hauler", "grave-maw"}),
    ("str>3", {"grave-maw"}),
    ("str<3", {"pale-tither"}),
    ("str<=3", {"bone-hauler", "pale-tither"}),
    ("str=5", {"grave-maw"}),
    ("str:1", {"pale-tither"}),
    ("str!=3", {"grave-maw", "pale-tither"}),
    ("-str>=3", ALL - {"bone-hauler", "grave-maw"}),  # cards without strength are in the complement
    ("cost<=2", {"bone-hauler", "pale-tither", "sudden-rot", "false-idol", "ember_50%"}),
    ("cost>=4", {"grave-maw"}),
    ("cost:x", {"sudden-rot", "false-idol"}),
    ("cost=X", {"sudden-rot", "false-idol"}),
    ("cost!=x", ALL - {"sudden-rot", "false-idol"}),
    ("kw:evader", {"bone-hauler", "grave-maw"}),
    ("keyword:Reaper", {"bone-hauler", "pale-tither"}),
    ('kw:"evader(greed)"', {"bone-hauler"}),
    ('kw:"Evader (Corruption)"', {"grave-maw"}),
    ("kw:evader(corruption)", {"grave-maw"}),
    ("kw:reaper+2", {"pale-tither"}),
    ("kw!=evader", ALL - {"bone-hauler", "grave-maw"}),
    ("o:reap", {"bone-hauler", "pale-tither", "false-idol"}),
    ('o:"target abomination"', {"sudden-rot", "ember_50%"}),
    ("text:draws", {"false-idol"}),
    ("r:rare", {"grave-maw", "sudden-rot"}),
    ("rarity:common", {"bone-hauler", "false-idol", "ember_50%"}),
    ("s:dusk", {"false-idol", "ember_50%"}),
    ("set:base", {"bone-hauler", "grave-maw", "pale-tither", "sudden-rot"}),
    ("cn:17", {"false-idol"}),
    ("number<3", {"bone-hauler", "grave-maw"}),
    ("tr:deceit", {"bone-hauler", "grave-maw", "pale-tither"}),
    ("triggers:destruction", set()),
    ("grave", {"grave-maw"}),
    ("HAULER", {"bone-hauler"}),
    ('"bone hauler"', {"bone-hauler"}),
    ('"hauler bone"', set()),
    ("name:idol", {"false-idol"}),
    ("50%", {"ember_50%"}),  # % is a literal, not a LIKE wildcard
    ("r_re", set()),  # _ is a literal too
    ("-doom:greed", ALL - {"bone-hauler", "grave-maw"}),
    ("doom:greed str>=5", {"grave-maw"}),
    ("doom:greed and str>=5", {"grave-maw"}),
    ("doom:greed or doom:deceit", {"bone-hauler", "grave-maw", "false-idol"}),
    ("doom:greed OR t:relic", {"bone-hauler", "grave-maw", "false-idol"}),
    ("t:minion (doom:corruption or str>4)", {"grave-maw", "pale-tither"}),
    ("-(doom:greed or doom:corruption)", {"false-idol", "ember_50%"}),
    ("t:minion -(kw:evader)", {"pale-tither"}),
    ("doom:greed t:minion str>=3 kw:evader", {"bone-hauler", "grave-maw"}),
]


@pytest.mark.parametrize(("query", "expected"), OPERATORS, ids=[q for q, _ in OPERATORS])
def test_operator(pool: Path, query: str, expected: set[str]):
    assert ids(pool, query) == expected


# A value of a closed list (dooms, rarities, sets, card types) that no card can have is a typo:
# (query, column of the bad value, words the message must hold).
NEVER_MATCHES = [
    ("doom:gred", 6, "did you mean 'greed'"),
    ("d=GRED", 3, "did you mean 'greed'"),
    ("-doom:gred", 7, "did you mean 'greed'"),
    ("doom!=gred", 7, "did you mean 'greed'"),
    ("doom:zzzz", 6, "one of: corruption, deceit, destruction, greed"),
    ("r:rar", 3, "did you mean 'rare'"),
    ("rarity:uncomon", 8, "did you mean 'uncommon'"),
    ("s:bse", 3, "did you mean 'base'"),
    ("set:duks", 5, "did you mean 'dusk'"),
    ("t:minon", 3, "did you mean 'minion'"),
    ('t:"combat fite"', 3, "did you mean 'fate'"),
    ("t:minion (doom:greed or doom:decet)", 30, "did you mean 'deceit'"),
    ("kw:evadr", 4, "did you mean 'evader'"),
    ('kw:"evadr(greed)"', 4, "did you mean 'evader'"),
]


@pytest.mark.parametrize(
    ("query", "col", "words"), NEVER_MATCHES, ids=[q for q, _, _ in NEVER_MATCHES]
)
def test_value_outside_a_closed_list_is_an_error(pool: Path, query: str, col: int, words: str):
    with pytest.raises(QueryError) as caught:
        search(pool, query, FIELDS)
    assert caught.value.col == col
    assert words in caught.value.message


# Values the lists allow, in any case, and parts of the type line, still search.
STILL_SEARCH = [
    "doom:GREED", "r:Rare", "s:DUSK", "t:und", "t:beast", 't:"combat fate"', "t:com",
    "kw:evader", 'kw:"Evader (Greed)"', "kw:reaper+1",
]


@pytest.mark.parametrize("query", STILL_SEARCH)
def test_values_in_a_closed_list_are_accepted(pool: Path, query: str):
    assert ids(pool, query)


def test_closed_lists_come_from_the_database(pool: Path):
    conn = sqlite3.connect(f"file:{pool}?mode=ro", uri=True)
    try:
        lists = {f.expr: values for f, values in load_choices(conn, FIELDS).items()}
    finally:
        conn.close()
    assert lists["doom"] == ("corruption", "deceit", "destruction", "greed")
    assert lists["set_code"] == ("base", "dusk")
    assert lists["rarity"] == ("common", "rare", "uncommon")


def test_without_lists_nothing_is_refused():
    """A database whose lists are empty (an old build) cannot judge values: the search runs."""
    compile_query("doom:gred r:rar", FIELDS, {})


BAD = [
    # query, column of the bad token, words of the message
    ("foo:bar", 1, "unknown field 'foo'"),
    ("doom:greed dom:greed", 12, "did you mean 'doom'"),
    ("str>=x", 6, "needs a whole number"),
    ("t<minion", 2, "takes ':', '=' or '!='"),
    ('o:"target', 3, "unterminated quote"),
    ("(doom:greed", 1, "never closed"),
    ("doom:greed)", 11, "unmatched ')'"),
    ("or doom:greed", 1, "needs a search term before it"),
    ("doom:greed or", 14, "ends where a search term was expected"),
    ("doom:", 6, "expected a value"),
    ("strenght:", 1, "unknown field 'strenght'; did you mean 'strength'"),
    ("strenght>=3", 1, "did you mean 'strength'"),
    ('doom:""', 6, "empty value"),
    ("", 1, "empty query"),
    ("   ", 1, "empty query"),
    ("()", 2, "unmatched ')'"),
]


@pytest.mark.parametrize(("query", "col", "words"), BAD, ids=[q or "<empty>" for q, _, _ in BAD])
def test_bad_query_points_at_the_token(query: str, col: int, words: str):
    with pytest.raises(QueryError) as caught:
        compile_query(query, FIELDS)
    assert words in caught.value.message
    assert caught.value.col == col
    rendered = caught.value.render(query).splitlines()
    assert rendered[2].index("^") - 2 == col - 1


def test_values_reach_sql_only_as_parameters():
    compiled = compile_query('o:"\'; drop table cards; --" doom:greed\' "x\'y"', FIELDS)
    assert "drop" not in compiled.where and "greed" not in compiled.where
    assert "'; drop table cards; --" in "".join(map(str, compiled.params.values()))


def test_tokens_carry_columns():
    tokens = tokenize('-t:"combat fate" (str>=3 or kw:evader(greed))')
    assert [(t.kind, t.col) for t in tokens] == [
        ("-", 1),
        ("term", 2),
        ("(", 18),
        ("term", 19),
        ("or", 26),
        ("term", 29),
        (")", 45),
    ]
    assert tokens[1].value == "combat fate" and tokens[5].value == "evader(greed)"


def test_result_columns_follow_the_game():
    assert result_columns(FIELDS)[:4] == ["id", "name", "type", "cost"]
    assert {"doom", "strength", "subtype"} <= set(result_columns(FIELDS))


WORDS = st.sampled_from(
    [
        "doom",
        "t",
        "str",
        "cost",
        "kw",
        "o",
        "r",
        "s",
        "cn",
        "sub",
        "tr",
        "bogus",
        "name",
        "x",
        "3",
        "greed",
        "evader(greed)",
        "or",
        "and",
        "OR",
        "-",
        "(",
        ")",
        '"',
        "'",
        ":",
        ">=",
        "<",
        "!=",
        "=",
        " ",
        "  ",
        "§",
        "%",
        "_",
        "\\",
        "minion",
        "combat fate",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(WORDS, max_size=12).map("".join))
def test_any_query_compiles_or_is_rejected_cleanly(pool: Path, query: str):
    try:
        compiled = compile_query(query, FIELDS)
    except QueryError as exc:
        assert 1 <= exc.col <= len(query) + 1
        assert exc.message
        return
    assert "§" not in compiled.where  # user text never becomes SQL
    conn = sqlite3.connect(f"file:{pool}?mode=ro", uri=True)
    try:
        conn.execute(compiled.select(result_columns(FIELDS), 5), compiled.params).fetchall()
    finally:
        conn.close()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_arbitrary_text_never_crashes_the_parser(query: str):
    try:
        parse(query)
    except QueryError as exc:
        assert 1 <= exc.col <= len(query) + 1


def test_every_field_is_in_the_help_table_with_an_example():
    """The table every search help shows (the site's syntax page, Datasette's search page) has
    each field once, under all its names, with an example."""
    from charnel.query import field_table

    table = field_table(FIELDS)
    listed = [name for row in table for name in row["names"].split(", ")]
    assert sorted(listed) == sorted(FIELDS)
    assert all(row["example"] and row["help"] for row in table)
