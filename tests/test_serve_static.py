"""How `charnel serve` sends the site's files: validators, 304s, caching by name, compression."""

from __future__ import annotations

import asyncio
import gzip
from pathlib import Path

import httpx
import pytest

from charnel.serve.site import static_site
from charnel.serve.static import IMMUTABLE, SHORT

PAGE = "<!doctype html><title>Grave Hound</title>" + "<p>A hound of the grave.</p>" * 40
FRAGMENT = gzip.compress(b"pagefind_frag" + b"x" * 2000, mtime=0)


class Client:
    """Synchronous requests into the ASGI app, each on a fresh event loop."""

    def __init__(self, app):
        self.app = app

    def get(self, path: str, **kwargs) -> httpx.Response:
        return asyncio.run(self._request("GET", path, **kwargs))

    def post(self, path: str, **kwargs) -> httpx.Response:
        return asyncio.run(self._request("POST", path, **kwargs))

    async def _request(self, method: str, path: str, **kwargs) -> httpx.Response:
        transport = httpx.ASGITransport(app=self.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            return await client.request(method, path, **kwargs)


@pytest.fixture
def client(tmp_path: Path) -> Client:
    site = tmp_path / "site"
    (site / "cards" / "grave-hound").mkdir(parents=True)
    (site / "cards" / "grave-hound" / "index.html").write_text(PAGE)
    (site / "index.html").write_text(PAGE)
    (site / "404.html").write_text("<!doctype html><title>Not here</title>")
    bundle = site / "pagefind"
    (bundle / "fragment").mkdir(parents=True)
    (bundle / "fragment" / "en_1a2b3c4.pf_fragment").write_bytes(FRAGMENT)
    (bundle / "pagefind.en_0123456789.pf_meta").write_bytes(FRAGMENT)
    (bundle / "pagefind-entry.json").write_text('{"version":"1.5.2"}')
    return Client(static_site(site))


def test_pages_have_validators_and_short_caching(client):
    response = client.get("/cards/grave-hound/")
    assert response.status_code == 200 and response.text == PAGE
    assert response.headers["etag"] and response.headers["last-modified"]
    assert response.headers["cache-control"] == SHORT
    assert response.headers["content-type"].startswith("text/html")


@pytest.mark.parametrize(
    "path",
    ["/pagefind/fragment/en_1a2b3c4.pf_fragment", "/pagefind/pagefind.en_0123456789.pf_meta"],
)
def test_content_hashed_files_are_immutable_and_sent_as_they_are(client, path):
    response = client.get(path, headers={"accept-encoding": "br, gzip"})
    assert response.headers["cache-control"] == IMMUTABLE
    assert response.headers["content-type"] == "application/octet-stream"
    assert "content-encoding" not in response.headers  # a gzip stream already
    assert response.content == FRAGMENT


def test_pagefind_entry_file_is_not_immutable(client):
    assert client.get("/pagefind/pagefind-entry.json").headers["cache-control"] == SHORT


@pytest.mark.parametrize("validator", ["etag", "last-modified"])
def test_revalidation_answers_304_without_a_body(client, validator):
    first = client.get("/cards/grave-hound/")
    ask = {"etag": "if-none-match", "last-modified": "if-modified-since"}[validator]
    again = client.get("/cards/grave-hound/", headers={ask: first.headers[validator]})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["cache-control"] == SHORT
    assert again.headers["etag"] == first.headers["etag"]


def test_a_changed_file_is_sent_again(client, tmp_path):
    first = client.get("/cards/grave-hound/")
    page = tmp_path / "site" / "cards" / "grave-hound" / "index.html"
    page.write_text(PAGE + "<p>Edited.</p>")
    again = client.get("/cards/grave-hound/", headers={"if-none-match": first.headers["etag"]})
    assert again.status_code == 200 and again.text.endswith("<p>Edited.</p>")


def test_brotli_when_accepted(client):
    response = client.get("/", headers={"accept-encoding": "gzip, deflate, br"})
    assert response.headers["content-encoding"] == "br"
    assert "accept-encoding" in response.headers["vary"].lower()
    assert int(response.headers["content-length"]) < len(PAGE) / 3
    assert response.text == PAGE  # unpacked by httpx, which reads brotli when it is installed


def test_gzip_when_brotli_is_not_accepted(client):
    response = client.get("/", headers={"accept-encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip"
    assert response.text == PAGE


@pytest.mark.parametrize("header", ["identity", "br;q=0, gzip;q=0", ""])
def test_plain_when_no_coding_is_accepted(client, header):
    response = client.get("/", headers={"accept-encoding": header})
    assert "content-encoding" not in response.headers and response.text == PAGE


def test_folders_and_missing_pages(client):
    moved = client.get("/cards/grave-hound", follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == "/cards/grave-hound/"
    missing = client.get("/cards/nobody/")
    assert missing.status_code == 404 and "Not here" in missing.text
    assert client.get("/../../etc/passwd").status_code == 404


def test_the_site_is_read_only(client):
    assert client.post("/cards/grave-hound/").status_code == 405
