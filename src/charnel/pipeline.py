"""The stages, composed: load -> verify -> run examples -> emit. The CLI and tests call these.

Heavy modules (pydantic, SQLAlchemy, markdown-it) are imported inside the stages, so a build
that finds nothing changed answers from file metadata alone, well under a second.
"""

from __future__ import annotations

import gc
import hashlib
import json
import shutil
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import charnel
from charnel import __version__, file_values, output_record, outputs, templates
from charnel.diagnostics import InputError, Problems
from charnel.sources.files import (
    Listing,
    listing,
    release_files,
    unreadable_folders,
    unreadable_under,
)
from charnel.sources.parsed import stat_of

if TYPE_CHECKING:
    from charnel.memo import Memo
    from charnel.records import Outcome
    from charnel.sources.parsed import Kept
    from charnel.verify import Verified

Progress = Callable[[str], None]
Count = Callable[[int, int], None]  # (done, total)
Preview = Callable[[dict[str, bytes]], None]  # {path under site/: bytes} not yet committed

# Besides the sources, a build depends on charnel's own code and the site templates.
_CODE = Path(charnel.__file__).parent


def _quiet(stage: str) -> None:
    pass


def check(
    root: Path, game_id: str, problems: Problems, progress: Progress = _quiet,
    parsed: Kept | None = None, sources: Listing | None = None, checks: dict | None = None,
    memo: Memo | None = None,
) -> Verified | None:
    """Load and verify one game; problems collect in `problems`. `parsed`: the card files
    kept from an earlier load; `sources`: the game's files, listed already; `memo`: the last
    load's records in this process (see `loader.load`); `checks`: each card's check results
    kept from an earlier build (see `verify`)."""
    from charnel.sources import loader
    from charnel.verify import verify

    progress("load")
    records = loader.load(root, game_id, problems, parsed=parsed, sources=sources, memo=memo)
    if records is None:
        return None
    progress("verify")
    return verify(records, problems, checks)


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
    parsed: Kept | None = None,
    runs: dict | None = None,
    sources: Listing | None = None,
    checks: dict | None = None,
    memo: Memo | None = None,
) -> Prepared | None:
    """Load and verify one game, then run every example and verify every card.

    None when a source has a problem. An example the engine cannot read is bad input, added
    to `problems` like any other; one that fails is not (its outcome says so). `parsed`: the
    card files kept from an earlier load (see `loader.load`); `runs`: the example runs and card
    verifications kept from an earlier build (see `examples.run_all`); `sources`: the game's
    files, listed already; `checks`: each card's check results kept (see `verify`); `memo`:
    the last load's records in this process (see `loader.load`).
    """
    from charnel import examples

    before = len(problems)
    verified = check(root, game_id, problems, progress, parsed, sources, checks, memo)
    if verified is None or len(problems) > before:
        return None
    progress("examples")
    tick = None
    if count is not None:
        total, done = examples.steps(verified.records), [0]

        def tick() -> None:
            done[0] += 1
            count(done[0], total)

    outcomes = examples.run_all(verified.records, tick, runs, verified.identities)
    examples.add_broken(outcomes, problems)
    # the releases, read once here for every output (a broken one is bad input like any other)
    from charnel.history import views

    views.read(root, game_id, problems)
    return Prepared(verified, outcomes)


def check_across_games(root: Path, problems: Problems) -> None:
    """What holds across the project's games: one game at most has the site's unprefixed URLs
    (`unprefixed_urls` in game.yaml)."""
    from charnel.sources import loader
    from charnel.sources.files import game_ids

    claims = [info for g in game_ids(root)
              if (info := loader.load_info(root, g, problems)) and info.unprefixed_urls]
    for info in claims[1:]:
        problems.add(info.where("unprefixed_urls"),
                     f"unprefixed_urls: game '{claims[0].id}' has the site's unprefixed URLs "
                     "already; one game may")


def fingerprint(root: Path, game_id: str) -> str:
    """A cheap stamp of every input (names, sizes, times, inodes): unchanged inputs, unchanged
    stamp."""
    return _fingerprint(root, game_id).mark


@dataclass
class _Mark:
    mark: str  # the fingerprint
    sources: Listing  # the game's files as listed for it, for the load to take
    stats: dict[str, tuple | None]  # the source files' metadata (`parsed.stat_of`), taken from
    taken_ns: int  # this moment on


