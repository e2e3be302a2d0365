"""The stages, composed: load -> verify -> run examples -> emit. The CLI and tests call these.

Heavy modules (pydantic, SQLAlchemy, markdown-it) are imported inside the stages, so a build
that finds nothing changed answers from file metadata alone, well under a second.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import charnel
from charnel import __version__, templates
from charnel.diagnostics import InputError, Problems
from charnel.sources.files import release_files, source_files, stray_card_files

if TYPE_CHECKING:
    from charnel.games.base import Outcome
    from charnel.verify import Verified

Progress = Callable[[str], None]
Count = Callable[[int, int], None]  # (done, total)

# Besides the sources, a build depends on charnel's own code and the site templates.
_CODE = Path(charnel.__file__).parent


def _quiet(stage: str) -> None:
    pass


def check(
    root: Path, game_id: str, problems: Problems, progress: Progress = _quiet
) -> Verified | None:
    """Load and verify one game; problems collect in `problems`."""
    from charnel.sources import loader
    from charnel.verify import verify

    progress("load")
    records = loader.load(root, game_id, problems)
    if records is None:
        return None
    progress("verify")
    return verify(records, problems)


@dataclass
class Prepared:
    """One game loaded, verified and its examples run: what every output is made from."""

    verified: Verified
    outcomes: list[Outcome]


def prepare(
    root: Path,
    game_id: str,
    problems: Problems,
    progress: Progress = _quiet,
    count: Count | None = None,
) -> Prepared | None:
    """Load and verify one game, then run every example and verify every card.

    None when a source has a problem. An example the engine cannot read is bad input, added
    to `problems` like any other; one that fails is not (its outcome says so).
    """
    from charnel import examples

    before = len(problems)
    verified = check(root, game_id, problems, progress)
    if verified is None or len(problems) > before:
        return None
    progress("examples")
    tick = None
    if count is not None:
        total, done = examples.steps(verified.records), [0]

        def tick() -> None:
            done[0] += 1
            count(done[0], total)

    outcomes = examples.run_all(verified.records, tick)
    examples.add_broken(outcomes, problems)
    # the releases, read once here for every output (a broken one is bad input like any other)
    from charnel.history import views

    views.read(root, game_id, problems)
    return Prepared(verified, outcomes)


def fingerprint(root: Path, game_id: str) -> str:
    """A cheap stamp of every input (names, sizes, mtimes): unchanged inputs, unchanged stamp."""
    digest = hashlib.sha256(f"charnel {__version__} {game_id}\n".encode())
    inputs = source_files(root, game_id) + stray_card_files(root, game_id)
    inputs += release_files(root, game_id)
    inputs += sorted(_CODE.rglob("*.py")) + sorted(templates.root().rglob("*"))
    for path in inputs:
        try:
            st = path.stat()
        except OSError:
            digest.update(f"{path}\0missing\n".encode())
            continue
        digest.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


@dataclass
class BuildResult:
    game: str
    database: Path
    up_to_date: bool = False
    outcomes: list[Outcome] = field(default_factory=list)
    outputs: list[Path] = field(default_factory=list)

    @property
    def failed_examples(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.passed]


def _read_stamp(stamp: Path) -> dict:
    try:
        data = json.loads(stamp.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_stamp(stamp: Path, inputs: str, outputs: list[str]) -> None:
    tmp = stamp.with_name(stamp.name + ".tmp")
    tmp.write_text(json.dumps({"inputs": inputs, "outputs": sorted(outputs)}) + "\n")
    os.replace(tmp, stamp)


def build(
    root: Path,
    game_id: str,
    out_dir: Path,
    *,
    force: bool = False,
    site: bool = False,
    print_: bool = False,
    progress: Progress = _quiet,
) -> BuildResult:
    """Build one game's database (and site and PDFs). Raises InputError with every problem.

    Skipped when the stamp shows the same inputs and every output asked for was built then.
    """
    database = out_dir / f"{game_id}.db"
    stamp = out_dir / f".{game_id}.stamp"
    wanted = ["database"] + ["site"] * site + ["print"] * print_
    mark = fingerprint(root, game_id)
    previous = _read_stamp(stamp)
    if (
        not force
        and database.exists()
        and previous.get("inputs") == mark
        and set(wanted) <= set(previous.get("outputs", []))
    ):
        return BuildResult(game_id, database, up_to_date=True)

    from charnel import compile

    problems = Problems()
    prepared = prepare(root, game_id, problems, progress)
    if problems or prepared is None:  # an example that fails is built: the site shows it
        raise InputError(problems)
    verified, outcomes = prepared.verified, prepared.outcomes
    progress("database")
    compile.write(verified, outcomes, database)
    outputs = [database]
    if print_:  # before the site, which offers the PDFs for download
        from charnel.printing import build_print

        outputs.extend(build_print(verified, outcomes, out_dir / "print", progress=progress))
    if site:
        from charnel.printing import existing
        from charnel.site import build_site

        progress("site")
        set_names = {s.code: s.name for s in verified.records.info.sets}
        printed = existing(out_dir / "print", game_id, set_names)
        outputs.append(build_site(verified, outcomes, database, out_dir / "site", printed=printed))
    # Outputs built from older inputs are stale once the sources change, so only keep them
    # in the stamp when the inputs are the same.
    kept = previous.get("outputs", []) if previous.get("inputs") == mark else []
    _write_stamp(stamp, mark, sorted(set(wanted) | set(kept)))
    return BuildResult(game_id, database, outcomes=outcomes, outputs=outputs)
