"""Pagefind output rewritten so its bytes depend only on the pages indexed.

Pagefind writes each filter's values, and the metadata's list of filters, in the order of a
Rust hash map, which a per-process random seed decides (Pagefind issue #638). Its files are
named by a hash of their bytes, so with the same pages every run gives other filter files,
another metadata file naming them and an entry file naming that. It also numbers pages in
the order it finds their files, which is the filesystem's directory order. `canonicalize`
sorts both lists, numbers the pages in the order of their fragment hashes (renumbering the
word index and the filters to match) and renames the files it rewrote by a hash of their new
bytes; everything else Pagefind writes (the fragments above all) is already the same.

The files are gzip(b"pagefind_dcd" + CBOR). Pagefind's CBOR is definite-length integers, text
strings and arrays with minimal-length heads, which is all the small codec here reads and
writes: anything else is refused, so a change of format fails the build instead of leaving an
index the browser cannot read.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
from pathlib import Path

from charnel.site import parallel

SIGNATURE = b"pagefind_dcd"
ENTRY = "pagefind-entry.json"
PAGES, CHUNKS, FILTERS, SORTS = 1, 2, 3, 4  # metadata fields: [page hash, words] per page,
# [first word, last word, file hash] per word index chunk, [filter, file hash], sorts
FILTER_HASH, INDEX_HASH, META_HASH = 7, 7, 10  # hex digits in the names, as Pagefind's
_TEXT, _ARRAY, _UINT, _NINT = 3, 4, 0, 1
_SIZES = {24: 1, 25: 2, 26: 4, 27: 8}


class SearchIndexError(RuntimeError):
    """The search index could not be made (Pagefind failed) or made reproducible."""


def decode(data: bytes) -> int | str | list:
    """The one CBOR value that is all of `data`; ValueError for anything else."""
    value, end = _decode(data, 0)
    if end != len(data):
        raise ValueError(f"{len(data) - end} bytes after the CBOR value")
    return value


def _decode(data: bytes, at: int) -> tuple[int | str | list, int]:
    if at >= len(data):
        raise ValueError("CBOR ends inside a value")
    major, info = data[at] >> 5, data[at] & 31
    at += 1
    if info < 24:
        arg = info
    elif info in _SIZES:
        size = _SIZES[info]
        if at + size > len(data):
            raise ValueError("CBOR ends inside a head")
        arg, at = int.from_bytes(data[at:at + size], "big"), at + size
    else:
        raise ValueError(f"CBOR head {data[at - 1]:#04x}: indefinite length or reserved")
    if major == _UINT:
        return arg, at
    if major == _NINT:
        return -1 - arg, at
    if major == _TEXT:
        if at + arg > len(data):
            raise ValueError("CBOR ends inside a text string")
        return data[at:at + arg].decode("utf-8"), at + arg
    if major == _ARRAY:
        items = []
        for _ in range(arg):
            item, at = _decode(data, at)
            items.append(item)
        return items, at
    raise ValueError(f"CBOR major type {major} (only integers, text and arrays are expected)")


def encode(value: int | str | list | tuple) -> bytes:
    """`value` as CBOR with minimal-length heads, the way Pagefind writes it."""
    out = bytearray()
    _encode(value, out)
    return bytes(out)


def _encode(value, out: bytearray) -> None:
    if isinstance(value, bool) or not isinstance(value, int | str | list | tuple):
        raise ValueError(f"cannot write {type(value).__name__} as Pagefind's CBOR")
    if isinstance(value, int) and value >= 0:
        _head_into(_UINT, value, out)
    elif isinstance(value, int):
        _head_into(_NINT, -1 - value, out)
    elif isinstance(value, str):
        raw = value.encode("utf-8")
        _head_into(_TEXT, len(raw), out)
        out += raw
    else:
        _head_into(_ARRAY, len(value), out)
        for item in value:
            _encode(item, out)


def _head_into(major: int, arg: int, out: bytearray) -> None:
    if arg < 24:
        out.append(major << 5 | arg)
        return
    for info, size in _SIZES.items():
        if arg < 1 << 8 * size:
            out.append(major << 5 | info)
            out += arg.to_bytes(size, "big")
            return
    raise ValueError(f"integer {arg} does not fit a CBOR head")


def canonicalize(bundle: Path) -> None:
    """Rewrite the Pagefind output folder `bundle` in place: filter values and the filter
    list in sorted order, the rewritten files named by a hash of their new bytes."""
    entry_path = bundle / ENTRY
    text = _text(entry_path)
    try:
        entry = json.loads(text)
    except ValueError as exc:
        _refuse(f"{entry_path}: {exc}")
    if _json(entry) != text:  # written back below; another layout would change its bytes
        _refuse(f"{entry_path}: not compact JSON as Pagefind writes it")
    languages = entry.get("languages") if isinstance(entry, dict) else None
    if not isinstance(languages, dict) or not all(
        isinstance(info, dict) and isinstance(info.get("hash"), str)
        for info in languages.values()
    ):
        _refuse(f"{entry_path}: no languages with a metadata hash")

    # Read and check everything before changing anything.
    filter_dir, index_dir = bundle / "filter", bundle / "index"
    metas: dict[str, tuple[Path, list]] = {}
    filters: dict[str, list[tuple[Path, bytes]]] = {}  # language -> [(old path, new bytes)]
    chunks: dict[str, list[tuple[Path, bytes]]] = {}  # language -> [(old path, new bytes)]
    for language, info in languages.items():
        meta_path = bundle / f"pagefind.{info['hash']}.pf_meta"
        meta = _read(meta_path)
        pairs = meta[FILTERS] if isinstance(meta, list) and len(meta) > FILTERS else None
        if not isinstance(pairs, list) or not all(_is_pair(pair) for pair in pairs):
            _refuse(f"{meta_path}: field {FILTERS} is not a list of [filter, file hash]")
        number = _renumber(meta_path, meta)
        metas[language] = meta_path, meta
        filters[language] = []
        for name, file_hash in pairs:
            path = filter_dir / f"{file_hash}.pf_filter"
            filters[language].append((path, _pack(_sorted_filter(path, name, number))))
        paths = [index_dir / f"{file_hash}.pf_index" for _first, _last, file_hash in meta[CHUNKS]]
        # the largest part of the work, and each chunk on its own: spread over the cores
        renumbered = parallel.render_all(functools.partial(_renumbered_chunk, number=number),
                                         paths, batch=4, threshold=8)
        chunks[language] = list(zip(paths, renumbered, strict=True))
    for folder, found in ((filter_dir, filters), (index_dir, chunks)):
        named = {path.name for paths in found.values() for path, _ in paths}
        present = {p.name for p in folder.iterdir()} if folder.is_dir() else set()
        stray = sorted(present - named)
        if stray:
            _refuse(f"{folder}: files no metadata names: {', '.join(stray)}")

    for meta_path, _ in metas.values():
        meta_path.unlink()
    for found in (*filters.values(), *chunks.values()):
        for path, _ in found:
            path.unlink(missing_ok=True)  # two metadata files may name one file
    # In sorted order, so that which of two files whose hashes clash gets the longer name
    # does not depend on Pagefind's order either.
    for language in sorted(metas):
        meta_path, meta = metas[language]
        rewritten = sorted(
            (name, old, data)
            for (old, data), (name, _) in zip(filters[language], meta[FILTERS], strict=True)
        )
        meta[FILTERS] = [
            [name, _write(filter_dir, _prefix(old.stem), data, FILTER_HASH, "", ".pf_filter")]
            for name, old, data in rewritten
        ]
        meta[CHUNKS] = [
            [first, last, _write(index_dir, _prefix(old.stem), data, INDEX_HASH, "", ".pf_index")]
            for (first, last, _), (old, data) in zip(meta[CHUNKS], chunks[language], strict=True)
        ]
        old_hash = meta_path.name.removeprefix("pagefind.").removesuffix(".pf_meta")
        languages[language]["hash"] = _write(bundle, _prefix(old_hash), _pack(meta),
                                             META_HASH, "pagefind.", ".pf_meta")
    # The languages are a hash map in Pagefind too; the other keys keep Pagefind's order.
    entry["languages"] = dict(sorted(languages.items()))
    entry_path.write_bytes(_json(entry).encode("utf-8"))


def _renumber(meta_path: Path, meta: list) -> dict[int, int]:
    """Put the metadata's pages in the order of their fragment hashes; returns old page
    number -> new."""
    pages, chunk_list = meta[PAGES], meta[CHUNKS]
    if not (isinstance(pages, list) and all(
        isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) and isinstance(p[1], int)
        for p in pages
    )):
        _refuse(f"{meta_path}: field {PAGES} is not a list of [page hash, word count]")
    if not (isinstance(chunk_list, list) and all(
        isinstance(c, list) and len(c) == 3 and all(isinstance(x, str) for x in c)
        for c in chunk_list
    )):
        _refuse(f"{meta_path}: field {CHUNKS} is not a list of [first, last, file hash]")
    if meta[SORTS] != []:  # sort files hold page numbers too; charnel's pages have no sorts
        _refuse(f"{meta_path}: sorts are not expected")
    order = sorted(range(len(pages)), key=lambda i: pages[i])
    meta[PAGES] = [pages[i] for i in order]
    return {old: new for new, old in enumerate(order)}


def _renumbered_chunk(path: Path, number: dict[int, int]) -> bytes:
    """A word index chunk, [[[word, [[page, locations, more], ...], []], ...]], with its page
    numbers renumbered, as gzipped bytes. Each word's first page number is absolute, the
    others are the difference from the one before, so each word's pages are put in order
    again and re-encoded. Only the words and page numbers are decoded: each page's other two
    items are copied as bytes (they are most of the chunk, and decoding them is slow)."""
    data = _unpacked(path)
    try:
        out = bytearray(SIGNATURE)
        at = _expect(data, len(SIGNATURE), _ARRAY, 1, path)
        _, words, at = _head(data, at)
        out += _head_bytes(_ARRAY, 1) + _head_bytes(_ARRAY, words)
        for _ in range(words):
            at = _expect(data, at, _ARRAY, 3, path)
            word_start = at
            major, size, at = _head(data, at)
            if major != _TEXT:
                _refuse(f"{path}: a word is not text")
            at += size
            out += _TRIPLE + data[word_start:at]
            major, count, at = _head(data, at)
            if major != _ARRAY:
                _refuse(f"{path}: a word's pages are not a list")
            page, pages = 0, []
            for _ in range(count):
                if data[at] != _TRIPLE_HEAD:
                    at = _expect(data, at, _ARRAY, 3, path)  # refuses
                major, delta, at = _head(data, at + 1)
                if major != _UINT:
                    _refuse(f"{path}: a page number is not a number")
                page += delta
                if page not in number:
                    _refuse(f"{path}: page {page} is not in the metadata")
                rest = at
                at = _skip(data, _skip(data, at))
                pages.append((number[page], data[rest:at]))
            pages.sort(key=lambda p: p[0])
            out += _head_bytes(_ARRAY, count)
            before = 0
            for new_page, rest in pages:
                delta = new_page - before
                out += _TRIPLE + (_SMALL_UINT[delta] if delta < 24 else _head_bytes(_UINT, delta))
                out += rest
                before = new_page
            at = _expect(data, at, _ARRAY, 0, path)
            out += _EMPTY
        if at != len(data):
            _refuse(f"{path}: {len(data) - at} bytes after the word index")
    except (IndexError, ValueError) as exc:
        _refuse(f"{path}: {exc}")
    return _zipped(bytes(out))


def _head(data: bytes, at: int) -> tuple[int, int, int]:
    """(major type, argument, offset after the head) of the CBOR item at `at`."""
    major, info = data[at] >> 5, data[at] & 31
    if info < 24:
        return major, info, at + 1
    size = _SIZES.get(info)
    if size is None:
        raise ValueError(f"CBOR head {data[at]:#04x}: indefinite length or reserved")
    return major, int.from_bytes(data[at + 1:at + 1 + size], "big"), at + 1 + size


def _skip(data: bytes, at: int) -> int:
    """The offset after the CBOR item at `at` (integers, text and arrays)."""
    # _head inlined, and an integer's value not read: this loop is most of the renumbering
    left, sizes = 1, _SIZES
    while left:
        byte = data[at]
        major, arg = byte >> 5, byte & 31
        at += 1
        if arg >= 24:
            size = sizes.get(arg)
            if size is None:
                raise ValueError(f"CBOR head {byte:#04x}: indefinite length or reserved")
            if major == _ARRAY or major == _TEXT:
                arg = int.from_bytes(data[at:at + size], "big")
            at += size
        left -= 1
        if major == _ARRAY:
            left += arg
        elif major == _TEXT:
            at += arg
        elif major != _UINT and major != _NINT:
            raise ValueError(f"CBOR major type {major} in a word index")
    return at


def _expect(data: bytes, at: int, major: int, arg: int, path: Path) -> int:
    found, value, after = _head(data, at)
    if (found, value) != (major, arg):
        _refuse(f"{path}: expected CBOR type {major} of {arg} at byte {at}")
    return after


_TRIPLE_HEAD = _ARRAY << 5 | 3
_TRIPLE, _EMPTY = bytes([_TRIPLE_HEAD]), bytes([_ARRAY << 5])  # heads of [a, b, c] and []
_SMALL_UINT = [bytes([n]) for n in range(24)]  # heads of the integers 0-23


def _head_bytes(major: int, arg: int) -> bytes:
    out = bytearray()
    _head_into(major, arg, out)
    return bytes(out)


def _sorted_filter(path: Path, name: str, number: dict[int, int]) -> list:
    """The filter file's [name, [[value, [page, ...]], ...]] with values sorted and pages
    renumbered and sorted."""
    content = _read(path)
    if not (
        isinstance(content, list) and len(content) == 2 and content[0] == name
        and isinstance(content[1], list)
        and all(
            isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
            and isinstance(item[1], list) and all(isinstance(p, int) for p in item[1])
            for item in content[1]
        )
    ):
        _refuse(f"{path}: not [{name!r}, [[value, [page, ...]], ...]]")
    for _, pages in content[1]:
        if any(page not in number for page in pages):
            _refuse(f"{path}: a page number the metadata does not have")
    return [name, sorted([value, sorted(number[p] for p in pages)] for value, pages in content[1])]


def _write(folder: Path, prefix: str, data: bytes, digits: int, before: str, after: str) -> str:
    """Write `data` under a name from its sha256 and return the hash part of the name; the
    hash grows by a digit while it would name another file already there."""
    digest = hashlib.sha256(data).hexdigest()
    for length in range(digits, len(digest) + 1):
        file_hash = f"{prefix}_{digest[:length]}"
        path = folder / f"{before}{file_hash}{after}"
        if not path.exists():
            path.write_bytes(data)
            return file_hash
        if path.read_bytes() == data:
            return file_hash
    _refuse(f"{folder}: no free name for {prefix}_{digest}")


def _prefix(file_hash: str) -> str:
    """The language part of a Pagefind file hash such as en_1683169."""
    prefix, sep, _ = file_hash.rpartition("_")
    if not sep or not prefix:
        _refuse(f"Pagefind file hash without a language: {file_hash!r}")
    return prefix


def _is_pair(pair) -> bool:
    return isinstance(pair, list) and len(pair) == 2 and all(isinstance(s, str) for s in pair)


def _unpacked(path: Path) -> bytes:
    """A Pagefind file's bytes, unzipped, signature included."""
    try:
        data = gzip.decompress(path.read_bytes())
    except (OSError, EOFError) as exc:
        _refuse(f"{path}: {exc}")
    if not data.startswith(SIGNATURE):
        _refuse(f"{path}: no {SIGNATURE.decode()} signature")
    return data


def _read(path: Path):
    data = _unpacked(path)
    try:
        return decode(data[len(SIGNATURE):])
    except ValueError as exc:
        _refuse(f"{path}: {exc}")


def _pack(value) -> bytes:
    return _zipped(SIGNATURE + encode(value))


def _zipped(data: bytes) -> bytes:
    # mtime=0: gzip otherwise stamps the time of writing into the header. Level 6: level 9
    # takes three times as long for a few bytes less.
    return gzip.compress(data, compresslevel=6, mtime=0)


def _text(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except (OSError, ValueError) as exc:
        _refuse(f"{path}: {exc}")


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _refuse(message: str):
    raise SearchIndexError(f"cannot make the search index reproducible: {message}")
