"""The one loader: reads a game's authored files into `GameRecords`.

Every output (database, site, print, tests) starts here, so they cannot disagree.
Problems are collected, never raised, so one run reports all of them.
"""

from __future__ import annotations

import gc
import hashlib
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from charnel import __version__, registry, templates
from charnel.diagnostics import InputError, Origin, Problems
from charnel.memo import Memo
from charnel.records import CardBase, Example, GameInfo, GameRecords, Glossary
from charnel.sources import contained, rules_md, yamltext
from charnel.sources.files import (
    Listing,
    game_ids,
    listing,
    source_files,
    unreadable_folders,
    unreadable_under,
)
from charnel.sources.parallel import parse_documents
from charnel.sources.parsed import Kept
from charnel.sources.validate import validate
from charnel.sources.yamltext import Located

# A card's file name is its slug and a set folder's name its code: both become parts of
# paths and URLs, so they are plain lowercase words joined by hyphens.
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def _card_documents(
    rels: dict[str, str], card_files: list[str], texts: dict[str, str],
    file_hashes: dict[str, str], store: Kept | None, problems: Problems,
) -> Iterator[Located | None]:
    """Each card file's document, in order: parsed, or (by its content hash) as an earlier
    load parsed it. A kept value is the document's value as parsed; its positions are found
    from the text (the file's, when it was not read) when asked for, as for one parsed now."""
    if store is None:
        yield from parse_documents([(rels[p], texts[p]) for p in card_files], problems)
        return
    parsed = store.values
    kept = {p: parsed.get(file_hashes[p]) for p in card_files}
    found = Problems()  # the parse's problems, passed on as they come
    fresh = parse_documents(
        [(rels[p], texts[p]) for p in card_files if kept[p] is None], found
    )
    parsed.clear()
    made: dict[str, str] = {}  # path -> content hash of each file parsed now
    for path in card_files:
        value = kept[path]
        if value is not None and path not in texts:  # not read: unchanged
            doc = Located.from_file(value, Origin(rels[path]), path)
        elif value is not None:
            doc = Located.from_text(value, Origin(rels[path]), texts[path])
        else:
            doc = next(fresh)
            problems.items.extend(found.items)
            found.items.clear()
            made[rels[path]] = file_hashes[path]
        if doc is not None:
            parsed[file_hashes[path]] = doc.value
        yield doc
    # a file whose parse found a problem is parsed again next time, to report it again
    for problem in problems.items:
        digest = made.get(problem.origin.path)
        if digest is not None:
            parsed.pop(digest, None)


def _record_files(store: Kept, card_files: list[str], rels: dict[str, str],
                  file_hashes: dict[str, str], unread: set[str], problems: Problems) -> None:
    """Note the metadata of each card file that loaded without a problem, for the next load
    to know it unchanged without reading it."""
    before, store.files = store.files, {}
    troubled = {problem.origin.path for problem in problems.items}
    for path in card_files:
        rel = rels[path]
        if rel in troubled or file_hashes[path] not in store.values:
            continue
        if path in unread:  # its record stands
            store.files[rel] = before[rel]
        else:
            store.record(path, rel, file_hashes[path])


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Loading builds millions of small objects and frees none of them; the cycle collector
    would scan them again and again for nothing (a third of the load time at 10,000 cards)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def load(
    root: Path, game_id: str, problems: Problems, *, parsed: Kept | None = None,
    sources: Listing | None = None, memo: Memo | None = None,
) -> GameRecords | None:
    """Read and validate one game. Returns None when something stops the load early.

    `parsed`: the card files as an earlier load read them (`charnel.sources.parsed`): a card
    file whose content hash is there is not parsed again, nor read when its metadata are the
    ones recorded. It is updated to hold this load's cards (and only those), ready to be kept
    for the next. `sources`: the game's files (`files.listing`), where the caller listed them
    already. `memo`: the records of the last load in this process (`charnel.memo`): a file
    whose path and bytes are the ones they were made from gives back the same records.
    """
    with no_cycle_collection():
        records = _load(root, game_id, problems, parsed, sources, memo)
        # The records live as long as the process and hold no reference cycles; left to the
        # collector, every later stage would pay for scanning them again (check took twice as
        # long at 50,000 cards). The permanent generation is never scanned.
        gc.freeze()
    return records


