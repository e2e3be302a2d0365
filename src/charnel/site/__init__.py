"""The static reference site: verified records -> build/site/ (jinja2 + markdown-it-py).

    build_site(verified, outcomes, database, out) -> out

Pages are rendered from the same records the database is compiled from; the database
itself is copied into /data/ with JSON and CSV exports; Pagefind indexes the result.
See pages.py for what each page shows and output.py for how rebuilds stay cheap.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2
from markupsafe import Markup

import charnel
from charnel import file_values, forked, templates
from charnel.examples import no_cycle_collection
from charnel.records import Outcome
from charnel.site import (
    cardfile,
    deck,
    downloads,
    errata,
    field_index,
    offline,
    parallel,
    releases,
    search,
)
from charnel.site.model import SiteModel
from charnel.site.output import SiteWriter, by_key
from charnel.site.pages import Page, Pages
from charnel.verify import Verified

if TYPE_CHECKING:
    from charnel.printing import Printed

# {path under the game's site folder: bytes}: files rendered, not yet committed (`_preview`)
Preview = Callable[[dict[str, bytes]], None]
PREVIEW_MAX = 24  # files: a card's page, face and JSON, and its neighbours'; not a whole list


def templates_dir() -> Path:
    return templates.root() / "site"


@dataclass
class SiteStats:
    pages: int = 0  # HTML pages the site has
    rendered: int = 0  # pages rendered in this build (the others were unchanged)
    written: int = 0  # files written in this build
    indexed: list[str] = field(default_factory=list)  # search bundles indexed in this build
    seconds: dict[str, float] = field(default_factory=dict)  # render, write, index


last_stats = SiteStats()


class _Template(jinja2.Template):
    """A template whose module, imported by another (`{% from ... import %}`), is made once.
    Jinja makes it again for an importer holding globals the imported template lacks, and
    compares the two sets of names on every import to know (a tenth of a card page's
    rendering); here every template has its environment's globals and no others."""

    def _get_default_module(self, ctx=None):
        return super()._get_default_module(None)


def environment(model: SiteModel) -> jinja2.Environment:
    # the game's own templates first: its pages, and any core template it chooses to replace
    loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(model.game.templates_dir),
                                  jinja2.FileSystemLoader(templates_dir())])
    env = jinja2.Environment(
        loader=loader,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,
        # compiled templates kept in the user's temp folder, checked against their source:
        # a rebuild does not compile them again
        bytecode_cache=jinja2.FileSystemBytecodeCache(),
    )
    env.template_class = _Template
    game_nav = [(f"{model.urls.prefix}/{page.path}", page.nav)
                for page in model.game_pages if page.nav]
    env.globals.update(info=model.info, urls=model.urls, game_id=model.info.id, game_nav=game_nav,
                       has_keywords=model.game.has_keywords,
                       past=None)  # a past release's pages say which (site/releases.py)
    # every page's header and footer are made from these globals alone: rendered once here,
    # not once a page (their escaping was a tenth of a card page's rendering)
    for name in ("page_top", "page_bottom"):
        env.globals[name] = Markup(env.get_template(f"{name}.html").render())
    return env


def _code_hash(game_templates: Path | None = None) -> str:
    """A hash of the templates (the game's own too) and of charnel's code (the games' drawing
    included): a page whose inputs are unchanged is only skipped while the code that makes it
    is unchanged too."""
    digest = hashlib.sha256()
    code = Path(charnel.__file__).parent
    files = [(templates_dir(), p) for p in sorted(templates_dir().rglob("*"))]
    if game_templates is not None:
        files += [(game_templates, p) for p in sorted(game_templates.rglob("*"))]
    files += [(code, p) for p in sorted(code.rglob("*.py"))]
    for base, path in files:
        if path.is_file():
            digest.update(path.relative_to(base).as_posix().encode() + b"\0")
            digest.update(_file_digest(str(path)))
    return digest.hexdigest()


def _file_digest(path: str) -> bytes:
    """The file's SHA-256, kept by its identity (`charnel.file_values`): a process that builds
    again (`charnel serve --watch`) reads again only the templates and code that changed."""
    return file_values.read(path, _sha256) or b"unreadable"


def _sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def build_site(
    verified: Verified,
    outcomes: list[Outcome],
    database: Path,
    out: Path,
    printed: Sequence[Printed] = (),
    *,
    index: bool = True,
    pdfs_pending: bool = False,
    releases_too: bool = True,
) -> Path:
    """Render every page into `out`, writing only what changed, and index it for search.

    `printed` are the game's PDFs, offered for download beside the data; `pdfs_pending`: they
    are being laid out after this build, which the pages offering them say. `index=False`
    leaves the search index as it is (for measuring the pages alone); `releases_too=False`
    leaves out each past release's pages and the errata sheets (for measuring what they cost).
    """
    return SiteBuild(verified, outcomes, printed, pdfs_pending=pdfs_pending).build(
        database, out, index=index, releases_too=releases_too)


