"""CSV rows -> card files. Columns are the card model's fields, so any game's cards import.

A column named like a field fills that field; a field that is itself a record (a sub-model)
is filled from `<field>_<subfield>` columns. Whole numbers and true/false are converted by the
field's type, plain lists are comma-separated, and lists of mappings (effects, rulings) are
JSON. `keywords` is never read from the sheet: it is parsed from the printed text, so the
encoding always agrees with the text. `set` and `id` choose the folder and file name.

A row that cannot become a valid card is reported as `FILE:ROW: reason`, and nothing is
written for it; the other rows are written.
"""

from __future__ import annotations

import csv
import io
import json
import re
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from charnel import jsonschema
from charnel.diagnostics import Origin, Problems
from charnel.fields import CardField, ordinal, reading_order
from charnel.jsonschema import modeline
from charnel.keywords import KeywordBook
from charnel.records import CardBase, GameRecords, KeywordUse, slugify
from charnel.sources import loader, yamltext
from charnel.sources.validate import validate
from charnel.spreadsheet import unguard

# reading order of a card file: the game's own fields go between the first and the text,
# except records of their own (an ability with a condition), which follow the text
TEXT_FIELDS = ("text", "keywords", "effects")
LAST_FIELDS = ("flavor", "rulings", "examples")
DERIVED = {"keywords"}  # read from the printed text, never from a column


@dataclass
class ImportResult:
    written: list[Path] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # "FILE:ROW: reason"
    refused: set[int] = field(default_factory=set)  # rows with a reason; one row may have many


def import_csv(
    root: Path, game_id: str, csv_path: Path, *, set_code: str | None = None, replace: bool = False
) -> ImportResult:
    """Write one card file per good row of `csv_path` into `root/cards/<game>/<set>/`."""
    result = ImportResult()
    problems = Problems()
    records = loader.load(root, game_id, problems)
    if records is None:
        result.errors += [p.render(root).partition("\n")[0] for p in problems]
        return result
    model = records.game.card_model
    game_fields = records.game.fields
    book = KeywordBook(records.glossary.terms, records.info)
    sets = {s.code for s in records.info.sets}
    taken = {c.slug for c in records.cards}
    number = ordinal(game_fields)  # a number within a set, filled when left out
    numbers: dict[str, set[int]] = {}
    for card in records.cards:
        if number is not None:
            numbers.setdefault(card.set_code, set()).add(getattr(card, number.name))
    try:
        text = csv_path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "the file is not UTF-8"
        result.errors.append(f"{csv_path}: cannot read: {reason}")
        return result

    pending: list[tuple[Path, str]] = []
    for row_number, row in _rows(text, f"{csv_path}", result):
        where = f"{csv_path}:{row_number}"
        try:
            data, slug, code = _card_data(row, model, book, set_code, game_fields)
        except ValueError as exc:
            result.errors.append(f"{where}: {exc}")
            result.refused.add(row_number)
            continue
        if code not in sets:
            result.errors.append(
                f"{where}: set '{code}' is not declared: add it to rules/{game_id}/game.yaml "
                f"under sets: as - {{code: {code}, name: ..., released: 'YYYY-MM-DD'}}"
            )
            result.refused.add(row_number)
            continue
        used = numbers.setdefault(code, set())
        if number is not None and data.get(number.name) is None:
            data[number.name] = max(used, default=0) + 1
        body = modeline(game_id) + card_yaml(data)
        reasons = _validate(model, data) or _game_rules(records, body, slug, code)
        target = root / "cards" / game_id / code / f"{slug}.yaml"
        if slug in taken and not (replace and target.exists()):
            reasons.append(f"a card file named '{slug}' already exists or comes twice")
        elif number and data[number.name] in used and not (replace and target.exists()):
            reasons.append(
                f"{number.label.lower()} {data[number.name]} is already used in set '{code}'"
            )
        if reasons:
            result.errors += [f"{where}: {r}" for r in reasons]
            result.refused.add(row_number)
            continue
        taken.add(slug)
        if number is not None:
            used.add(data[number.name])
        pending.append((target, body))
    for target, body in pending:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")
        result.written.append(target)
    if pending:  # the files' first line names the schema: it must be there
        jsonschema.write(root, game_id, root / "schema", Problems())
    return result