def _fingerprint(root: Path, game_id: str) -> _Mark:
    digest = hashlib.sha256(f"charnel {__version__} {game_id}\n".encode())
    taken_ns = time.time_ns()
    sources = listing(root, game_id)
    stats = {path: stat_of(path) for path in sources.files}
    digest.update("".join([f"{path}\0{st}\n" for path, st in stats.items()]).encode())
    inputs = [*sources.strays, *release_files(root, game_id)]
    inputs += sorted(_CODE.rglob("*.py")) + sorted(templates.root().rglob("*"))
    unreadable = [*unreadable_folders(root, game_id), *unreadable_under(templates.root())]
    # the bundled games' own templates, found without importing a game: a build with nothing
    # to do answers without loading the heavy modules a game pulls in
    for folder in sorted(_CODE.glob("games/*/templates")):
        inputs += sorted(folder.rglob("*"))
        unreadable += unreadable_under(folder)
    # a folder that cannot be listed hides its files from the globs above: the loader
    # reports it, so its presence alone must make the build run again
    for path in unreadable:
        digest.update(f"{path}\0unreadable\n".encode())
    for path in inputs:
        digest.update(f"{path}\0{stat_of(path)}\n".encode())
    return _Mark(digest.hexdigest(), sources, stats, taken_ns)


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


def _write_stamp(stamp: Path, inputs: str, made: list[str]) -> None:
    data = json.dumps({"inputs": inputs, "outputs": sorted(made)}) + "\n"
    outputs.write_bytes(stamp, data.encode())


def _up_to_date(root: Path, game_id: str, out_dir: Path, wanted: list[str],
                marks: dict[str, _Mark] | None = None) -> bool:
    """Whether the outputs in `out_dir` are built from the sources as they are; `marks` keeps
    each game's fingerprint, for the build that follows to take rather than make again."""
    previous = _read_stamp(out_dir / f".{game_id}.stamp")
    if not (out_dir / f"{game_id}.db").exists():
        return False
    mark = _fingerprint(root, game_id)
    if marks is not None:
        marks[game_id] = mark
    return previous.get("inputs") == mark.mark and set(wanted) <= set(previous.get("outputs", []))


def pdfs_up_to_date(root: Path, game_ids: Iterable[str], out: Path) -> bool:
    """Whether the visible outputs hold every game's PDFs, built from the sources as they are."""
    shown = outputs.visible(out)
    wanted = _wanted(site=True, print_=True)
    return shown is not None and all(_up_to_date(root, g, shown, wanted) for g in game_ids)


def _wanted(site: bool, print_: bool) -> list[str]:
    return ["database"] + ["site"] * site + ["print"] * print_