class SiteBuild:
    """A game's site, begun from its verified records before its database is written (see
    `build_site`): the model, templates and page keys are made once, `preview` shows the pages
    of the cards an edit changed at once, and `build` renders, indexes and writes the site."""

    def __init__(self, verified: Verified, outcomes: list[Outcome],
                 printed: Sequence[Printed] = (), *, pdfs_pending: bool = False):
        clock = time.perf_counter()
        self.printed = printed
        self.model = SiteModel(verified, list(outcomes),
                               [(p.path.name, p.title) for p in printed], pdfs_pending)
        self.env = environment(self.model)
        self.code = _code_hash(self.model.game.templates_dir)
        self.pages = Pages(self.model, self.code, self.env)
        self.setup = time.perf_counter() - clock  # counted in the build's render time

    def preview(self, show: Preview, known: Collection[str]) -> None:
        """Give `show` the page, face and JSON file of each card whose file's content is not
        among `known` (the content hashes of the card files the last build parsed: these are
        the cards saved since), rendered as `build` will render them; none when more than
        PREVIEW_MAX files would be shown (a forced build knows no file)."""
        cards = [card for card in self.model.cards if card.source_hash not in known]
        if not cards or 3 * len(cards) > PREVIEW_MAX:
            return
        part, urls, files = releases.Part(self.model, self.pages, self.env), self.model.urls, {}
        for card in cards:
            page = urls.file_for(urls.card(card.slug))
            html, face, record, _ = _card_files(part, card)
            files.update({page: html.encode("utf-8"), _beside(page, "card.svg"): face.encode(),
                          _beside(page, cardfile.JSON_NAME): record})
        show(files)

    def build(self, database: Path, out: Path, *, index: bool = True,
              releases_too: bool = True, preview: Preview | None = None) -> Path:
        """Render every page into `out` (see `build_site`). `preview`: given the files of each
        batch of pages as soon as they are rendered, while they are few (`_preview`)."""
        global last_stats
        model = self.model
        writer = SiteWriter(out, model.info.id)
        self.pages.previous_rows = writer.previous.get("rows") or {}
        # the data/ files and the search fields' index are made and staged in a process of
        # their own while the pages render
        # at the build's own priority until the pages to render are known (see `_build`)
        aside = forked.Aside(_stage_downloads, writer, database, model.info.id,
                               model.game.search_fields(), nice=0)
        writer.start_checking()  # after the fork: it starts a thread
        indexer = search.Indexer(out, writer.source) if index else None
        try:
            # what the build makes is freed by counting: the collector's passes over the
            # records and the manifest (millions of objects) would find nothing to free
            with no_cycle_collection():
                last_stats = _build(self, aside, writer, indexer, releases_too, preview)
        finally:
            aside.close()
            if indexer is not None:
                indexer.close()
            writer.discard()
        return out


