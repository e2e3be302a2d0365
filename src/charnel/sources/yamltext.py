"""YAML with positions: every key and value can say the line and column it was written at.

PyYAML's C composer gives the node tree with marks; we build plain Python values from it.
Positions are found only when asked for: they are needed only to point at a problem, which is
rare, and a table of them costs far more time and memory than the values (about 20 KB a card).
The first question about a position parses the document's text again for its table.
"""

from __future__ import annotations

import sys
from typing import Any

import yaml

from charnel.diagnostics import Origin, Problems

try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader

MAX_BYTES = 2 * 1024 * 1024

Path_ = tuple[Any, ...]
KEY = "<key>"


class _Table:
    """Positions of a whole document by path: given, or found from its text on first use."""

    __slots__ = ("_found", "_text", "_offset")

    def __init__(self, found: dict | None, text: str = "", offset: int = 0):
        self._found, self._text, self._offset = found, text, offset

    def get(self) -> dict[Path_, tuple[int, int]]:
        if self._found is None:
            self._found = _positions(self._text, self._offset)
            self._text = ""
        return self._found


class Located:
    """A parsed YAML document, or a part of one, and where each part of it was written."""

    __slots__ = ("value", "_origin", "_table", "_base", "_parent")

    def __init__(
        self,
        value: Any,
        origin: Origin | None,
        positions: dict[Path_, tuple[int, int]] | None = None,
        *,
        table: _Table | None = None,
        base: Path_ = (),
        parent: Located | None = None,
    ):
        self.value = value
        self._origin = origin
        self._table = table if table is not None else _Table(positions or {})
        self._base = base  # where this part sits in the whole document
        self._parent = parent  # for a part: where its own origin is found

    @classmethod
    def from_text(cls, value: Any, origin: Origin, text: str, line_offset: int = 0) -> Located:
        """A document whose positions are found from `text` when first asked for."""
        return cls(value, origin, table=_Table(None, text, line_offset))

    @property
    def origin(self) -> Origin:
        if self._origin is None:  # a part: its origin is its place in the whole
            self._origin = self._parent.at(self._base[len(self._parent._base) :])
        return self._origin

    @property
    def positions(self) -> dict[Path_, tuple[int, int]]:
        """The positions inside this part, by path relative to it."""
        n, base = len(self._base), self._base
        return {p[n:]: v for p, v in self._table.get().items() if p[:n] == base}

    def at(self, path: Path_, *, key: bool = False) -> Origin:
        """The origin of the value at `path` (or of its key), falling back to the nearest parent."""
        if not path and not key:
            return self.origin  # the commonest question needs no table
        probe = (*self._base, *path, KEY) if key else (*self._base, *path)
        positions, n = self._table.get(), len(self._base)
        while len(probe) >= n:
            if probe in positions:
                line, col = positions[probe]
                return self.origin.at(line, col)
            if len(probe) == n:
                break
            probe = probe[:-1]
        return self.origin

    def sub(self, path: Path_) -> Located:
        """The part of this document at `path`; its positions are asked of the whole."""
        value = self.value
        for step in path:
            value = value[step]
        return Located(value, None, table=self._table, base=(*self._base, *path), parent=self)


def read_text(path: str, raw: bytes, problems: Problems) -> str | None:
    """Decode an authored file, reporting oversize and non-UTF-8 input at its exact place."""
    origin = Origin(path)
    if len(raw) > MAX_BYTES:
        problems.add(
            origin,
            f"file is {len(raw) / 1_048_576:.1f} MB; authored files are limited to "
            f"{MAX_BYTES // 1_048_576} MB",
        )
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        problems.add(
            origin.at(line, col),
            f"file is not UTF-8 (byte 0x{raw[exc.start]:02x}); save it as UTF-8",
        )
        return None


