"""Live reload (`charnel serve --watch`): the script only pages served while watching carry,
and the event stream that tells a page its problems and when its file changed."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

import pytest
from test_serve_static import PAGE, Client

from charnel.serve import live as live_module
from charnel.serve.live import EVENTS, SCRIPT, Live
from charnel.serve.site import static_site

FILE = "cards/grave-hound/index.html"
SHA = hashlib.sha256(PAGE.encode()).hexdigest()


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "cards" / "grave-hound").mkdir(parents=True)
    (site / FILE).write_text(PAGE)
    (site / "404.html").write_text("<!doctype html><html><head><title>Not here</title></head>")
    (site / "a-game").mkdir()
    (site / "a-game" / "sw.js").write_text("self.addEventListener('fetch', () => {});")
    return site


@pytest.fixture
def live(tmp_path: Path, monkeypatch) -> Live:
    files = {FILE: SHA, "assets/site.css": "1" * 64}
    # the visible build's record of its outputs, as the build writes it (size, time, inode, sha)
    monkeypatch.setattr(live_module, "_record", lambda out_dir: {
        f"site/{rel}": [1, 1, 1, sha] for rel, sha in files.items()})
    found = Live(tmp_path / "build")
    found.next_files = files  # what the next build's record holds (the test changes it)
    return found


def test_pages_of_a_plain_serve_carry_nothing(site):
    client = Client(static_site(site))
    assert client.get("/cards/grave-hound/").text == PAGE
    assert client.get("/a-game/sw.js").status_code == 200


def test_pages_served_while_watching_name_their_file_and_bytes(site, live):
    client = Client(static_site(site, live))
    page = client.get("/cards/grave-hound/")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    assert "etag" not in page.headers  # the next build may change the page under its name
    assert f'<script src="{SCRIPT}" data-file="{FILE}" data-sha="{SHA}"' in page.text
    assert page.text.replace(page.text[page.text.index("<script"):page.text.index(
        "</script>") + 9], "") == PAGE
    missing = client.get("/cards/nothing/")
    assert missing.status_code == 404 and 'data-file="404.html"' in missing.text
    assert missing.text.index("<script") < missing.text.index("</head>")


def test_the_offline_worker_is_not_offered_while_watching(site, live):
    (site / "a-game" / "deck.js").write_text("let deck = [];")
    client = Client(static_site(site, live))
    assert client.get("/a-game/sw.js").status_code == 404
    script = client.get("/a-game/deck.js")
    assert script.text == "let deck = [];"  # other files as they are
    assert script.headers["cache-control"] == "no-cache"  # asked again after each save


def _events(live: Live, query: str):
    """The stream's messages and its status, once it ends."""
    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def receive():
        await asyncio.Event().wait()  # the page stays open

    scope = {"type": "http", "method": "GET", "path": EVENTS, "query_string": query.encode()}
    return live.routes()[EVENTS](scope, receive, send), sent


def _text(sent: list[dict]) -> str:
    return b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body").decode()


@pytest.mark.parametrize("query", [
    "", f"file=../../etc/passwd&sha={SHA}", f"file={FILE}&sha=nothex", f"file=/{FILE}&sha={SHA}",
])
def test_a_stream_is_for_a_page_of_the_site(live, query):
    stream, sent = _events(live, query)
    asyncio.run(stream)
    assert sent[0]["status"] == 400


def test_a_stream_tells_problems_as_text_then_the_reload(live, monkeypatch):
    monkeypatch.setattr(live_module, "KEEPALIVE_S", 0.05)
    assets = live.assets
    live.publish(["cards/x.yaml:3:7: cost: not a number\n    3 | cost: <b>2</b>"],
                 "1 problem in 1 file")

    async def scenario():
        stream, sent = _events(live, f"file={FILE}&sha={SHA}&assets={assets}")
        task = asyncio.create_task(stream)
        while "event: problems" not in _text(sent):
            await asyncio.sleep(0.01)
        live.publish([])  # fixed, and this page's file unchanged: the problems go
        while _text(sent).count("event: problems") < 2:
            await asyncio.sleep(0.01)
        assert not task.done()
        live.next_files[FILE] = "2" * 64  # a build changed the page
        live.publish([])
        await asyncio.wait_for(task, 5)
        return sent

    sent = asyncio.run(scenario())
    assert sent[0]["status"] == 200
    assert (b"content-type", b"text/event-stream; charset=utf-8") in sent[0]["headers"]
    blocks = [b for b in _text(sent).split("\n\n") if b.startswith("event:")]
    told = [json.loads(b.split("data: ", 1)[1]) for b in blocks if "problems" in b]
    assert told[0]["summary"] == "1 problem in 1 file"
    assert told[0]["problems"] == ["cards/x.yaml:3:7: cost: not a number\n    3 | cost: <b>2</b>"]
    assert told[1]["problems"] == []
    assert blocks[-1].startswith("event: reload")