def build(
    root: Path,
    game_id: str,
    out_dir: Path,
    *,
    force: bool = False,
    site: bool = False,
    print_: bool = False,
    pdfs_pending: bool = False,
    progress: Progress = _quiet,
    mark: _Mark | None = None,
    memo: Memo | None = None,
    preview: Preview | None = None,
    checked: Callable[[], None] | None = None,
) -> BuildResult:
    """Build one game's database (and site and PDFs). Raises InputError with every problem.

    Skipped when the stamp shows the same inputs and every output asked for was built then.
    `pdfs_pending`: the PDFs are laid out by a build after this one, which the site says.
    `mark`: the sources' fingerprint and listing, when the caller took them already (a build
    loads the files the fingerprint is of). `memo`: what the last build in this process loaded
    (`charnel.memo`), kept by a process that builds again; None for a build of its own.
    `preview`: given the site's files (by their path under site/) as soon as they are rendered
    and while they are few, before the build commits (`charnel.site.build_site`). `checked`:
    called once the database is written, before anything forks (`build_all`'s check of the
    outputs, which runs in a thread).
    """
    database = out_dir / f"{game_id}.db"
    stamp = out_dir / f".{game_id}.stamp"
    wanted = _wanted(site, print_)
    marked = mark or _fingerprint(root, game_id)
    mark = marked.mark
    previous = _read_stamp(stamp)
    if (
        not force
        and database.exists()
        and previous.get("inputs") == mark
        and set(wanted) <= set(previous.get("outputs", []))
    ):
        return BuildResult(game_id, database, up_to_date=True)

    from charnel import database_update
    from charnel.sources import loader, parsed

    problems = Problems()
    # the card files as the last build parsed them, by content: only edited files are parsed
    # (a forced build parses every file, as from nothing)
    kept_path = out_dir / f".{game_id}.parsed"
    # the kept values live as long as the records the load makes, which it keeps from the
    # cycle collector (`loader.load`); collected in between, they were scanned several times.
    # The stages up to the database make hundreds of thousands of objects that live as long
    # (each example's outcome, each card's rows) and free no cycles: the collector is kept
    # off through them too (at 50,000 cards its passes cost a quarter of a second)
    with loader.no_cycle_collection():
        kept = parsed.Kept() if force else (
            parsed.read(kept_path) if memo is None
            # the store as read or written last, while it is the same file: not read again
            else memo.stored(kept_path, parsed.read).copy())
        kept.stats, kept.taken_ns = marked.stats, marked.taken_ns
        before = kept.marks()
        # the card files as the last build left them: a card of another content was saved since
        # (the store's values lag behind the files it did not think worth writing again, which
        # this process's last load knows)
        known = before[0] | (memo.hashes(game_id) if memo is not None else set())
        # the runs and database rows of the last build, by what they were made from
        store = _Kept(out_dir / f".{game_id}.kept", game_id, database, force)
        prepared = prepare(root, game_id, problems, progress, parsed=kept, runs=store.runs,
                           sources=marked.sources, checks=store.checks, memo=memo)
        if problems or prepared is None:  # an example that fails is built: the site shows it
            raise InputError(problems)
        if parsed.worth_writing(before, kept):
            out_dir.mkdir(parents=True, exist_ok=True)
            outputs.write_bytes(kept_path, parsed.dumps(kept))
            if memo is not None:
                memo.wrote(kept_path, kept.copy())
        verified, outcomes = prepared.verified, prepared.outcomes
        # the site is begun before the database when no PDF is laid out before it (the site
        # offers them): the pages of the cards the edit changed are shown before the rest
        started = _start_site(verified, outcomes, out_dir, game_id, pdfs_pending) if (
            site and not print_) else None
        show = None if preview is None else (
            lambda files: preview({f"{game_id}/{path}": data for path, data in files.items()}))
        if started is not None and show is not None:
            started.preview(show, known)
        progress("database")
        database_update.write(verified, outcomes, database, store.database, store.previous)
        store.save()
        # what they made goes with the build, freed by its count of references: left young,
        # the collector's first pass after this would scan all of it for nothing
        gc.freeze()
    if checked is not None:
        checked()
    made = [database]
    if print_:  # before the site, which offers the PDFs for download
        from charnel.printing import build_print

        made.extend(build_print(verified, outcomes, out_dir / "print", progress=progress))
    if site:
        # what the site is made from lives through it: frozen, as the load freezes the records,
        # the collector does not scan it again at every full collection while the pages render
        gc.freeze()
        progress("site")
        started = started or _start_site(verified, outcomes, out_dir, game_id,
                                         pdfs_pending and not print_)
        made.append(started.build(database, out_dir / "site" / game_id, preview=show))
    # Outputs built from older inputs are stale once the sources change, so only keep them
    # in the stamp when the inputs are the same.
    kept = previous.get("outputs", []) if previous.get("inputs") == mark else []
    _write_stamp(stamp, mark, sorted(set(wanted) | set(kept)))
    return BuildResult(game_id, database, outcomes=outcomes, outputs=made)


def _start_site(verified: Verified, outcomes: list[Outcome], out_dir: Path, game_id: str,
                pending: bool):
    """The game's site begun (`charnel.site.SiteBuild`), offering the PDFs under out_dir/print
    (`pending`: none yet, they are being laid out after this build)."""
    from charnel.printing import existing
    from charnel.site import SiteBuild

    set_names = {s.code: s.name for s in verified.records.info.sets}
    printed = [] if pending else existing(out_dir / "print", game_id, set_names)
    return SiteBuild(verified, outcomes, printed, pdfs_pending=pending)


