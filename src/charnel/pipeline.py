"""The stages, composed: load -> verify -> run examples -> emit. The CLI and tests call these."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from charnel import __version__, compile, examples
from charnel.diagnostics import InputError, Problems
from charnel.games.base import Outcome
from charnel.sources import loader
from charnel.verify import Verified, verify

Progress = Callable[[str], None]


def _quiet(stage: str) -> None:
    pass


def check(root: Path, game_id: str, problems: Problems, progress: Progress = _quiet) -> Verified | None:
    """Load and verify one game; problems collect in `problems`."""
    progress("load")
    records = loader.load(root, game_id, problems)
    if records is None:
        return None
    progress("verify")
    verified = verify(records, problems)
    return verified


def fingerprint(root: Path, game_id: str) -> str:
    """A cheap stamp of the sources (names, sizes, mtimes): unchanged sources, unchanged stamp."""
    digest = hashlib.sha256(f"charnel {__version__} {game_id}\n".encode())
    for path in loader.source_files(root, game_id):
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
    """Build one game's database (and site and PDFs). Raises InputError with every problem."""
    database = out_dir / f"{game_id}.db"
    stamp = out_dir / f".{game_id}.stamp"
    mark = fingerprint(root, game_id)
    if not force and database.exists() and stamp.exists() and stamp.read_text() == mark:
        return BuildResult(game_id, database, up_to_date=True)
    problems = Problems()
    verified = check(root, game_id, problems, progress)
    if problems or verified is None:
        raise InputError(problems)
    progress("examples")
    outcomes = examples.run_all(verified.records)
    progress("database")
    compile.write(verified, outcomes, database)
    outputs = [database]
    if site:
        from charnel.site import build_site

        progress("site")
        outputs.append(build_site(verified, outcomes, database, out_dir / "site"))
    if print_:
        from charnel.printing import build_print

        progress("print")
        outputs.extend(build_print(verified, outcomes, out_dir / "print"))
    stamp.write_text(mark)
    return BuildResult(game_id, database, outcomes=outcomes, outputs=outputs)
