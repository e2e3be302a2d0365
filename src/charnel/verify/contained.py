"""Authored text stays text: a Markdown image would be fetched by every reader's browser and,
at build time, by the PDF renderer, from wherever it names (another host, a file outside the
project). Links stay allowed: nothing fetches them."""

from __future__ import annotations

from collections.abc import Callable

from charnel.diagnostics import Origin, Problems
from charnel.markdown import image_sources
from charnel.records import GameRecords
from charnel.sources.yamltext import Located

MESSAGE = "images are not allowed in authored text (![...]({src})): nothing is fetched"


def check(records: GameRecords, problems: Problems) -> None:
    for record in (records.info, records.glossary, *records.cards):
        doc = record.__pydantic_private__.get("_doc")
        if isinstance(doc, Located):
            _walk(doc.value, (), doc, problems)
    for clause in records.clauses:
        _text(clause.text, lambda line, c=clause: c.origin.at(c.origin.line + line), problems)
    for section in records.sections:
        _text(section.intro, lambda line, s=section: s.origin.at(s.origin.line + line), problems)


def _walk(value, path: tuple, doc: Located, problems: Problems) -> None:
    if isinstance(value, str):
        _text(value, lambda line: doc.at(path), problems)
    elif isinstance(value, dict):
        for key, item in value.items():
            _walk(item, (*path, key), doc, problems)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _walk(item, (*path, i), doc, problems)


def _text(text: str, where: Callable[[int], Origin], problems: Problems) -> None:
    if "![" not in text:
        return
    for line, src in image_sources(text):
        problems.add(where(line), MESSAGE.format(src=src[:80]))
