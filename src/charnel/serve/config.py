"""One description, two file layouts: Datasette 0.x reads everything from metadata.json;
Datasette 1.0 reads titles, notes and column descriptions from metadata.yaml and the rest
(queries, facets, sorting, plugins, permissions) from datasette.yaml. Both are written from the
same dict, so they cannot drift, and `for_running_datasette` picks the one that applies.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import yaml
from datasette.version import __version__ as datasette_version

# Keys Datasette 1.0 takes from datasette.yaml rather than metadata.
CONFIG_KEYS = {"plugins", "allow", "allow_sql", "permissions", "settings"}
DATABASE_CONFIG_KEYS = {"queries", "allow", "allow_sql", "permissions"}
TABLE_CONFIG_KEYS = {
    "facets",
    "sort",
    "sort_desc",
    "label_column",
    "fts_table",
    "fts_pk",
    "hidden",
    "size",
    "searchmode",
    "allow",
    "sortable_columns",
}


def split(described: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(metadata, config) in Datasette 1.0's layout."""
    metadata = copy.deepcopy(described)
    config: dict[str, Any] = {}
    for key in CONFIG_KEYS & metadata.keys():
        config[key] = metadata.pop(key)
    for name, db in metadata.get("databases", {}).items():
        db_config: dict[str, Any] = {}
        for key in DATABASE_CONFIG_KEYS & db.keys():
            db_config[key] = db.pop(key)
        for table_name, table in db.get("tables", {}).items():
            moved = {key: table.pop(key) for key in sorted(TABLE_CONFIG_KEYS & table.keys())}
            if moved:
                db_config.setdefault("tables", {})[table_name] = moved
        if db_config:
            config.setdefault("databases", {})[name] = db_config
    return metadata, config


def is_datasette_1() -> bool:
    return int(datasette_version.split(".")[0]) >= 1


def for_running_datasette(described: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments for `Datasette(...)`: `metadata=` (0.x) or `metadata=` + `config=`."""
    if is_datasette_1():
        metadata, config = split(described)
        return {"metadata": metadata, "config": config}
    return {"metadata": copy.deepcopy(described)}  # Datasette fills in its own keys


def write(described: dict[str, Any], folder: Path) -> list[Path]:
    """Write metadata.json (0.x) and metadata.yaml + datasette.yaml (1.0) into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    metadata, config = split(described)
    files = {
        "metadata.json": json.dumps(described, indent=2, sort_keys=True, ensure_ascii=False) + "\n",
        "metadata.yaml": _yaml(metadata),
        "datasette.yaml": _yaml(config),
    }
    written = []
    for name, text in files.items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def _yaml(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, sort_keys=True, allow_unicode=True, width=100)