class _Kept:
    """What a game's build keeps for the next (`.<game>.kept`, with the changes since it was
    written whole in `.<game>.kept.delta`: `kept.Layered`): each card's check results
    (`charnel.verify`), its example runs and card verifications (`examples.run_all`) and what
    its database was made from
    (`charnel.database_update`), with the database file's size and time, so that a database
    that is not the one they describe is made whole."""

    def __init__(self, path: Path, game_id: str, database: Path, force: bool):
        from charnel import kept, registry

        game = registry.get(game_id)
        self.database_path = database
        stamp = kept.code_version(*([type(game).__module__.split(".")[0]] if game else []))
        self.store = kept.Layered(path, stamp, fresh=force)
        found = self.store.value()
        self.runs = found.get("runs") if isinstance(found.get("runs"), dict) else {}
        self.checks = found.get("checks") if isinstance(found.get("checks"), dict) else {}
        self.database = found.get("database") if isinstance(found.get("database"), dict) else {}
        same = self.database.pop("file", None) == file_values.identity(self.database_path)
        self.previous = database if same else None

    def save(self) -> None:
        value = {"checks": self.checks, "runs": self.runs,
                 "database": {**self.database, "file": file_values.identity(self.database_path)}}
        self.store.save(value, outputs.write_bytes)


Stages = Callable[[str], AbstractContextManager[Progress]]


class BuildFailed(RuntimeError):
    """The build could not write its outputs (a full disk, a folder it may not write): the
    previous outputs are still the visible ones."""


def _remaking(notice: Callable[[str], None], damaged: list[str]) -> None:
    notice(f"remaking {len(damaged)} output(s) whose bytes are not the ones recorded: "
           + ", ".join(damaged[:3]) + (" …" if len(damaged) > 3 else ""))


class _Damaged(Exception):
    """Outputs of the visible generation were found with other bytes than recorded."""

    def __init__(self, paths: list[str]):
        super().__init__(paths)
        self.paths = paths


def _failed(exc: Exception, out: Path) -> BuildFailed:
    import errno

    full = (isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)
            or getattr(exc, "sqlite_errorcode", None) == 13)  # SQLITE_FULL
    what = f"the disk of {out} is full ({exc})" if full else str(exc)
    return BuildFailed(f"{what}; the previous outputs are unchanged")


def build_all(
    root: Path,
    game_ids: Iterable[str],
    out: Path,
    *,
    whole: bool = True,
    force: bool = False,
    site: bool = False,
    print_: bool = False,
    pdfs_pending: bool = False,
    stages: Stages | None = None,
    notice: Callable[[str], None] = _quiet,
    memo: Memo | None = None,
    preview: Preview | None = None,
) -> list[BuildResult]:
    """Build every game in `game_ids` into `out` as one transaction (see `charnel.outputs`):
    the databases, sites, PDFs and the site's home become visible together, or, when any game
    has a problem or the build dies, not at all. Raises InputError with every game's problems.

    `whole`: these are all the project's games, so outputs of games no longer there go.
    `pdfs_pending`: the PDFs are laid out by a second build started after this one (see
    `print_later`); the site says they are coming. `memo`: what the last build in this process
    loaded, for a process that builds again (`charnel.memo`). `preview`: see `build`; a
    build that fails after it shows no file it gave.
    """
    from contextlib import nullcontext

    game_ids = list(game_ids)
    wanted = _wanted(site, print_)
    shown = outputs.visible(out)
    in_place = [f"{g}.db" for g in game_ids] + ["site"] * site  # the links readers open
    # outputs whose bytes are not those the last build recorded: never "up to date" over them,
    # and made again. Found beside the build (a stat per output: a fifth of a second at
    # 10,000 cards), which waits for it before anything forks and before it commits; found
    # damaged, the build starts again, forced.
    check = output_record.Check(shown)
    marks: dict[str, _Mark] = {}
    if shown is not None and not force and all(
        _up_to_date(root, g, shown, wanted, marks) for g in game_ids
    ) and all((out / name).exists() for name in in_place) and (
        not whole or {p.stem for p in shown.glob("*.db")} == set(game_ids)  # none gone
    ) and check.result() == []:
        return [BuildResult(g, out / f"{g}.db", up_to_date=True) for g in game_ids]
    stages = stages or (lambda game_id: nullcontext(_quiet))
    import sqlite3

    failures: tuple[type[Exception], ...] = (OSError, sqlite3.Error)
    if site:  # the site's modules are a second's import a database-only build does without
        from charnel.site.search import SearchIndexError

        failures += (SearchIndexError,)
    # a forced build waits for the check: it makes no file again whose bytes it has, so the
    # damaged ones are taken out first
    damaged = (check.result() or []) if force else []
    if damaged:
        _remaking(notice, damaged)

    def checked() -> None:
        if not force and (found := check.result()):
            raise _Damaged(found)

    while True:
        try:
            with outputs.transaction(out, notice) as staged:
                staged.discard(damaged)
                results = _build_staged(root, game_ids, staged, whole, force, site, print_,
                                        pdfs_pending, stages, marks, memo, preview, checked)
                checked()
                outputs.fault("before-commit")
                staged.commit(sorted(p.stem for p in staged.dir.glob("*.db")))
            break
        except _Damaged as exc:
            damaged = exc.paths
            _remaking(notice, damaged)
            force = True  # every stage runs again, and each makes what is missing
        except failures as exc:
            raise _failed(exc, out) from exc
    for result in results:
        result.database = out / f"{result.game}.db"
    return results


