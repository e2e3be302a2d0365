"""YAML with positions: every key and value can say the line and column it was written at.

PyYAML's C composer gives the node tree with marks; we build plain Python values from it.
Positions are found only when asked for: they are needed only to point at a problem, which is
rare, and a table of them costs far more time and memory than the values (about 20 KB a card).
The first question about a position parses the document's text again for its table.
"""

from __future__ import annotations

import math
import os
import re
import stat
import sys
from typing import Any

import yaml

from charnel.diagnostics import Origin, Problems

try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader

# Limits on authored files (docs/security.md). Real files stay far below each of them.
MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 64  # nested lists and mappings
MAX_VALUES = 100_000  # values in one document, aliases expanded
MAX_ALIASES = 1_000  # uses of an anchor in one document
MAX_INT = 2**63 - 1  # SQLite's integers
# C0 controls but tab, line feed and carriage return; DEL; C1 controls. They print nothing,
# and an escape sequence in a file would drive the terminal that shows a problem.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

Path_ = tuple[Any, ...]
KEY = "<key>"


class _Table:
    """Positions of a whole document by path: given, or found from its text on first use (or
    from its file's, for a document the load did not read: see `Located.from_file`)."""

    __slots__ = ("_found", "_text", "_offset", "_file")

    def __init__(self, found: dict | None, text: str = "", offset: int = 0,
                 file: str | os.PathLike | None = None):
        self._found, self._text, self._offset, self._file = found, text, offset, file

    def get(self) -> dict[Path_, tuple[int, int]]:
        if self._found is None:
            if self._file is None:
                self._found = _positions(self._text, self._offset)
            else:
                self._found = _positions_of(self._file)
            self._text, self._file = "", None
        return self._found


def _positions_of(path: str | os.PathLike) -> dict[Path_, tuple[int, int]]:
    """The positions in a file whose document was kept from an earlier load (its bytes
    unchanged since); none, so places fall back to the document's, if it no longer parses."""
    quiet = Problems()
    raw = read_file(path, "", quiet)
    text = read_text("", raw, quiet) if raw is not None else None
    try:
        return _positions(text, 0) if text is not None else {}
    except yaml.YAMLError:
        return {}


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

    @classmethod
    def from_file(cls, value: Any, origin: Origin, path: str | os.PathLike) -> Located:
        """A document kept from an earlier load of a file that has not changed since: its
        positions are found from the file's text when first asked for."""
        return cls(value, origin, table=_Table(None, file=path))

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


def read_file(path: os.PathLike | str, shown: str, problems: Problems) -> bytes | None:
    """The bytes of an authored file; a FIFO, a device, a folder, an oversize or unreadable
    file is a problem, found without waiting on it or reading it whole."""
    origin = Origin(shown)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        problems.add(origin, "file is missing")
        return None
    except OSError as exc:
        problems.add(origin, f"cannot read file: {exc.strerror}")
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            problems.add(origin, f"not a regular file ({_file_kind(info.st_mode)}); not read")
            return None
        if info.st_size > MAX_BYTES:
            _too_big(origin, info.st_size, problems)
            return None
        data = os.read(fd, info.st_size + 1)
        while len(data) > info.st_size and len(data) <= MAX_BYTES:  # it grew meanwhile
            more = os.read(fd, MAX_BYTES + 1 - len(data))
            if not more:
                break
            data += more
        return data
    except OSError as exc:
        problems.add(origin, f"cannot read file: {exc.strerror}")
        return None
    finally:
        os.close(fd)


def _file_kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a file"


def _too_big(origin: Origin, size: int, problems: Problems) -> None:
    problems.add(
        origin,
        f"file is {size / 1_048_576:.1f} MB; authored files are limited to "
        f"{MAX_BYTES // 1_048_576} MB",
    )


def read_text(path: str, raw: bytes, problems: Problems) -> str | None:
    """Decode an authored file, reporting oversize, non-UTF-8 input and control characters
    at their exact place."""
    origin = Origin(path)
    if len(raw) > MAX_BYTES:
        _too_big(origin, len(raw), problems)
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        problems.add(
            origin.at(line, col),
            f"file is not UTF-8 (byte 0x{raw[exc.start]:02x}); save it as UTF-8",
        )
        return None
    if CONTROL.search(text):
        for m in list(CONTROL.finditer(text))[:10]:
            before = text[: m.start()]
            line = before.count("\n") + 1
            col = m.start() - (before.rfind("\n") + 1) + 1
            problems.add(origin.at(line, col), f"control character {_name(m[0])} is not allowed")
        return None
    return text


def _name(char: str) -> str:
    return f"U+{ord(char):04X}"


