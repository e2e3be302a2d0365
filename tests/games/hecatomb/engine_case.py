"""Shared by the engine tests: the bundled project's records and running example files."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

from charnel import example_language, examples, registry
from charnel.diagnostics import Problems
from charnel.engine import outcomes
from charnel.records import Example, GameRecords, Outcome
from charnel.sources import loader

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]


@lru_cache(maxsize=1)
def records() -> GameRecords:
    problems = Problems()
    found = loader.load(REPO, "hecatomb", problems)
    assert found is not None and not problems, [p.render(REPO) for p in problems]
    return found


def engine():
    """Hecatomb's engine over the bundled records (the one the core runner keeps on them)."""
    from charnel.engine import outcomes

    return outcomes.checks(registry.get("hecatomb"), records()).engine


def examples_in(rel: str) -> list[Example]:
    """The examples of a file, by its path from the repository's root."""
    problems = Problems()
    found = example_language.read_file(REPO / rel, rel, problems)
    assert not problems, [p.render(REPO) for p in problems]
    return found


def run(example: Example) -> Outcome:
    return outcomes.run_example(registry.get("hecatomb"), example, records())


def run_text(text: str) -> Outcome:
    """Run one example written inline (YAML)."""
    body = yaml.safe_load(text)
    example = Example(body["id"], body["title"], "file", "<test>", body, text,
                      example_language.yamltext.Located(body, example_language.Origin("<test>")))
    return run(example)


def explain(outcome: Outcome) -> str:
    return examples.as_problem(outcome).render(REPO)
