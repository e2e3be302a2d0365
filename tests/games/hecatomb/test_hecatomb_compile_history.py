"""The history tables of the database: the same changes as `charnel diff`, joinable to the
rules and cards, and the canned queries that read them."""

from __future__ import annotations

import json
import sqlite3

import pytest
import yaml
from projects import BUNDLED, WITH_RELEASES, copy_project
from typer.testing import CliRunner

from charnel import pipeline
from charnel.cli import app
from charnel.serve.queries import QUERIES


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    root = tmp_path_factory.mktemp("history-db")
    copy_project(root, BUNDLED, WITH_RELEASES)
    result = pipeline.build(root, "hecatomb", root / "build", force=True)
    conn = sqlite3.connect(result.database)
    conn.row_factory = sqlite3.Row
    yield root, conn
    conn.close()


def rows(conn, sql, **params):
    return [dict(r) for r in conn.execute(sql, params)]


def test_the_tables_hold_what_charnel_diff_lists(db):
    root, conn = db
    data = json.loads(CliRunner().invoke(
        app, ["diff", "1.0", "1.1", "--root", str(root), "--json"]).stdout)
    assert rows(conn, "select version, date, previous from releases order by position") == [
        {"version": "1.0", "date": "2026-11-21", "previous": None},
        {"version": "1.1", "date": "2026-11-24", "previous": "1.0"},
    ]
    changed = rows(conn, "select old_number, new_number, kind, reason from clause_history "
                         "where release = '1.1' order by id")
    assert changed == [
        {"old_number": c["old_number"], "new_number": c["new_number"],
         "kind": ", ".join(c["kinds"]), "reason": c["reason"]} for c in data["clauses"]
    ]
    errata = rows(conn, "select card_id, kind, functional, wording, encoding from card_errata "
                        "where release = '1.1' order by id")
    assert errata == [
        {"card_id": c["slug"], "kind": c["kind"], "functional": int(c["functional"]),
         "wording": int(bool(c["wording"])), "encoding": int(c["encoding"])}
        for c in sorted(data["cards"], key=lambda c: c["slug"])
    ]
    terms = rows(conn, "select term_id, kind from term_history where release = '1.1'")
    assert terms == [{"term_id": t["slug"], "kind": t["kind"]} for t in data["terms"]]


def test_every_clause_has_a_first_row_and_joins_the_rules(db):
    _, conn = db
    missing = rows(conn, "select number from rules where number not in "
                         "(select number from clause_history where kind like 'added%')")
    # A clause added since the last release has its first row when a release freezes it;
    # until then the maintainer's changes.yaml says why it is there.
    pending = yaml.safe_load((BUNDLED / "rules" / "hecatomb" / "changes.yaml").read_text())
    assert [r["number"] for r in missing] == sorted(pending["clauses"])
    joined = rows(conn, "select rules.number, clause_history.old_number from rules "
                        "join clause_history on clause_history.number = rules.number "
                        "where clause_history.kind = 'renumbered' order by rules.number")
    assert joined == [{"number": "14.13c", "old_number": "14.13b"},
                      {"number": "14.13d", "old_number": "14.13c"}]


def test_the_canned_queries_answer(db):
    _, conn = db
    changed = rows(conn, QUERIES["what_changed_in_release"]["sql"], release="1.1")
    assert [(r["what"], r["id"], r["kind"]) for r in changed] == [
        ("rule", "11.1c", "changed"), ("rule", "14.13b", "added"),
        ("rule", "14.13c", "renumbered"), ("rule", "14.13d", "renumbered"),
        ("term", "ripper", "changed"),
        ("card", "pay-the-ferryman", "erratum, not functional"),
        ("card", "the-sunken-bell", "functional erratum"),
    ]
    history = rows(conn, QUERIES["clause_history"]["sql"], rule="14.13b")
    assert [(r["identity"], r["release"], r["kind"], r["now"]) for r in history] == [
        ("1.0/14.13b", "1.0", "added", "14.13c"),
        ("1.0/14.13b", "1.1", "renumbered", "14.13c"),
        ("1.1/14.13b", "1.1", "added", "14.13b"),
    ]


def test_a_game_with_no_release_has_empty_history_tables(tmp_path):
    copy_project(tmp_path, BUNDLED)
    result = pipeline.build(tmp_path, "hecatomb", tmp_path / "build", force=True)
    conn = sqlite3.connect(result.database)
    for table in ("releases", "clause_history", "card_errata", "term_history"):
        assert conn.execute(f"select count(*) from {table}").fetchone() == (0,), table
    conn.close()
