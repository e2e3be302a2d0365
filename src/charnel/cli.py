"""The `charnel` command: parses options and calls the pipeline. No work is done here."""

from __future__ import annotations

import functools
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from charnel import __version__, pipeline
from charnel.diagnostics import InputError, Problems, excerpt, printable
from charnel.sources import files

app = typer.Typer(
    help="charnel: card and rules databases for tabletop card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class _Terminal(Console):
    """Prints control characters as \\x1b (`diagnostics.printable`): a name from an argument,
    a file or a database never clears the screen or retitles the terminal that shows it.
    Every string printed, table cells included, is rendered here."""

    def render_str(self, text: str, **kwargs):
        return super().render_str(printable(text), **kwargs)


out = _Terminal(highlight=False)
err = _Terminal(stderr=True, highlight=False)

RootOpt = Annotated[
    Path,
    typer.Option("--root", help="Project folder holding cards/ and rules/.", show_default=False),
]
GameOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--game", "-g", help="Game to work on (repeatable); default: every game under rules/."
    ),
]
OutOpt = Annotated[Path, typer.Option("--out", help="Output folder.")]


def report(problems: Problems, root: Path) -> None:
    """Print every problem as path:line:col: message with the line shown, then a summary."""
    for problem in problems:
        text = problem.render(root)
        head, _, rest = text.partition("\n")
        err.print(head, style="bold red", markup=False, soft_wrap=True)
        if rest:
            err.print(rest, markup=False, soft_wrap=True)
    err.print(f"error: {problems.summary()}", style="bold red", markup=False)


def fail(problems: Problems, root: Path) -> typer.Exit:
    report(problems, root)
    return typer.Exit(code=1)


def game_list(root: Path, game: list[str] | None) -> list[str]:
    """The games to work on; an unknown --game or a project without games exits with 1."""
    found = files.game_ids(root)
    if not game and not found:
        err.print(
            f"error: no games under {root / 'rules'} (expected rules/<game>/game.yaml)",
            style="red",
            markup=False,
        )
        raise typer.Exit(code=1)
    unknown = [g for g in game or [] if not (root / "rules" / g).is_dir()]
    if unknown:
        known = ", ".join(found) or "none"
        names = ", ".join(map(repr, unknown))
        message = f"error: unknown game {names} (games under rules/: {known})"
        err.print(message, style="red", markup=False)
        raise typer.Exit(code=1)
    return list(dict.fromkeys(game)) if game else found


def one_game(root: Path, game: str | None, fits: Callable[[str], bool] | None = None) -> str:
    """The game a command that takes one works on: --game, the only game, or the only game
    `fits` (one with deck rules, one with both releases ...); otherwise exit 1 asking."""
    game_ids = game_list(root, [game] if game else None)
    if len(game_ids) > 1 and fits is not None:
        fitting = [g for g in game_ids if fits(g)]
        game_ids = fitting if len(fitting) == 1 else game_ids
    if len(game_ids) > 1:
        err.print(f"error: games {', '.join(game_ids)}: choose one with --game", style="red")
        raise typer.Exit(code=1)
    return game_ids[0]


def version_callback(value: bool) -> None:
    if value:
        out.print(f"charnel {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=version_callback, is_eager=True, help="Show the version."
        ),
    ] = False,
) -> None:
    """Card and rules databases for tabletop card games."""


@app.command()
def check(
    *,
    root: RootOpt = Path("."),
    game: GameOpt = None,
    coverage: Annotated[
        bool, typer.Option("--coverage", help="Also print how much card text the engine can run.")
    ] = False,
) -> None:
    """Check every authored file; report all problems as path:line:col: message.

    The examples are run, and each card against its abilities' examples, so one the engine
    cannot read (an unknown action, fact or card) is a problem here, as it is for `build`;
    whether examples pass is `charnel examples`' answer."""
    problems = Problems()
    game_ids = game_list(root, game)
    pipeline.check_across_games(root, problems)
    for game_id in game_ids:
        found = Problems()
        prepared = pipeline.prepare(root, game_id, found)
        problems.extend(found)
        if prepared is None or found:
            continue
        verified = prepared.verified
        records = verified.records
        out.print(
            f"{game_id}: {len(records.cards)} cards, {len(records.clauses)} rules, "
            f"{len(records.glossary.terms)} glossary terms, "
            f"{len(records.examples)} examples: ok"
        )
        if coverage:
            from charnel.coverage import summary

            out.print(summary(verified), markup=False, soft_wrap=True)
    if problems:
        raise fail(problems, root)


