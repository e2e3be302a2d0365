"""Keyword abilities: the printed syntax of each glossary keyword, both ways.

A keyword spec's `syntax` ("Shield +{n}", "Ward ({clan})") is compiled into a pattern that
reads printed card text, and a template that writes an encoding back as text. Card files
carry the encoding (`- shield: 1`, `- ward: ember`, `- swift`, `- rally: {cost: 3, ...}`);
checks compare the two and report drift.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from charnel.records import GameInfo, KeywordUse, Term

_PARAM = re.compile(r"\{(\w+)\}")


@dataclass
class Syntax:
    term: Term
    pattern: re.Pattern
    params: dict[str, str]
    names: dict[str, dict[str, str]]  # enum param -> value id -> printed name

    @property
    def slug(self) -> str:
        return self.term.slug

    def render(self, params: dict[str, Any]) -> str:
        def fill(m: re.Match) -> str:
            name = m[1]
            value = params[name]
            kind = self.params.get(name, "text")
            if kind in self.names:
                return self.names[kind].get(str(value), str(value))
            return str(value)

        return _PARAM.sub(fill, self.term.keyword.syntax)


class KeywordBook:
    """All keywords of a game, for reading text and decoding card encodings."""

    def __init__(self, terms: list[Term], info: GameInfo):
        self.syntaxes: dict[str, Syntax] = {}
        for term in terms:
            if term.keyword is None:
                continue
            names = {
                kind: {v.id: v.name for v in info.enums[kind]}
                for kind in set(term.keyword.params.values())
                if kind in info.enums
            }
            self.syntaxes[term.slug] = Syntax(
                term,
                _compile(term.keyword.syntax, term.keyword.params, names),
                term.keyword.params,
                names,
            )
        # longest syntax first, so "Shield +{n}" is tried before a shorter keyword prefix
        self._order = sorted(self.syntaxes.values(), key=lambda s: -len(s.term.keyword.syntax))
        # each text's reading: a large pool prints the same texts many times, and the checks
        # read every card's text more than once
        self._read: dict[str, tuple[list[KeywordUse], list[str]]] = {}

    def decode(self, entry: str | dict[str, Any]) -> KeywordUse:
        """One encoding entry -> KeywordUse. Raises ValueError with a reader's message."""
        if isinstance(entry, str):
            slug, value = entry, None
        elif isinstance(entry, dict) and len(entry) == 1:
            slug, value = next(iter(entry.items()))
        else:
            raise ValueError("a keyword entry is a name, or one 'name: value' pair")
        syntax = self.syntaxes.get(str(slug))
        if syntax is None:
            raise ValueError(f"unknown keyword '{slug}'")
        names = list(syntax.params)
        if not names:
            if value not in (None, True):
                raise ValueError(f"keyword '{slug}' takes no value")
            params: dict[str, Any] = {}
        elif len(names) == 1 and not isinstance(value, dict):
            params = {names[0]: value}
        elif isinstance(value, dict):
            params = dict(value)
        else:
            raise ValueError(f"keyword '{slug}' takes {', '.join(names)}")
        missing = [n for n in names if n not in params]
        extra = [n for n in params if n not in names]
        if missing or extra:
            raise ValueError(
                f"keyword '{slug}' takes {', '.join(names)}"
                + (f"; unknown {', '.join(extra)}" if extra else "")
            )
        for name, kind in syntax.params.items():
            params[name] = _check_value(slug, name, kind, params[name], syntax.names)
        return KeywordUse(slug, params, syntax.render(params))

    def read(self, text: str) -> tuple[list[KeywordUse], list[str]]:
        """Printed text -> (keywords found, other sentences); reminders in () are skipped.
        The lists and uses are the caller's own to change."""
        if text not in self._read:
            self._read[text] = self._read_text(text)
        found, other = self._read[text]
        return [KeywordUse(u.keyword, dict(u.params), u.text) for u in found], list(other)

    def _read_text(self, text: str) -> tuple[list[KeywordUse], list[str]]:
        found: list[KeywordUse] = []
        other: list[str] = []
        pos, n = 0, len(text)
        while pos < n:
            while pos < n and text[pos] in " \t\n":
                pos += 1
            if pos >= n:
                break
            if text[pos] == "(":
                close = text.find(")", pos)
                if close > 0:
                    pos = _after_sentence(text, close + 1)
                    continue
            for syntax in self._order:
                m = syntax.pattern.match(text, pos)
                if m:
                    params = {
                        k: _from_text(syntax.params.get(k, "text"), v, syntax.names)
                        for k, v in m.groupdict().items()
                    }
                    found.append(KeywordUse(syntax.slug, params, syntax.render(params)))
                    pos = _after_sentence(text, m.end())
                    break
            else:
                end = _sentence_end(text, pos)
                other.append(text[pos:end].strip())
                pos = _after_sentence(text, end)
        return found, [o for o in other if o]


def _compile(syntax: str, params: dict[str, str], names: dict[str, dict[str, str]]) -> re.Pattern:
    parts, last = [], 0
    for m in _PARAM.finditer(syntax):
        parts.append(re.escape(syntax[last : m.start()]))
        kind = params.get(m[1], "text")
        if kind == "int":
            parts.append(rf"(?P<{m[1]}>\d+)")
        elif kind in names:
            alts = "|".join(
                re.escape(v) for v in sorted(names[kind].values(), key=len, reverse=True)
            )
            parts.append(rf"(?P<{m[1]}>{alts})")
        else:
            parts.append(rf"(?P<{m[1]}>.+?(?=\.(?:\s|$)|$))")
        last = m.end()
    parts.append(re.escape(syntax[last:]))
    tail = r"(?=[.\s]|$)"
    return re.compile("".join(parts).replace(r"\ ", r"\s+") + tail, re.IGNORECASE)


def _check_value(slug: str, name: str, kind: str, value: Any, names: dict) -> Any:
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"keyword '{slug}': {name} must be a whole number")
        return value
    if kind in names:
        if value not in names[kind]:
            raise ValueError(
                f"keyword '{slug}': {name} must be one of {', '.join(names[kind])} (got {value!r})"
            )
        return value
    if not isinstance(value, str):
        raise ValueError(f"keyword '{slug}': {name} must be text")
    # the reader stops a text parameter before its sentence's full stop; "effect: Draw 1."
    # and the printed "↻2: Draw 1." must decode alike
    return value.strip().removesuffix(".")


def _from_text(kind: str, text: str, names: dict) -> Any:
    if kind == "int":
        return int(text)
    if kind in names:
        by_name = {v.lower(): k for k, v in names[kind].items()}
        return by_name[text.lower()]
    return text.strip()


def _sentence_end(text: str, pos: int) -> int:
    m = re.compile(r"\.(?=\s|$)|\n").search(text, pos)
    return m.start() if m else len(text)


def _after_sentence(text: str, pos: int) -> int:
    if pos < len(text) and text[pos] == ".":
        pos += 1
    return pos
