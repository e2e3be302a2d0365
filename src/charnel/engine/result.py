"""What running one example gives: whether it passed, why not, and where in the example."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class RunResult:
    passed: bool
    message: str = ""
    diff: list[str] = field(default_factory=list)
    path: tuple = ()  # where in the example body the problem is
    broken: bool = False  # the example itself is wrong, not the rules
    key: bool = False  # point at the key at `path` rather than its value
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
