"""Printable references: the rules booklet, the player aid and one checklist per set.

Rendered from the same verified records as the database and the site, through jinja2
templates in site_templates/print/ and WeasyPrint's CSS paged media.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from charnel.diagnostics import InputError, Origin, Problems
from charnel.outputs import write_bytes
from charnel.printing import documents, errata, layout, render
from charnel.records import Outcome
from charnel.verify import Verified

PAPERS = tuple(render.PAPER)
AID_SCALES = (1.0, 0.94, 0.88, 0.82, 0.76, 0.7)  # type sizes tried until the aid fits
SAVE_PAGE_SCALE = 0.82  # smallest type used to save a page the aid could spill onto

Progress = Callable[[str], None]  # takes a one-line status, as the pipeline's stages do


def _quiet(status: str) -> None:
    pass


def status_line(done: int, total: int, name: str, width: int = 12) -> str:
    """'print ━━━━━━──────── 1/2 <game>-rules.pdf': a progress bar for a status line."""
    filled = round(width * done / total) if total else width
    return f"print {'━' * filled}{'─' * (width - filled)} {done}/{total} {name}".rstrip()


def build_print(
    verified: Verified,
    outcomes: list[Outcome],
    out: Path,
    paper: str = "a4",
    progress: Progress = _quiet,
    laid_out: list[str] | None = None,
) -> list[Path]:
    """Write <game>-rules.pdf (and -rules-compact.pdf), <game>-player-aid.pdf and
    <game>-checklist-<set>.pdf to `out`; the names of those laid out anew (not kept as they
    were) go into `laid_out`.

    Raises InputError for a broken print layout or an aid that cannot fit its pages. Nothing
    is written unless every document rendered, so a failed run leaves earlier PDFs intact.
    """
    if paper not in render.PAPER:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}")
    records = verified.records
    game = records.game
    problems = Problems()
    plan = layout.load(game, problems)
    parts = layout.aid_sections(plan, records, problems) if plan is not None else []
    if problems:
        raise InputError(problems)

    gid = records.info.id
    aid = documents.player_aid(verified, parts, game, plan)
    contents = documents.booklet(verified, outcomes, game)
    booklet = render.html("booklet.html.j2", paper, compact=False, **contents)
    compact = render.html("booklet.html.j2", paper, compact=True, **contents)
    # (file name, the HTML it is laid out from, how to make it); the markup is cheap to make
    # and decides the bytes, so a document whose markup is unchanged is not laid out again
    jobs: list[tuple[str, str, Callable[[], bytes]]] = [
        # the aid first: it is the one document that can fail, so a failure comes early
        (f"{gid}-player-aid.pdf",
         render.html("player-aid.html.j2", paper, scale=AID_SCALES[0], **aid)
         + f"<!-- {AID_SCALES} {SAVE_PAGE_SCALE} {plan.aid_pages} -->",
         lambda: _aid(aid, plan, game, paper)),
        (f"{gid}-rules.pdf", booklet, lambda: render.pdf(render.layout(booklet))),
        (f"{gid}-rules-compact.pdf", compact, lambda: render.pdf(render.layout(compact))),
    ]
    for code, context in documents.checklists(verified, game, plan).items():
        markup = render.html("checklist.html.j2", paper, **context)
        jobs.append(
            (f"{gid}-checklist-{code}.pdf", markup, lambda m=markup: render.pdf(render.layout(m)))
        )
    for name, context in errata.sheets(records):
        markup = render.html("errata.html.j2", paper, **context)
        jobs.append((name, markup, lambda m=markup: render.pdf(render.layout(m))))
    before = _keys(out, gid)
    made: dict[str, bytes] = {}
    keys: dict[str, list[str]] = {}
    for done, (name, markup, make) in enumerate(jobs):
        progress(status_line(done, len(jobs), name))
        key = render.key(markup)
        kept = _unchanged(out / name, before.get(name), key)
        if kept is None and laid_out is not None:
            laid_out.append(name)
        made[name] = kept if kept is not None else make()
        keys[name] = [key, hashlib.sha256(made[name]).hexdigest()]
    progress(status_line(len(jobs), len(jobs), "writing"))
    written = _write_all(out, gid, made)
    keys_file = json.dumps(keys, indent=1, sort_keys=True) + "\n"
    write_bytes(out / KEYS.format(game=gid), keys_file.encode())
    return written


KEYS = ".charnel-print-{game}.json"  # each PDF's [key of its markup, hash of its bytes]


def _keys(out: Path, gid: str) -> dict[str, list[str]]:
    try:
        found = json.loads((out / KEYS.format(game=gid)).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _unchanged(path: Path, before: list[str] | None, key: str) -> bytes | None:
    """The PDF already at `path` when it was made from the same markup and is still the file
    that was written then; else None."""
    if not isinstance(before, list) or len(before) != 2 or before[0] != key:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return data if hashlib.sha256(data).hexdigest() == before[1] else None


def _aid(context: dict, plan, game, paper: str) -> bytes:
    laid_out: dict[float, object] = {}

    def at(scale: float):
        if scale not in laid_out:
            markup = render.html("player-aid.html.j2", paper, scale=scale, **context)
            laid_out[scale] = render.layout(markup)
        return laid_out[scale]

    # Fewest pages first, but type shrinks below SAVE_PAGE_SCALE only to fit at all.
    for target in range(1, plan.aid_pages + 1):
        floor = AID_SCALES[-1] if target == plan.aid_pages else SAVE_PAGE_SCALE
        scales = [s for s in AID_SCALES if s >= floor]
        while scales:
            scale = scales.pop(0)
            pages = len(at(scale).pages)
            if pages <= target:
                return render.pdf(at(scale))
            if target == plan.aid_pages:
                # Text area grows with the square of the type size: skip sizes that cannot fit.
                reachable = scale * (target / pages) ** 0.5 * 1.1
                scales = [s for s in scales if s <= reachable]
    problems = Problems()
    where = (
        plan.where("player_aid", key=True)
        if plan._doc is not None
        else Origin(str(layout.layout_path(game)))
    )
    problems.add(
        where,
        f"the player aid needs {pages} pages at {scale:.0%} type; "
        f"aid_pages allows {plan.aid_pages}: select fewer clauses",
    )
    raise InputError(problems)


def _write_all(out: Path, gid: str, made: dict[str, bytes]) -> list[Path]:
    """Write every file through a temporary name, then drop this game's PDFs no longer made."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in sorted(made.items()):
        target = out / name
        tmp = target.with_name(f".{name}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
        written.append(target)
    for old in out.glob(f"{gid}-*.pdf"):
        if old.name not in made:
            old.unlink()
    return written


__all__ = ["PAPERS", "Printed", "build_print", "existing"]



@dataclass(frozen=True)
class Printed:
    """A PDF this module wrote, with what a reader would call it."""

    path: Path
    title: str


def existing(out: Path, gid: str, set_names: dict[str, str] | None = None) -> list[Printed]:
    """The game's PDFs already in `out`: the booklet, the aid, then a checklist per set."""
    found = [
        Printed(out / f"{gid}-rules.pdf", "Rules booklet"),
        Printed(out / f"{gid}-rules-compact.pdf", "Rules booklet, compact: examples in a line"),
        Printed(out / f"{gid}-player-aid.pdf", "Player aid"),
    ]
    for path in sorted(out.glob(f"{gid}-checklist-*.pdf")):
        code = path.name.removeprefix(f"{gid}-checklist-").removesuffix(".pdf")
        found.append(Printed(path, f"Checklist: {(set_names or {}).get(code, code)}"))
    for path in sorted(out.glob(f"{gid}-errata-*.pdf")):
        version = path.name.removeprefix(f"{gid}-errata-").removesuffix(".pdf")
        found.append(Printed(path, f"Errata since release {version}"))
    return [p for p in found if p.path.is_file()]
