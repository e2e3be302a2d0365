"""The PDF renderer fetches nothing but the print templates' own files, and running heads show
the text, not its HTML entities."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from markupsafe import Markup, escape

from charnel.printing import render


class Counting(SimpleHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):  # noqa: N802 - the stdlib's name
        Counting.hits.append(self.path)
        self.send_error(404)

    def log_message(self, format, *args):  # noqa: A002
        pass


@pytest.fixture
def server(tmp_path):
    handler = functools.partial(Counting, directory=str(tmp_path))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    Counting.hits = []
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_a_page_naming_other_resources_fetches_none(server, tmp_path):
    secret = tmp_path / "secret.svg"
    secret.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>')
    markup = (
        f'<html><head><link rel="stylesheet" href="{server}/x.css">'
        f"<style>@import url({server}/y.css); p {{ background: url({server}/z.png) }}</style>"
        f'</head><body><p>text</p><img src="{server}/map.png"><img src="file://{secret}">'
        '<img src="/etc/hostname"></body></html>'
    )
    document = render.layout(markup)
    assert len(document.pages) == 1
    assert Counting.hits == []


@pytest.mark.parametrize(
    "url", ["file:///etc/hostname", "http://127.0.0.1:9/x.png", "ftp://127.0.0.1/x"]
)
def test_the_fetcher_refuses_what_is_not_a_template_file(url):
    with pytest.raises(ValueError, match="not fetched"):
        render._templates_only()(url)


def test_the_fetcher_serves_the_templates_css():
    css = render.templates_dir() / "print.css"
    response = render._templates_only()(css.as_uri())
    response.close()


def test_running_heads_show_text_not_entities():
    title = Markup(escape('<script>alert("x")</script> & Co'))
    shown = render.css_string(title)
    assert "&lt;" not in shown and "&amp;" not in shown
    assert shown == '"\\3C script>alert(\\"x\\")\\3C /script> & Co"'
