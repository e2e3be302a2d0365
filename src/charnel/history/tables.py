"""The history tables of a game database: its releases, each clause's changes through them,
each card's errata and each glossary term's changes, made from `history.views` (the records
the site, the booklet and `charnel diff` show), so a query can join them to the rest.

Their rows are made in `charnel.history.rows`, which needs none of these classes; each table is
registered in `charnel.schema` with them.
"""

from __future__ import annotations

from sqlmodel import Field, SQLModel

from charnel.history.rows import MADE


class ReleaseRow(SQLModel):
    """Releases of the rules and cards, oldest first, each with how much it changed."""

    version: str = Field(primary_key=True, description="The release's version, such as 1.1.")
    date: str = Field(description="The date the release takes effect (ISO).")
    previous: str | None = Field(
        default=None, description="The release before it; empty for the first release."
    )
    position: int = Field(description="Order of the releases, oldest first.")
    clauses_changed: int = Field(
        description="Clauses it added, changed, renumbered or removed since the one before "
        "(0 for the first release)."
    )
    terms_changed: int = Field(description="Glossary terms it added, changed or removed.")
    cards_changed: int = Field(description="Cards it added, errata'd or removed.")


class ClauseHistoryRow(SQLModel):
    """Each change of each clause, release by release: a clause's first row is the release
    that added it."""

    id: int = Field(primary_key=True, description="Row id, in release and rules order.")
    identity: str = Field(
        index=True,
        description="The clause through every renumbering, named by where it began "
        "(1.0/14.13b): the rows of one clause share it.",
    )
    release: str = Field(index=True, description="The release that made the change.")
    kind: str = Field(
        description="added, removed, renumbered, changed, or 'renumbered, changed'."
    )
    number: str | None = Field(
        default=None, index=True,
        description="The clause's number in the current rules (joins rules.number); "
        "empty when it was removed.",
    )
    old_number: str | None = Field(
        default=None, description="Its number before the release; empty when added."
    )
    new_number: str | None = Field(
        default=None, description="Its number in the release; empty when removed."
    )
    title: str = Field(description="The clause's title.")
    old_text: str = Field(description="Title and text before the release; empty when added.")
    new_text: str = Field(description="Title and text in the release; empty when removed.")
    diff: str = Field(
        description="Word-level diff of the text: [-removed-] and {+added+}; empty when "
        "the text is the same."
    )
    reason: str = Field(description="Why, from the release's changes file.")


class CardErratumRow(SQLModel):
    """Each change of a card in a release: errata (printed wording or encoding), and cards
    added or removed. Whether an erratum is functional is computed by running the engine."""

    id: int = Field(primary_key=True, description="Row id, in release and card order.")
    card_id: str = Field(
        index=True, description="The card (joins cards.id while the card is in the pool)."
    )
    name: str = Field(description="The card's name in that release.")
    release: str = Field(index=True, description="The release that made the change.")
    date: str = Field(description="The release's date (ISO).")
    kind: str = Field(description="erratum, added or removed.")
    wording: bool = Field(description="True when its printed text changed.")
    encoding: bool = Field(
        description="True when what the engine runs changed (abilities, stats)."
    )
    functional: bool = Field(
        description="True when the engine's results for the card changed: it does something "
        "else. Never true for a change of wording alone."
    )
    diff: str = Field(
        description="Word-level diff of each printed text that changed, one 'field: diff' a line."
    )
    encoding_diff: str = Field(
        description="Each encoded field that changed, one 'field: old -> new' a line."
    )
    reason: str = Field(description="Why, from the release's changes file.")


class TermHistoryRow(SQLModel):
    """Each change of a glossary term or keyword spec in a release."""

    id: int = Field(primary_key=True, description="Row id, in release and glossary order.")
    term_id: str = Field(index=True, description="The term's slug (joins glossary_terms.slug).")
    term: str = Field(description="The term as written in that release.")
    release: str = Field(index=True, description="The release that made the change.")
    kind: str = Field(description="added, changed or removed.")
    diff: str = Field(description="Word-level diff of the definition, if it changed.")
    keyword: str = Field(description="How the keyword spec changed, if it did.")
    rules: str = Field(description="How the rules it points to changed, if they did.")
    reason: str = Field(description="Why, from the release's changes file.")


# name, row model, rows (`charnel.history.rows`): after every other table, in this order
_ROW_MODELS = {"releases": ReleaseRow, "clause_history": ClauseHistoryRow,
               "card_errata": CardErratumRow, "term_history": TermHistoryRow}
TABLES = tuple((name, _ROW_MODELS[name], made) for name, made in MADE.items())