def parse(text: str, origin: Origin, problems: Problems, *, line_offset: int = 0) -> Located | None:
    """Parse one YAML document; syntax errors and duplicate keys become problems."""
    try:
        node = yaml.compose(text, Loader=_Loader)
    except RecursionError:
        problems.add(origin.at(1 + line_offset), "YAML nests too deeply")
        return None
    except yaml.MarkedYAMLError as exc:
        mark, context = exc.problem_mark or exc.context_mark, exc.context_mark
        message = exc.problem or exc.context
        if exc.problem and context is not None and context is not mark:
            message += f" ({exc.context} that starts at line {context.line + 1 + line_offset})"
            if mark.line >= text.count("\n") + (not text.endswith("\n")):
                mark = context  # the problem is the end of the file: show where it began
        line = (mark.line + 1 if mark else 1) + line_offset
        col = mark.column + 1 if mark else 1
        problems.add(origin.at(line, col), f"YAML syntax error: {message}")
        return None
    except yaml.reader.ReaderError as exc:
        # a character YAML does not allow: the error knows its offset, not its line
        before = text[: exc.position]
        line = before.count("\n") + 1 + line_offset
        col = exc.position - (before.rfind("\n") + 1) + 1
        problems.add(
            origin.at(line, col), f"YAML syntax error: character {exc.character!r} is not allowed"
        )
        return None
    except yaml.YAMLError as exc:
        problems.add(origin.at(1 + line_offset), f"YAML error: {exc}")
        return None
    if node is None:
        return Located(None, origin.at(1 + line_offset))
    root = origin.at(node.start_mark.line + 1 + line_offset, node.start_mark.column + 1)
    try:
        value = _build(node, origin, problems, line_offset)
    except RecursionError:  # an alias that contains itself, or absurd nesting
        problems.add(root, "YAML nests too deeply (is an alias used inside itself?)")
        return None
    return Located.from_text(value, root, text, line_offset)


_constructor = yaml.constructor.SafeConstructor()
_SCALARS = yaml.constructor.SafeConstructor.yaml_constructors
_STR = "tag:yaml.org,2002:str"


def _scalar(node, origin: Origin, problems: Problems, offset: int):
    # Scalars are built by tag directly: most are plain strings, and going through
    # construct_object would also keep every node in the constructor's cache.
    if node.tag == _STR:
        return node.value
    build = _SCALARS.get(node.tag)
    if build is None or node.tag == "tag:yaml.org,2002:binary":
        where = origin.at(node.start_mark.line + 1 + offset, node.start_mark.column + 1)
        problems.add(where, f"unsupported YAML tag '{node.tag}'")
        return None
    try:
        value = build(_constructor, node)
    except (yaml.constructor.ConstructorError, ValueError) as exc:
        where = origin.at(node.start_mark.line + 1 + offset, node.start_mark.column + 1)
        problems.add(where, f"YAML value error: {getattr(exc, 'problem', None) or exc}")
        return None
    if hasattr(value, "isoformat"):
        return value.isoformat()  # dates stay text: records store ISO dates
    return value


def _key(key_node, offset: int):
    if isinstance(key_node, yaml.ScalarNode):
        # keys stay as written: "on", "yes", "3" are text; interned, every card's "name" is
        # one string, which a worker sends once per chunk and the records keep once
        return sys.intern(key_node.value)
    return f"<{key_node.id} at line {key_node.start_mark.line + 1 + offset}>"


def _build(node, origin: Origin, problems: Problems, offset: int):
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node, origin, problems, offset)
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _key(key_node, offset)
            if key in out or not isinstance(key_node, yaml.ScalarNode):
                mark = key_node.start_mark
                where = origin.at(mark.line + 1 + offset, mark.column + 1)
                if not isinstance(key_node, yaml.ScalarNode):
                    problems.add(where, "a key must be a plain value, not a list or mapping")
                if key in out:
                    problems.add(where, f"duplicate key '{key}'")
            out[key] = _build(value_node, origin, problems, offset)
        return out
    return [_build(item, origin, problems, offset) for item in node.value]


def _positions(text: str, offset: int) -> dict[Path_, tuple[int, int]]:
    """The position of every value and key of a document that parsed before."""
    found: dict[Path_, tuple[int, int]] = {}
    node = yaml.compose(text, Loader=_Loader)
    if node is not None:
        _walk(node, (), found, offset)
    return found


def _walk(node, path: Path_, found: dict, offset: int) -> None:
    mark = node.start_mark
    found[path] = (mark.line + 1 + offset, mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = _key(key_node, offset)
            mark = key_node.start_mark
            found[(*path, key, KEY)] = (mark.line + 1 + offset, mark.column + 1)
            _walk(value_node, (*path, key), found, offset)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _walk(item, (*path, i), found, offset)
