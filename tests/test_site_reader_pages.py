"""What a card page offers a reader beyond itself: a JSON file, link previews, its neighbours
in its set, and a Datasette link only where Datasette answers."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    return built_site[1]


def card_pages(site: Path) -> list[Path]:
    return sorted(p for p in site.glob("cards/*/index.html") if (p.parent / "card.svg").exists())


class Head(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.links: list[dict[str, str]] = []
        self.h1 = ""
        self._in_h1 = False

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "meta" and ("name" in a or "property" in a):
            self.meta[a.get("name") or a["property"]] = a.get("content", "")
        elif tag == "a" or tag == "link":
            self.links.append(a)
        self._in_h1 = tag == "h1" or self._in_h1

    def handle_endtag(self, tag):
        if tag == "h1":
            self._in_h1 = False

    def handle_data(self, data):
        if self._in_h1:
            self.h1 += data


def parse(page: Path) -> Head:
    head = Head()
    head.feed(page.read_text("utf-8"))
    return head


def test_every_card_has_a_json_file(site: Path):
    pages = card_pages(site)
    assert len(pages) > 100
    for page in pages:
        record = json.loads((page.parent / "card.json").read_text("utf-8"))
        assert record["id"] == page.parent.name and record["game"] == site.name
        assert record["name"] == parse(page).h1.strip()
        assert {"text", "type", "rulings", "group"} <= record.keys()
        alternate = [a for a in parse(page).links if a.get("rel") == "alternate"]
        assert alternate and alternate[0]["href"] == "card.json"


def test_a_card_file_is_indented_json_with_its_characters_as_they_are(site: Path):
    for page in card_pages(site):
        text = (page.parent / "card.json").read_text("utf-8")
        assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=1) + "\n"


def test_every_page_has_a_description_and_open_graph_tags(site: Path):
    # the game's folder and the site's own pages (its home, the page for a missing one)
    for page in sorted(site.rglob("*.html")) + sorted(site.parent.glob("*.html")):
        meta = parse(page).meta
        if "refresh" in page.read_text("utf-8")[:600]:
            continue  # a redirect to a clause, not a page of its own
        assert meta.get("description"), page
        assert meta.get("og:title") and meta.get("og:description") == meta["description"], page
        assert meta.get("og:type") == "website" and meta.get("og:site_name"), page


def test_a_card_description_says_what_the_card_does(site: Path):
    meta = parse(site / "cards" / "grave-hound" / "index.html").meta
    record = json.loads((site / "cards" / "grave-hound" / "card.json").read_text("utf-8"))
    assert meta["description"].startswith("Grave Hound: ")
    assert record["text"].split()[0] in meta["description"]
    assert all(len(parse(p).meta["description"]) <= 200 for p in card_pages(site))


def test_previous_and_next_walk_a_set_in_its_order(site: Path):
    sets: dict[str, list[str]] = {}
    for page in card_pages(site):
        record = json.loads((page.parent / "card.json").read_text("utf-8"))
        sets.setdefault(record["group"], []).append((record["number"], record["id"]))
    for group, members in sets.items():
        order = [slug for _, slug in sorted(members)]
        walked, slug = [], order[0]
        while slug:
            walked.append(slug)
            links = parse(site / "cards" / slug / "index.html").links
            nexts = [a["href"] for a in links if a.get("rel") == "next"]
            prevs = [a["href"] for a in links if a.get("rel") == "prev"]
            if len(walked) > 1:
                assert prevs == [f"../{walked[-2]}/"]
            else:
                assert prevs == []
            slug = re.fullmatch(r"\.\./([^/]+)/", nexts[0])[1] if nexts else None
        assert walked == order, group


def test_the_datasette_link_is_hidden_until_datasette_answers(site: Path):
    text = (site / "cards" / "grave-hound" / "index.html").read_text("utf-8")
    hidden = re.search(r'<span data-datasette hidden>.*?href="([^"]+)"', text)
    assert hidden and hidden[1].endswith("/cards/grave-hound")
