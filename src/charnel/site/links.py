"""Turning references in authored text into site links.

Rules text and rulings already mark their references (rule numbers, [[terms]]); card text is
written as printed, so its keywords and glossary terms are found here and marked before it is
rendered. Rendering is always markdown-it-py with raw HTML off.
"""

from __future__ import annotations

import re
from functools import cached_property

from charnel import markdown, rows
from charnel.site.model import SiteModel


class Linker:
    def __init__(self, model: SiteModel):
        self.model = model
        # each distinct text rendered once a build: card texts, the texts of their facts and
        # rulings repeat across cards, and making their HTML was most of a card page's context
        self._html: dict[tuple[str, bool], str] = {}
        self._card_text: dict[tuple, str] = {}

    def resolve(self, kind: str, target: str) -> str | None:
        if kind == "rule":
            return self.model.clause_url(target)
        if target in self.model.term_by_slug:
            return self.model.urls.term(target)
        return None

    def html(self, text: str, *, inline: bool = False) -> str:
        """Authored Markdown (rules, definitions, rulings) as HTML with references linked."""
        found = self._html.get((text, inline))
        if found is None:  # plain sentences skip markdown-it
            found = self._html[text, inline] = rows.html(text, self.resolve, inline=inline)
        return found

    @cached_property
    def _term_pattern(self) -> re.Pattern | None:
        names: dict[str, str] = {}
        for term, lore in self.model.terms:
            if lore:
                continue
            for name in [term.term, *term.aliases]:
                if len(name) > 2:
                    names.setdefault(name.lower(), term.slug)
        self._term_slugs = names
        if not names:
            return None
        alts = "|".join(re.escape(n) for n in sorted(names, key=lambda n: (-len(n), n)))
        return re.compile(rf"(?<![\w\[|])({alts})(?![\w\]])", re.IGNORECASE)

    def card_text(self, text: str, keyword_texts: dict[str, str]) -> str:
        """Printed card text as HTML: each keyword links to its term, and the first mention
        of each other glossary term links to it. `keyword_texts` maps printed text -> slug."""
        key = (text, *keyword_texts.items())
        found = self._card_text.get(key)
        if found is None:
            found = self._card_text[key] = self._linked(text, keyword_texts)
        return found

    def _linked(self, text: str, keyword_texts: dict[str, str]) -> str:
        spans: list[tuple[int, int, str]] = []  # (start, end, slug), never overlapping
        lowered = text.lower()
        for printed, slug in sorted(keyword_texts.items(), key=lambda p: -len(p[0])):
            start = lowered.find(printed.lower())
            while start >= 0:
                end = start + len(printed)
                if not _overlaps(spans, start, end):
                    spans.append((start, end, slug))
                start = lowered.find(printed.lower(), end)
        pattern = self._term_pattern
        if pattern is not None:
            seen = {slug for _, _, slug in spans}
            for m in pattern.finditer(text):
                slug = self._term_slugs[m[1].lower()]
                if slug not in seen and not _overlaps(spans, m.start(), m.end()):
                    spans.append((m.start(), m.end(), slug))
                    seen.add(slug)
        if rows.plain(text):
            # plain sentences with links where the spans are: what markdown-it gives for the
            # marked text (tests/test_site_references.py holds the two together)
            out, last = [], 0
            for start, end, slug in sorted(spans):
                out += [rows.html(text[last:start], inline=True) if last < start else "",
                        markdown.reference("term", slug, text[start:end], self.resolve)]
                last = end
            out.append(rows.html(text[last:], inline=True) if last < len(text) else "")
            return "".join(out)
        return self._marked(text, spans)

    def _marked(self, text: str, spans: list[tuple[int, int, str]]) -> str:
        """Card text with its spans marked as term references, through markdown-it."""
        out, last = [], 0
        for start, end, slug in sorted(spans):
            shown = text[start:end].replace("|", " ").replace("]", " ")
            out += [text[last:start], f"[[{slug}|{shown}]]"]
            last = end
        out.append(text[last:])
        return markdown.render("".join(out), self.resolve, inline=True)


def _overlaps(spans: list[tuple[int, int, str]], start: int, end: int) -> bool:
    return any(s < end and start < e for s, e, _ in spans)
