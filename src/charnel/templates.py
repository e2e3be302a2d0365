"""Where the jinja2 templates are: site_templates/ beside the source in a checkout (an
editable install), or the copy a built wheel carries inside the package (see setup.py)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import charnel

NAME = "site_templates"


@cache
def root() -> Path:
    package = Path(charnel.__file__).resolve().parent
    checkout = package.parents[1] / NAME
    return checkout if checkout.is_dir() else package / NAME
