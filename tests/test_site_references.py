"""Every rule number a reader sees on the site is a link, wherever it is written."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from charnel.markdown import render
from charnel.sources.rules_md import RULE_REF

# Text that shows a number without referring to a rule: a link already, code, a heading
# naming its own clause, a version.
NOT_REFERENCES = {"a", "code", "pre", "script", "style", "title", "h1", "h2", "h3", "h4"}


class UnlinkedNumbers(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "img", "meta", "link", "input", "hr", "source"):
            return
        skip = tag in NOT_REFERENCES or "version" in (dict(attrs).get("class") or "").split()
        self.stack.append(skip)

    def handle_endtag(self, tag):
        if self.stack and tag not in ("br", "img", "meta", "link", "input", "hr", "source"):
            self.stack.pop()

    def handle_data(self, data):
        if not any(self.stack):
            self.found += [m[1] for m in RULE_REF.finditer(data)]


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    return built_site[1]


def test_no_rule_number_on_the_site_is_plain_text(site):
    unlinked = {}
    for page in sorted(site.rglob("*.html")):
        parser = UnlinkedNumbers()
        parser.feed(page.read_text("utf-8"))
        if parser.found:
            unlinked[page.relative_to(site).as_posix()] = parser.found
    assert unlinked == {}


@pytest.mark.parametrize(
    "text",
    [
        "the turn ends (see 12.6a).",
        "as 9.7e and 13.1c say",
        "**strong 8.6a** words",
        "a [[term]] then 4.5c",
    ],
)
def test_a_rule_number_inside_a_run_of_words_is_linked(text):
    html = render(text, lambda kind, target: f"/{kind}/{target}/")
    numbers = [m[1] for m in RULE_REF.finditer(text)]
    assert all(f'href="/rule/{n}/"' in html for n in numbers), html
