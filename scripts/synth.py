"""A synthetic project for benchmarks and scale tests: many cards and a long rulebook.

Cards are the game's real card files, then copies of them with fresh names and file names
(a pool is never smaller than the real one: the rules' examples may name any real card), each
in its original's group (a group may hold only some kinds of card), all renumbered when the
game numbers cards within a group (a collector number); the rulebook is the game's real rules
followed by generated sections whose clauses cite earlier clauses and glossary terms.
Everything else (game.yaml, glossary) is copied as is, so the pool passes every check the real
sources pass. Seeded: the same arguments give the same files.

    python scripts/synth.py OUT --game hecatomb [--cards 50000] [--clauses 2000] [--seed 1]

A game that fixes the size of a group as a whole (Cave Evil's decks) cannot hold many times its
cards: such a pool has those problems and no others, and the benchmarks that need a pool that
builds say so and measure what they can.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
CLAUSE = re.compile(r"^(?:# (\d+)\.|## (\d+\.\d+) |(\d+\.\d+[a-z]) )", re.MULTILINE)
RULES_PER_SECTION = 10
SUBRULES_PER_RULE = 9
WORDS = (
    "stack minion soul doom fate relic god turn phase attack block reap damage discard deck "
    "hand pile counter player enemy abomination top bottom ready spent choose reveal"
).split()


DEFAULT_GAME = "hecatomb"  # the game of the figures in docs/performance.md


def game_ids(source: Path) -> list[str]:
    return sorted(p.parent.name for p in (source / "rules").glob("*/game.yaml"))


def find_game(game_id: str):
    """The game's plugin, as this checkout or an older one (the base of bench_compare.py,
    before `charnel.registry`) finds it."""
    try:
        from charnel.registry import get
    except ImportError:
        from charnel.games import get
    return get(game_id)


def ordinal_field(game_id: str) -> str | None:
    """The field numbering a game's cards within their group, if it has one."""

    found = next((f for f in find_game(game_id).fields if f.unique_in_group), None)
    return found.name if found else None


def make_pool(
    target: Path,
    *,
    cards: int = 50_000,
    clauses: int = 2_000,
    seed: int = 1,
    source: Path = REPO,
    game_id: str = DEFAULT_GAME,
) -> Path:
    """Write a synthetic project of `game_id` under `target` (emptied first); returns `target`."""
    if game_id not in game_ids(source):
        raise SystemExit(f"synth: no game '{game_id}' under {source / 'rules'} "
                         f"(games: {', '.join(game_ids(source))})")
    rng = random.Random(seed)
    if target.exists():
        shutil.rmtree(target)
    rules_in, rules_out = source / "rules" / game_id, target / "rules" / game_id
    shutil.copytree(rules_in, rules_out)
    glossary = yaml.safe_load((rules_in / "glossary.yaml").read_text("utf-8"))
    terms = [t.get("id") or t["term"] for t in glossary.get("terms", [])]
    _write_rules(rules_out, clauses, terms, rng)
    _write_cards(source / "cards" / game_id, target / "cards" / game_id, cards,
                 ordinal_field(game_id), rng)
    return target


def _write_cards(
    source: Path, target: Path, count: int, ordinal: str | None, rng: random.Random
) -> None:
    templates = [
        (path.parent.name, path.stem, yaml.safe_load(path.read_text("utf-8")))
        for path in sorted(source.glob("*/*.yaml"))
    ]
    if not templates and count:
        raise SystemExit(f"synth: no card files under {source} to copy")
    numbers: dict[str, int] = {}
    for i in range(max(count, len(templates))):
        group, stem, template = templates[i % len(templates)]
        card = {k: v for k, v in template.items() if k != "examples"}  # example ids are unique
        # the first copy of each card keeps its name and file name: the rules' examples may
        # name a card of the real pool
        original = i < len(templates)
        if not original:
            card["name"] = f"{template['name']} {i + 1}"
        if ordinal:
            numbers[group] = numbers.get(group, 0) + 1
            card[ordinal] = numbers[group]
        folder = target / group
        folder.mkdir(parents=True, exist_ok=True)
        text = yaml.safe_dump(card, sort_keys=False, allow_unicode=True, width=100)
        name = stem if original else f"{stem}-{i + 1:06d}"
        (folder / f"{name}.yaml").write_text(text, encoding="utf-8")


def _write_rules(folder: Path, total: int, terms: list[str], rng: random.Random) -> None:
    """Append generated sections after the real ones until the rules hold `total` clauses."""
    existing = [
        m[1] or m[2] or m[3]
        for p in sorted(folder.glob("*.md"))
        for m in CLAUSE.finditer(p.read_text("utf-8"))
    ]
    sections = [int(n) for n in existing if n.isdigit()]
    section = max(sections, default=0)
    cited = [n for n in existing if not n.isdigit()]
    count = len(existing)
    while count < total:
        section += 1
        lines = [f"# {section}. Generated section {section}", "", _sentence(rng, terms, []), ""]
        count += 1
        for r in range(1, RULES_PER_SECTION + 1):
            if count >= total:
                break
            lines += [f"## {section}.{r} Generated rule {section}.{r}", ""]
            count += 1
            for letter in "abcdefghijklmnopqrstuvwxyz"[:SUBRULES_PER_RULE]:
                if count >= total:
                    break
                number = f"{section}.{r}{letter}"
                page = rng.randint(1, 40)
                lines += [f"{number} {_sentence(rng, terms, cited)} [p. {page}]", ""]
                cited.append(number)
                count += 1
        # "s" sorts after the digits the real files start with, keeping the sections in order
        (folder / f"s{section:04d}-generated.md").write_text("\n".join(lines), encoding="utf-8")


def _sentence(rng: random.Random, terms: list[str], cited: list[str]) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(12, 30))]
    if terms:
        words.insert(rng.randrange(len(words)), f"[[{rng.choice(terms)}]]")
    if cited:
        words.append(f"(see {rng.choice(cited)})")
    return " ".join(words).capitalize() + "."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--cards", type=int, default=50_000)
    parser.add_argument("--clauses", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--source", type=Path, default=REPO, help="project to copy from")
    parser.add_argument("--game", default=DEFAULT_GAME,
                        help=f"game to copy (default: {DEFAULT_GAME})")
    args = parser.parse_args()
    make_pool(args.out, cards=args.cards, clauses=args.clauses, seed=args.seed, source=args.source,
              game_id=args.game)
    print(f"wrote {args.cards} {args.game} cards and a {args.clauses}-clause rulebook under "
          f"{args.out}")


if __name__ == "__main__":
    main()
