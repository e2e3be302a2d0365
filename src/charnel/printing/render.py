"""HTML templates to PDF bytes with WeasyPrint, the same bytes for the same input."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import jinja2
from markupsafe import Markup

import charnel
from charnel import templates

PAPER = {"a4": "A4", "letter": "letter"}  # CLI name -> CSS page size


def templates_dir() -> Path:
    return templates.root() / "print"


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir()),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["css_string"] = css_string
    return env


def css_string(text: str) -> Markup:
    """Text as a quoted CSS string, safe inside a <style> element. Markup (a block rendered
    with autoescape) is unescaped first: CSS shows '&lt;' as those four characters."""
    text = text.unescape() if isinstance(text, Markup) else str(text)
    quoted = text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3C ")
    return Markup('"' + " ".join(quoted.split()) + '"')


def html(template: str, paper: str, **context) -> str:
    return environment().get_template(template).render(
        paper=PAPER[paper], version=charnel.__version__, **context
    )


def key(markup: str) -> str:
    """What a PDF is made from besides its markup: the print templates' own files (the CSS
    and anything it loads), WeasyPrint's version and charnel's; hashed with the markup."""
    import weasyprint

    digest = hashlib.sha256(f"{weasyprint.__version__}\0{charnel.__version__}\0".encode())
    digest.update(_templates_digest().encode())
    digest.update(markup.encode("utf-8"))
    return digest.hexdigest()


@cache
def _templates_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(templates_dir().rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(templates_dir()).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def layout(markup: str):
    """Lay out pages (WeasyPrint's Document), for counting them before writing."""
    from weasyprint import HTML

    return HTML(
        string=markup, base_url=str(templates_dir()) + "/", url_fetcher=_templates_only()
    ).render()


def _templates_only():
    """A fetcher of the print templates' own files (the CSS and what it loads) and inline
    data: nothing from the network and no other file, whatever a page names."""
    from urllib.parse import unquote, urlsplit

    from weasyprint.urls import URLFetcher

    class TemplatesOnly(URLFetcher):
        def fetch(self, url, headers=None):
            parts = urlsplit(url)
            if parts.scheme == "data":
                return super().fetch(url, headers)
            if parts.scheme == "file" and parts.netloc in ("", "localhost"):
                path = Path(unquote(parts.path)).resolve()
                if path.is_relative_to(templates_dir().resolve()) and path.is_file():
                    return super().fetch(url, headers)
            raise ValueError(f"not fetched: only the print templates' own files are ({url})")

    return TemplatesOnly(allowed_protocols=("file", "data"), allow_redirects=False)


def pdf(document) -> bytes:
    # No creation or modification dates are written unless the HTML names them, and the
    # file identifier is a digest of the content, so equal input gives equal bytes.
    return document.write_pdf(pdf_identifier=True)
