"""JSON Schema for a game's card files, so editors complete and check card YAML as it is typed.

The schema is the game's pydantic card model (`model_json_schema`), narrowed by what the game
declares: card types, the values of its facets and keyword names become enums. Written with
sorted keys, so the same sources give the same file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from charnel import registry
from charnel.diagnostics import Origin, Problems
from charnel.game import Game
from charnel.records import GameInfo, Glossary
from charnel.sources import yamltext
from charnel.sources.validate import validate

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def card_schema(game: Game, info: GameInfo, glossary: Glossary) -> dict[str, Any]:
    """The card-file schema of one game."""
    schema = game.card_model.model_json_schema(mode="validation")
    schema["$schema"] = DIALECT
    schema["title"] = f"{info.title} card"
    schema["description"] = (
        f"A card file: cards/{info.id}/<set>/<card>.yaml. Checked by `charnel check`."
    )
    props = schema["properties"]
    props["type"]["enum"] = [t.id for t in info.card_types]
    for f in game.fields:  # a facet's values are game.yaml's list
        if f.facet is not None and f.name in props:
            _enum(props[f.name], info.enum_ids(f.facet))
    if not game.has_keywords:  # its abilities are its own fields; `keywords:` is refused
        del props["keywords"]
        return schema
    keywords = sorted(t.slug for t in glossary.terms if t.keyword is not None)
    plain = sorted(t.slug for t in glossary.terms if t.keyword and not t.keyword.params)
    props["keywords"]["items"] = {
        "anyOf": [
            {"enum": plain, "description": "A keyword without parameters."},
            {
                "type": "object",
                "description": "A keyword and its value: `shield: 1`.",
                "propertyNames": {"enum": keywords},
                "minProperties": 1,
                "maxProperties": 1,
            },
        ]
    }
    return schema


def write(root: Path, game_id: str, out_dir: Path, problems: Problems) -> Path | None:
    """Write <out_dir>/<game>-card.json; None (with problems) when the game cannot be read."""
    game = registry.get(game_id)
    if game is None:
        problems.add(Origin(f"rules/{game_id}"), f"no game package for '{game_id}'")
        return None
    info = _read(root / "rules" / game_id / "game.yaml", root, GameInfo, "game.yaml", problems)
    glossary = _read(
        root / "rules" / game_id / "glossary.yaml", root, Glossary, "glossary", problems
    )
    if info is None or glossary is None:
        return None
    target = out_dir / f"{game_id}-card.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(
        card_schema(game, info, glossary), indent=2, sort_keys=True, ensure_ascii=False
    )
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(text + "\n", encoding="utf-8")
    tmp.replace(target)
    return target


def _read(path: Path, root: Path, model, what: str, problems: Problems):
    rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        problems.add(Origin(rel), f"cannot read file: {exc.strerror}")
        return None
    text = yamltext.read_text(rel, raw, problems)
    doc = yamltext.parse(text, Origin(rel), problems) if text is not None else None
    return validate(model, doc, problems, what=what) if doc is not None else None


def modeline(game_id: str) -> str:
    """The first line of a card file: tells YAML-aware editors where the card schema is. The
    schema lives beside the sources (schema/), so the path is good in a fresh checkout."""
    return f"# yaml-language-server: $schema=../../../schema/{game_id}-card.json\n"


def _enum(prop: dict[str, Any], values: list[str]) -> None:
    """Restrict a string property (or the string choice of an optional one, or the strings of
    a list) to `values`."""
    for option in prop.get("anyOf", [prop]):
        if option.get("type") == "string":
            option["enum"] = values
        elif option.get("type") == "array" and option.get("items", {}).get("type") == "string":
            option["items"]["enum"] = values
