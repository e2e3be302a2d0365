"""The server is safe by default: hostile requests get a 4xx and no traceback, nothing a query
returns becomes HTML, every response carries the security headers. (The browser confirms the
policy holds in tests/browser/test_serve_browser.py.)"""

from __future__ import annotations

import asyncio
import logging
import time
from urllib.parse import quote, unquote

import pytest
from test_serve_datasette import GAME, Client, built  # noqa: F401 - the module's build, reused

from charnel.query import MAX_DEPTH, MAX_LENGTH

SCRIPT = "<img src=x onerror=alert(document.domain)>"


@pytest.fixture(scope="module")
def client(built) -> Client:  # noqa: F811
    return Client(built)


@pytest.fixture(scope="module")
def public(built) -> Client:  # noqa: F811
    return Client(built, public=True)


@pytest.fixture
def quiet(caplog, capfd):
    """Asserts, after the test, that nothing logged a traceback or an error."""
    caplog.set_level(logging.DEBUG)
    yield
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.mark.parametrize("column", ["x_html", "text_html", "x"])
def test_html_columns_of_a_query_are_escaped(client: Client, column: str):
    page = client.get(f"/sql/{GAME}", params={"sql": f"select :s as {column}", "s": SCRIPT})
    assert page.status_code == 200
    assert SCRIPT not in page.text
    assert "&lt;img src=x onerror=alert(document.domain)&gt;" in page.text


def test_stored_html_columns_still_render_on_table_and_row_pages(client: Client):
    row = client.get(f"/sql/{GAME}/cards/cinder-knight")
    assert '<a class="ref-' in row.text or "<p>" in row.text


def raw_get(client: Client, raw_path: str) -> tuple[int, dict[str, str], str]:
    """A GET sent as written (an HTTP client would tidy '..' and '//' away), its path decoded
    once as uvicorn does."""
    messages = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        messages.append(message)

    scope = {
        "type": "http",
        "method": "GET",
        "scheme": "http",
        "http_version": "1.1",
        "path": unquote(raw_path),
        "raw_path": raw_path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1")],
        "server": ("127.0.0.1", 80),
        "client": ("127.0.0.1", 1),
    }
    asyncio.run(client.app(scope, receive, send))
    start = messages[0]
    body = b"".join(m.get("body", b"") for m in messages[1:])
    headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    return start["status"], headers, body.decode("utf-8", "replace")


@pytest.mark.parametrize(
    "path",
    [
        "/%5Cevil.example/%252e%252e",
        "/%5Cevil.example/..",
        "/%2F%2Fevil.example/",
        "//evil.example/",
        "/cards/%2e%2e/%2e%2e/",
        f"/.charnel-site-{GAME}.marshal",
        "/cards/.hidden/",
        "/sql//evil.example/",
        "/sql/%5Cevil.example/",
        "/sql/\\evil.example/",
        f"/sql/{GAME}/../../etc/passwd",
        "/cards/../../../etc/passwd",
        "/cards/%2e%2e%2f%2e%2e%2fetc/passwd",
    ],
)
def test_no_path_redirects_off_the_site_or_reads_a_hidden_file(client: Client, path, quiet):
    status, headers, body = raw_get(client, path)
    assert 400 <= status < 500 or status in (301, 302)
    location = headers.get("location", "/")
    assert location.startswith("/") and not location.startswith(("//", "/\\"))
    assert "\\" not in location and ".." not in location
    assert GAME not in body or status != 200  # the manifest names the game


def test_a_folder_redirects_to_itself_with_a_slash(client: Client):
    response = client.get(f"/{GAME}/cards/cinder-knight")
    assert response.status_code == 301
    assert response.headers["location"] == f"/{GAME}/cards/cinder-knight/"


@pytest.mark.parametrize(
    "path, status",
    [
        ("/a%00b", 400),
        (f"/sql/{GAME}%00", 400),
        ("/cards/%1b[2J", 400),
        ("/" + "a" * 3000, 414),
        ("/" + "a/" * 300, 404),
        ("/" + "b" * 300, 404),
        ("/sql/nope", 404),
        ("/sql/nope/nope/nope/nope/x", 404),
        (f"/sql/{GAME}/cards/x/y/z", 404),
        (f"/sql/{GAME}/no_such_table", 404),
    ],
)
def test_bad_requests_are_4xx_without_a_traceback(client: Client, path, status, quiet):
    assert client.get(path).status_code == status


