"""The search language's page on the site, made from docs/search.md, the one description of
the language (its example queries run as tests, tests/test_query_docs.py)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt

import charnel
from charnel import templates

NAME = "search.md"
# Sections of the document for those who write a game package, not for players: the site
# leaves them out.
NOT_FOR_PLAYERS = ("How a static copy searches by field", "For game authors")


def source() -> Path:
    """docs/search.md in a checkout; the copy a built wheel carries in the package (setup.py)."""
    checkout = templates.root().parent / "docs" / NAME
    return checkout if checkout.is_file() else Path(charnel.__file__).parent / "docs" / NAME


@cache
def html() -> str:
    # commonmark with tables; raw HTML off: the page shows the document's words, nothing else
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = _for_players(md.parse(source().read_text("utf-8")))
    for token in tokens:
        if token.children:
            token.children = _without_document_links(token.children)
    return md.renderer.render(tokens, md.options, {})


def _for_players(tokens: list) -> list:
    """The tokens without the sections NOT_FOR_PLAYERS names (a heading of level 2 to the
    next one)."""
    kept, skipping = [], False
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h2":
            skipping = tokens[i + 1].content in NOT_FOR_PLAYERS
        if not skipping:
            kept.append(token)
    return kept


def _without_document_links(children: list) -> list:
    """A link to another file of docs/ (`security.md`) is a page the site does not have: its
    words stay, the link goes. Web addresses and anchors stay links."""
    kept, dropped = [], []
    for child in children:
        if child.type == "link_open":
            href = child.attrGet("href") or ""
            dropped.append(not href.startswith(("http://", "https://", "#")))
            if dropped[-1]:
                continue
        elif child.type == "link_close" and dropped.pop():
            continue
        kept.append(child)
    return kept
