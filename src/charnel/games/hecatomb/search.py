"""Hecatomb's own fields of the card search language: the type line and the text box read as a
player reads them. Every other field comes from the card field declarations."""

from __future__ import annotations

from collections.abc import Mapping

from charnel.query import SearchField

# The type line as a player reads it: "combat fate", "minion undead". `t:` searches it.
_TYPE_LINE = SearchField(
    "trim((case when combat then 'combat ' else '' end) || type || ' ' || coalesce(subtype, ''))",
    "text",
    "Type line: type, `combat`, subtype (contains).",
    't:"combat fate"',
    choices="select id from card_types union select 'combat' union select subtype from cards",
)
# Rules text includes the conditional-ability box.
_TEXT = SearchField(
    "(text || ' ' || coalesce(conditional_text, ''))",
    "text",
    "Rules text, conditional box included (contains).",
    "o:reap",
)


# Queries of the search box and the search help, each finding cards of the bundled pool
# (tests/test_query_docs.py).
EXAMPLES = (
    "doom:greed t:minion str>=3 kw:evader",
    'kw:"evader(greed)" -o:reap',
    't:"combat fate" cost<=2 or (r:rare s:base)',
    'o:"target abomination"',
    "name:hound",
)


def fields(declared: Mapping[str, SearchField]) -> dict[str, SearchField]:
    return {**declared, "t": _TYPE_LINE, "type": _TYPE_LINE, "o": _TEXT, "text": _TEXT}