def _build(
    started: SiteBuild, aside: forked.Aside, writer: SiteWriter,
    indexer: search.Indexer | None, releases_too: bool = True, preview: Preview | None = None,
) -> SiteStats:
    model, env, code, pages = started.model, started.env, started.code, started.pages
    clock, printed = time.perf_counter() - started.setup, started.printed
    current = releases.Part(model, pages, env)
    past = releases.parts(model, code, environment, writer.previous) if releases_too else []
    stats = SiteStats()

    # Cards first, so the card-list rows they make are there for the lists: the current
    # cards and then each release's, in one pool.
    # Every key first, while the writer's thread checks which old files are still there.
    cards = []
    keys: dict[str, str] = {}  # the current cards' page keys, by slug, in the cards' order
    for part in [current, *past]:
        # a card's page, face and JSON file are its slug in the files `file_for` gives any
        # card (a slug is a file name's stem: no "/" or "#"), found once and not per card
        page = model.urls.file_for(part.model.urls.card("\0"))
        at_html, at_svg, at_json = [path.split("\0", 1) for path in (
            page, _beside(page, "card.svg"), _beside(page, cardfile.JSON_NAME))]
        for card in part.model.cards:
            slug = card.slug
            key = part.pages.card_key(card)
            if part is current:
                keys[slug] = key
            cards.append((part, card, slug.join(at_html), slug.join(at_svg), slug.join(at_json),
                          key))
    stats.pages += len(cards)
    unchanged = writer.unchanged
    todo = [(part, card, html, svg, key) for part, card, html, svg, json_path, key in cards
            if not (unchanged(html, key) and unchanged(svg, key) and unchanged(json_path, key))]
    writer.present  # noqa: B018 - resolved here, before any render worker forks
    many = len(todo) >= parallel.THRESHOLD
    if many:
        # the downloads yield the cores to the render workers and the search index; for a
        # few pages the main line would only wait for them at the end
        aside.lower(10)
    # in a large build the rules' texts are rendered while the workers render the cards,
    # once for the clause, section and term pages after them, which show them again
    for (part, card, html, svg, key), (page, face, record, row, rulings) in zip(
        todo, parallel.render_all(functools.partial(_render_card, writer, indexer), todo,
                                  meanwhile=pages.warm if many else None), strict=True
    ):
        writer.record(html, page, key)
        writer.record(svg, face, key)
        writer.record(_beside(html, cardfile.JSON_NAME), record, key)
        part.pages.rows[card.slug] = row
        for index, ruling in enumerate(rulings, start=1):
            part.pages.ruling_html[card.slug, index] = ruling
    stats.rendered += len(todo)
    _preview(writer, preview, [path for part, _, html, svg, _ in todo if part is current
                               for path in (html, svg, _beside(html, cardfile.JSON_NAME))])

    others = [(env, p) for p in [*pages.card_lists(), pages.home(), *pages.rules(),
                                 *pages.glossary(), *pages.rulings(), *pages.fixed()]]
    for part in past:
        others += [(part.env, p) for p in [part.pages.card_list(), *part.pages.rules()]]
    if releases_too:
        others += [(env, p) for p in errata.pages(model, past, pages)]
    stats.pages += len(others)
    # the pages that carry the search's reading wait for the index (below)
    hosts = [(e, p) for e, p in others if p.carries_search]
    others = [(e, p) for e, p in others if not p.carries_search
              and not (p.key and writer.unchanged(p.path, p.key))]
    # the searched pages first: the search index is made from them while the rest render
    searched = [(e, p) for e, p in others if search.bundle_of(p.path)]
    for batch in (searched, [(e, p) for e, p in others if not search.bundle_of(p.path)]):
        for (_, page), staged in zip(batch, parallel.render_all(
            functools.partial(_render_page, writer, indexer), batch
        ), strict=True):
            writer.record(page.path, staged, page.key)
        _preview(writer, preview, [page.path for _, page in batch])
        if batch is searched and indexer is not None:
            indexer.start(_hashes(writer))  # every searched page is recorded by now
    stats.rendered += len(others)

    site = model.urls
    files = []
    staged_downloads, export_state, staged_fields = aside.result()
    for name, size, staged in staged_downloads:
        writer.record(f"data/{name}", staged)
        files.append((name, size))
    writer.remember("downloads", export_state)
    pdfs = []
    for pdf in printed:
        data = pdf.path.read_bytes()
        writer.add(f"data/{pdf.path.name}", data)
        pdfs.append((pdf.path.name, pdf.title, len(data)))
    data_page = Page(site.DATA, "data.html", {
        "title": "Downloads", "files": sorted(files),
        "printed": pdfs, "pdfs_pending": model.pdfs_pending,
    }, prefix=site.prefix)
    writer.add(data_page.path, env.get_template(data_page.template).render(data_page.values()))
    stats.pages += 1
    stats.rendered += 1
    if deck.has_page(model):  # each card's part kept while its page's key is the same
        for path, name, make in ((site.DECK_POOL, "deck pool", deck.pool_json),
                                 (site.DECK_RULINGS, "deck rulings", deck.rulings_json)):
            data, kept = make(model, keys, writer.previous.get(name))
            writer.add(site.file_for(path), data)
            writer.remember(name, kept)
    for game_page in model.game_pages:  # a game's own pages' files, in its folder
        for path, data in sorted(game_page.files.items()):
            writer.add(path, data)
    for path, staged in staged_fields:
        writer.record(path, staged)
    # what the site's home says of this game
    writer.remember("game", {"id": model.info.id, "title": model.info.title,
                             "description": model.info.description, "home": site.HOME,
                             "search": site.SEARCH_BUNDLES, "cards": len(model.cards),
                             "rules": len(model.records.clauses),
                             "unprefixed": model.info.unprefixed_urls})

    # card-list rows, reused while their card is unchanged
    writer.remember("rows", by_key(pages.rows))
    for part in past:
        writer.remember(releases.rows_memo(part.pages.banners.version),
                        by_key(part.pages.rows))
    stats.seconds["render"] = time.perf_counter() - clock
    if indexer is not None:
        indexer.finish()  # raises before anything is committed if a bundle failed
        reading = indexer.reading(site)
    else:  # the index is left as it is, and what the browser merges with it
        last = writer.last(site.file_for(site.SEARCH_BUNDLES))
        reading = (json.loads(last.read_bytes()) if last is not None
                   else {"bundles": [site.bundle(search.MAIN)], "hidden": []})
    # the bundles the browser merges, and the main bundle's results it leaves out: in the
    # pages that host the search box, and for any other page's box in search.json
    writer.add(site.file_for(site.SEARCH_BUNDLES), json.dumps(reading, sort_keys=True))
    stats.seconds["index"] = time.perf_counter() - clock - stats.seconds["render"]
    for host_env, page in hosts:
        template = host_env.get_template(page.template)
        writer.add(page.path, template.render({**page.values(), "search_reading": reading}))
    stats.rendered += len(hosts)
    # the offline copy's worker lists the files as they will be once committed
    writer.add(offline.WORKER, offline.worker(
        site.HOME, _hashes(writer), indexer.files() if indexer is not None else [],
        templates_dir(),
    ))
    writer.commit()
    if indexer is not None:
        stats.indexed = indexer.swap()
    stats.written = writer.written
    stats.seconds["write"] = time.perf_counter() - clock - sum(stats.seconds.values())
    return stats