def _build_staged(root: Path, game_ids: list[str], staged: outputs.Transaction, whole: bool,
                  force: bool, site: bool, print_: bool, pdfs_pending: bool,
                  stages: Stages, marks: dict[str, _Mark],
                  memo: Memo | None = None, preview: Preview | None = None,
                  checked: Callable[[], None] | None = None) -> list[BuildResult]:
    """Every game's outputs, then the site's home, into the generation being made."""
    site_dir = staged.dir / "site"
    if site:
        from charnel.site.output import MANIFEST

        if any((site_dir / MANIFEST.format(game=g)).exists() for g in game_ids):
            # a site of the layout before games had folders: built again from nothing
            shutil.rmtree(site_dir)
            outputs.changed(site_dir)
    problems, results = Problems(), []
    check_across_games(root, problems)
    for game_id in game_ids:
        try:
            with stages(game_id) as step:
                results.append(build(root, game_id, staged.dir, force=force, site=site,
                                     print_=print_, pdfs_pending=pdfs_pending, progress=step,
                                     mark=marks.get(game_id), memo=memo,
                                     preview=preview, checked=checked))
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    if whole:
        staged.remove_games(game_ids)
    if site:
        from charnel.site.home import build_home

        build_home(site_dir, game_ids if whole else None)
    return results


def print_game(
    root: Path,
    game_id: str,
    out: Path,
    paper: str = "a4",
    progress: Progress = _quiet,
    laid_out: list[str] | None = None,
) -> list[Path]:
    """Check one game, run its examples, and print its PDFs (the names of those laid out anew
    go into `laid_out`). Raises InputError with problems."""
    from charnel.printing import build_print

    problems = Problems()
    prepared = prepare(root, game_id, problems, progress)
    if problems or prepared is None:
        raise InputError(problems)
    return build_print(prepared.verified, prepared.outcomes, out, paper, progress, laid_out)


def print_all(
    root: Path,
    game_ids: Iterable[str],
    out: Path,
    paper: str = "a4",
    *,
    stages: Stages | None = None,
    notice: Callable[[str], None] = _quiet,
) -> dict[str, list[tuple[Path, bool]]]:
    """Print every game's PDFs into out/print/ (out/print/<paper>/ for other papers) as one
    transaction, like a build; returns each game's files, each with whether it was laid out
    anew (else kept as it was). Raises InputError."""
    import sqlite3
    from contextlib import nullcontext

    stages = stages or (lambda game_id: nullcontext(_quiet))
    folder = Path("print") if paper == "a4" else Path("print") / paper
    written: dict[str, list[tuple[Path, bool]]] = {}
    try:
        with outputs.transaction(out, notice) as staged:
            problems = Problems()
            for game_id in game_ids:
                fresh: list[str] = []
                try:
                    with stages(game_id) as step:
                        made = print_game(root, game_id, staged.dir / folder, paper, step, fresh)
                except InputError as exc:
                    problems.extend(exc.problems)
                    continue
                written[game_id] = [(out / folder / p.name, p.name in fresh) for p in made]
            if problems:
                raise InputError(problems)
            staged.commit(sorted(p.stem for p in staged.dir.glob("*.db")))
    except (OSError, sqlite3.Error) as exc:
        raise _failed(exc, out) from exc
    return written
