"""YAML with positions: every key and value keeps the line and column it was written at.

PyYAML's C composer gives the node tree with marks; we build plain Python values from it and
keep a side table of positions, so validation errors can point into the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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


@dataclass
class Located:
    """A parsed YAML document and where each part of it was written."""

    value: Any
    origin: Origin
    positions: dict[Path_, tuple[int, int]] = field(default_factory=dict)

    def at(self, path: Path_, *, key: bool = False) -> Origin:
        """The origin of the value at `path` (or of its key), falling back to the nearest parent."""
        probe = (*path, KEY) if key else tuple(path)
        while True:
            if probe in self.positions:
                line, col = self.positions[probe]
                return self.origin.at(line, col)
            if not probe:
                return self.origin
            probe = probe[:-1]

    def sub(self, path: Path_) -> Located:
        """The part of this document at `path`, with positions relative to it."""
        n = len(path)
        positions = {p[n:]: v for p, v in self.positions.items() if p[:n] == tuple(path)}
        value = self.value
        for step in path:
            value = value[step]
        return Located(value, self.at(path), positions)


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
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line + 1 if mark else 1) + line_offset
        col = mark.column + 1 if mark else 1
        problems.add(origin.at(line, col), f"YAML syntax error: {exc.problem or exc.context}")
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
    doc = Located(
        None, origin.at(node.start_mark.line + 1 + line_offset, node.start_mark.column + 1)
    )
    try:
        doc.value = _build(node, (), doc, origin, problems, line_offset)
    except RecursionError:  # an alias that contains itself, or absurd nesting
        problems.add(doc.origin, "YAML nests too deeply (is an alias used inside itself?)")
        return None
    return doc


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


def _build(node, path, doc: Located, origin: Origin, problems: Problems, offset: int):
    positions = doc.positions
    mark = node.start_mark
    positions[path] = (mark.line + 1 + offset, mark.column + 1)
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node, origin, problems, offset)
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                key = key_node.value  # keys stay as written: "on", "yes", "3" are text
            key_pos = (key_node.start_mark.line + 1 + offset, key_node.start_mark.column + 1)
            if not isinstance(key_node, yaml.ScalarNode):
                key = f"<{key_node.id} at line {key_pos[0]}>"
                problems.add(
                    origin.at(*key_pos), "a key must be a plain value, not a list or mapping"
                )
            if key in out:
                problems.add(origin.at(*key_pos), f"duplicate key '{key}'")
            positions[(*path, key, KEY)] = key_pos
            out[key] = _build(value_node, (*path, key), doc, origin, problems, offset)
        return out
    return [
        _build(item, (*path, i), doc, origin, problems, offset) for i, item in enumerate(node.value)
    ]