MAX_CELL = 128 * 1024  # characters in one cell; the csv module's own limit is process-wide


def _rows(text: str, shown: str, result: ImportResult):
    """(spreadsheet row number, row) for each data row; the header is row 1. A row that cannot
    be read (malformed, or a cell over `MAX_CELL`) ends the reading, as an error."""
    reader = csv.DictReader(io.StringIO(text, newline=""))
    start = 2
    try:
        for row in reader:
            if any(isinstance(v, str) and len(v) > MAX_CELL for v in row.values()):
                raise csv.Error(f"field larger than field limit ({MAX_CELL})")
            if any((v or "").strip() for v in row.values() if isinstance(v, str)):
                yield (
                    start,
                    {
                        (k or "").strip().lower(): unguard(v or "")
                        for k, v in row.items()
                        if k and isinstance(v, str)
                    },
                )
            start = reader.line_num + 1
    except csv.Error as exc:
        result.errors.append(f"{shown}:{start}: cannot read the row: {exc}; no later row is read")
        result.refused.add(start)


def _card_data(
    row: dict[str, str], model: type[CardBase], book: KeywordBook, set_code: str | None,
    game_fields: Sequence[CardField],
) -> tuple[dict[str, Any], str, str]:
    name = row.get("name", "").strip()
    if not name:
        raise ValueError("the 'name' column is empty")
    data: dict[str, Any] = {}
    for fname, info in model.model_fields.items():
        if fname in DERIVED:
            continue
        sub = _submodel(info.annotation)
        if sub is not None:
            part = {
                s: _convert(f"{fname}_{s}", row[f"{fname}_{s}"], si.annotation)
                for s, si in sub.model_fields.items()
                if row.get(f"{fname}_{s}", "").strip() not in ("", "[]")
            }
            if part:
                data[fname] = part
        elif row.get(fname, "").strip():
            value = _convert(fname, row[fname], info.annotation)
            if value != [] and not (value is info.default and isinstance(value, bool)):
                data[fname] = value
    uses, other = book.read(data.get("text", ""))
    _reject_lookalikes(other, book)
    if uses:
        data["keywords"] = [encode(u) for u in uses]
    slug = row.get("id", "").strip() or slugify(name)
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug):
        raise ValueError(f"id '{slug}' is not a file name of lower-case words joined by '-'")
    code = row.get("set", "").strip() or set_code
    if not code:
        raise ValueError("no set: fill the 'set' column or pass --set")
    return _ordered(data, model, game_fields), slug, code


def encode(use: KeywordUse) -> str | dict[str, Any]:
    """A decoded keyword as card files write it: `swift`, `{shield: 2}`, `{rally: {...}}`."""
    if not use.params:
        return use.keyword
    if len(use.params) == 1:
        return {use.keyword: next(iter(use.params.values()))}
    return {use.keyword: dict(use.params)}


def _reject_lookalikes(sentences: list[str], book: KeywordBook) -> None:
    """A sentence that opens like a keyword but does not read as one is a typo, not an effect."""
    for sentence in sentences:
        for syntax in book.syntaxes.values():
            lead = syntax.term.keyword.syntax.split("{")[0].rstrip(" (+:")
            if lead and sentence.casefold().startswith(lead.casefold()) and (
                len(sentence) == len(lead) or not sentence[len(lead)].isalpha()
            ):
                raise ValueError(
                    f"'{sentence}' reads like the keyword {syntax.term.term} but is not "
                    f"written as '{syntax.term.keyword.syntax}'"
                )


