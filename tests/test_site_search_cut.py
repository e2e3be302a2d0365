"""A searched page cut to what Pagefind reads: its <main>, less the ignored elements."""

from __future__ import annotations

from charnel.site.search_cut import cut

PAGE = """<!DOCTYPE html><html lang="en"><head><title>Grave Hound</title></head><body>
<header><a href="/">Home</a></header>
<main id="main" data-pagefind-body><img src="card.svg" alt="" data-pagefind-ignore>
<h1 data-pagefind-meta="title">Grave Hound</h1>
<section data-pagefind-ignore><h2>Keywords</h2><section><p>inner</p></section><p>deep</p></section>
<p>Its text says data-pagefind-ignore in words.</p>
<dl><dt data-pagefind-ignore>Number</dt><dd data-pagefind-ignore><p>BS 1</p></dd><dt>Cost</dt></dl>
</main><footer>the footer</footer></body></html>"""


def test_the_cut_keeps_main_without_its_ignored_elements():
    assert cut(PAGE).decode() == (
        '<!DOCTYPE html><html><body><main id="main" data-pagefind-body>\n'
        '<h1 data-pagefind-meta="title">Grave Hound</h1>\n\n'
        "<p>Its text says data-pagefind-ignore in words.</p>\n"
        "<dl><dt>Cost</dt></dl>\n</main></body></html>"
    )


def test_an_ignored_first_heading_stays_for_the_pages_title():
    page = '<main data-pagefind-body><h1 data-pagefind-ignore>Rulings</h1><p>a</p></main>'
    assert b"<h1 data-pagefind-ignore>Rulings</h1><p>a</p>" in cut(page)


def test_a_page_without_main_is_left_whole():
    assert cut("<html><body data-pagefind-body>x</body></html>") == (
        b"<html><body data-pagefind-body>x</body></html>")
