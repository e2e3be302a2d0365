"""Pagefind output made reproducible: the small CBOR codec, and canonicalize on real runs."""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

import pytest

from charnel.site.search import SearchIndexError, _pagefind
from charnel.site.search_canonical import SIGNATURE, canonicalize, decode, encode

CLANS = ["greed", "wrath", "sloth", "envy", "pride", "lust", "gluttony", "vanity",
         "malice", "sorrow", "dread", "ruin"]


def make_site(root: Path, languages=("en",)) -> Path:
    """Tiny pages with three filters; twelve clan values make Pagefind's hash-map order
    differ from run to run."""
    for i in range(24):
        language = languages[i % len(languages)]
        page = root / language / f"p{i}" / "index.html"
        page.parent.mkdir(parents=True)
        page.write_text(
            f'<html lang="{language}"><body data-pagefind-body><h1>Card {i}</h1>'
            f"<p>grave hound number {i}</p>"
            f'<span data-pagefind-filter="clan:{CLANS[i % len(CLANS)]}"></span>'
            f'<span data-pagefind-filter="kind:k{i % 5}"></span>'
            f'<span data-pagefind-filter="set:s{i % 7}"></span></body></html>',
            "utf-8",
        )
    return root


def run_pagefind(site: Path, out: Path, *extra: str) -> Path:
    cmd = [*_pagefind(), "--site", str(site), "--output-path", str(out), "--silent", *extra]
    subprocess.run(cmd, check=True, capture_output=True)
    return out


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def content(path: Path):
    data = gzip.decompress(path.read_bytes())
    assert data.startswith(SIGNATURE)
    return decode(data[len(SIGNATURE):])


def meaning(bundle: Path) -> tuple[dict, dict]:
    """What an index says, by page fragment rather than page number: for each word, the pages
    with its locations; for each filter value, its pages."""
    [meta] = bundle.glob("*.pf_meta")
    pages = [page_hash for page_hash, _ in content(meta)[1]]
    words = {}
    for chunk in bundle.glob("index/*.pf_index"):
        for word, found, _ in content(chunk)[0]:
            at, entries = 0, set()
            for page, *rest in found:
                at += page  # the first page number is absolute, the others differences
                entries.add((pages[at], repr(rest)))
            words[word] = entries
    filters = {
        name: {value: sorted(pages[p] for p in found) for value, found in values}
        for name, values in map(content, bundle.glob("filter/*"))
    }
    return words, filters


