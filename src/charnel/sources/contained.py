"""Authored text stays text: a Markdown image would be fetched by every reader's browser and,
at build time, by the PDF renderer, from wherever it names (another host, a file outside the
project). Links stay allowed: nothing fetches them. The loader asks only about files whose
text holds '![' at all."""

from __future__ import annotations

from collections.abc import Callable

from charnel.diagnostics import Origin, Problems
from charnel.markdown import image_sources
from charnel.records import Clause, Section
from charnel.sources.yamltext import Located

MESSAGE = "images are not allowed in authored text (![...]({src})): nothing is fetched"


def check_document(doc: Located, problems: Problems) -> None:
    """Every text value of a YAML document."""
    stack: list[tuple[object, tuple]] = [(doc.value, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            _text(value, lambda line, p=path: doc.at(p), problems)
        elif isinstance(value, dict):
            stack.extend((item, (*path, key)) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, (*path, i)) for i, item in enumerate(value))


def check_rules(section: Section | None, clauses: list[Clause], problems: Problems) -> None:
    """A rules document's introduction and clauses."""
    for record in ([section] if section is not None else []) + clauses:
        text = record.intro if isinstance(record, Section) else record.text
        origin = record.origin
        _text(text, lambda line, o=origin: o.at(o.line + line), problems)


def _text(text: str, where: Callable[[int], Origin], problems: Problems) -> None:
    if "![" not in text:
        return
    for line, src in image_sources(text):
        problems.add(where(line), MESSAGE.format(src=src[:80]))