def deeper_than(text: str, limit: int) -> int | None:
    """The line of the first place `text` nests lists and mappings deeper than `limit`, or
    None. libyaml's composer recurses in C and crashes the process on deep input, so depth is
    measured on its tokens (no recursion) first, when a quick look says it could be deep."""
    if text.count("[") + text.count("{") <= limit and not _INDENTED.search(text):
        return None
    depth = 0
    try:
        for token in yaml.scan(text, Loader=_Loader):
            if isinstance(token, _OPEN):
                depth += 1
                if depth > limit:
                    return token.start_mark.line + 1
            elif isinstance(token, _CLOSE):
                depth -= 1
    except yaml.YAMLError:
        return None  # the parser reports it, with its place
    return None


_OPEN = (
    yaml.BlockMappingStartToken,
    yaml.BlockSequenceStartToken,
    yaml.FlowMappingStartToken,
    yaml.FlowSequenceStartToken,
)
_CLOSE = (yaml.BlockEndToken, yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)
# Block nesting needs indentation (or '- - -'): one level per column at most, two with
# sequences written at their key's column.
_INDENTED = re.compile(rf"^[ ?:-]{{{MAX_DEPTH // 2}}}", re.M)


def parse(text: str, origin: Origin, problems: Problems, *, line_offset: int = 0) -> Located | None:
    """Parse one YAML document; syntax errors, duplicate keys and input beyond the limits
    become problems."""
    deep = deeper_than(text, MAX_DEPTH)
    if deep is not None:
        problems.add(
            origin.at(deep + line_offset), f"YAML nests deeper than {MAX_DEPTH} lists and mappings"
        )
        return None
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
    budget = _Budget()
    try:
        value = _build(node, origin, problems, line_offset, budget)
    except RecursionError:  # an alias that contains itself, or absurd nesting
        problems.add(root, "YAML nests too deeply (is an alias used inside itself?)")
        return None
    except _OverBudget as exc:
        problems.add(origin.at(exc.line + line_offset, exc.col), exc.message)
        return None
    return Located.from_text(value, root, text, line_offset)


class _OverBudget(Exception):
    def __init__(self, node, message: str):
        super().__init__(message)
        self.message = message
        self.line, self.col = node.start_mark.line + 1, node.start_mark.column + 1


class _Budget:
    """What one document may expand to: an alias is built again each time it is used, so
    ten aliases of ten aliases of ... grow a short file into millions of values."""

    __slots__ = ("values", "seen", "aliases")

    def __init__(self):
        self.values = 0
        self.seen: set[int] = set()
        self.aliases = 0

    def collection(self, node) -> None:
        key = id(node)
        if key in self.seen:  # the composer gives every use of an anchor the same node
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise _OverBudget(node, f"YAML uses aliases more than {MAX_ALIASES} times")
        else:
            self.seen.add(key)
        self.count(node, len(node.value))

    def count(self, node, n: int) -> None:
        self.values += n
        if self.values > MAX_VALUES:
            raise _OverBudget(
                node, f"YAML holds more than {MAX_VALUES:,} values (aliases expanded)"
            )


_constructor = yaml.constructor.SafeConstructor()
_SCALARS = yaml.constructor.SafeConstructor.yaml_constructors
_STR = "tag:yaml.org,2002:str"


def _scalar(node, origin: Origin, problems: Problems, offset: int):
    # Scalars are built by tag directly: most are plain strings, and going through
    # construct_object would also keep every node in the constructor's cache.
    if node.tag == _STR:
        if node.style == '"' and CONTROL.search(node.value):  # made by an escape (\e, \x1b)
            where = origin.at(node.start_mark.line + 1 + offset, node.start_mark.column + 1)
            char = CONTROL.search(node.value)[0]
            problems.add(where, f"control character {_name(char)} is not allowed")
            return None
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
    if type(value) is int and not -MAX_INT - 1 <= value <= MAX_INT:
        where = origin.at(node.start_mark.line + 1 + offset, node.start_mark.column + 1)
        problems.add(where, "number out of range: whole numbers are at most 2**63 - 1")
        return None
    if type(value) is float and not math.isfinite(value):
        where = origin.at(node.start_mark.line + 1 + offset, node.start_mark.column + 1)
        problems.add(where, f"number out of range: {node.value!r} is not a finite number")
        return None
    return value


def _key(key_node, offset: int):
    if isinstance(key_node, yaml.ScalarNode):
        # keys stay as written: "on", "yes", "3" are text; interned, every card's "name" is
        # one string, which a worker sends once per chunk and the records keep once
        return sys.intern(key_node.value)
    return f"<{key_node.id} at line {key_node.start_mark.line + 1 + offset}>"


def _build(node, origin: Origin, problems: Problems, offset: int, budget: _Budget):
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node, origin, problems, offset)
    budget.collection(node)
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
            out[key] = _build(value_node, origin, problems, offset, budget)
        return out
    return [_build(item, origin, problems, offset, budget) for item in node.value]


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
