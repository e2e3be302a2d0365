"""The search language's page on the site, made from docs/search.md, the one description of
the language (its example queries run as tests, tests/test_query_docs.py)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt

import charnel
from charnel import templates

NAME = "search.md"


def source() -> Path:
    """docs/search.md in a checkout; the copy a built wheel carries in the package (setup.py)."""
    checkout = templates.root().parent / "docs" / NAME
    return checkout if checkout.is_file() else Path(charnel.__file__).parent / "docs" / NAME


@cache
def html() -> str:
    # commonmark with tables; raw HTML off: the page shows the document's words, nothing else
    return MarkdownIt("commonmark", {"html": False}).enable("table").render(
        source().read_text("utf-8")
    )
