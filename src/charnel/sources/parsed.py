"""Parsed card files kept between builds, keyed by the bytes they were parsed from.

Composing YAML is most of a load; a build after a one-card edit parses that card alone and
takes every other card's values from the last build's. An entry is a file's content hash
and the plain value it parsed to (only files that parsed without a problem are kept), so a
file is parsed again when its bytes changed. A store that differs from the pool by a few files
is not written again (`worth_writing`): those few are parsed by each build until it is. The
whole store is dropped when charnel's
version or the parser's code changes. It is read with an unpickler that builds nothing but
plain values and dates: a store that holds anything else is ignored, not trusted.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from charnel import __version__, kept

_PARSER_CODE = ("yamltext.py", "parallel.py", "parsed.py")
# Writing the store again costs what the whole pool does (half a second at 50,000 cards);
# parsing a file again costs a millisecond. A build whose files differ from the store's by no
# more than this leaves the store as it is, and the next build parses those few again.
_FEW = 64


def _stamp() -> str:
    digest = hashlib.sha256(f"charnel {__version__}\n".encode())
    for name in _PARSER_CODE:
        digest.update((Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()


def read(path: Path) -> dict[str, Any]:
    """content hash -> parsed value, from the store at `path`; empty when there is none or it
    is of another version, damaged or not plain."""
    data = kept.read(path, _stamp())
    return data if isinstance(data, dict) else {}


def dumps(values: dict[str, Any]) -> bytes:
    """The store for `values` (content hash -> parsed value), in a fixed order."""
    return kept.dumps(_stamp(), dict(sorted(values.items())))


def worth_writing(stored: set[str], values: dict[str, Any]) -> bool:
    """Whether the store should be written again for `values`, having held `stored` (its
    keys): when they differ by more than a few entries."""
    return (not stored and bool(values)) or len(stored.symmetric_difference(values)) > _FEW