def _load(
    root: Path, game_id: str, problems: Problems, parsed: Kept | None,
    sources: Listing | None = None, memo: Memo | None = None,
) -> GameRecords | None:
    game = registry.get(game_id)
    broken = registry.problems(game_id)
    for problem in broken:
        problems.add(problem.origin, problem.message)
    if broken:
        return None
    if game is None:
        known = ", ".join(registry.available()) or "none"
        problems.add(
            Origin(f"rules/{game_id}"), f"no game package for '{game_id}' (known: {known})"
        )
        return None
    sources = sources or listing(root, game_id)
    files = sources.files
    for path in [*unreadable_folders(root, game_id), *_unreadable_templates(game)]:
        problems.add(Origin(_rel(root, path) + "/"), "cannot read folder: its files are not read")
    for path in sources.strays:
        problems.add(
            Origin(_rel(root, path)),
            f"not read: card files are cards/{game_id}/<set>/<card>.yaml",
        )
    hashed = [f"charnel {__version__}\n"]  # what the source hash is of: each file's hash
    texts: dict[str, str] = {}
    unread: set[str] = set()  # card files known unchanged by their metadata
    file_hashes: dict[str, str] = {}  # each file's content hash, for keys of what is made from it
    rels = dict(zip(files, _rels(root, files), strict=True))
    inside = _Inside(root)
    cards_folder = ["cards", game_id]
    for path in files:
        rel = rels[path]
        if not inside(path):
            problems.add(Origin(rel), "a link to a file outside the project; not read")
            continue
        # a card file unchanged since the last build, by its metadata, is not read again
        # (only card files are recorded, by their project path)
        known = parsed.unchanged(path, rel) if parsed is not None else None
        if known is not None:
            file_hashes[path] = known
            unread.add(path)
            hashed.append(f"{rel}\0{known}\n")
            continue
        raw = yamltext.read_file(path, rel, problems)
        if raw is None:
            continue
        file_hashes[path] = content_hash = hashlib.sha256(raw).hexdigest()[:32]
        hashed.append(f"{rel}\0{content_hash}\n")
        text = yamltext.read_text(rel, raw, problems)
        if text is not None:
            texts[path] = text

    # what the last load in this process made from the same files (`charnel.memo`)
    remembered = memo.load(game_id, game.card_model) if memo is not None else None
    info = _load_yaml(root, files[0], texts, GameInfo, "game.yaml", problems,
                      remembered, file_hashes)
    if info is not None and info.id != game_id:
        problems.add(info.where("id"), f"id '{info.id}' is not its folder's name, '{game_id}'")
        info = None  # every later stage finds the game by this id
    glossary = _load_yaml(root, files[1], texts, Glossary, "glossary", problems,
                          remembered, file_hashes)

    sections, clauses, examples = [], [], []
    rules_blocks = {}  # each rules document's Markdown parse, by its content hash
    for path in files:
        if rels[path].endswith(".md") and path in texts:
            key = file_hashes[path]
            # the clauses are numbered in order across the documents: the same parse only
            # after as many clauses as before
            memo_key = (rels[path], key, len(clauses))
            known = remembered.get(memo_key) if remembered is not None else None
            if known is not None:
                rules_blocks[key], section, found, found_examples = known
            else:
                kept_blocks = parsed.rules.get(key) if parsed is not None else None
                rules_blocks[key] = kept_blocks or rules_md.blocks(texts[path])
                section, found, found_examples = rules_md.parse(
                    rels[path], texts[path], len(clauses), problems, rules_blocks[key]
                )
                if "![" in texts[path]:
                    contained.check_rules(section, found, problems)
                if remembered is not None:
                    remembered.put(memo_key, (rules_blocks[key], section, found, found_examples))
            if section is not None:
                sections.append(section)
                clauses.extend(found)
                examples.extend(found_examples)

    cards = []
    card_model = game.card_model
    # a file not read loaded without a problem from the same path: its name is good
    card_files = [
        path
        for path in files
        if path in unread
        or rels[path].split("/")[-4:-2] == cards_folder
        and path in texts
        and _card_path_ok(rels[path], path, problems)
    ]
    # each card file the last load in this process loaded as it is now: its card as made then
    known = {} if remembered is None else {
        path: found for path in card_files
        if (found := remembered.get((rels[path], file_hashes[path]))) is not None
    }
    docs = _card_documents(rels, [p for p in card_files if p not in known], texts,
                           file_hashes, parsed, problems)
    for path in card_files:
        if path in known:
            card, card_examples = known[path]
            cards.append(card)
            examples.extend(card_examples)
            continue
        doc = next(docs)
        # a file not read had no problem when it was: its text held no image
        if doc is not None and path in texts and "![" in texts[path]:
            contained.check_document(doc, problems)
        card = _load_card(rels[path], doc, card_model, problems, file_hashes[path])
        if card is not None:
            cards.append(card)
            card_examples = _card_examples(card, problems)
            examples.extend(card_examples)
            if remembered is not None:
                remembered.put((rels[path], file_hashes[path]), (card, card_examples))
    for _ in docs:  # none left: its end drops from the store what had a problem
        pass
    if parsed is not None:
        for path, (card, _) in known.items():  # kept as their values, for the next process
            parsed.values[file_hashes[path]] = card._doc.value
        _record_files(parsed, card_files, rels, file_hashes, unread, problems)
        parsed.rules = rules_blocks
    if remembered is not None:
        remembered.done({problem.origin.path for problem in problems.items})

    if info is None or glossary is None:
        return None
    return GameRecords(
        root=root,
        info=info,
        cards=cards,
        sections=sections,
        clauses=clauses,
        glossary=glossary,
        examples=examples,
        source_hash=hashlib.sha256("".join(hashed).encode()).hexdigest(),
        files=[rels[p] for p in files],
        game=game,
    )


