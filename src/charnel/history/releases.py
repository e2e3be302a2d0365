"""Releases of a game: cutting one (a copy of the sources as text) and reading them back."""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field

from charnel.diagnostics import Origin, Problems, excerpt
from charnel.history import changes as changes_file
from charnel.history.changes import Changes
from charnel.records import Date, GameRecords, Record
from charnel.sources import yamltext
from charnel.sources.files import source_files
from charnel.sources.validate import validate

# at most four parts of at most six digits: every version is compared as numbers, and int()
# refuses 5,000 digits with a traceback
VERSION = re.compile(r"\d{1,6}(\.\d{1,6}){0,3}")
RELEASE_FILE = "release.yaml"


class ReleaseFile(Record):
    version: str = Field(pattern=r"^\d{1,6}(\.\d{1,6}){0,3}$")
    date: Date


@dataclass
class Release:
    """One frozen release: where its sources are, and what it says it changed."""

    game: str
    version: str
    date: str
    root: Path  # a project folder holding rules/<game>/ and cards/<game>/ as released
    changes: Changes

    @property
    def key(self) -> tuple[int, ...]:
        return version_key(self.version)


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def folder(root: Path, game_id: str) -> Path:
    return root / "releases" / game_id


def read_all(root: Path, game_id: str, problems: Problems) -> list[Release]:
    """Every release of a game, oldest first; a broken one is a located problem."""
    found = []
    base = folder(root, game_id)
    for path in sorted(base.glob(f"*/{RELEASE_FILE}")) if base.is_dir() else []:
        shown = path.relative_to(root).as_posix()
        raw = yamltext.read_file(path, shown, problems)  # a FIFO or device is a problem
        if raw is None:
            continue
        text = yamltext.read_text(shown, raw, problems)
        doc = yamltext.parse(text, Origin(shown), problems) if text is not None else None
        info = validate(ReleaseFile, doc, problems, what="release file") if doc else None
        if info is None:
            continue
        if info.version != path.parent.name:
            problems.add(
                info.where("version"),
                f"release {info.version} is in the folder of {path.parent.name}",
            )
            continue
        rules = path.parent / "rules" / game_id
        changes = changes_file.read(
            rules, (rules / changes_file.FILE).relative_to(root).as_posix(), problems
        )
        found.append(Release(game_id, info.version, info.date, path.parent, changes))
    return sorted(found, key=lambda r: r.key)


def cut(root: Path, records: GameRecords, version: str, problems: Problems) -> Release | None:
    """Freeze the game's sources as release `version`: its game.yaml must say that version
    (rules_version), and it must come after every earlier release. The live changes file
    goes with the release and is emptied for the next one."""
    info = records.info
    game_id = info.id
    game_yaml = Origin(f"rules/{game_id}/game.yaml")
    if not VERSION.fullmatch(version):
        problems.add(game_yaml, f"'{excerpt(version)}' is not a version such as 1.1 (at most "
                                "four numbers of at most six digits)")
        return None
    if info.rules_version != version:
        problems.add(
            info.where("rules_version"),
            f"rules_version is {info.rules_version}; set it (and rules_date) to cut {version}",
        )
        return None
    earlier = read_all(root, game_id, problems)
    if problems:
        return None
    if any(r.version == version for r in earlier):
        problems.add(info.where("rules_version"), f"release {version} exists already")
        return None
    if earlier and version_key(version) <= earlier[-1].key:
        problems.add(
            info.where("rules_version"),
            f"release {version} would come before {earlier[-1].version}, the latest",
        )
        return None
    if earlier:
        _check_renumbering(root, records, earlier[-1], version, problems)
        if problems:
            return None
    target = folder(root, game_id) / version
    staging = target.with_name(f".{version}.tmp")
    shutil.rmtree(staging, ignore_errors=True)
    live_changes = root / "rules" / game_id / changes_file.FILE
    for path in [*map(Path, source_files(root, game_id)), live_changes]:
        if not path.is_file():
            continue
        copy = staging / path.relative_to(root)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
    (staging / RELEASE_FILE).write_text(
        f"version: '{version}'\ndate: '{info.rules_date}'\n", encoding="utf-8"
    )
    os.replace(staging, target)
    tmp = live_changes.with_name(live_changes.name + ".tmp")
    tmp.write_text(changes_file.EMPTY, encoding="utf-8")
    os.replace(tmp, live_changes)
    release = [r for r in read_all(root, game_id, problems) if r.version == version]
    return release[0] if release else None


def _check_renumbering(
    root: Path, records: GameRecords, last: Release, version: str, problems: Problems
) -> None:
    """The live changes file must renumber clauses of the latest release into clauses of this
    one, one to one, before it is frozen."""
    from charnel.history.identity import Step, thread
    from charnel.sources import loader

    game_id = records.info.id
    shown = f"rules/{game_id}/{changes_file.FILE}"
    live = changes_file.read(root / "rules" / game_id, shown, problems)
    before = loader.load(last.root, game_id, Problems())
    if before is None:
        problems.add(Origin(shown), f"release {last.version} cannot be read to check against")
        return
    thread(
        [
            # the latest release's own renumberings were checked when it was cut: only its
            # numbers matter here, so it starts the thread without them
            Step(last.version, [c.number for c in before.clauses], Changes()),
            Step(version, [c.number for c in records.clauses], live),
        ],
        problems,
    )