ForceOpt = Annotated[bool, typer.Option("--force", help="Rebuild even if nothing changed.")]


def build_each(root: Path, game: list[str] | None, out_dir: Path, **outputs: bool) -> list:
    """pipeline.build_all over the games asked for, as one transaction, with a status line per
    game; exits 1 with every problem found (and nothing of the build made visible)."""
    from functools import partial

    from charnel.progress import stages

    return transaction(root, lambda: pipeline.build_all(
        root, game_list(root, game), out_dir, whole=not game, stages=partial(stages, err),
        notice=lambda text: err.print(text, markup=False), **outputs,
    ))


def transaction(root: Path, run):
    """Run a build or print of the outputs (see `charnel.outputs`); exits 1 with every
    problem found, or with why the outputs could not be written."""
    try:
        return run()
    except InputError as exc:
        raise fail(exc.problems, root) from None
    except pipeline.BuildFailed as exc:
        err.print(f"error: {exc}", style="bold red", markup=False, soft_wrap=True)
        raise typer.Exit(code=1) from None


@app.command()
def build(
    *,
    root: RootOpt = Path("."),
    game: GameOpt = None,
    out_dir: OutOpt = Path("build"),
    force: ForceOpt = False,
    site: Annotated[
        bool, typer.Option("--site/--no-site", help="Also build the static site.")
    ] = True,
    print_: Annotated[
        bool, typer.Option("--print/--no-print", help="Also build the printable PDFs.")
    ] = True,
) -> None:
    """Compile every game into build/<game>.db (and the site and PDFs), as one transaction:
    the outputs appear together when the build finishes; a build that fails leaves the
    previous ones, and a second build started meanwhile waits."""
    for result in build_each(root, game, out_dir, force=force, site=site, print_=print_):
        if result.up_to_date:
            out.print(f"{result.game}: up to date ({result.database})", markup=False)
            continue
        passed = len(result.outcomes) - len(result.failed_examples)
        out.print(
            f"{result.game}: wrote {result.database} "
            f"({passed}/{len(result.outcomes)} example runs pass)",
            markup=False,
        )


@app.command()
def site(
    *,
    root: RootOpt = Path("."),
    game: GameOpt = None,
    out_dir: OutOpt = Path("build"),
    force: ForceOpt = False,
    check_links: Annotated[
        bool, typer.Option("--check-links", help="Then check every internal link and anchor.")
    ] = False,
) -> None:
    """Build the static site into build/site/: a home listing the games, a folder per game
    (and the databases first, if needed)."""
    for result in build_each(root, game, out_dir, force=force, site=True):
        state = "up to date" if result.up_to_date else "wrote"
        out.print(f"{result.game}: site {state} ({out_dir / 'site'})", markup=False)
    if check_links:
        from charnel.site.linkcheck import check as check_site_links

        broken = check_site_links(out_dir / "site")
        for link in broken:
            err.print(str(link), markup=False)
        out.print(f"links: {len(broken)} broken", markup=False)
        if broken:
            raise typer.Exit(code=1)

@app.command()
def new(
    folder: Annotated[Path, typer.Argument(help="An empty or absent folder for the project.")],
    *,
    game: Annotated[str, typer.Option("--game", "-g", help="The new game's id: my-game.")],
    data_only: Annotated[bool, typer.Option(
        "--data-only", help="Rules, glossary and cards only: no rules engine, no example."
    )] = False,
) -> None:
    """Start a rules reference for a game of your own, outside this repository: game.yaml, a
    rules document of one clause and one example, a glossary, one card, the game's package
    (its card fields and a small rules engine) and a README saying how to install and build."""
    from charnel.scaffold import ProjectError, new_project

    try:
        written = new_project(folder, game, data_only=data_only)
    except ProjectError as exc:
        err.print(f"error: {exc}", style="red", markup=False, soft_wrap=True)
        raise typer.Exit(code=1) from None
    for path in written:
        out.print(f"wrote {path}", markup=False, soft_wrap=True)