def test_a_changed_stylesheet_reloads_every_page(live):
    live.next_files["assets/site.css"] = "3" * 64
    before = live.assets
    live.publish([])
    stream, sent = _events(live, f"file={FILE}&sha={SHA}&assets={before}")
    asyncio.run(asyncio.wait_for(stream, 5))
    assert "event: reload" in _text(sent)


def test_publish_says_which_files_changed(live):
    live.next_files[FILE] = "4" * 64
    live.next_files["cards/new/index.html"] = "5" * 64
    assert live.publish([]) == ["cards/grave-hound/index.html", "cards/new/index.html"]
    assert live.publish(["a problem"]) == []  # a failed build changed nothing


def test_a_page_the_build_removed_reloads(live):
    del live.next_files[FILE]  # its card renamed
    live.publish([])
    stream, sent = _events(live, f"file={FILE}&sha={SHA}&assets={live.assets}")
    asyncio.run(asyncio.wait_for(stream, 5))
    assert "event: reload" in _text(sent)


def test_watching_serves_with_one_worker(tmp_path):
    from typer.testing import CliRunner

    from charnel.cli import app

    said = CliRunner().invoke(app, ["serve", "--watch", "--workers", "2", "--root",
                                    str(tmp_path)])
    assert said.exit_code == 1 and "--watch serves with one worker" in said.output


def test_the_files_after_a_build_are_found_from_the_entries_it_made_anew():
    """A record made from its parent's shares the entries of the files it did not visit: the
    site's files are updated from those that are new objects, the same as made whole."""
    before = {"db.db": [1, 1, 1, "a" * 64], "site/a/index.html": [2, 2, 2, "b" * 64],
              "site/b/index.html": [3, 3, 3, "c" * 64], "site/gone.svg": [4, 4, 4, "d" * 64]}
    after = dict(before)
    del after["site/gone.svg"]
    after["site/a/index.html"] = [5, 5, 5, "e" * 64]
    after["site/b/index.html"] = [6, 6, 6, "c" * 64]  # written again, the same bytes
    after["site/new.html"] = [7, 7, 7, "f" * 64]
    files, changed = live_module._updated(before, after, live_module._site_files(before))
    assert files == live_module._site_files(after)
    assert changed == ["a/index.html", "gone.svg", "new.html"]


def test_a_preview_shows_the_page_the_build_will_commit_before_it_does(site, live):
    """A build hands over the few files it rendered first: their pages reload to those bytes
    at once, and once the build commits the same bytes, nothing reloads again."""
    new = PAGE + "<p>edited</p>"
    new_sha = hashlib.sha256(new.encode()).hexdigest()
    face = b'<svg xmlns="http://www.w3.org/2000/svg"/>'
    live.preview({FILE: new.encode(), "cards/grave-hound/card.svg": face})
    client = Client(static_site(site, live))
    page = client.get("/cards/grave-hound/")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    assert f'data-file="{FILE}" data-sha="{new_sha}"' in page.text and "edited" in page.text
    shown = client.get("/cards/grave-hound/card.svg")
    assert shown.content == face and shown.headers["content-type"].startswith("image/svg+xml")
    assert client.get("/cards/grave-hound/index.html").text == page.text
    stream, sent = _events(live, f"file={FILE}&sha={SHA}&assets={live.assets}")
    asyncio.run(asyncio.wait_for(stream, 5))
    assert "event: reload" in _text(sent)  # the page open before the save

    live.next_files[FILE] = new_sha  # committed: the bytes the preview showed
    assert live.publish([]) == [FILE]  # changed since the visible build all the same
    assert not live._reload_needed(FILE, new_sha, live.assets)
    assert "edited" not in client.get("/cards/grave-hound/").text  # the disk's (this test's)


def test_a_build_that_fails_after_its_preview_shows_the_files_before_again(site, live):
    live.preview({FILE: b"<html><head></head>never committed</html>",
                  "cards/new-card/index.html": b"<html>new</html>"})
    assert live._reload_needed(FILE, SHA, live.assets)
    live.publish(["cards/x.yaml: a problem found later"], "1 problem in 1 file")
    assert not live._reload_needed(FILE, SHA, live.assets)  # the old page is the one shown
    assert "cards/new-card/index.html" not in live.files
    client = Client(static_site(site, live))
    assert "never committed" not in client.get("/cards/grave-hound/").text
    assert client.get("/cards/new-card/").status_code == 404
