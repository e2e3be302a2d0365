"""Datasette over Dice Duel (tests/games/), the second game: its facets, every column
described, every canned query answering. (Apart from the other stages in test_games_second.py:
Datasette's threads outlive a test, and the loader's tests need a process without them.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from projects import DUEL, copy_project
from typer.testing import CliRunner

from charnel import registry
from charnel.cli import app

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("duel")
    copy_project(root, DUEL)
    result = CliRunner().invoke(app, ["build", "--root", str(root), "--out", str(root / "build")])
    assert result.exit_code == 0, result.output
    return root


def test_datasette_serves_the_game(built: Path):
    """Datasette over the game's database: its facets, every column described, every canned
    query answering."""
    import asyncio
    import json

    import httpx

    from charnel import schema
    from charnel.serve.app import application, make_datasette

    build = built / "build"
    ds = make_datasette({"dice-duel": build / "dice-duel.db"}, build / "ds", public=False,
                        site=False)
    app = application(ds, None)

    async def get(path: str) -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            return await c.get(path)

    cards = asyncio.run(get("/sql/dice-duel/cards.json"))
    assert cards.status_code == 200, cards.text[:300]
    assert {"clan", "type", "set_code"} <= set(cards.json()["facet_results"])
    metadata = json.loads((build / "ds" / "metadata.json").read_text())
    described = metadata["databases"]["dice-duel"]
    columns = described["tables"]["cards"]["columns"]
    game_schema = schema.for_game(registry.get("dice-duel"))
    assert set(columns) == set(game_schema.table("cards").columns.keys())
    assert columns["might"] == "What the champion adds to each blow."
    for name in described["queries"]:
        assert asyncio.run(get(f"/sql/dice-duel/{name}")).status_code == 200, name