__all__ = ["game_ids", "load", "load_or_raise", "source_files"]


def load_or_raise(root: Path, game_id: str) -> GameRecords:
    problems = Problems()
    records = load(root, game_id, problems)
    if problems or records is None:
        raise InputError(problems)
    return records


def _unreadable_templates(game) -> list[Path]:
    """The templates every output is rendered with, and the game's package (its own templates
    and documents): a folder there that cannot be listed is a page left out."""
    return [*unreadable_under(templates.root()), *unreadable_under(game.folder)]


def _rel(root: Path, path: str | Path) -> str:
    return _rels(root, [path])[0]


def _rels(root: Path, paths: list) -> list[str]:
    """Each path as the project names it (`cards/<game>/<set>/<card>.yaml`)."""
    # string slicing, not Path.relative_to: this runs for every file of the pool
    prefix = _prefix(root)
    texts = map(os.fspath, paths)
    if os.sep != "/":
        texts = (text.replace(os.sep, "/") for text in texts)
    return [text[len(prefix) :] if text.startswith(prefix) else text for text in texts]


@lru_cache(maxsize=8)
def _prefix(root: Path) -> str:
    return root.as_posix().rstrip("/") + "/"


def _card_path_ok(rel: str, path: str, problems: Problems) -> bool:
    folder, name = os.path.split(path)
    slug, folder = name.removesuffix(".yaml"), os.path.basename(folder)
    if not SLUG.fullmatch(folder):
        problems.add(
            Origin(rel),
            f"set folder {folder!r}: a set's folder is named by its code, lowercase letters, "
            "digits and hyphens",
        )
        return False
    if not SLUG.fullmatch(slug):
        problems.add(
            Origin(rel),
            f"card file name {name!r}: the name is the card's address, lowercase letters, "
            "digits and hyphens ('grave-hound.yaml')",
        )
        return False
    return True


