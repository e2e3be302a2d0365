"""compile's shortcut for plain text must give exactly what the Markdown renderer gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from charnel import markdown
from charnel.compile import html, site_links

GAME = "dark-keep"  # any game's id: the links are under its folder of the site
ALPHABET = "AbcXyz019 ,.;:'\"()+-/?%=*_[]<>&#\\`!\n"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40), st.booleans())
def test_shortcut_matches_the_renderer(text, inline):
    want = markdown.render(text, site_links(GAME), inline=inline)
    assert html(text, site_links(GAME), inline=inline) == want


def test_shortcut_is_taken_and_agrees_on_typical_card_text():
    for text in ["Ward (Ember). Shield +1", 'Say "no".', "Move a stack, then draw 2."]:
        assert html(text, inline=True) == markdown.render(text, inline=True)
        assert html(text) == markdown.render(text)


def test_card_text_links_its_rule_numbers():
    # the cards table's text_html, as compile renders it: Datasette shows it as HTML
    shown = html("Shield +2 (see 1.1a and 10.4f).", site_links(GAME), inline=True)
    assert f'<a class="ref-rule" href="/{GAME}/rules/1.1a/">1.1a</a>' in shown
    assert f'<a class="ref-rule" href="/{GAME}/rules/10.4f/">10.4f</a>' in shown