def _preview(writer: SiteWriter, preview: Preview | None, paths: list[str]) -> None:
    """Give `preview` the bytes of the files among `paths` this build changed, as they will
    be committed, when there are at most PREVIEW_MAX: an author's edit of a card or a rule is
    on its page before the search index, the lists and the commit (as hugo server shows a
    page before the rest is written). A build that fails after it shows the old bytes again."""
    if preview is None:
        return
    changed = [path for path in paths if path in writer.staged]
    if 0 < len(changed) <= PREVIEW_MAX:
        preview({path: Path(writer.source(path)).read_bytes() for path in changed})


def _hashes(writer: SiteWriter) -> dict[str, str]:
    return {path: entry["hash"] for path, entry in writer.new.items()}


def _stage_downloads(writer: SiteWriter, database: Path, game: str, fields):
    """The data/ files: (name, size, what `stage` returned) for each, those of unchanged tables
    kept from the last build, the others staged; the export's state for the next build; and
    the search fields' index files (path, what `stage` returned)."""
    exported = downloads.export(database, game, writer.previous.get("downloads"),
                                lambda name: writer.last(f"data/{name}"))
    found = [(name, len(data), writer.stage(f"data/{name}", data))
             for name, data in exported.made.items()]
    for name in exported.kept:
        path = f"data/{name}"
        found.append((name, (writer.out / path).stat().st_size, writer.keep(path)))
    index = [(path, writer.stage(path, data))
             for path, data in field_index.files(database, fields).items()]
    return sorted(found), exported.state, index


def _render_card(writer: SiteWriter, indexer: search.Indexer | None, todo) -> tuple[
        tuple[str, bool], tuple[str, bool], tuple[str, bool], list[str], list[str]]:
    """A card's page, face and JSON file, staged (hashing and writing happen in the worker
    too) with the page's cut for the search index, its card-list row, and its rulings as HTML
    (for the rulings pages)."""
    part, card, html_path, svg_path, _key = todo
    html, face, record, rulings = _card_files(part, card)
    if indexer is not None:
        indexer.stage(html_path, html)
    return (writer.stage(html_path, html.encode("utf-8")),
            writer.stage(svg_path, face.encode("utf-8")),
            writer.stage(_beside(html_path, cardfile.JSON_NAME), record), part.pages.row(card),
            rulings)


def _card_files(part: releases.Part, card) -> tuple[str, str, bytes, list[str]]:
    """A card's page, face (SVG) and JSON file, and its rulings as HTML."""
    model, pages, env = part.model, part.pages, part.env
    page = pages.card(card)
    face = model.game.draw_card(card) or _blank_card(card.name)
    values = {**page.values(), "face_size": _face_size(face)}
    html = env.get_template(page.template).render(values)
    return (html, face, cardfile.card_json(card, model.info.id),
            [html for _, _, html, _ in values["rulings"]])


def _beside(path: str, name: str) -> str:
    """The path of the file `name` in the folder of the file at `path`."""
    return f"{path.rsplit('/', 1)[0]}/{name}" if "/" in path else name


def _render_page(writer: SiteWriter, indexer: search.Indexer | None,
                 todo: tuple[jinja2.Environment, Page]) -> tuple[str, bool]:
    env, page = todo
    html = env.get_template(page.template).render(page.values())
    if indexer is not None:
        indexer.stage(page.path, html)
    return writer.stage(page.path, html.encode())


def _face_size(svg: str) -> tuple[str, str]:
    """The face's own width and height (an event's is wide), for its <img>; a card's size
    when the drawing gives none."""
    import re

    root = svg[: svg.find(">") + 1]
    width, height = re.search(r'\swidth="(\d+)"', root), re.search(r'\sheight="(\d+)"', root)
    return (width[1], height[1]) if width and height else ("250", "350")


def _blank_card(name: str) -> str:
    from html import escape

    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 250 350" role="img">'
        f"<title>{escape(name)}</title>"
        '<rect x="4" y="4" width="242" height="342" rx="12" fill="#f4ecd8" stroke="#333"/></svg>'
    )
