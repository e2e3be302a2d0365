"""What a game package provides to the core. Defaults do nothing game-specific."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from charnel import fields as card_fields
from charnel.fields import CardField
from charnel.records import CardBase, TextPart

if TYPE_CHECKING:
    from sqlmodel import SQLModel

    from charnel.diagnostics import Problems
    from charnel.engine import Engine
    from charnel.query import SearchField
    from charnel.records import GameRecords
    from charnel.verify.keyword_text import CardText


@dataclass
class SitePage:
    """A page a game adds to its site: `template` (a name in the game's `templates_dir`, looked
    up before the core's site_templates/site/) rendered at `path` with `title` and `context`,
    the `files` (path -> bytes: scripts, data) written with it, and `nav`, a label for the top
    navigation if it should have one. Paths are relative to the game's part of the site
    ("fight/", "fight/pool.json"), so the page links its files relatively and does not care
    where that part is served."""

    path: str
    template: str
    title: str
    context: dict[str, Any] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    nav: str | None = None


class Game:
    """A game's specifics. Subclass in `charnel.games.<id>` and register an entry point."""

    id: str = ""
    fields: tuple[CardField, ...] = ()  # the game's card fields (`charnel.fields`), in order
    # Columns of `card_columns` that hold words a reader searches for (full-text search indexes
    # them beside the name, text and flavor every card has).
    full_text: tuple[str, ...] = ()
    # Whether some of the game's abilities are keywords: glossary terms with a printed form
    # (`keyword:`) that cards encode under `keywords:`. Only then does the game get keyword
    # pages, counts, facets and the `kw` search field; its other abilities are its own fields.
    has_keywords: bool = False
    # A few whole queries of the game's search language, each finding cards of its pool: the
    # first is the search box's placeholder, the fields every game has take their examples
    # from them, and they are shown with the game's fields wherever its search is explained.
    search_examples: tuple[str, ...] = ()

    @property
    def folder(self) -> Path:
        """The game's package folder, which holds its own templates/ and docs/ beside its code."""
        return Path(sys.modules[type(self).__module__].__file__).resolve().parent

    @property
    def templates_dir(self) -> Path:
        """The game's own site templates and files, looked up before the core's."""
        return self.folder / "templates"

    @property
    def docs_dir(self) -> Path:
        """The game's own documents (its part of the example language, its rules coverage)."""
        return self.folder / "docs"

    @cached_property
    def card_model(self) -> type[CardBase]:
        """What the game's card files validate against: common fields, then `fields`."""
        return card_fields.card_model(f"{self._class_name}Card", CardBase, self.fields)

    @cached_property
    def card_columns(self) -> type[SQLModel]:
        """The game's columns of the `cards` table, after the common ones."""
        return card_fields.card_columns(f"{self._class_name}CardColumns", self.fields)

    def card_row(self, card: CardBase) -> dict[str, Any]:
        """A card's values for `card_columns`."""
        return card_fields.card_row(self.fields, card)

    @property
    def _class_name(self) -> str:
        return "".join(part.title() for part in self.id.split("-"))

    def extra_tables(self, base: type[SQLModel]) -> list[type[SQLModel]]:
        """Further tables for this game's own data (built on the given per-game base)."""
        return []

    def extra_rows(self, records: GameRecords) -> dict[str, list[dict[str, Any]]]:
        """Rows for `extra_tables`, by table name."""
        return {}

    def search_fields(self) -> Mapping[str, SearchField]:
        """Fields of the card search language (`charnel.query`), by name; aliases repeat a field:
        the common ones, then each declared field's `search` names."""
        from charnel.query import CORE_FIELDS, KEYWORD_FIELDS, with_examples

        keywords = KEYWORD_FIELDS if self.has_keywords else {}
        core = with_examples({**CORE_FIELDS, **keywords}, self.search_examples)
        return {**core, **card_fields.search_fields(self.fields)}

    def text_parts(self, card: CardBase, text: CardText) -> list[TextPart]:
        """The parts of a card's printed text that need encoded effects (charnel.coverage).

        By default the main text box: its sentences that are not keywords, against `effects`.
        """
        return [TextPart("text", text.other, card.effects)] if text.other else []

    def unrun_reason(self, card: CardBase) -> str | None:
        """Why the engine does not run the card's text that no effect encodes, as the card
        says (charnel.coverage); None: the card gives no reason."""
        return None

    def card_checks(self, records: GameRecords) -> Callable[[CardBase], list[tuple[tuple, str]]]:
        """The game's checks of one card (cost, might and type combinations, ...): a function
        giving each problem of a card as (path of the field to point at, message). It reads
        the card and the game's facts and glossary alone: a build keeps its results by those
        and runs it again only for a card that changed (`charnel.verify`)."""
        return lambda card: []

    def check(self, records: GameRecords, problems: Problems) -> None:
        """Game-specific checks across cards (a deck's size), run on every build."""

    # --- the rules engine (charnel.engine) -------------------------------------------------

    def engine(self, records: GameRecords) -> Engine | None:
        """The game's rules engine over these records (made once per records); None: none."""
        return None

    @property
    def has_engine(self) -> bool:
        """Whether the game runs its examples: the judge page runs readers' examples too."""
        return type(self).engine is not Game.engine

    @property
    def has_fights(self) -> bool:
        """Whether `charnel odds` has anything to say for this game (it gives `fight_odds`)."""
        return type(self).fight_odds is not Game.fight_odds

    def fight_odds(
        self, records: GameRecords, attacker: str, defender: str, modes: list[str]
    ) -> dict[str, Any]:
        """`charnel odds`: the exact chances of a fight between two sides written in the
        game's notation, as {"title", "columns", "rows": [[str]], "data": <JSON>}, and
        optionally "tables": more [{"title", "columns", "rows"}] printed after it. A side or
        mode the game cannot read raises ValueError with a one-line message."""
        raise ValueError(f"game '{self.id}' has no fights to give odds for")

    def fight_lines(
        self, records: GameRecords, lines: list[tuple[str, str]], modes: list[str]
    ) -> dict[str, Any]:
        """`charnel odds --compare`: (attacker, defender) lines of play side by side, a report
        as `fight_odds` gives, each line's data as `fight_odds` gives it alone."""
        raise ValueError(f"game '{self.id}' has no fights to give odds for")

    def fight_flip(
        self, records: GameRecords, attacker: str, defender: str, modes: list[str], threshold: str
    ) -> dict[str, Any]:
        """`charnel odds --flip`: the cheapest card that, added to the attacker, gives it at
        least `threshold` (as the reader wrote it) to win; a report as `fight_odds` gives."""
        raise ValueError(f"game '{self.id}' has no fights to give odds for")

    def site_pages(self, records: GameRecords) -> list[SitePage]:
        """Pages of the game's own beyond the ones every game's site has (a calculator)."""
        return []

    def site_answers(self) -> dict[str, Callable[[Path, Mapping[str, str]], tuple[int, Any]]]:
        """Answers `charnel serve` gives beside the game's static pages, which a static copy of
        the site cannot: {path under the game's part of the site: answer}. An answer gets the
        game's folder of the built site and the request's query parameters and returns
        (HTTP status, JSON data)."""
        return {}

    def card_links(self, card: CardBase) -> list[tuple[str, str]]:
        """(label, path) links from a card's page to the game's own pages, the path relative
        to the game's part of the site, as `SitePage.path` is."""
        return []

    # --- pictures, for the site and print -------------------------------------------------

    def draw_card(self, card: CardBase) -> str:
        """The card face as an SVG document (a string); empty when the game draws none."""
        return ""

    def aid_figures(self) -> list[tuple[str, str]]:
        """(title, SVG) pictures the printed player aid opens with (an attribute ring)."""
        return []

    def draw_state(self, state: dict) -> str:
        """A state from `example_states` as SVG; empty when the game draws none."""
        return ""
