"""Cave Evil's pages in Chromium: a search, a deck's composition, a card page with its face
and its link into the fight calculator, and a card list filtered by species."""

from __future__ import annotations

import functools
import sqlite3
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import QuietHandler

from charnel import pipeline

pytestmark = pytest.mark.browser
REPO = Path(__file__).resolve().parents[4]
GAME = "cave-evil"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cave-evil-site")
    pipeline.build_all(REPO, [GAME], out, force=True, site=True)
    return out


@pytest.fixture(scope="module")
def site(built):
    handler = functools.partial(QuietHandler, directory=str(built / "site"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/{GAME}"
    server.shutdown()
    server.server_close()


def test_search_finds_a_card(page, site):
    page.goto(f"{site}/search/?q=ghoul")
    link = page.locator(f"#results li a[href='/{GAME}/cards/ghoul/']")
    link.first.wait_for(timeout=10_000)
    link.first.click()
    page.wait_for_url("**/cards/ghoul/")
    assert page.locator("h1").inner_text() == "Ghoul"


def test_deck_page_gives_the_event_chance(page, site, built):
    conn = sqlite3.connect(built / f"{GAME}.db")
    events, copies = conn.execute(
        "select events, copies from deck_composition where deck = 'summon'").fetchone()
    conn.close()
    page.goto(f"{site}/decks/")
    page.locator("a[href='summon/']").click()
    page.wait_for_url("**/decks/summon/")
    lead = page.locator(".lead").inner_text()
    assert f"{events}/{copies}" in lead and f"{events / copies * 100:.1f}%" in lead
    rows = page.locator("#deck-cards tbody tr")
    assert sum(int(rows.nth(i).locator("td").nth(2).inner_text())
               for i in range(rows.count())) == copies == 70
    rows.first.locator("a").click()
    page.wait_for_url(f"**/{GAME}/cards/**")


def test_card_page_draws_its_face_and_opens_the_calculator(page, site):
    page.goto(f"{site}/cards/ghoul/")
    face = page.locator("figure.face img")
    page.wait_for_function("() => document.querySelector('figure.face img').naturalWidth > 0")
    assert "Ghoul" in face.get_attribute("alt")
    page.get_by_role("link", name="Fight with it in the calculator").click()
    page.wait_for_url("**/fight/**")
    attacker = page.locator("#attacker .squad li")
    attacker.first.wait_for(timeout=10_000)
    assert "Ghoul" in attacker.first.inner_text()


def test_a_card_without_rules_text_has_no_empty_text_box(page, site, built):
    conn = sqlite3.connect(built / f"{GAME}.db")
    (plain,) = conn.execute("select id from cards where coalesce(text, '') = '' limit 1").fetchone()
    (worded,) = conn.execute("select id from cards where text != '' limit 1").fetchone()
    conn.close()
    page.goto(f"{site}/cards/{plain}/")
    assert page.locator(".card-text").count() == 0
    page.goto(f"{site}/cards/{worded}/")
    assert page.locator(".card-text").inner_text().strip()


def test_a_card_page_shows_words_not_encodings(page, site):
    page.goto(f"{site}/cards/ghoul/")
    facts = page.locator("dl.facts").inner_text()
    assert "_" not in facts
    assert "Carry\t" in facts or "Carry\n" in facts
    assert "_" not in page.locator("figure.face img").get_attribute("alt")


def test_a_card_list_filters_by_species(page, site, built):
    conn = sqlite3.connect(built / f"{GAME}.db")
    (undead,) = conn.execute(
        "select count(*) from cards, json_each(cards.species) where value = 'Undead'").fetchone()
    conn.close()
    page.goto(f"{site}/cards/")
    page.locator("select[data-filter='species']").select_option("Undead")
    assert page.locator("[data-count]").inner_text().startswith(f"{undead} of ")
    page.goto(f"{site}/cards/by-species/Undead/")
    assert page.locator("table.cards tbody tr").count() == undead


def test_a_card_list_filters_by_a_number_range(page, site, built):
    conn = sqlite3.connect(built / f"{GAME}.db")
    (strong,) = conn.execute("select count(*) from cards where st between 10 and 12").fetchone()
    (walkers,) = conn.execute("select count(*) from cards where movement >= 5").fetchone()
    conn.close()
    page.goto(f"{site}/cards/?number=st&min=10&max=12")
    assert page.locator("[data-count]").inner_text().startswith(f"{strong} of ")
    page.locator("select[data-filter-number]").select_option("movement")
    page.locator("[data-filter-max]").fill("")
    page.locator("[data-filter-min]").fill("5")
    assert page.locator("[data-count]").inner_text().startswith(f"{walkers} of ")


def test_every_card_page_shows_its_drawn_face(built):
    from charnel import registry
    from charnel.sources import loader

    game = registry.get(GAME)
    records = loader.load_or_raise(REPO, GAME)
    for card in records.cards:
        face = built / "site" / GAME / "cards" / card.slug / "card.svg"
        assert face.read_text(encoding="utf-8") == game.draw_card(card), card.slug
