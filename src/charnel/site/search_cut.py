"""A searched page cut to what Pagefind reads of it: its `<main>` without the elements marked
`data-pagefind-ignore`, except a heading of the first rank (without a title of its own, a
page's title is its first `<h1>`, ignored or not).

Pagefind parses a whole page, ignored parts too, before it drops them: over a 10,000-card
site the cut pages take it about a fifth less CPU, and the bundle is the same bytes once
made canonical. The render workers write each searched page's cut beside the staged pages,
from the HTML they hold; a page kept from the last build is cut from its file when an index
needs it. The cut pages are the index's input only, never part of the site.
"""

from __future__ import annotations

import re

IGNORED = " data-pagefind-ignore"
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})
KEPT = frozenset({"h1"})
_TAG_NAME = re.compile(r"<([a-zA-Z][a-zA-Z0-9]*)")


def cut(html: str) -> bytes:
    """`html` reduced to its `<main>` less the ignored elements, as a page of its own."""
    start, end = html.find("<main"), html.rfind("</main>")
    if start < 0 or end < start:
        return html.encode("utf-8")  # not a page of the site's layout: Pagefind reads it all
    main = html[start:end + len("</main>")]
    kept, at = [], 0
    while (found := main.find(IGNORED, at)) >= 0:
        opening = main.rfind("<", at, found)
        name = _TAG_NAME.match(main, opening) if opening >= 0 else None
        if name is None or ">" in main[opening:found] or name.group(1) in KEPT:
            kept.append(main[at:found + len(IGNORED)])  # an attribute of a text, or a title
            at = found + len(IGNORED)
            continue
        kept.append(main[at:opening])
        at = _element_end(main, name.group(1), main.index(">", found) + 1)
    kept.append(main[at:])
    return ("<!DOCTYPE html><html><body>" + "".join(kept) + "</body></html>").encode("utf-8")


def _element_end(html: str, name: str, after: int) -> int:
    """Where the element named `name`, whose start tag ends at `after`, ends."""
    if name in VOID:
        return after
    closing, depth, at = f"</{name}>", 1, after
    nested = re.compile(rf"<{name}[\s>]|</{name}>")
    while depth:
        tag = nested.search(html, at)
        if tag is None:
            return len(html)
        depth += -1 if tag.group() == closing else 1
        at = tag.end()
    return at
