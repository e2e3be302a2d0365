"""The core never names a game: no module outside games/<game>/ imports a game's package, the
common card model requires nothing but a name and a type, no core module names a field only
one game declares, and the core's documents and tests (outside tests/games/<game>/) speak of
"a game" too."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import yaml

from charnel import registry
from charnel.fields import CardField, Search
from charnel.query import CORE_FIELDS, KEYWORD_FIELDS
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


# --- a game's words ------------------------------------------------------------------------
# A bundled game's words are its declared fields (and the columns they store), its search
# names, its card types, the lists its values come from (game.yaml's `enums:`) and its
# keywords: the core reaches each of them through the game, so none is written in a core
# module, template, document or test, not even in a comment.

# The core's own notions, which a game may declare a field for too: a card's name, type and
# text, its cost (`charnel.fields.Cost`) and a collector number.
CORE_WORDS = {*CardBase.model_fields, "cost", "cost_value", "number"}
# Words a game declares that the core uses in a sense of its own, everywhere:
COMMON_SENSES = {
    # the core's neutral notion of what a card can do (a game's keywords are one kind of
    # ability), and the copies of a card that every deck rule counts
    "abilities", "copies",
    # everyday words of programs and prose: a file's or a page's size, the use of a thing, an
    # item of a list, a browser's or a file watcher's event, a server's host, an HTML
    # attribute, Python's resource module, what a page or a request carries
    "size", "use", "item", "event", "host", "attribute", "attributes", "resource", "carry",
    # HTML's table row, in CSS selectors and Playwright locators (`tr:first-child`)
    "tr",
}
# Search names are short (a letter or two): only their use in a query counts, as in `m>=2`.
SEARCH_USE = r"(?<![\w.$-]){}(?:>=|<=|!=|[:<>])(?=[\w\"(])"
# Core files outside the check: the layout and the measured figures name each game's fields
# and queries on purpose (see STILL_NAMING).
WORDS_OWN_PLACE = {"docs/architecture.md", "docs/performance.md"}
# Core tests and fixtures that still build on a bundled game's data or queries. The list only
# shrinks: each moves to its game's tests/games/<game>/ or takes the toy game instead.
STILL_USING: set[str] = set()


def _keywords(rules: Path) -> set[str]:
    """The names of the keywords a game's glossary declares (`keyword:` under a term)."""
    glossary = rules / "glossary.yaml"
    if not glossary.exists():
        return set()
    terms = yaml.safe_load(glossary.read_text("utf-8")).get("terms", [])
    return {t["term"].lower() for t in terms if t.get("keyword")}


def game_words(game, rules: Path) -> tuple[set[str], set[str]]:
    """A game's words (found as words) and its search names (found as query terms), from its
    declarations and its `rules/<game>/` folder."""
    words = {f.name for f in game.fields} | {c.name for f in game.fields for c in f.stored()}
    names = {n for f in game.fields if f.search for n in f.search.names}
    if (rules / "game.yaml").exists():
        spec = yaml.safe_load((rules / "game.yaml").read_text("utf-8"))
        words |= {t["id"] for t in spec.get("card_types", [])} | set(spec.get("enums", {}))
    words |= _keywords(rules)
    words = {w for w in words if len(w) > 2} - CORE_WORDS - COMMON_SENSES
    names = (names | words) - set(CORE_FIELDS) - set(KEYWORD_FIELDS) - CORE_WORDS - COMMON_SENSES
    return words, names


def _bundled_words() -> tuple[set[str], set[str]]:
    words, names = set(), set()
    for game in registry.available().values():
        if game.folder.is_relative_to(SRC):
            w, n = game_words(game, REPO / "rules" / game.id)
            words |= w
            names |= n
    return words, names


def _using_a_game(paths: list[Path], words: set[str], names: set[str],
                  root: Path = REPO) -> dict[str, list[str]]:
    """Each file that writes one of the words or uses one of the names in a query, with them."""
    patterns = {w: re.compile(rf"\b{re.escape(w)}\b", re.I) for w in words}
    patterns |= {f"{n}:": re.compile(SEARCH_USE.format(re.escape(n))) for n in names}
    found = {}
    for path in paths:
        text = GAME_PATH.sub("", path.read_text("utf-8", errors="replace"))
        hits = sorted(w for w, pattern in patterns.items() if pattern.search(text))
        if hits:
            found[path.relative_to(root).as_posix()] = hits
    return found


def _core_files() -> list[Path]:
    """The core's modules and templates (code, pages, scripts), documents, tests and test
    fixtures: everything but a game's own folder."""
    src = [p for p in SRC.rglob("*") if p.is_file() and "__pycache__" not in p.parts
           and not any(p.is_relative_to(GAMES / g) for g in PACKAGES)]
    tests = [p for p in (REPO / "tests").rglob("*") if p.is_file()
             and "__pycache__" not in p.parts and not p.is_relative_to(REPO / "tests" / "games")]
    return sorted({*src, *TEMPLATES, *DOCS, *tests} - {REPO / p for p in WORDS_OWN_PLACE})


def test_the_words_of_a_bundled_game_are_found():
    """Every declared field and search name of a bundled game that is not the core's own."""
    words, names = _bundled_words()
    games = [g for g in registry.available().values() if g.folder.is_relative_to(SRC)]
    fields = [f for g in games for f in g.fields]
    assert {f.name for f in fields} - CORE_WORDS - COMMON_SENSES <= words
    assert {n for f in fields if f.search for n in f.search.names} - CORE_WORDS - COMMON_SENSES \
        - set(CORE_FIELDS) <= names
    assert len(games) >= 2 and words and names


def test_no_core_file_uses_a_word_of_one_game():
    """Not in code, a comment, a page, a document, a test or a fixture: the core speaks of a
    card's fields, facets and abilities, and its tests take the toy game."""
    found = _using_a_game(_core_files(), *_bundled_words())
    assert {p: w for p, w in found.items() if p not in STILL_USING} == {}
    assert sorted(STILL_USING - set(found)) == [], "no longer using a game: strike it off"


def test_a_core_file_using_a_word_of_a_game_is_found(tmp_path):
    """A planted word is found in a comment, a template and a query; a common word, a search
    name used as a plain word and a path into the game's folder are not."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "game.yaml").write_text("card_types: [{id: wraith}]\nenums: {omen: []}\n")
    (rules / "glossary.yaml").write_text(
        "terms:\n- {term: Blight, keyword: {syntax: Blight}}\n- {term: dusk}\n")

    class Planted:
        fields = (CardField("gloom", int, "Gloom.", search=Search(("gl", "gloom"), "Gloom.")),
                  CardField("size", int, "Size."))

    words, names = game_words(Planted(), rules)
    assert words == {"gloom", "wraith", "omen", "blight"} and "gl" in names
    files = {"a.py": "x = 1  # a card's Gloom\n", "b.html": "<p>{{ wraith }}</p>\n",
             "c.py": 'QUERY = "gl>=2 t:x"\n', "d.js": "// kw:blight\n",
             "e.py": "size = len(text)  # a gl of dusk\n",
             "f.md": "See `src/charnel/games/dark_keep/omen.py`.\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    found = _using_a_game(sorted(tmp_path.glob("*.*")), words, names, tmp_path)
    assert found == {"a.py": ["gloom"], "b.html": ["wraith"], "c.py": ["gl:"],
                     "d.js": ["blight"]}


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
