"""Which files make up a game's sources. Standard library only: the no-change check of
`charnel build` needs this list without paying for the heavy imports of the loader."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


def game_ids(root: Path) -> list[str]:
    """Games that have data under `rules/`."""
    return sorted(p.parent.name for p in (root / "rules").glob("*/game.yaml"))


def source_files(root: Path, game_id: str) -> list[str]:
    """Every authored file of a game, in a fixed order: game.yaml, glossary, rules, cards."""
    return listing(root, game_id).files


@dataclass
class Listing:
    """A game's files as one listing of its folders found them."""

    # every authored file (`source_files`). Paths as text: a build lists, stats and looks up
    # every card file of the pool by its path on every run, and a `Path` made, hashed and
    # turned into text for each cost three times what the system calls do at 50,000 cards
    files: list[str]
    strays: list[Path]  # card-like files the loader does not read (`stray_card_files`)


def listing(root: Path, game_id: str) -> Listing:
    """The game's source files and stray card files, each card folder listed once."""
    rules, cards = root / "rules" / game_id, root / "cards" / game_id
    files = [str(rules / "game.yaml"), str(rules / "glossary.yaml")]
    files += sorted(map(str, rules.glob("*.md")))
    strays = sorted(cards.glob("*.yaml")) + sorted(cards.glob("*.yml"))
    for folder, names in _set_folders(cards):
        prefix = os.path.join(folder, "")
        files += [prefix + name for name in names if name.endswith(".yaml")]
        strays += [folder / name for name in names if name.endswith(".yml")]
    return Listing(files, strays)


def _set_folders(cards: Path) -> list[tuple[Path, list[str]]]:
    """Each folder in `cards` (links to folders too) with the sorted names in it, in name
    order; a folder that cannot be listed is left out (`unreadable_folders` reports it). What
    a glob of `*/*` finds, from one listing per folder and no path made for a name left out."""
    try:
        with os.scandir(cards) as entries:
            folders = sorted(entry.name for entry in entries if entry.is_dir())
    except OSError:
        return []
    out = []
    for name in folders:
        try:
            out.append((cards / name, sorted(os.listdir(cards / name))))
        except OSError:
            continue
    return out


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
    return out + unreadable_under(root / "releases" / game_id)


def unreadable_under(top: Path) -> list[Path]:
    """Folders under `top` (itself included) that cannot be listed, and links there that
    lead nowhere (a loop, a missing target): a recursive glob passes over both in silence,
    which left a whole release out of a build that then succeeded."""
    out, todo = [], [top]
    while todo:
        folder = todo.pop()
        try:
            with os.scandir(folder) as found:
                entries = list(found)
        except FileNotFoundError:
            if folder != top:
                out.append(folder)
            continue
        except OSError:
            out.append(folder)
            continue
        for entry in entries:
            path = Path(entry.path)
            if entry.is_dir(follow_symlinks=False):
                todo.append(path)
            elif entry.is_symlink() and not os.path.exists(path):
                out.append(path)
    return sorted(out)


def release_files(root: Path, game_id: str) -> list[Path]:
    """Every file of the game's releases (`releases/<game>/`), in a fixed order."""
    base = root / "releases" / game_id
    return sorted((p for p in base.rglob("*") if p.is_file()), key=_parts) if base.is_dir() else []


def _parts(path: Path) -> tuple[str, ...]:
    # the order of sorted(paths), at half the cost: Path's own comparison is slow Python
    return path.parts


def stray_card_files(root: Path, game_id: str) -> list[Path]:
    """Card-like files the loader would not read: outside a set folder, or named *.yml."""
    return listing(root, game_id).strays
