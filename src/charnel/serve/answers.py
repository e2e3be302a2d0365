"""Answers the games give beside their static pages (`Game.site_answers`): a GET with query
parameters in, JSON out. The path is matched exactly against the games' own list, never
turned into a file name; the query string is bounded by the guard (`security.MAX_QUERY`),
and each answer runs in a worker thread so a slow one never holds the event loop."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qsl

import anyio

from charnel import registry


def routes(site_dir: Path) -> dict[str, tuple[Path, object]]:
    """{'/<game>/<path>': (the game's folder of the site, answer)} for every game that the
    site holds."""
    found = {}
    for game_id, game in sorted(registry.available().items()):
        folder = site_dir / game_id
        if not folder.is_dir():
            continue
        for path, answer in game.site_answers().items():
            found[f"/{game_id}/{path}"] = (folder, answer)
    return found


async def respond(scope, send, folder: Path, answer) -> None:
    if scope.get("method") not in ("GET", "HEAD"):
        status, data = 405, {"error": "only GET is answered here"}
    else:
        try:
            query = dict(
                parse_qsl(scope.get("query_string", b"").decode("utf-8"), max_num_fields=8)
            )
        except (UnicodeDecodeError, ValueError):
            status, data = 400, {"error": "the query string is not readable"}
        else:
            status, data = await anyio.to_thread.run_sync(answer, folder, query)
    body = json.dumps(data, sort_keys=True, ensure_ascii=False).encode()
    headers = [
        (b"content-type", b"application/json; charset=utf-8"),
        (b"cache-control", b"no-store"),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
