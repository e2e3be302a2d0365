"""Which files make up a game's sources. Standard library only: the no-change check of
`charnel build` needs this list without paying for the heavy imports of the loader."""

from __future__ import annotations

import os
from pathlib import Path


def game_ids(root: Path) -> list[str]:
    """Games that have data under `rules/`."""
    return sorted(p.parent.name for p in (root / "rules").glob("*/game.yaml"))


def source_files(root: Path, game_id: str) -> list[Path]:
    """Every authored file of a game, in a fixed order: game.yaml, glossary, rules, cards."""
    rules = root / "rules" / game_id
    files = [rules / "game.yaml", rules / "glossary.yaml"]
    files += sorted(rules.glob("*.md"))
    files += sorted((root / "cards" / game_id).glob("*/*.yaml"), key=_parts)
    return files


def unreadable_folders(root: Path, game_id: str) -> list[Path]:
    """A game's folders whose files cannot be listed: a glob passes over them in silence."""
    folders = [root / "rules" / game_id, root / "cards" / game_id]
    try:
        folders += sorted(p for p in folders[1].iterdir() if p.is_dir())
    except OSError:
        pass
    out = []
    for folder in folders:
        try:
            with os.scandir(folder):
                pass
        except FileNotFoundError:
            continue
        except OSError:
            out.append(folder)
    return out


def _parts(path: Path) -> tuple[str, ...]:
    # the order of sorted(paths), at half the cost: Path's own comparison is slow Python
    return path.parts


def stray_card_files(root: Path, game_id: str) -> list[Path]:
    """Card-like files the loader would not read: outside a set folder, or named *.yml."""
    cards = root / "cards" / game_id
    stray = sorted(cards.glob("*.yaml")) + sorted(cards.glob("*.yml"))
    return stray + sorted(cards.glob("*/*.yml"))
