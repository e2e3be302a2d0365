"""`charnel search` and `charnel serve` from the command line (the server itself is not started)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from projects import DUEL, copy_project, only_game
from typer.testing import CliRunner

from charnel.cli import app

GAME = only_game(DUEL)


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("cli")
    return copy_project(root, DUEL)


def run(root: Path, *args: str):
    return CliRunner().invoke(app, [*args, "--root", str(root), "--out", str(root / "build")])


@pytest.fixture(scope="module")
def built(root: Path) -> Path:
    result = run(root, "build", "--no-site", "--no-print")
    assert result.exit_code == 0, result.output
    return root


def test_search_prints_a_table(built: Path):
    result = run(built, "search", "clan:ember")
    assert result.exit_code == 0, result.output
    assert "2 cards" in result.output and "Ash Page" in result.output
    assert "Cinder Knight" in result.output and "Rime" not in result.output


@pytest.mark.parametrize("width", [60, 200])
def test_search_table_fits_the_terminal(built: Path, width: int, monkeypatch):
    monkeypatch.setattr("charnel.cli.out.width", width)  # what COLUMNS sets for a real terminal
    result = run(built, "search", "t:champion")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= width
    header = lines[2].split()
    assert header[:2] == ["name", "type"] and header[-2:] == ["set", "text"]
    assert "id" not in header and "…" not in result.stdout
    assert "Cinder Knight" in result.stdout  # names whole, the type line as `t:` reads it
    assert "champion" in result.stdout
    assert "blow" in result.stdout  # the card text
    if width == 200:
        assert header == ["name", "type", "might", "clan", "set", "text"]
    else:  # the game's own columns give way first
        assert header == ["name", "type", "set", "text"]


@pytest.mark.parametrize("width", [44, 52, 60])
def test_search_table_wraps_card_text_at_word_ends(built: Path, width: int, monkeypatch):
    monkeypatch.setattr("charnel.cli.out.width", width)
    result = run(built, "search", "t:champion")
    assert result.exit_code == 0, result.output
    shown = set(result.stdout.split())
    data = json.loads(run(built, "search", "--json", "t:champion").stdout)
    assert data["rows"]
    for row in data["rows"]:
        cut = [w for w in (row["text"] or "").split() if w not in shown]
        assert not cut, f"{row['name']}: {cut} not shown whole"


def test_search_says_when_it_cut_the_list(built: Path):
    result = run(built, "search", "--limit", "1", "t:champion")
    assert result.exit_code == 0, result.output
    assert "1 of 3 cards: t:champion" in result.stdout
    assert "2 more: --limit 3 shows them all" in result.stdout
    whole = run(built, "search", "t:champion").stdout
    assert "3 cards: t:champion" in whole and "of 3 cards" not in whole and "more:" not in whole


@pytest.mark.parametrize("query", ["cinder knigt", "Cinder Knite", "rime wardn"])
def test_a_misspelt_name_finds_the_card(built: Path, query: str):
    result = run(built, "search", query)
    assert result.exit_code == 0, result.output
    assert f"no card is named {query!r}; the nearest name:" in result.stdout
    data = json.loads(run(built, "search", "--json", query).stdout)
    assert data["nearest"] is True and len(data["rows"]) == 1
    assert data["rows"][0]["name"].lower().split()[0] == query.lower().split()[0]


def test_only_a_name_is_looked_up_by_likeness(built: Path):
    # a field query that finds nothing says so; it is not a misspelt name
    data = json.loads(run(built, "search", "--json", "t:champion cinder knigt").stdout)
    assert data["rows"] == [] and data["nearest"] is False and data["total"] == 0
    data = json.loads(run(built, "search", "--json", "qqqqq").stdout)
    assert data["rows"] == [] and data["nearest"] is False


@pytest.mark.parametrize(
    ("query", "message"),
    [("clan:embr", "did you mean 'ember'"), ("s:embrs", "did you mean 'embers'")],
)
def test_search_value_outside_a_closed_list(built: Path, query: str, message: str):
    result = run(built, "search", query)
    assert result.exit_code == 1 and message in result.stderr


def test_search_json(built: Path):
    result = run(built, "search", "--json", "clan:ember m>=2")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [r["id"] for r in data["rows"]] == ["cinder-knight"]
    assert data["params"] == {"p0": "ember", "p1": 2}
    assert data["rows"][0]["text"] == "Each blow of this champion adds its might."
    assert data["total"] == 1 and data["nearest"] is False


def test_search_limit(built: Path):
    data = json.loads(run(built, "search", "--json", "--limit", "1", "t:champion").stdout)
    assert len(data["rows"]) == 1 and data["total"] == 3


def test_bad_search_points_at_the_token(built: Path):
    result = run(built, "search", "clan:ember colour:red")
    assert result.exit_code == 1
    assert "unknown field 'colour' (column 12)" in result.stderr
    lines = result.stderr.splitlines()
    assert lines[-1].index("^") == lines[-2].index("colour")
    assert "Traceback" not in result.output + result.stderr


def test_search_without_a_database(root: Path, tmp_path: Path):
    result = CliRunner().invoke(app, ["search", "x", "--root", str(root), "--out", str(tmp_path)])
    assert result.exit_code == 1 and "charnel build" in result.stderr


def test_serve_builds_then_runs_the_app(root: Path, monkeypatch):
    seen = {}

    def fake_run(app, host, port, **kwargs):
        seen.update(app=app, host=host, port=port)

    monkeypatch.setattr("uvicorn.run", fake_run)
    result = run(root, "serve", "--port", "8123", "--public")
    assert result.exit_code == 0, result.output
    assert seen["host"] == "127.0.0.1" and seen["port"] == 8123 and callable(seen["app"])
    assert "http://127.0.0.1:8123/sql/" in result.output and "arbitrary SQL is off" in result.output
    assert (root / "build" / "datasette" / "datasette.yaml").exists()


def test_serve_reports_bad_sources_without_serving(root: Path, tmp_path: Path, monkeypatch):
    copy_project(tmp_path, root)
    card = tmp_path / "cards" / GAME / "embers" / "cinder-knight.yaml"
    card.write_text(card.read_text().replace("clan: ember", "clan: ash"))
    monkeypatch.setattr("uvicorn.run", lambda *a, **k: pytest.fail("served despite errors"))
    result = CliRunner().invoke(
        app, ["serve", "--root", str(tmp_path), "--out", str(tmp_path / "build")]
    )
    assert result.exit_code == 1
    assert "cinder-knight.yaml:" in result.stderr


def test_serve_on_a_port_in_use_says_so_before_building(tmp_path: Path, monkeypatch):
    import socket

    monkeypatch.setattr("charnel.cli.build_each", lambda *a, **k: pytest.fail("built anyway"))
    monkeypatch.setattr("uvicorn.run", lambda *a, **k: pytest.fail("served anyway"))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(
            app, ["serve", "--root", str(DUEL), "--port", str(port)]
        )
    assert result.exit_code == 1
    assert f"port {port} on 127.0.0.1 is in use" in result.stderr
    assert "Traceback" not in result.output and "Errno" not in result.stderr


def test_serve_answers_before_the_pdfs_and_links_them_once_laid_out(tmp_path: Path, monkeypatch):
    """The databases and the site are built before serving; the PDFs by a second build beside
    the server, after which the print pages link them; a later serve has nothing to lay out."""
    import time

    copy_project(tmp_path, DUEL)
    build = tmp_path / "build"
    rules_page = build / "site" / GAME / "rules" / "index.html"
    data_page = build / "site" / GAME / "data" / "index.html"
    seen = {}

    def fake_run(app, host, port, **kwargs):
        seen["pdfs at start"] = sorted(p.name for p in (build / "print").glob("*.pdf"))
        seen["rules page at start"] = rules_page.read_text()
        seen["data page at start"] = data_page.read_text()
        deadline = time.monotonic() + 600  # a bound on the wait, not a speed asserted
        # build/print/ is the visible generation's: the PDFs appear with the build's commit
        while time.monotonic() < deadline and not (build / "print" / f"{GAME}-rules.pdf").exists():
            time.sleep(0.5)
        seen["rules page after"] = rules_page.read_text()

    monkeypatch.setattr("uvicorn.run", fake_run)
    result = CliRunner().invoke(app, ["serve", "--root", str(tmp_path), "--out", str(build)])
    assert result.exit_code == 0, result.output
    assert seen["pdfs at start"] == []
    assert "being laid out as PDFs" in seen["rules page at start"]
    assert "being laid out as PDFs" in seen["data page at start"]
    assert "PDFs: being laid out beside the server" in result.output
    assert f"{GAME}-rules.pdf" in seen["rules page after"]
    assert "being laid out" not in seen["rules page after"]

    monkeypatch.setattr("charnel.serve.background.PrintBuild",
                        lambda *a, **k: pytest.fail("laid out again"))
    monkeypatch.setattr("uvicorn.run", lambda *a, **k: None)
    again = CliRunner().invoke(app, ["serve", "--root", str(tmp_path), "--out", str(build)])
    assert again.exit_code == 0, again.output
    assert "PDFs:" not in again.output


def test_a_build_beside_the_server_that_fails_says_why(tmp_path: Path):
    from charnel.serve.background import PrintBuild

    said: list[str] = []
    build = PrintBuild(tmp_path / "no-project", None, tmp_path / "build", echo=said.append)
    build.watcher.join(120)
    assert said and said[-1].startswith("PDFs: not laid out (the build beside the server stopped")
    assert len(said) > 1  # the build's own words come first
    build.stop()
