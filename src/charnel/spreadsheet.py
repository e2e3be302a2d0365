"""CSV cells that a spreadsheet would run as a formula are written with a leading apostrophe.

A cell starting with '=', '+', '-', '@', a tab or a carriage return is a formula to Excel,
LibreOffice and Google Sheets, so a card named '=HYPERLINK(...)' would run when the export is
opened. The apostrophe makes it text there; `unguard` takes it off again on import. A plain
number ('-2') is left as it is: it is only a number. A cell that already starts with
apostrophes before such a character gets one more, so the two are exact inverses.
"""

from __future__ import annotations

import re

_FORMULA = re.compile(r"'*[=+\-@\t\r]")
_FIRST = frozenset("'=+-@\t\r")  # what a cell `_FORMULA` matches starts with
_NUMBER = re.compile(r"'*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def _formula(cell: str) -> bool:
    return bool(_FORMULA.match(cell)) and not _NUMBER.fullmatch(cell)


def guard(cell: str) -> str:
    if not cell or cell[0] not in _FIRST:  # most cells: a formula starts with one of these
        return cell
    return "'" + cell if _formula(cell) else cell


def unguard(cell: str) -> str:
    return cell[1:] if cell.startswith("'") and _formula(cell[1:]) else cell
