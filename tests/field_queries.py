"""One list of search-language queries for every implementation of the language's meaning: the
server's SQL (`charnel.query`, under `charnel serve`) and the browser's over the build's field
index (site_templates/site/fieldsearch.js). Each query runs on each and must give the same
cards, or the same mistake at the same column.

The list is every query the search pages show (charnel's, and the game's own docs/search.md),
the game's own examples, and a seeded set made from the game's fields: every name and alias
with every operator, values from the closed lists and the pool, numbers, one field against another,
negation, `or`, parentheses, quoting, and near misses.
"""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path

from charnel import registry
from charnel.query import OPERATORS, field_table, load_choices

REPO = Path(__file__).resolve().parent.parent
LANGUAGE = REPO / "docs" / "search.md"
GENERATED = 150  # per game
SEED = 26


def pages(game: str) -> list[Path]:
    """The search pages whose queries run on `game`: the language's (written for another game,
    so most of its queries are mistakes here, which both sides must report alike) and the
    game's own, when it has one."""
    own = registry.get(game).docs_dir / LANGUAGE.name
    return [LANGUAGE, *([own] if own.is_file() else [])]


def documented(game: str) -> list[str]:
    """Every backticked query in `game`'s search pages: the example columns and query tables,
    the query blocks, and the mistakes shown as `charnel search '...'`."""
    found: list[str] = []
    for page in pages(game):
        text = page.read_text("utf-8")
        found += re.findall(r"```\n([^`\n]+)\n```", text)
        found += re.findall(r"\$ charnel search '([^']+)'", text)
        header: list[str] = []
        for line in text.splitlines():
            if not line.startswith("|"):
                header = []
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not header:
                header = cells
            elif not set(line) <= set("|-: "):
                for name, cell in zip(header, cells, strict=False):
                    if name.startswith(("example", "query")):
                        found += re.findall(r"`([^`]+)`", cell)
    return list(dict.fromkeys(found))


FINDS_ROW = re.compile(r"^\| `([^`]+)` \| ([^|]*) \| ([^|]*) \|$")


def finds_table(game: str) -> list[tuple[str, list[str], list[str]]]:
    """(query, cards it finds, cards it does not) for each row of the `| query | finds | not |`
    table of `game`'s own search page."""
    text = (registry.get(game).docs_dir / LANGUAGE.name).read_text("utf-8")
    table = text.split("| query | finds | not |", 1)[1].split("\n\n", 1)[0]

    def names(cell: str) -> list[str]:
        return [n.strip() for n in cell.split(",") if n.strip()]

    return [(m[1], names(m[2]), names(m[3]))
            for line in table.splitlines() if (m := FINDS_ROW.match(line))]


def own_examples(game: str) -> list[str]:
    g = registry.get(game)
    return [*g.search_examples, *(row["example"] for row in field_table(g.search_fields()))]


def generated(game: str, database: Path, count: int = GENERATED, seed: int = SEED) -> list[str]:
    """`count` queries made at random (seeded) from the game's fields and its pool's values."""
    fields = registry.get(game).search_fields()
    rng = random.Random(f"{seed}:{game}")
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        choices = load_choices(conn, fields)
        words = sorted({w for (name,) in conn.execute("select name from cards")
                        for w in re.findall(r"[A-Za-z]{3,}", name)})
        text_words = sorted({w for (text,) in conn.execute("select text from cards limit 200")
                             for w in re.findall(r"[A-Za-z]{4,}", text or "")})
    finally:
        conn.close()
    names = list(fields)
    numbers = [n for n, f in fields.items() if f.kind == "number"]

    def value(name: str) -> str:
        f = fields[name]
        if f.kind == "number":
            pick = rng.random()
            if pick < 0.6:
                return str(rng.randint(-1, 8))
            if pick < 0.85 and numbers:
                return rng.choice(numbers)
            return rng.choice(["x", "X", "abc", "1.5", ""])
        if f in choices and rng.random() < 0.8:
            v = rng.choice(choices[f])
            if rng.random() < 0.2:
                v = v[:-1] or v  # a near miss, or a prefix
            if rng.random() < 0.3:
                v = v.upper()
            if f.kind == "keyword" and rng.random() < 0.3:
                v = f"{v}({rng.choice(['greed', 'deceit', '1', 'x'])})"
            return f'"{v}"' if " " in v or "(" in v else v
        v = rng.choice(text_words if name in ("o", "text") else words)
        if rng.random() < 0.15:
            v = f'"{v} {rng.choice(text_words)}"'
        return v.lower() if rng.random() < 0.5 else v

    def term() -> str:
        pick = rng.random()
        if pick < 0.15:
            return rng.choice(words).lower()  # a bare word: the card name
        name = rng.choice(names)
        if pick < 0.2:
            name = name[:-1] + "q" if len(name) > 1 else name + "q"  # an unknown field
        op = rng.choice(OPERATORS if fields.get(name, fields["t"]).kind == "number"
                        or rng.random() < 0.1 else (":", ":", "=", "!="))
        if rng.random() < 0.1:
            return f"{name.upper()}{op}{value(name) if name in fields else 'x'}"
        return f"{name}{op}{value(name) if name in fields else 'x'}"

    def expression(depth: int = 0) -> str:
        parts = []
        for _ in range(rng.randint(1, 3)):
            pick = rng.random()
            if pick < 0.2:
                parts.append("-" + term())
            elif pick < 0.3 and depth < 2:
                parts.append(f"({expression(depth + 1)})")
            elif pick < 0.35 and depth < 2:
                parts.append(f"-({expression(depth + 1)})")
            else:
                parts.append(term())
            if len(parts) > 1 and rng.random() < 0.3:
                parts[-1] = rng.choice(["or ", "OR ", "and "]) + parts[-1]
        return " ".join(parts)

    made: list[str] = []
    while len(made) < count:
        query = expression()
        if query not in made:
            made.append(query)
    return made


def queries(game: str, database: Path) -> list[str]:
    """The whole list for one game: documented, own, generated."""
    return list(dict.fromkeys([*documented(game), *own_examples(game),
                               *generated(game, database)]))
