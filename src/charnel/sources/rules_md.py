"""Read a rules document (`rules/<game>/NN-<section>.md`) into sections, clauses and examples.

The document is ordinary Markdown, read with markdown-it-py:

    # 2. Blows                          <- the section (one per file)
    ## 8.6 Damage to abominations       <- a rule
    8.6a Damage dealt ... [p. 18]       <- a sub-rule: a paragraph that opens with its number
    8.6b **Ruling.** ... [§ Damage]     <- where the rulebook gives no page, its heading
    ```example                          <- an example of the clause above it
    id: damage-spills-down
    ...
    ```

Text between a clause and the next one (lists, more paragraphs) belongs to that clause.
A sub-rule opening with `**Ruling.**` is the project's own decision where the rulebook is silent
or contradicts itself; one opening with `**Advanced.**` belongs to the rulebook's optional rules.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from markdown_it import MarkdownIt

from charnel.diagnostics import Origin, Problems
from charnel.records import Clause, Example, Ref, Section, slugify
from charnel.sources import yamltext

_md = MarkdownIt("commonmark")

SECTION_HEADING = re.compile(r"^(\d+)\.\s+(.+)$")
RULE_HEADING = re.compile(r"^(\d+\.\d+)\s+(.+)$")
SUBRULE = re.compile(r"^(\d+\.\d+[a-z])\s+")
_PAGES = r"\d+(?:\s*[-–]\s*\d+)?"
# "[p. 18]", "[pp. 18-19]", "[pp. 3, 11]": the rulebook pages a clause restates; or, for a
# rulebook that prints no page there, "[§ Blows]": the heading it restates
CITATION = re.compile(
    rf"\s*\[(?:pp?\.\s*(?P<pages>{_PAGES}(?:\s*,\s*{_PAGES})*)|§\s*(?P<heading>[^\[\]]+?))\]\s*$"
)
# the marks a sub-rule may open with, and the flag each sets
MARKS = {"Ruling": "ruling", "Advanced": "advanced"}
MARK = re.compile(r"^\*\*(" + "|".join(MARKS) + r")\.\*\*\s*")
RULE_REF = re.compile(r"(?<![\w.])(\d{1,2}\.\d{1,2}[a-z]?)(?![\w]|\.\d)")
TERM_REF = re.compile(r"\[\[([^\]|]+)(?:\|[^\]]+)?\]\]")


class Block(NamedTuple):
    """What `parse` reads of one of markdown-it's tokens."""

    type: str
    tag: str
    map: tuple[int, int] | None
    level: int
    nesting: int
    markup: str
    info: str
    content: str


def blocks(text: str) -> list[tuple]:
    """The Markdown parse of a rules document as plain values (`Block`'s fields), which a
    build keeps by the document's bytes (`charnel.sources.parsed`)."""
    return [(t.type, t.tag, tuple(t.map) if t.map else None, t.level, t.nesting, t.markup,
             t.info, t.content) for t in _md.parse(text)]