def _validate(model: type[BaseModel], data: dict[str, Any]) -> list[str]:
    try:
        model.model_validate(data)
    except ValidationError as exc:
        out = []
        for error in exc.errors(include_url=False):
            loc = ".".join(str(p) for p in error["loc"] if not _is_union_tag(p))
            out.append(f"{loc or 'card'}: {error['msg'].lower()}")
        return out
    return []


def _game_rules(records: GameRecords, body: str, slug: str, code: str) -> list[str]:
    """The game's legality checks (type, cost, might ...) on the card as it would be written."""
    from charnel.verify import game_checks

    game = records.game
    problems = Problems()
    doc = yamltext.parse(body, Origin(f"{slug}.yaml"), problems)
    card = validate(game.card_model, doc, problems, what="card") if doc else None
    if card is None:
        return [p.message for p in problems.sorted()] or ["the card cannot be read back"]
    card._slug, card._set_code = slug, code
    game_checks(replace(records, cards=[card]), problems)
    return [p.message for p in problems.sorted()]


def _is_union_tag(part: Any) -> bool:
    return isinstance(part, str) and ("[" in part or part in {"int", "str", "bool", "float"})


def _ordered(
    data: dict[str, Any], model: type[CardBase], game_fields: Sequence[CardField]
) -> dict[str, Any]:
    fields = model.model_fields
    lead, cost = reading_order(game_fields)
    first = ("name", *(f.name for f in lead), "type", *([cost.name] if cost else []))
    own = [f for f in fields if f not in first + TEXT_FIELDS + LAST_FIELDS]
    plain = [f for f in own if _submodel(fields[f].annotation) is None]
    records = [f for f in own if f not in plain]
    order = [*first, *plain, *TEXT_FIELDS, *records, *LAST_FIELDS]
    return {k: data[k] for k in order if k in data}


def card_yaml(data: dict[str, Any]) -> str:
    """A card as YAML, fields in reading order, short lists inline."""
    return yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=4096
    )


# --- turning a cell into a field's value, by the field's type --------------------------------


def _convert(column: str, cell: str, annotation: Any) -> Any:
    cell = cell.strip()
    kind = _kind(annotation)
    try:
        if kind == "int":
            number = int(cell)
            if abs(number) > yamltext.MAX_INT:
                raise ValueError
            return number
        if kind == "bool":
            lowered = cell.lower()
            if lowered in {"true", "yes", "1", "y"}:
                return True
            if lowered in {"false", "no", "0", "n"}:
                return False
            raise ValueError
        if kind == "list":
            return [part.strip() for part in cell.split(",") if part.strip()]
        if kind == "json":
            value = json.loads(cell)
            if not isinstance(value, list) or _deeper_than(value, yamltext.MAX_DEPTH):
                raise ValueError
            return value
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
        want = {"int": "a whole number", "bool": "true or false", "json": "a JSON list"}
        must = want.get(kind, kind)
        raise ValueError(f"column '{column}' must be {must} (got {cell!r})") from None
    return cell.replace("\r\n", "\n")


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether lists and mappings nest deeper than `limit` (as card files may: yamltext)."""
    level = [value]
    for _ in range(limit + 1):
        level = [
            item
            for v in level
            for item in (v.values() if isinstance(v, dict) else v if isinstance(v, list) else ())
        ]
        if not level:
            return False
    return True


def _kind(annotation: Any) -> str:
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        return _kind(args[0])
    if annotation is bool:
        return "bool"
    if annotation is int:
        return "int"
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation) or (str,)
        return "list" if _is_text(item) else "json"
    return "text"


def _is_text(annotation: Any) -> bool:
    if annotation is str:
        return True
    return typing.get_origin(annotation) is typing.Literal and all(
        isinstance(a, str) for a in typing.get_args(annotation)
    )


def _submodel(annotation: Any) -> type[BaseModel] | None:
    """The record type of a field that holds one record (or None), not lists."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
    else:
        args = [annotation]
    for arg in args:
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg
    return None
