"""Chances in a reader's words: as players say them ("about 2 in 3 (67%)"), as whole
percentages, and expected amounts to two places, each exact (halves rounded up) from the
fraction. The report puts them in its data, so the calculator page shows them and never
words a number itself."""

from __future__ import annotations

import math
from fractions import Fraction


def percent(p: Fraction) -> str:
    """`p` as a whole percentage, halves up; never 0% or 100% for what is not certain."""
    n = math.floor(p * 100 + Fraction(1, 2))
    if 0 < p < 1:
        n = min(99, max(1, n))
    return f"{n}%"


def said(p: Fraction) -> str:
    """A chance as players say it: 'about 2 in 3 (67%)', the simplest 'n in m' within two
    points, '1 in 25' for a long shot, '24 in 25' for a near certainty, 'almost certain (99%)'
    beyond."""
    if p in (0, 1):
        return "never (0%)" if p == 0 else "certain (100%)"
    if not Fraction(1, 100) < p < Fraction(99, 100):
        return f"almost {'never' if p < Fraction(1, 2) else 'certain'} ({percent(p)})"
    for m in range(2, 11):
        n = math.floor(p * m + Fraction(1, 2))
        if 0 < n < m and abs(p - Fraction(n, m)) <= Fraction(2, 100):
            return f"{'' if p == Fraction(n, m) else 'about '}{n} in {m} ({percent(p)})"
    if p < Fraction(1, 2):
        return f"about 1 in {math.floor(1 / p + Fraction(1, 2))} ({percent(p)})"
    m = math.floor(1 / (1 - p) + Fraction(1, 2))
    return f"about {m - 1} in {m} ({percent(p)})"


def two_places(p: Fraction) -> str:
    n = math.floor(p * 100 + Fraction(1, 2))
    return f"{n // 100}.{n % 100:02d}"
