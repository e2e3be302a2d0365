"""compile's shortcut for plain text must give exactly what the Markdown renderer gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from charnel import markdown
from charnel.compile import html, site_links

ALPHABET = "AbcXyz019 ,.;:'\"()+-/?%=*_[]<>&#\\`!\n"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40), st.booleans())
def test_shortcut_matches_the_renderer(text, inline):
    want = markdown.render(text, site_links("hecatomb"), inline=inline)
    assert html(text, site_links("hecatomb"), inline=inline) == want


def test_shortcut_is_taken_and_agrees_on_typical_card_text():
    for text in ["Evader (Corruption). Reaper +1", 'Say "no".', "Move a stack, then draw 2."]:
        assert html(text, inline=True) == markdown.render(text, inline=True)
        assert html(text) == markdown.render(text)
