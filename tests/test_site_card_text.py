"""A card's text on its page: the shortcut for plain sentences gives what markdown-it gives
for the text with its keywords and terms marked as references."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from projects import BUNDLED

from charnel import pipeline, registry, rows
from charnel.diagnostics import Problems
from charnel.site.links import Linker
from charnel.site.model import SiteModel


@pytest.fixture(scope="module",
                params=sorted(g for g in registry.available() if (BUNDLED / "cards" / g).is_dir()))
def model(request) -> SiteModel:
    problems = Problems()
    prepared = pipeline.prepare(BUNDLED, request.param, problems)
    assert prepared is not None and not problems
    return SiteModel(prepared.verified, list(prepared.outcomes), [], False)


def by_markdown_it(linker: Linker, text: str, printed: dict[str, str]) -> str:
    shortcut = rows.plain
    rows.plain = lambda text: False
    try:
        return linker.card_text(text, printed)
    finally:
        rows.plain = shortcut


def test_every_card_text_is_the_same_either_way(model):
    linker = Linker(model)
    shortcuts = 0
    for card in model.cards:
        if not card.text:
            continue
        printed = {u.text: u.keyword for u in model.keywords_of(card)}
        shortcuts += rows.plain(card.text)
        assert linker.card_text(card.text, printed) == by_markdown_it(
            linker, card.text, printed), card.slug
    assert shortcuts  # the shortcut is taken


# Words of no game, keyword-like and plain, mixed with the game's own glossary terms.
WORDS = ["Shield", "+1", "ward", "sacrifice", "a", "the", "(Ember).", "then", '"no"', "1.2a", ",",
         "  "]


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_made_up_texts_are_the_same_either_way(model, data):
    terms = [t.term for t, _ in model.terms]
    words = data.draw(st.lists(st.sampled_from(WORDS + terms), min_size=1, max_size=12))
    linker = Linker(model)
    text = " ".join(words)
    printed = {"Shield +1": "shield", "Ward": "ward"}
    assert linker.card_text(text, printed) == by_markdown_it(linker, text, printed)
