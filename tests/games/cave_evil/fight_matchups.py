"""The shared fight matchups (fixtures/fight-matchups.yaml), read once for every path that
runs them, and what each refusal the list names says wherever it is given."""

from __future__ import annotations

from pathlib import Path

import yaml

FIXTURE = Path(__file__).parent / "fixtures" / "fight-matchups.yaml"
MATCHUPS = yaml.safe_load(FIXTURE.read_text())["matchups"]
IDS = [
    f"{m['attacker']} v {m['defender']} {' '.join(m.get('modes', []))}".strip() for m in MATCHUPS
]
REFUSALS = {
    "squad-full": "(rule 8.2a)",
    "cannot-carry": "(rules 3.4a, 8.3a)",
    "no-creature": "a squad holds at least one creature",
    "no-rip-apart": "(the Attacktite) fights each creature separately (rule 11.4c)",
    "separately-alone": "only alone, against one squad, not at range (rule 11.4c)",
    "no-ranged": "a ranged attack needs a creature with a ranged ability (rule 12.2b)",
    "ranged-flank": "a squad attacked at range gets no flanking squads (rule 12.2h)",
}
