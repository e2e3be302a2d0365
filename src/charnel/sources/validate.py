"""Validate a positioned YAML value against a pydantic model, reporting errors at their place."""

from __future__ import annotations

from typing import TypeVar, get_args

from pydantic import BaseModel, ValidationError

from charnel.diagnostics import Problems, nearest
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
            report(error, doc, problems, model)
        return None
    attach(record, doc)
    return record


def report(error: dict, doc: Located, problems: Problems,
           model: type[BaseModel] | None = None) -> None:
    loc = tuple(_clean_loc(error["loc"]))
    kind = error["type"]
    field = ".".join(str(p) for p in loc) or "(document)"
    if kind in _MESSAGES:
        origin = doc.at(loc, key=True) if kind == "extra_forbidden" else doc.at(loc[:-1])
        message = _MESSAGES[kind].format(field=field)
        if kind == "extra_forbidden" and loc and model is not None:
            near = nearest(str(loc[-1]), _field_names(model, loc[:-1]), n=1)
            message += f"; did you mean '{near[0]}'?" if near else ""
        problems.add(origin, message)
        return
    value = error.get("input")
    problems.add(doc.at(loc), f"{field}: {error['msg'].lower()} (got {_show(value)})")


def _field_names(model: type[BaseModel], loc: tuple) -> list[str]:
    """The names a record at `loc` inside `model` may have, as authored (aliases), for a "did
    you mean"; none where the place is not a record."""
    for part in loc:
        if isinstance(part, int):
            continue  # an item of a list: the list's record type was taken at its field
        info = model.model_fields.get(part) or next(
            (f for f in model.model_fields.values() if f.alias == part), None)
        inner = _record_type(info.annotation) if info is not None else None
        if inner is None:
            return []
        model = inner
    return [f.alias or name for name, f in model.model_fields.items()]


def _record_type(annotation) -> type[BaseModel] | None:
    """The record type a field holds, directly or in a list or an optional."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    found = [t for t in map(_record_type, get_args(annotation)) if t is not None]
    return found[0] if len(found) == 1 else None


def attach(record: BaseModel, doc: Located) -> None:
    """Give a validated record (and its nested records) their place in the file."""
    object.__setattr__(record, "_doc", doc)  # direct: pydantic's setter is slow


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
