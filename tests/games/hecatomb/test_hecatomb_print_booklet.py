"""Hecatomb's printed rulebooks, as the first build of the bundled project leaves them: a
booklet of rules that are a later release says what changed since the one before, and the
compact booklet, mostly examples in the full one, is under half its pages."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader
from test_print_documents import contents_page, first_body_page, pages, words

GAME = "hecatomb"

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")


def printed(bundled_build: Path, name: str) -> Path:
    path = bundled_build / "build" / "print" / name
    assert path.exists(), f"{name} was not written"
    return path


def test_the_booklet_says_what_changed_since_the_previous_release(bundled_build: Path):
    for name in (f"{GAME}-rules.pdf", f"{GAME}-rules-compact.pdf"):
        path = printed(bundled_build, name)
        texts = pages(path)
        body = "\n".join(texts[first_body_page(texts):])
        start = contents_page(pages(path, layout=True), "What changed since 1.0")
        page = texts[start - 1]
        assert re.search(words("What changed since 1.0"), page), name
        assert re.search(words("14.13b → 14.13c renumbered"), body, re.I)
        assert re.search(words("The Sunken Bell functional erratum"), body, re.I)
        assert re.search(words("Pay the Ferryman erratum, not functional"), body, re.I)
        assert re.search(words('effects[0].on: "end_of_turn" -> "end_of_your_turn"'), body)


def test_the_compact_booklet_is_under_half_the_full_one(bundled_build: Path):
    full = PdfReader(printed(bundled_build, f"{GAME}-rules.pdf"))
    compact = PdfReader(printed(bundled_build, f"{GAME}-rules-compact.pdf"))
    assert len(compact.pages) < len(full.pages) / 2
