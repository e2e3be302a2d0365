"""Validate a positioned YAML value against a pydantic model, reporting errors at their place."""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel, ValidationError

from charnel.diagnostics import Problems
from charnel.sources.yamltext import Located

M = TypeVar("M", bound=BaseModel)

_MESSAGES = {
    "missing": "missing required field '{field}'",
    "extra_forbidden": "unknown field '{field}'",
}


def validate(model: type[M], doc: Located, problems: Problems, *, what: str) -> M | None:
    if doc.value is None:
        problems.add(doc.origin, f"{what} is empty")
        return None
    if not isinstance(doc.value, dict):
        problems.add(doc.origin, f"{what} must be a mapping of fields, not {_kind(doc.value)}")
        return None
    try:
        record = model.model_validate(doc.value)
    except ValidationError as exc:
        for error in exc.errors(include_url=False):
            report(error, doc, problems)
        return None
    attach(record, doc)
    return record


def report(error: dict, doc: Located, problems: Problems) -> None:
    loc = tuple(_clean_loc(error["loc"]))
    kind = error["type"]
    field = ".".join(str(p) for p in loc) or "(document)"
    if kind in _MESSAGES:
        origin = doc.at(loc, key=True) if kind == "extra_forbidden" else doc.at(loc[:-1])
        problems.add(origin, _MESSAGES[kind].format(field=field))
        return
    value = error.get("input")
    problems.add(doc.at(loc), f"{field}: {error['msg'].lower()} (got {_show(value)})")


def attach(record: BaseModel, doc: Located) -> None:
    """Give a validated record (and its nested records) their place in the file."""
    record._doc = doc  # type: ignore[attr-defined]


def _clean_loc(loc):
    # pydantic inserts union member names ('int', 'str', 'function-after[...]') into locations
    for part in loc:
        if isinstance(part, str) and ("[" in part or part in {"int", "str", "bool", "float"}):
            continue
        yield part


def _kind(value) -> str:
    return {list: "a list", str: "text", int: "a number", bool: "true/false"}.get(
        type(value), type(value).__name__
    )


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