@app.command()
def schema(
    *,
    root: RootOpt = Path("."),
    game: GameOpt = None,
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Folder to write to; default <root>/schema.")
    ] = None,
) -> None:
    """Write JSON Schema for card files to schema/<game>-card.json, where card files' first
    line points YAML-aware editors; run it again after changing game.yaml or the glossary."""
    from charnel import jsonschema

    problems = Problems()
    for game_id in game_list(root, game):
        target = jsonschema.write(root, game_id, out_dir or root / "schema", problems)
        if target is not None:
            out.print(f"{game_id}: wrote {target}", markup=False)
    if problems:
        raise fail(problems, root)


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"


@app.command("print")
def print_(
    *,
    root: RootOpt = Path("."),
    game: GameOpt = None,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Folder the PDFs go to; default build/print, build/print/letter (made "
            "visible together, as a build's outputs are).",
        ),
    ] = None,
    paper: Annotated[Paper, typer.Option("--paper", help="Page size.")] = Paper.a4,
) -> None:
    """Print the rules booklet, the player aid and the set checklists as PDFs.

    Each paper size has its own folder, so printing Letter neither replaces the A4 files
    that `charnel build` makes nor makes the next A4 run lay every page out again."""
    from functools import partial

    from charnel.pipeline import print_game
    from charnel.progress import stages

    game_ids = game_list(root, game)
    if out_dir is None:  # into the build's outputs, as one transaction like a build
        written = transaction(root, lambda: pipeline.print_all(
            root, game_ids, Path("build"), paper.value, stages=partial(stages, err),
            notice=lambda text: err.print(text, markup=False),
        ))
        for game_id, files in written.items():
            for path, fresh in files:
                state = "wrote" if fresh else "kept (unchanged)"
                out.print(f"{game_id}: {state} {path}", markup=False, soft_wrap=True)
        return
    problems = Problems()
    for game_id in game_ids:
        laid_out: list[str] = []
        try:
            with stages(err, game_id) as step:
                made = print_game(root, game_id, out_dir, paper.value, step, laid_out)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        for path in made:
            fresh = path.name in laid_out
            state = "wrote" if fresh else "kept (unchanged)"
            out.print(f"{game_id}: {state} {path}", markup=False, soft_wrap=True)
    if problems:
        raise fail(problems, root)


