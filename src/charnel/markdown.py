"""Markdown to HTML for authored text: raw HTML off, rule numbers and [[terms]] linked.

One renderer for the database, the site and print, so a clause reads the same everywhere.
Links are root-relative site paths (`/rules/8.6a/`, `/glossary/blow/`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline

from charnel.records import slugify
from charnel.sources.rules_md import RULE_REF

Resolver = Callable[[str, str], str | None]  # (kind, target) -> href or None


def _no_links(kind: str, target: str) -> str | None:
    return None


def _term_rule(state: StateInline, silent: bool) -> bool:
    src, pos = state.src, state.pos
    if not src.startswith("[[", pos):
        return False
    end = src.find("]]", pos + 2)
    if end < 0:
        return False
    inner = src[pos + 2 : end]
    if not inner or "\n" in inner:
        return False
    if not silent:
        target, _, shown = inner.partition("|")
        token = state.push("term_ref", "", 0)
        token.meta = {"slug": slugify(target), "text": shown or target}
    state.pos = end + 2
    return True


def _rule_ref_rule(state: StateInline, silent: bool) -> bool:
    pos = state.pos
    if pos > 0 and (state.src[pos - 1].isalnum() or state.src[pos - 1] == "."):
        return False
    m = RULE_REF.match(state.src, pos)
    if not m or not state.src[pos].isdigit():
        return False
    if not silent:
        token = state.push("rule_ref", "", 0)
        token.meta = {"number": m[1]}
    state.pos = m.end()
    return True


def _text_rule(state: StateInline, silent: bool) -> bool:
    """markdown-it's text rule, stopping also where a rule number starts: the stock rule runs
    to the next punctuation mark, so a number inside a run of words ("see 12.6a") was never
    offered to the rule-reference rule."""
    pos, end = state.pos, state.posMax
    stop = state.md.inline.terminator_re.search(state.src, pos, end)
    stop_at = stop.start() if stop else end
    number = RULE_REF.search(state.src, pos, stop_at)
    if number and number.start() > pos:
        stop_at = number.start()
    if stop_at == pos:
        return False
    if not silent:
        state.append_pending(state.src[pos:stop_at])
    state.pos = stop_at
    return True


@cache
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.inline.ruler.before("link", "term_ref", _term_rule)
    md.inline.ruler.at("text", _text_rule)
    md.inline.ruler.before("text", "rule_ref", _rule_ref_rule)
    return md


def reference(kind: str, target: str, shown: str, resolve: Resolver) -> str:
    """A reference as HTML: a link where `resolve` finds its target, else its text."""
    href = resolve(kind, target)
    shown = _escape(shown)
    return f'<a class="ref-{kind}" href="{_escape(href)}">{shown}</a>' if href else shown


def render(text: str, resolve: Resolver = _no_links, *, inline: bool = False) -> str:
    """Render Markdown; `resolve` turns references into hrefs (None leaves plain text)."""
    if not text:
        return ""
    md = _parser()
    env: dict = {}
    tokens = md.parseInline(text, env) if inline else md.parse(text, env)
    renderer = md.renderer
    out = []

    def ref(kind: str, target: str, shown: str) -> str:
        return reference(kind, target, shown, resolve)

    def walk(toks):
        for tok in toks:
            if tok.type == "term_ref":
                tok.type, tok.content = (
                    "html_inline",
                    ref("term", tok.meta["slug"], tok.meta["text"]),
                )
            elif tok.type == "rule_ref":
                tok.type, tok.content = (
                    "html_inline",
                    ref("rule", tok.meta["number"], tok.meta["number"]),
                )
            if tok.children:
                walk(tok.children)

    walk(tokens)
    html = renderer.render(tokens, md.options, env)
    out.append(html)
    html = "".join(out)
    if inline and html.startswith("<p>") and html.endswith("</p>\n"):
        html = html[3:-5]
    return html


def image_sources(text: str) -> list[tuple[int, str]]:
    """(line in `text`, counted from 0; src) of every image the text would show."""
    found = []
    for block in _parser().parse(text, {}):
        for tok in block.children or ():
            if tok.type == "image":
                found.append((block.map[0] if block.map else 0, str(tok.attrGet("src") or "")))
    return found


def plain(text: str) -> str:
    """Text with the reference markup removed, for search indexes and print."""
    return re.sub(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]", lambda m: m[2] or m[1], text)


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )
