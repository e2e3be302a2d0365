"""Hecatomb's fields of the card search language, added to the core ones."""

from __future__ import annotations

from charnel.query import CORE_FIELDS, SearchField

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
_DOOM = SearchField(
    "doom",
    "exact",
    "Doom.",
    "doom:greed",
    show=True,
    choices="select id from enum_values where enum = 'doom'",
)
_STRENGTH = SearchField("strength", "number", "A minion's strength.", "str>=3", show=True)
_SUBTYPE = SearchField("subtype", "text", "Subtype (contains).", "sub:undead", show=True)
_TRIGGERS = SearchField("triggers", "list", "One of a minion's corner triggers.", "tr:deceit")

FIELDS: dict[str, SearchField] = {
    **CORE_FIELDS,
    "t": _TYPE_LINE,
    "type": _TYPE_LINE,
    "o": _TEXT,
    "text": _TEXT,
    "d": _DOOM,
    "doom": _DOOM,
    "str": _STRENGTH,
    "strength": _STRENGTH,
    "sub": _SUBTYPE,
    "subtype": _SUBTYPE,
    "tr": _TRIGGERS,
    "triggers": _TRIGGERS,
}