@app.command()
def serve(
    *,
    root: RootOpt = Path("."),
    game: GameOpt = None,
    out_dir: OutOpt = Path("build"),
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8001,
    public: Annotated[
        bool, typer.Option("--public", help="Arbitrary SQL off; canned queries and tables stay.")
    ] = False,
    build_first: Annotated[
        bool, typer.Option("--build/--no-build", help="Build first if the sources changed.")
    ] = True,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="Server processes; one per core is best.")
    ] = 1,
    cache_mb: Annotated[
        int, typer.Option("--cache-mb", min=0, help="Response cache per worker, MB; 0 is off.")
    ] = 64,
    watch: Annotated[
        bool, typer.Option("--watch", help="Rebuild when a source is saved; open pages reload "
                           "and show the build's problems. No PDFs; one worker.")
    ] = False,
) -> None:
    """Serve the databases with Datasette under /sql/ and the static site at /.

    The databases and the site are built first; the PDFs, which take far longer, are laid out
    by a second build beside the server, and the site links them once it has finished. A
    `charnel build` while serving is picked up at the next request, with no restart.

    With --watch, saving a card, rule or glossary file rebuilds the databases and the site
    (no PDFs); the open pages it changed reload, and a build that fails shows its problems on
    every open page, the previous outputs served meanwhile, until a save fixes them.
    """
    from charnel.serve.run import port_problem
    from charnel.serve.run import serve as run

    if watch and workers > 1:
        err.print("error: --watch serves with one worker; leave out --workers", style="red",
                  markup=False)
        raise typer.Exit(code=1)
    problem = port_problem(host, port)
    if problem:
        err.print(f"error: {problem}", style="red", markup=False)
        raise typer.Exit(code=1)
    game_ids = game_list(root, game)
    print_later = (build_first and not watch
                   and not pipeline.pdfs_up_to_date(root, game_ids, out_dir))
    live = rebuilder = None
    if watch:
        from functools import partial

        from charnel.progress import stages
        from charnel.serve.live import Live
        from charnel.serve.rebuild import Rebuilder

        live = Live(out_dir)
        rebuilder = Rebuilder(root, game, out_dir, live,
                              echo=lambda text: out.print(text, markup=False),
                              report=lambda problems: report(problems, root))
        if build_first:  # problems are shown on the pages of the last build, if there is one
            rebuilder.build(stages=partial(stages, err))
    elif build_first:
        build_each(root, game, out_dir, site=True, pdfs_pending=print_later)
    databases = {g: out_dir / f"{g}.db" for g in game_ids}
    for database in databases.values():
        if not database.exists():
            err.print(f"error: no {database}; run `charnel build`", style="red", markup=False)
            raise typer.Exit(code=1)
    printing = None
    if print_later:
        from charnel.serve.background import PrintBuild

        out.print("PDFs: being laid out beside the server; the print pages link them when ready",
                  markup=False)
        printing = PrintBuild(root, game, out_dir, echo=lambda text: out.print(text, markup=False))
    if rebuilder is not None:
        rebuilder.start()
    try:
        run(
            databases, out_dir, host=host, port=port, public=public, workers=workers,
            cache_mb=cache_mb, root=root, echo=out.print, live=live,
        )
    finally:
        if printing is not None:
            printing.stop()
        if rebuilder is not None:
            rebuilder.stop()