def test_an_overlong_query_string_is_refused(client: Client, quiet):
    assert client.get(f"/sql/{GAME}/cards?x=" + "a" * 9000).status_code == 414


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/cards/cinder-knight/",
        "/nope",
        "/sql/",
        f"/sql/{GAME}",
        f"/sql/{GAME}/cards",
        "/a%00b",
    ],
)
def test_every_response_carries_the_security_headers(client: Client, path: str):
    headers = client.get(path).headers
    csp = headers["content-security-policy"]
    script = next(p for p in csp.split("; ") if p.startswith("script-src"))
    assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script
    assert "frame-ancestors 'none'" in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert "cache-control" in headers


@pytest.mark.parametrize("path", [f"/sql/{GAME}.json", f"/sql/{GAME}/cards.json"])
def test_inert_responses_keep_nosniff_without_a_policy_they_cannot_use(client: Client, path):
    headers = client.get(path).headers
    assert headers["content-type"].startswith("application/json")
    assert "content-security-policy" not in headers
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("who", ["client", "public"])
def test_nested_searches_are_refused_at_once(request, who: str, quiet):
    c = request.getfixturevalue(who)
    for q in [
        "(" * 1000 + "a" + ")" * 1000,
        "(" * (MAX_DEPTH + 1) + "a" + ")" * (MAX_DEPTH + 1),
        "-" * 500 + "a",
        "a " * 600,
    ]:
        start = time.monotonic()
        response = c.get(f"/sql/{GAME}/-/search.json", params={"q": q})
        assert time.monotonic() - start < 1
        assert response.status_code == 400, q[:40]
        assert response.json()["error"]["message"]


def test_the_first_request_after_a_start_renders_no_page_of_its_own(built):  # noqa: F811
    """The policy's script hashes come from pages rendered when the server starts (the ASGI
    lifespan), not by the first visitor's request."""
    started = Client(built)
    rendered = []
    real = started.ds.client.get

    async def spy(path, *args, **kwargs):
        rendered.append(path)
        return await real(path, *args, **kwargs)

    started.ds.client.get = spy
    response = started.get(f"/sql/{GAME}/-/search", params={"q": "a " * 600})
    assert response.status_code == 400
    assert "script-src 'self' 'sha256-" in response.headers["content-security-policy"]
    assert rendered == []


def test_a_search_within_the_bounds_still_runs(client: Client):
    q = "(" * MAX_DEPTH + "knight" + ")" * MAX_DEPTH
    assert len(q) < MAX_LENGTH
    response = client.get(f"/sql/{GAME}/-/search.json", params={"q": q})
    assert response.status_code == 200
    assert [r["name"] for r in response.json()["rows"]] == ["Cinder Knight"]


@pytest.mark.parametrize("q", ["cost>99999999999999999999999", "cost:" + "9" * 5000])
def test_huge_numbers_in_a_search_are_a_4xx(client: Client, q: str, quiet):
    response = client.get(f"/sql/{GAME}/-/search.json", params={"q": q})
    assert response.status_code == 400


@pytest.mark.parametrize(
    "sql",
    [
        "select randomblob(999999999)",
        "select zeroblob(999999999)",
        "select printf('%.*c', 999999999, 'x')",
        "select replace(hex(zeroblob(400000)), '0', '0000000000')",
        "with recursive r(s) as (select 'x' union all select s || s from r) select length(s) "
        "from r",
    ],
)
def test_memory_heavy_sql_is_refused(client: Client, sql: str):
    response = client.get(f"/sql/{GAME}.json", params={"sql": sql})
    if response.status_code == 200:  # printf gives NULL for a result over the limit
        assert response.json()["rows"] == [[None]]
    else:
        assert response.status_code == 400
        assert "too big" in response.json()["error"]


