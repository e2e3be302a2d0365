"""Text on drawn card faces and pictures (SVG): escaped, and wrapped to a width.

SVG has no line breaking of its own, so a game's drawing wraps words here by an average
glyph width: good enough for a fixed serif face, and the same bytes for the same text.
"""

from __future__ import annotations

from html import escape


def x(text: object) -> str:
    """Text or an attribute value, escaped for SVG."""
    return escape(str(text), quote=True)


def wrap(text: str, width: float, size: float, glyph: float = 0.5) -> list[str]:
    """Greedy word wrap of `text` at font `size` into lines `width` wide, a glyph taking
    `glyph` times the size; blank lines are dropped, and an empty text is one empty line."""
    per_line = max(int(width / (size * glyph)), 4)
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split():
            if line and len(line) + 1 + len(word) > per_line:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}".strip()
        lines.append(line)
    return [ln for ln in lines if ln] or [""]
