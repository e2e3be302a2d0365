"""pytest plugin: every example in `rules/<game>/*.md` and in card files is its own test item,
so a rules document is both prose and test suite (`pytest -k damage-spills-down`). A card
file also gets one item that verifies the card against the examples of the abilities it
encodes.

Registered as a `pytest11` entry point; it only looks at files of a charnel project.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from charnel import examples
from charnel.diagnostics import Problems
from charnel.engine import outcomes
from charnel.records import GameRecords, Outcome

_loaded: dict[tuple[Path, str], tuple[GameRecords | None, Problems]] = {}


def _project_of(path: Path) -> tuple[Path, str] | None:
    """(root, game) when `path` is a rules document or a card file of a charnel project."""
    parts = path.parts
    if path.suffix == ".md" and len(parts) >= 3 and parts[-3] == "rules":
        root, game = path.parents[2], parts[-2]
    elif path.suffix == ".yaml" and len(parts) >= 4 and parts[-4] == "cards":
        root, game = path.parents[3], parts[-3]
    else:
        return None
    if not (root / "rules" / game / "game.yaml").is_file():
        return None
    return root, game


def _records(root: Path, game: str) -> tuple[GameRecords | None, Problems]:
    key = (root, game)
    if key not in _loaded:
        from charnel.sources import loader

        problems = Problems()
        records = loader.load(root, game, problems)
        _loaded[key] = (None if problems else records, problems)
    return _loaded[key]


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    found = _project_of(file_path)
    if found is not None:
        return ExampleFile.from_parent(parent, path=file_path, project=found)
    return None


class ExampleFile(pytest.File):
    def __init__(self, *, project: tuple[Path, str], **kwargs):
        super().__init__(**kwargs)
        self.project = project

    def collect(self):
        root, game_id = self.project
        records, problems = _records(*self.project)
        if records is None:
            shown = "\n".join(p.render(root) for p in problems)
            raise self.CollectError(f"{game_id} does not load:\n{shown}")
        rel = self.path.relative_to(root).as_posix()
        for example in records.examples:
            if example.origin.path == rel:
                yield ExampleItem.from_parent(
                    self,
                    name=example.id,
                    run=_example_run(example, records),
                    line=example.origin.line,
                    root=root,
                )
        checks = outcomes.checks(records.game, records)
        for card in records.cards:
            # a card whose game's engine finds abilities on it is verified against them
            if card.origin.path == rel and checks and checks.engine.abilities(card):
                yield ExampleItem.from_parent(
                    self,
                    name=f"verify-{card.slug}",
                    run=_card_run(card, records),
                    line=card.origin.line,
                    root=root,
                )


def _example_run(example, records):
    return lambda: [outcomes.run_example(records.game, example, records)]


def _card_run(card, records):
    return lambda: outcomes.verify_card(records.game, card, records)


class ExampleFailed(Exception):
    def __init__(self, outcomes: list[Outcome]):
        super().__init__(f"{len(outcomes)} failed")
        self.outcomes = outcomes


class ExampleItem(pytest.Item):
    def __init__(self, *, run, line: int, root: Path, **kwargs):
        super().__init__(**kwargs)
        self.run, self.line, self.root = run, line, root

    def runtest(self) -> None:
        failed = [o for o in self.run() if not o.passed]
        if failed:
            raise ExampleFailed(failed)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ExampleFailed):
            return "\n".join(
                examples.as_problem(o).render(self.root) for o in excinfo.value.outcomes
            )
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, self.line - 1, f"example {self.name}"