def test_query_answers_are_bounded_in_rows(client: Client):
    sql = "with recursive r(n) as (select 1 union all select n + 1 from r) select n from r"
    data = client.get(f"/sql/{GAME}.json", params={"sql": sql, "_shape": "objects"}).json()
    assert len(data["rows"]) <= 101 and data["truncated"]


def test_the_site_refuses_writes(client: Client):
    assert client.post("/cards/cinder-knight/").status_code == 405


def test_a_redirect_keeps_its_query_encoded(client: Client):
    response = client.get("/cards/cinder-knight" + quote("?x=//evil.example"))
    assert response.status_code in (301, 404)


@pytest.mark.parametrize(
    "path, location",
    [(f"/sql/{GAME}/", f"/sql/{GAME}"), (f"/sql/{GAME}/cards/", f"/sql/{GAME}/cards")],
)
def test_datasette_redirects_stay_under_its_prefix(client: Client, path: str, location: str):
    response = client.get(path)
    assert response.status_code in (301, 302)
    assert response.headers["location"] == location


def test_datasette_csv_guards_formula_cells(client: Client):
    sql = (
        "select '=HYPERLINK(\"http://127.0.0.1:9/\")' as a, '@SUM(A1)' as b, -2 as n, "
        "'plain, \"quoted\"' as c"
    )
    for path in (f"/sql/{GAME}.csv", f"/sql/{GAME}.csv?_stream=on"):
        response = client.get(path, params={"sql": sql})
        assert response.status_code == 200
        lines = response.text.splitlines()
        assert lines[1] == (
            '"\'=HYPERLINK(""http://127.0.0.1:9/"")",\'@SUM(A1),-2,"plain, ""quoted"""'
        )
        assert int(response.headers["content-length"]) == len(response.content)


def test_a_csv_past_the_limit_is_refused_not_held(client: Client, monkeypatch, quiet):
    from charnel.serve import csvguard

    monkeypatch.setattr(csvguard, "MAX_BYTES", 100)
    response = client.get(f"/sql/{GAME}/cards.csv", params={"_stream": "on"})
    assert response.status_code == 413


BIG_CELLS = (  # four rows of a 900,000-character cell a spreadsheet would run as a formula
    "select '=' || replace(hex(zeroblob(450000)), '0', 'x') as big, n "
    "from (select 1 as n union all select 2 union all select 3 union all select 4)"
)


@pytest.mark.parametrize("stream", ["", "on"])
def test_a_csv_of_very_large_cells_streams_guarded(client: Client, quiet, stream):
    response = client.get(f"/sql/{GAME}.csv", params={"sql": BIG_CELLS, "_stream": stream})
    assert response.status_code == 200, response.text[:500]
    rows = response.text.splitlines()
    assert len(rows) == 5 and rows[0] == "big,n"
    for n, row in enumerate(rows[1:], start=1):
        assert row == "'=" + "x" * 900_000 + f",{n}"


def test_a_csv_past_the_limit_after_it_began_ends_with_a_line_that_says_so(
        client: Client, monkeypatch, quiet):
    from charnel.serve import csvguard

    monkeypatch.setattr(csvguard, "HOLD", 1000)
    monkeypatch.setattr(csvguard, "MAX_BYTES", 2_000_000)
    response = client.get(f"/sql/{GAME}.csv", params={"sql": BIG_CELLS, "_stream": "on"})
    assert response.status_code == 200
    assert response.content.endswith(b"\n" + csvguard.TOO_LARGE)
    assert len(response.content) < 2_000_000


def test_a_logged_request_shows_control_characters_escaped():
    import io

    from charnel.serve import errors

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    errors.log.addHandler(handler)
    try:
        try:
            raise ValueError("no such column: x\x1b]0;owned\x07")
        except ValueError as exc:
            errors.log.error("%s %s", "GET", "/sql/\x1b[2J", exc_info=exc)
    finally:
        errors.log.removeHandler(handler)
    text = stream.getvalue()
    assert "\x1b" not in text and "\x07" not in text
    assert "GET /sql/\\x1b[2J" in text and "x\\x1b]0;owned\\x07" in text