def check_links(bundle: Path) -> None:
    """What the browser follows: the entry names each language's metadata file, and the
    metadata names every filter file, each holding the filter it is named for."""
    entry = json.loads((bundle / "pagefind-entry.json").read_text("utf-8"))
    named = set()
    for info in entry["languages"].values():
        meta = content(bundle / f"pagefind.{info['hash']}.pf_meta")
        for name, file_hash in meta[3]:
            assert content(bundle / "filter" / f"{file_hash}.pf_filter")[0] == name
            named.add(f"{file_hash}.pf_filter")
    assert named == {p.name for p in (bundle / "filter").iterdir()}
    assert len(list(bundle.glob("pagefind.*.pf_meta"))) == len(entry["languages"])


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return make_site(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def two_runs(site, tmp_path_factory) -> tuple[Path, Path]:
    out = tmp_path_factory.mktemp("runs")
    return tuple(run_pagefind(site, out / name, "--force-language", "en")
                 for name in ("one", "two"))


@pytest.mark.parametrize("value", [
    0, 1, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**64 - 1,
    -1, -24, -25, -256, -257, -(2**64),
    "", "a", "é‿☃", "x" * 23, "x" * 24, "y" * 300, "z" * 70000,
    [], [[]], [1, "two", [3, [-4, "five"]]], list(range(30)),
])
def test_cbor_round_trips(value):
    assert decode(encode(value)) == value


def test_cbor_heads_are_minimal():
    assert encode(23) == bytes([0x17])
    assert encode(24) == bytes([0x18, 24])
    assert encode(256) == bytes([0x19, 1, 0])
    assert encode(-1) == bytes([0x20])
    assert encode("ab") == b"\x62ab"
    assert encode([1, [2]]) == bytes([0x82, 0x01, 0x81, 0x02])
    assert encode((1, 2)) == encode([1, 2])


def test_cbor_reencodes_pagefinds_files_byte_for_byte(two_runs):
    found = [p for kind in ("index/*.pf_index", "filter/*.pf_filter", "*.pf_meta")
             for p in two_runs[0].glob(kind)]
    assert {p.suffix for p in found} == {".pf_index", ".pf_filter", ".pf_meta"}
    for path in found:
        data = gzip.decompress(path.read_bytes())[len(SIGNATURE):]
        assert encode(decode(data)) == data, path


@pytest.mark.parametrize("data", [
    b"\xa1\x01\x02",  # map
    b"\x42ab",  # byte string
    b"\xf9\x3c\x00",  # half float
    b"\xf5",  # true
    b"\xc1\x00",  # tag
    b"\x9f\x01\xff",  # indefinite-length array
    b"\x18",  # head cut short
    b"\x63ab",  # text cut short
    b"\x82\x01",  # array cut short
    b"\x01\x02",  # trailing bytes
    b"\x62\xff\xfe",  # text that is not UTF-8
])
def test_cbor_refuses_what_pagefind_does_not_write(data):
    with pytest.raises(ValueError):
        decode(data)


@pytest.mark.parametrize("value", [True, 1.5, b"x", {"a": 1}, None, 2**64, -(2**64) - 1])
def test_cbor_will_not_write_other_values(value):
    with pytest.raises(ValueError):
        encode(value)


def test_two_canonical_runs_are_identical_and_still_link_up(two_runs, tmp_path):
    raw_one, raw_two = files(two_runs[0]), files(two_runs[1])
    # The case this exists for: Pagefind's own output differs between the runs.
    assert raw_one != raw_two
    copies = []
    for run in two_runs:
        copy = tmp_path / run.name
        copy.mkdir()
        for name, data in files(run).items():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            (copy / name).write_bytes(data)
        canonicalize(copy)
        copies.append(copy)
    one, two = files(copies[0]), files(copies[1])
    assert one == two
    check_links(copies[0])

    # Only the index, filter, metadata and entry files changed, and they say the same as
    # before: the same pages for each word and each filter value, by page.
    untouched = {k: v for k, v in raw_one.items() if not k.startswith(("filter/", "index/"))
                 and not k.endswith((".pf_meta", ".json"))}
    assert untouched.items() <= one.items()
    assert meaning(copies[0]) == meaning(two_runs[0])
    for _, values in map(content, copies[0].glob("filter/*")):
        assert values == sorted(values)
    [meta] = copies[0].glob("*.pf_meta")
    [raw_meta] = two_runs[0].glob("*.pf_meta")
    meta, raw_meta = content(meta), content(raw_meta)
    assert meta[3] == sorted(meta[3]) and [n for n, _ in meta[3]] == ["clan", "kind", "set"]
    assert meta[1] == sorted(raw_meta[1])  # pages in the order of their fragment hashes
    assert [c[:2] for c in meta[2]] == [c[:2] for c in raw_meta[2]]
    assert meta[:1] + meta[4:] == raw_meta[:1] + raw_meta[4:]

    # The entry keeps Pagefind's layout and key order; only the metadata hash changed.
    before = (two_runs[0] / "pagefind-entry.json").read_text("utf-8")
    after = (copies[0] / "pagefind-entry.json").read_text("utf-8")
    old_hash = json.loads(before)["languages"]["en"]["hash"]
    new_hash = json.loads(after)["languages"]["en"]["hash"]
    assert after == before.replace(old_hash, new_hash) and old_hash != new_hash
    assert (copies[0] / f"pagefind.{new_hash}.pf_meta").is_file()

    canonicalize(copies[0])  # and a second pass changes nothing
    assert files(copies[0]) == one


def renumbered_in_reverse(bundle: Path, target: Path) -> Path:
    """A copy of a Pagefind bundle as Pagefind would write it had it found the pages in the
    opposite order (as another filesystem may list them): the same index, pages numbered
    backwards."""
    for name, data in files(bundle).items():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        (target / name).write_bytes(data)
    [meta_path] = target.glob("*.pf_meta")
    meta = content(meta_path)
    count = len(meta[1])
    number = {old: count - 1 - old for old in range(count)}
    meta[1] = meta[1][::-1]
    pack = lambda value: gzip.compress(SIGNATURE + encode(value), mtime=0)  # noqa: E731
    meta_path.write_bytes(pack(meta))
    for path in target.glob("filter/*"):
        name, values = content(path)
        renumbered = [[value, sorted(number[p] for p in found)] for value, found in values]
        path.write_bytes(pack([name, renumbered]))
    for path in target.glob("index/*"):
        words = []
        for word, found, more in content(path)[0]:
            at, pages = 0, []
            for page, *rest in found:
                at += page
                pages.append([number[at], *rest])
            pages.sort(key=lambda p: p[0])
            deltas = [[p[0] - (pages[i - 1][0] if i else 0), *p[1:]] for i, p in enumerate(pages)]
            words.append([word, deltas, more])
        path.write_bytes(pack([words]))
    return target


def test_pages_found_in_another_order_give_the_same_index(two_runs, tmp_path):
    reverse = renumbered_in_reverse(two_runs[0], tmp_path / "reverse")
    assert meaning(reverse) == meaning(two_runs[0])  # the copy says the same, numbered otherwise
    straight = tmp_path / "straight"
    for name, data in files(two_runs[0]).items():
        (straight / name).parent.mkdir(parents=True, exist_ok=True)
        (straight / name).write_bytes(data)
    for bundle in (straight, reverse):
        canonicalize(bundle)
        check_links(bundle)
    assert files(straight) == files(reverse)
    assert meaning(straight) == meaning(two_runs[0])


def test_several_languages(tmp_path):
    site = make_site(tmp_path / "site", languages=("en", "fr", "pt-br"))
    runs = [run_pagefind(site, tmp_path / name) for name in ("one", "two")]
    for run in runs:
        canonicalize(run)
        check_links(run)
    assert files(runs[0]) == files(runs[1])
    entry = json.loads((runs[0] / "pagefind-entry.json").read_text("utf-8"))
    assert list(entry["languages"]) == ["en", "fr", "pt-br"]
    assert all(info["hash"].startswith(f"{lang}_") for lang, info in entry["languages"].items())


def test_refuses_an_index_it_does_not_understand(two_runs, tmp_path):
    def copy() -> Path:
        target = tmp_path / f"c{len(list(tmp_path.iterdir()))}"
        for name, data in files(two_runs[0]).items():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            (target / name).write_bytes(data)
        return target

    stray = copy()
    (stray / "filter" / "en_0000000.pf_filter").write_bytes(b"")
    with pytest.raises(SearchIndexError, match="files no metadata names: en_0000000"):
        canonicalize(stray)

    mapped = copy()
    [meta] = mapped.glob("*.pf_meta")
    meta.write_bytes(gzip.compress(SIGNATURE + b"\xa1\x01\x02"))
    with pytest.raises(SearchIndexError, match="CBOR major type 5"):
        canonicalize(mapped)

    pretty = copy()
    entry = pretty / "pagefind-entry.json"
    entry.write_text(json.dumps(json.loads(entry.read_text("utf-8")), indent=2), "utf-8")
    with pytest.raises(SearchIndexError, match="not compact JSON"):
        canonicalize(pretty)
