"""The core never names a game: no module outside games/<game>/ imports a game's package, the
common card model requires nothing but a name and a type, no core module names a field only
one game declares, and the core's documents and tests (outside tests/games/<game>/) speak of
"a game" too."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from charnel import registry
from charnel.records import CardBase

SRC = Path(__file__).resolve().parent.parent / "src" / "charnel"
GAMES = SRC / "games"
PACKAGES = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists())
CORE = [p for p in SRC.rglob("*.py") if not any(GAMES / g in p.parents for g in PACKAGES)]
# The core's templates; a game's own pages live in its package (`Game.templates_dir`).
TEMPLATES = [p for p in (SRC.parents[1] / "site_templates").rglob("*") if p.is_file()]
REPO = SRC.parents[1]
# The core's documents, and its tests: a game's own tests live in tests/games/<package>/.
DOCS = sorted((REPO / "docs").glob("*.md"))
TESTS = sorted(p for p in (REPO / "tests").rglob("*.py")
               if not p.is_relative_to(REPO / "tests" / "games"))


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_no_core_module_imports_a_game_package():
    assert PACKAGES, "no game package found"
    leaks = [
        f"{path.relative_to(SRC)} imports {name}"
        for path in CORE
        for name in _imports(path)
        if any(name == f"charnel.games.{g}" or name.startswith(f"charnel.games.{g}.")
               for g in PACKAGES)
    ]
    assert not leaks


def test_no_core_module_or_template_names_a_game():
    """Not in code, not in a comment: the core's modules and templates speak of "a game"."""
    names = {w for game in registry.available().values()
             for w in (game.id, game.id.replace("-", "_"), game.id.replace("-", " "))}
    found = [
        f"{path}: {name}"
        for path in [*CORE, *TEMPLATES]
        for name in sorted(names)
        if re.search(rf"\b{re.escape(name)}\b", path.read_text("utf-8", errors="replace"),
                     re.IGNORECASE)
    ]
    assert set(PACKAGES) <= names and not found


def test_the_common_card_model_requires_only_identity():
    required = {n for n, f in CardBase.model_fields.items() if f.is_required()}
    assert required == {"name", "type"}


# Modules that use a declared field's name in a sense of their own: a creature's size (Cave
# Evil) is not Datasette's page size, a response cache's size, a database file's size or the
# bytes of a CSV export read so far.
OTHER_SENSES = {
    "size": {"serve/config.py", "serve/cache.py", "serve/app.py", "serve/csvguard.py"},
}


def test_no_core_module_names_a_field_a_game_declares():
    """A field one game declares (rarity, doom, might ...) is that game's word: the core
    reaches it only through the declarations."""
    declared = {f.name for game in registry.available().values() for f in game.fields}
    # a cost is a core notion (charnel.fields.Cost), and clauses have numbers too
    common = set(CardBase.model_fields) | {"cost", "number"}
    words = sorted(declared - common)
    assert {"rarity", "might"} <= set(words)
    found = []
    for path in CORE:
        code = [line.split("#")[0] for line in path.read_text("utf-8").splitlines()]
        for word in words:
            if path.relative_to(SRC).as_posix() in OTHER_SENSES.get(word, ()):
                continue
            # as an attribute or a quoted name: card.rarity, "rarity"
            if any(re.search(rf'\.{word}\b(?!\()|["\']{word}["\']', line) for line in code):
                found.append(f"{path.relative_to(SRC)}: {word}")
    assert not found


# Templates that use a declared field's name in a sense of their own: a file's size, CSS's
# font-size and the paper size; a keyword's use and JavaScript's "use strict"; keyword
# abilities, and cards that carry a keyword, in prose; the copies of a card in a deck being
# checked, which every deck rule counts.
TEMPLATE_OTHER_SENSES = {
    "size": {"data.html", "site.css", "print.css", "player-aid.html.j2", "base.html.j2"},
    "use": {"card.html", "site.js", "deck.js", "moved.js", "sw.js", "judge.js"},
    "copies": {"deck.js"},
    "abilities": {"card.html", "keywords.html"},
    "carry": {"keywords.html"},
}


def test_no_template_names_a_field_a_game_declares():
    """Pages, scripts, styles and print templates speak of facets, costs and groups, never of
    one game's dooms or rarities."""
    declared = {f.name for game in registry.available().values() for f in game.fields}
    words = sorted(declared - set(CardBase.model_fields) - {"cost", "number"})
    found = [
        f"{path.name}: {word}"
        for path in TEMPLATES
        for word in words
        if path.name not in TEMPLATE_OTHER_SENSES.get(word, ())
        and re.search(rf"\b{word}\b", path.read_text("utf-8", errors="replace"), re.IGNORECASE)
    ]
    assert TEMPLATES and not found


def test_the_common_cards_table_has_only_common_columns():
    from charnel.schema import CardBaseRow

    declared = {c.name for game in registry.available().values() for f in game.fields
                for c in f.stored()}
    assert not declared & set(CardBaseRow.model_fields)


# Core documents and tests that still name a bundled game, each for its reason. The list only
# shrinks: a file that no longer names one must leave it, and no other file may join it.
STILL_NAMING = {
    # the repository's layout: where each bundled game's package, data and tests are
    "docs/architecture.md",
    # figures measured on the bundled games' pools, with the commands that made them
    "docs/performance.md",
    # the search language's page, whose examples run against a bundled game's pool
    "docs/search.md", "tests/test_query_docs.py",
}
# A path into a game's own folder is where that game keeps something, not the core naming it.
GAME_PATH = re.compile(r"\S*games/[a-z0-9_]+/\S*")


def _bundled_names() -> set[str]:
    """The names of the games charnel ships (the suite's own games are the core's to use)."""
    return {w for game in registry.available().values() if game.folder.is_relative_to(SRC)
            for w in (game.id, game.id.replace("-", "_"), game.id.replace("-", " "))}


def _naming_a_game(paths: list[Path], names: set[str], root: Path = REPO) -> set[str]:
    pattern = re.compile("|".join(rf"\b{re.escape(n)}\b" for n in sorted(names)), re.I)
    return {p.relative_to(root).as_posix() for p in paths
            if pattern.search(GAME_PATH.sub("", p.read_text("utf-8", errors="replace")))}


def test_no_core_document_or_test_names_a_game():
    names = _bundled_names()
    assert set(PACKAGES) <= names
    naming = _naming_a_game([*DOCS, *TESTS], names)
    assert sorted(naming - STILL_NAMING) == [], "the core's documents and tests speak of a game"
    assert sorted(STILL_NAMING - naming) == [], "no longer naming a game: strike it off the list"


def test_a_core_file_naming_a_game_is_found(tmp_path):
    (tmp_path / "a.md").write_text("Search `/sql/Dark-Keep/cards` for it.\n")
    (tmp_path / "b.md").write_text("Its calculator is in `src/charnel/games/dark_keep/calc.py`.")
    (tmp_path / "c.py").write_text("GAME = 'dark_keep'\n")
    found = _naming_a_game(sorted(tmp_path.iterdir()), {"dark-keep", "dark_keep"}, tmp_path)
    assert found == {"a.md", "c.py"}
