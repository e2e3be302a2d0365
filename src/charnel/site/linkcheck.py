"""Every internal link and anchor of a built site, checked against the files on disk.

A link is broken when its page does not exist, or when it names an anchor (`#8.6a`) that the
target page has no element for. Links into Datasette (/sql/, served beside the site by
`charnel serve`) and to other hosts are not the static site's to check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

EXTERNAL_PREFIXES = ("/sql/",)
STATE = re.compile(r"[a-z]+=")


@dataclass(frozen=True, order=True)
class BrokenLink:
    page: str  # the page the link is on (site path)
    href: str
    reason: str

    def __str__(self) -> str:
        return f"{self.page}: {self.href}: {self.reason}"


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("id", "name") if tag == "a" else ("id",):
            if values.get(name):
                self.ids.add(values[name])
        for name in ("href", "src"):
            if values.get(name) and not (tag == "link" and values.get("rel") == "canonical"):
                self.links.append(values[name])
        if tag == "meta" and (values.get("http-equiv") or "").lower() == "refresh":
            _, _, url = (values.get("content") or "").partition("url=")
            if url:
                self.links.append(url.strip())


def _page_url(site: Path, file: Path) -> str:
    rel = file.relative_to(site).as_posix()
    return "/" + (rel[: -len("index.html")] if rel.endswith("index.html") else rel)


def _target_file(site: Path, path: str) -> Path | None:
    path = unquote(path)
    candidate = site / path.lstrip("/")
    if path.endswith("/"):
        candidate = candidate / "index.html"
    if candidate.is_file():
        return candidate
    if (candidate / "index.html").is_file():
        return candidate / "index.html"
    return None


def check(site: Path) -> list[BrokenLink]:
    """Every broken internal link in the HTML files under `site`, sorted."""
    pages: dict[Path, _Collector] = {}
    for file in sorted(site.rglob("*.html")):
        if file.relative_to(site).parts[0].startswith("pagefind"):
            continue  # Pagefind's own bundles
        collector = _Collector()
        collector.feed(file.read_text("utf-8"))
        pages[file] = collector
    broken: list[BrokenLink] = []
    for file, collector in pages.items():
        here = _page_url(site, file)
        for href in collector.links:
            parts = urlsplit(href)
            if parts.scheme in ("mailto", "data") or parts.netloc:
                continue
            if parts.scheme and parts.scheme not in ("http", "https"):
                broken.append(BrokenLink(here, href, f"unexpected scheme {parts.scheme}"))
                continue
            absolute = urlsplit(urljoin(here, href))
            if absolute.path.startswith(EXTERNAL_PREFIXES):
                continue
            target = file if not parts.path else _target_file(site, absolute.path)
            if target is None:
                broken.append(BrokenLink(here, href, "no such page"))
                continue
            fragment = unquote(absolute.fragment)
            # `#name=value` is a page's state, not an anchor (the judge page's example)
            if fragment and target.suffix == ".html" and not STATE.match(fragment):
                ids = pages[target].ids if target in pages else set()
                if fragment not in ids:
                    broken.append(BrokenLink(here, href, f"no element with id '{fragment}'"))
    return sorted(set(broken))