@app.command()
def search(
    query: Annotated[str, typer.Argument(
        help="A search: field:value terms, bare words for the name, -, or, ( )."
    )],
    *,
    root: RootOpt = Path("."),
    game: Annotated[str | None, typer.Option("--game", "-g", help="Game to search.")] = None,
    out_dir: OutOpt = Path("build"),
    limit: Annotated[
        int,
        typer.Option("--limit", help="Most cards to show; the output says how many more matched."),
    ] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Search the card pool of a built database. The language is charnel's (docs/search.md);
    a game's fields and queries of its cards open its site's page /<game>/search/syntax/."""
    import json

    from charnel import registry
    from charnel.query import QueryError, find, listing_columns, result_columns

    game_id = one_game(root, game)
    database = out_dir / f"{game_id}.db"
    if not database.exists():
        err.print(f"error: no {database}; run `charnel build`", style="red")
        raise typer.Exit(code=1)
    fields = registry.get(game_id).search_fields()
    listing = listing_columns(fields)
    try:
        columns = result_columns(fields) if as_json else [c.sql for c in listing] + ["text"]
        found = find(database, query, fields, limit, columns)
    except QueryError as exc:
        err.print(f"error: {exc.render(query)}", style="red", markup=False, highlight=False)
        raise typer.Exit(code=1) from None
    rows = found.rows
    if as_json:
        out.print_json(json.dumps({
            "query": query, "sql": found.compiled.select(found.columns),
            "params": found.compiled.params, "total": found.total, "nearest": found.nearest,
            "rows": [dict(zip(found.columns, row, strict=True)) for row in rows],
        }))
        return
    from rich.markup import escape as rich_escape  # a query and a name are text, not markup

    cells = [["" if v is None else rich_escape(str(v)) for v in row] for row in rows]
    shown = f"{len(rows)} of {found.total}" if len(rows) < found.total else f"{len(rows)}"
    title = f"{shown} card{'s' * (found.total != 1)}: {rich_escape(query)}"
    if found.nearest:
        said = rich_escape(repr(query))
        title = f"no card is named {said}; the nearest name{'s' * (len(rows) != 1)}:"
    out.print(_fitting_table(listing, cells, title, out.width))
    if len(rows) < found.total:
        out.print(f"{found.total - len(rows)} more: --limit {found.total} shows them all")


# The card text takes the room the other columns leave, but never less than this.
TEXT_WIDTH = 24


def _fitting_table(listing, cells: list[list[str]], title: str, width: int):
    """The listing as a table no wider than `width`, the card text last: optional columns go,
    last first, until the others leave the text room; names are never cut (the type line and
    the text wrap)."""
    from rich import box
    from rich.measure import Measurement
    from rich.table import Table

    def table(keep: list[int], text: str | None = None) -> Table:
        """`text`, when given, stands in for every card's text: the table is measured with
        the text column at its narrowest, padding and all."""
        made = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, title_justify="left")
        for i in keep:
            made.add_column(listing[i].header, no_wrap=listing[i].header != "type")
        made.add_column("text", overflow="fold")
        for row in cells:
            made.add_row(*(row[i] for i in keep), row[-1] if text is None else text)
        return made

    keep = list(range(len(listing)))
    unbounded = out.options.update(width=10_000, max_width=10_000)
    while True:
        needed = Measurement.get(out, unbounded, table(keep, "x" * TEXT_WIDTH)).maximum
        optional = [i for i in keep if not listing[i].required]
        if needed <= width or not optional:
            return table(keep)
        keep.remove(optional[-1])


import_app = typer.Typer(
    help="Turn cards from other formats into card files.", no_args_is_help=True
)
app.add_typer(import_app, name="import")


@import_app.command("csv")
def import_csv(
    file: Annotated[Path, typer.Argument(help="CSV file: a header row, then one card per row.")],
    *,
    root: RootOpt = Path("."),
    game: Annotated[str, typer.Option("--game", "-g", help="Game the cards belong to.")],
    set_code: Annotated[
        str | None, typer.Option("--set", help="Set for rows whose 'set' column is empty.")
    ] = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="Overwrite card files that already exist.")
    ] = False,
) -> None:
    """Write a card file per good row; bad rows are reported as FILE:ROW: reason."""
    from charnel.importer import import_csv as run

    game_list(root, [game])
    result = run(root, game, file, set_code=set_code, replace=replace)
    for path in result.written:
        out.print(f"wrote {path}", markup=False)
    for line in result.errors:
        err.print(line, style="bold red", markup=False, soft_wrap=True)
    summary = (
        f"{len(result.written)} card files written, "
        f"{len(result.refused)} row{'s' * (len(result.refused) != 1)} refused"
    )
    if result.errors:
        err.print(f"error: {summary}", style="bold red", markup=False)
        raise typer.Exit(code=1)
    out.print(summary)


class ExportFormat(StrEnum):
    json = "json"
    jsonl = "jsonl"
    csv = "csv"


@app.command()
def export(
    *,
    root: RootOpt = Path("."),
    game: GameOpt = None,
    out_dir: OutOpt = Path("build"),
    fmt: Annotated[
        ExportFormat,
        typer.Option("--format", help="json (one document), jsonl (a card a line) or csv."),
    ] = ExportFormat.json,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="File to write ('-' for standard output); "
                     "default <out>/<game>-cards.<format>."),
    ] = None,
) -> None:
    """Write the compiled card pool as JSON, JSON Lines or CSV (builds first if needed)."""
    from charnel.exporter import export as run

    game_ids = game_list(root, game)
    if output is not None and len(game_ids) > 1:
        err.print("error: --output takes one game; choose it with --game", style="red")
        raise typer.Exit(code=1)
    try:  # the databases, built first if the sources changed
        built = pipeline.build_all(root, game_ids, out_dir, whole=False)
    except InputError as exc:
        raise fail(exc.problems, root) from None
    for result in built:
        game_id = result.game
        text = run(result.database, fmt.value)
        if output is not None and str(output) == "-":
            typer.echo(text, nl=False)
            continue
        target = output or out_dir / f"{game_id}-cards.{fmt.value}"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        out.print(f"{game_id}: wrote {target}", markup=False)


examples_app = typer.Typer(
    help="Run the executable examples: all of a game's, or those of files you name.",
    invoke_without_command=True,
    no_args_is_help=False,
)
app.add_typer(examples_app, name="examples")


@examples_app.callback()
def examples(ctx: typer.Context, *, root: RootOpt = Path("."), game: GameOpt = None) -> None:
    """Run every example in rules/<game>/ and in card files, then verify every card."""
    if ctx.invoked_subcommand is not None:
        return
    from rich.progress import Progress

    problems, outcomes = Problems(), []
    for game_id in game_list(root, game):
        found = Problems()
        with Progress(console=err, transient=True) as bar:
            task = bar.add_task(f"{game_id}: examples", total=None)

            def count(done: int, total: int, task=task) -> None:
                bar.update(task, completed=done, total=total)

            prepared = pipeline.prepare(root, game_id, found, count=count)
        if prepared is None:
            problems.extend(found)
        else:  # examples the engine cannot read are reported with the rest, below
            outcomes += prepared.outcomes
    if problems:
        raise fail(problems, root)
    _example_report(outcomes, root)


@examples_app.command("run")
def examples_run(
    paths: Annotated[list[Path], typer.Argument(help="Markdown or YAML files with examples.")],
    *,
    root: RootOpt = Path("."),
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="Game whose rules run them.")
    ] = None,
) -> None:
    """Run the example blocks of any Markdown (```example fences) or YAML file."""
    from charnel import examples as runner
    from charnel.sources import loader

    game_id = one_game(root, game)
    problems = Problems()
    found = runner.read_files(paths, root, problems)
    records = loader.load(root, game_id, problems) if not problems else None
    if problems or records is None:
        raise fail(problems, root)
    _example_report(runner.run_examples(found, records), root)


def _example_report(outcomes, root: Path) -> None:
    from charnel import examples as runner

    summary = runner.Summary.of(outcomes)
    for outcome in summary.broken + summary.failed:
        head, _, rest = runner.as_problem(outcome).render(root).partition("\n")
        err.print(head, style="bold red", markup=False, soft_wrap=True)
        if rest:
            err.print(rest, markup=False, soft_wrap=True)
    out.print(summary.line(), style=None if summary.ok else "red", markup=False)
    if not summary.ok:
        raise typer.Exit(code=1)


@app.command()
def release(
    version: Annotated[str, typer.Argument(help="The version to cut: game.yaml's rules_version.")],
    *,
    root: RootOpt = Path("."),
    game: Annotated[str | None, typer.Option("--game", "-g", help="Game to release.")] = None,
) -> None:
    """Cut a release: freeze the game's rules and cards as releases/<game>/<version>/ (text),
    with the changes file, which is then emptied for the next release."""
    from charnel.history import releases

    game_id = one_game(root, game)
    problems = Problems()
    verified = pipeline.check(root, game_id, problems)
    made = None
    if verified is not None and not problems:
        made = releases.cut(root, verified.records, version, problems)
    if problems or made is None:
        raise fail(problems, root)
    where = made.root.relative_to(root.resolve()) if made.root.is_absolute() else made.root
    out.print(f"{game_id}: released {made.version} ({made.date}) in {where}", markup=False)


@app.command()
def diff(
    old: Annotated[str, typer.Argument(help="The earlier release, such as 1.0.")],
    new: Annotated[str, typer.Argument(help="The later release, such as 1.1.")],
    *,
    root: RootOpt = Path("."),
    game: Annotated[str | None, typer.Option("--game", "-g", help="Game to compare.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """What changed between two releases: clauses, glossary terms, keywords and card errata.

    Without --game, the one game that has both releases."""
    import json

    from charnel.history import book
    from charnel.history.releases import VERSION
    from charnel.history.render import text_lines

    for version in (old, new):  # before either reaches a path
        if not VERSION.fullmatch(version):
            err.print(f"error: '{excerpt(version)}' is not a version such as 1.1", style="red",
                      markup=False)
            raise typer.Exit(code=1)
    game_id = one_game(  # the one game that has both releases, if only one has
        root, game, lambda g: all((root / "releases" / g / v).is_dir() for v in (old, new)))
    problems = Problems()
    history = book.read(root, game_id, problems)
    if history is None:
        raise fail(problems, root)
    for version in (old, new):
        why = book.version_problem(history, version)
        if why:
            err.print(f"error: {why}", style="red", markup=False)
            raise typer.Exit(code=1)
    if history.release(old).key >= history.release(new).key:
        err.print(f"error: {old} does not come before {new}", style="red", markup=False)
        raise typer.Exit(code=1)
    log = history.changelog(old, new)
    if as_json:
        out.print_json(json.dumps(log.as_data()))
        return
    for line in text_lines(log):
        out.print(line, markup=False, highlight=False, soft_wrap=True)


@app.command()
def odds(
    attacker: Annotated[str, typer.Argument(help="The attacking side, in the game's notation.")],
    defender: Annotated[str, typer.Argument(help="The defending side, in the game's notation.")],
    *,
    root: RootOpt = Path("."),
    game: Annotated[str | None, typer.Option("--game", "-g", help="Game to fight in.")] = None,
    mode: Annotated[
        list[str] | None,
        typer.Option("--mode", help="A way of fighting the game defines (repeatable)."),
    ] = None,
    compare: Annotated[
        list[str] | None,
        typer.Option(
            "--compare",
            metavar="'ATTACKER vs DEFENDER'",
            help="Another line of play, 'ATTACKER vs DEFENDER', to set beside the first "
            "(repeatable).",
        ),
    ] = None,
    flip: Annotated[
        str | None,
        typer.Option(
            "--flip",
            metavar="CHANCE",
            help="The cheapest card that, added to the attacker, wins at least CHANCE "
            "(2/3, 0.6 or 60%).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Exact odds of a fight between two sides of cards, the dice enumerated, not simulated
    (see the game's page in docs/ for its notation and modes)."""
    import json

    from rich.table import Table

    from charnel import registry
    from charnel.sources import loader

    game_id = one_game(root, game, lambda g: registry.get(g).has_fights)
    problems = Problems()
    records = loader.load(root, game_id, problems)
    if problems or records is None:
        raise fail(problems, root)
    the_game = registry.get(game_id)
    try:
        if compare and flip is not None:
            raise ValueError("ask for --compare or --flip, not both")
        if compare:
            lines = [(attacker, defender), *(line_of(text) for text in compare)]
            report = the_game.fight_lines(records, lines, mode or [])
        elif flip is not None:
            report = the_game.fight_flip(records, attacker, defender, mode or [], flip)
        else:
            report = the_game.fight_odds(records, attacker, defender, mode or [])
    except ValueError as exc:
        err.print(f"error: {exc}", style="red", markup=False, highlight=False)
        raise typer.Exit(code=1) from None
    if as_json:
        out.print_json(json.dumps(report["data"]))
        return
    for part in (report, *report.get("tables", ())):
        table = Table(*part["columns"], title=part["title"], title_justify="left")
        for row in part["rows"]:
            table.add_row(*row)
        out.print(table)


def line_of(text: str) -> tuple[str, str]:
    """A line of play as `--compare` takes it: 'ATTACKER vs DEFENDER'."""
    parts = text.split(" vs ")
    if len(parts) != 2 or not all(p.strip() for p in parts):
        raise ValueError(f"a line of play is 'ATTACKER vs DEFENDER', not '{text.strip()}'")
    return parts[0].strip(), parts[1].strip()


deck_app = typer.Typer(
    help="Deck lists: check them against a game's card pool and deck rules.",
    no_args_is_help=True,
)
app.add_typer(deck_app, name="deck")


@deck_app.command("check")
def deck_check(
    paths: Annotated[list[Path], typer.Argument(help="Deck lists: a 'COUNT NAME' line a card.")],
    *,
    root: RootOpt = Path("."),
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="Game whose cards the decks hold.")
    ] = None,
) -> None:
    """Check deck lists: every name a card, no more copies and no fewer cards than allowed.

    Without --game, the one game with deck rules in its game.yaml."""
    from charnel import decks

    problems = Problems()
    records, others = _deck_game(root, game, problems)
    found = decks.check_files(paths, root, records, problems, others)
    for deck in found:
        verdict = "legal" if deck.legal else f"not legal ({', '.join(deck.reasons)})"
        out.print(f"{deck.path}: {deck.cards} cards: {verdict}", markup=False, soft_wrap=True)
    if problems:
        raise fail(problems, root)


def _deck_game(root: Path, game: str | None, problems: Problems):
    """The records of the game a deck list is for (without --game, the one with deck rules in
    its game.yaml), and every other game's card names, to say when a list is another game's."""
    from charnel import decks
    from charnel.sources import loader

    game_id = one_game(root, game, lambda g: bool(getattr(
        loader.load_info(root, g, Problems()), "deck", None)))
    records = loader.load(root, game_id, problems)
    if problems or records is None:
        raise fail(problems, root)
    others = []
    for other_id in game_list(root, None):
        other = loader.load(root, other_id, Problems()) if other_id != game_id else None
        if other is not None:
            names = frozenset(c.name.casefold() for c in other.cards)
            others.append(decks.OtherGame(other_id, other.info.title, names))
    return records, others


@deck_app.command("rulings")
def deck_rulings(
    path: Annotated[Path, typer.Argument(help="A deck list: a 'COUNT NAME' line a card.")],
    *,
    root: RootOpt = Path("."),
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="Game whose cards the list holds.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """Every ruling, keyword, glossary term, erratum and clause that touches the cards of a
    deck list: by card, then by clause with the cards that touch it.

    A deck is the cards a player brings: a constructed deck, or for a game without decks to
    build the cards a player takes to the table, in the same format."""
    import json

    from charnel import deckrulings, decks
    from charnel.site.urls import GameUrls

    problems = Problems()
    records, others = _deck_game(root, game, problems)
    (deck,) = decks.check_files([path], root, records, problems, others, legality=False) or [None]
    if problems or deck is None:
        raise fail(problems, root)
    by_slug = {c.slug: c for c in records.cards}
    counts: dict[str, int] = {}
    for entry in deck.entries:
        counts[entry.card] = counts.get(entry.card, 0) + entry.count
    found = deckrulings.collect(records, [(by_slug[s], n) for s, n in counts.items()])
    data = deckrulings.as_data(found, GameUrls(records.info.id))
    if as_json:
        out.print_json(json.dumps(data))
        return
    say = functools.partial(out.print, markup=False, soft_wrap=True, highlight=False)
    for card in data["cards"]:
        say(f"{card['name']} ×{card['count']}  {card['url']}", style="bold")
        for k in card["keywords"]:
            say(f"  keyword {k['printed']}: {k['url']}")
        for t in card["terms"]:
            say(f"  term {t['term']}: {t['url']}")
        for r in card["rulings"]:
            cites = f" (cites {', '.join(r['rules'])})" if r["rules"] else ""
            say(f"  ruling {r['date']}, {r['source']}: {r['text']}{cites}")
        for e in card["errata"]:
            how = "changes play" if e["functional"] else "wording only"
            say(f"  {e['kind']} in {e['version']} ({how}): {e['reason']}")
        if card["clauses"]:
            say(f"  rules: {', '.join(card['clauses'])}")
        if not any(card[k] for k in ("keywords", "terms", "rulings", "errata", "clauses")):
            say("  nothing beyond its printed text")
    if data["clauses"]:
        say("By rule", style="bold")
    for clause in data["clauses"]:
        words = clause["title"] or clause["text"]
        words = words if len(words) <= 70 else words[:69].rstrip() + "…"
        say(f"{clause['number']} {words}  {clause['url']}")
        say(f"  touches: {', '.join(clause['cards'])}")
        for r in clause["rulings"]:
            say(f"  ruling {r['number']}: {r['url']}")


if __name__ == "__main__":  # pragma: no cover
    app()