def parse(path: str, text: str, order_start: int, problems: Problems,
          parsed: list[tuple] | None = None):
    """Returns (section, clauses, examples); section is None when the file has no heading.
    `parsed`: the text's `blocks`, kept from an earlier parse."""
    lines = text.split("\n")
    tokens = [Block(*b) for b in (blocks(text) if parsed is None else parsed)]
    origin = Origin(path)
    section: Section | None = None
    clauses: list[Clause] = []
    examples: list[Example] = []
    intro: list[str] = []
    current: Clause | None = None
    order = order_start

    def finish(clause: Clause | None) -> None:
        if clause is None:
            return
        clause.text, clause.pages, clause.heading = _split_citation(clause.text)
        rest = clause.text
        while clause.level == 2 and (m := MARK.match(rest)):  # "**Advanced.** **Ruling.** ..."
            setattr(clause, MARKS[m[1]], True)
            rest = rest[m.end() :]

    i = 0
    while i < len(tokens):
        tok = tokens[i]
        start = tok.map[0] if tok.map else 0
        if tok.type == "heading_open":
            inline = tokens[i + 1].content.strip()
            where = origin.at(start + 1, len(tok.markup) + 2)
            if tok.tag == "h1":
                m = SECTION_HEADING.match(inline)
                if section is not None:
                    problems.add(where, "a rules document holds one section (one '# N. Title')")
                elif not m:
                    problems.add(
                        where, "section heading must read '# N. Title', e.g. '# 2. Blows'"
                    )
                else:
                    section = Section(
                        m[1], m[2], f"{m[1]}-{slugify(m[2])}", path, "", order, origin.at(start + 1)
                    )
                    finish(current)
                    current = Clause(m[1], None, 0, m[2], "", "", m[1], order, origin.at(start + 1))
                    clauses.append(current)
                    order += 1
            elif tok.tag == "h2":
                m = RULE_HEADING.match(inline)
                if not m:
                    problems.add(
                        where, "rule heading must read '## N.M Title', e.g. '## 8.6 Damage'"
                    )
                else:
                    finish(current)
                    parent = m[1].split(".")[0]
                    current = Clause(
                        m[1], parent, 1, m[2], "", "", parent, order, origin.at(start + 1)
                    )
                    clauses.append(current)
                    order += 1
            else:
                problems.add(where, "only '#' (section) and '##' (rule) headings are allowed")
            i += 3
            continue
        if tok.type == "fence" and not _closed(tok, lines):
            problems.add(
                origin.at(start + 1),
                f"this {tok.markup} fence is never closed: it runs to the end of the file",
            )
            i += 1
            continue
        if tok.type == "fence" and tok.info.strip() == "example":
            doc = yamltext.parse(tok.content, origin, problems, line_offset=start + 1)
            owner = current.number if current else (section.number if section else "")
            if doc is not None:
                example = _example(doc, owner, tok.content, problems)
                if example is not None:
                    examples.append(example)
            i += 1
            continue
        if tok.map and tok.level == 0 and tok.nesting >= 0:
            end = tok.map[1]
            block = "\n".join(lines[start:end]).strip()
            m = SUBRULE.match(block) if tok.type == "paragraph_open" else None
            if m and section is not None:
                finish(current)
                number = m[1]
                parent = number.rstrip("abcdefghijklmnopqrstuvwxyz")
                current = Clause(
                    number,
                    parent,
                    2,
                    "",
                    block[m.end() :],
                    "",
                    section.number,
                    order,
                    origin.at(start + 1),
                )
                clauses.append(current)
                order += 1
            elif current is None or current.level == 0:
                intro.append(block)
            else:
                current.text = f"{current.text}\n\n{block}".strip()
            _collect_refs(current, lines, start, end, origin)
            i = _skip_block(tokens, i)
            continue
        i += 1
    finish(current)
    if section is None:
        problems.add(origin, "rules document has no section heading ('# N. Title')")
        return None, [], []
    section.intro = "\n\n".join(intro)
    clauses[0].text = section.intro
    return section, clauses, examples


def _skip_block(tokens, i: int) -> int:
    """Index after the block that opens at tokens[i] (a paragraph, a list, a quote ...)."""
    if tokens[i].nesting == 0:
        return i + 1
    depth = 0
    while i < len(tokens):
        depth += tokens[i].nesting
        i += 1
        if depth == 0:
            return i
    return i


def _split_citation(text: str) -> tuple[str, str, str]:
    """(text without its citation, pages cited, heading cited)."""
    m = CITATION.search(text)
    if not m:
        return text.strip(), "", ""
    if m["heading"] is not None:
        return text[: m.start()].strip(), "", " ".join(m["heading"].split())
    pages = ", ".join(re.sub(r"\s*[-–]\s*", "-", p.strip()) for p in m["pages"].split(","))
    return text[: m.start()].strip(), pages, ""


def _collect_refs(clause: Clause | None, lines, start: int, end: int, origin: Origin) -> None:
    if clause is None:
        return
    for n in range(start, end):
        line = lines[n]
        for m in RULE_REF.finditer(line):
            if m[1] != clause.number and not (n == start and m.start() == 0):
                clause.refs.append(Ref("rule", m[1], origin.at(n + 1, m.start() + 1)))
        for m in TERM_REF.finditer(line):
            clause.refs.append(Ref("term", slugify(m[1]), origin.at(n + 1, m.start() + 3)))


def _closed(tok, lines: list[str]) -> bool:
    """Whether a fence has its closing line (markdown-it runs an open one to the end)."""
    last = lines[tok.map[1] - 1].strip() if tok.map and tok.map[1] > tok.map[0] + 1 else ""
    return last.startswith(tok.markup) and not last.strip(tok.markup[0])


def _example(doc: yamltext.Located, owner: str, source: str, problems: Problems):
    body = doc.value
    if not isinstance(body, dict):
        problems.add(doc.origin, "an example must be a mapping with at least 'id' and 'title'")
        return None
    ok = True
    for key in ("id", "title"):
        if not isinstance(body.get(key), str) or not body.get(key):
            problems.add(doc.at(()), f"example is missing its '{key}' (text)")
            ok = False
    if not ok:
        return None
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", body["id"]):
        problems.add(doc.at(("id",)), "example id must be lower-case words joined by '-'")
        return None
    cites = body.get("cites") or []
    return Example(
        body["id"],
        body["title"],
        "rule",
        owner,
        body,
        source,
        doc,
        [str(c) for c in cites] if isinstance(cites, list) else [],
    )