class _Inside:
    """Whether a source file lies inside the project once links are followed; folders are
    resolved once each, files only when they are links themselves. Which files are links is
    read once per folder, from its listing: a test per file cost a system call each."""

    def __init__(self, root: Path):
        self.root = os.path.realpath(root)
        # folder -> the names of the links in it; False outside the project, None unlisted
        self.folders: dict[str, set[str] | bool | None] = {}

    def __call__(self, path: str) -> bool:
        folder, _, name = path.rpartition(os.sep)  # a source file lies in a folder under root
        if folder not in self.folders:
            self.folders[folder] = self._links(folder)
        links = self.folders[folder]
        if links is False:
            return False
        if links is None:  # the folder could not be listed: ask of the file itself
            links = {name} if os.path.islink(path) else set()
        return name not in links or self._contains(os.path.realpath(path))

    def _links(self, folder: str) -> set[str] | bool | None:
        if not self._contains(os.path.realpath(folder)):
            return False
        try:
            with os.scandir(folder) as entries:
                return {entry.name for entry in entries if entry.is_symlink()}
        except OSError:
            return None

    def _contains(self, real: str) -> bool:
        return real == self.root or real.startswith(self.root.rstrip(os.sep) + os.sep)


def _load_yaml(root, path, texts, model, what, problems, remembered=None, hashes=None):
    if path not in texts:
        return None
    key = (_rel(root, path), hashes[path]) if remembered is not None else None
    found = remembered.get(key) if key is not None else None
    if found is not None:
        return found
    doc = yamltext.parse(texts[path], Origin(_rel(root, path)), problems)
    if doc is not None and "![" in texts[path]:
        contained.check_document(doc, problems)
    record = validate(model, doc, problems, what=what) if doc is not None else None
    if key is not None and record is not None:
        remembered.put(key, record)
    return record


_set = object.__setattr__  # a record's slots (`records._GIVEN`), without pydantic's setter


def _load_card(rel: str, doc: Located | None, model: type[CardBase], problems: Problems,
               source_hash: str):
    if doc is None:
        return None
    card = validate(model, doc, problems, what="card file")
    if card is None:
        return None
    # straight into the slots: pydantic's attribute setter costs more than the rest of a kept
    # card's load
    _, set_code, name = rel.rsplit("/", 2)  # cards/<game>/<set>/<slug>.yaml
    _set(card, "_slug", name.removesuffix(".yaml"))
    _set(card, "_set_code", set_code)
    _set(card, "_source_hash", source_hash)
    for i, ruling in enumerate(card.rulings):
        _set(ruling, "_doc", doc.sub(("rulings", i)))
    return card


def _card_examples(card: CardBase, problems: Problems) -> list[Example]:
    out = []
    for i, body in enumerate(card.examples):
        doc = card._doc.sub(("examples", i))
        if not isinstance(body.get("id"), str) or not isinstance(body.get("title"), str):
            problems.add(doc.origin, "a card example needs an 'id' and a 'title'")
            continue
        out.append(Example(body["id"], body["title"], "card", card.slug, body, "", doc))
    return out


def load_info(root: Path, game_id: str, problems: Problems) -> GameInfo | None:
    """A game's game.yaml alone, for what is checked across games; problems in it are left
    to the game's own load, which reports them."""
    path = root / "rules" / game_id / "game.yaml"
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    quiet = Problems()
    text = yamltext.read_text(_rel(root, path), raw, quiet)
    info = _load_yaml(root, path, {path: text}, GameInfo, "game.yaml", quiet) if text else None
    return info if not quiet else None
