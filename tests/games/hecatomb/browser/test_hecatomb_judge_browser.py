"""The judge page in Chromium under `charnel serve`: a rules example opened as a variation,
changed, run and drawn; a refusal shown with its clause linked; the address reloaded gives the
same answer; "Copy as example" gives a block that `charnel examples run` passes. A static copy
of the site says the judge needs the server."""

from __future__ import annotations

import pytest
from servers import serving_app
from typer.testing import CliRunner

from charnel.cli import app as cli
from charnel.serve.app import application, make_datasette

pytestmark = pytest.mark.browser

EXAMPLE = "one-mana-card-per-turn"  # 9.2a: a second mana card in a turn is refused


@pytest.fixture(scope="module")
def served(tmp_path_factory, built_site):
    """(project root, the server's URL) for the site and its judge."""
    project, game_site = built_site  # read only: Datasette's own files go to a folder of ours
    site = game_site.parent
    datasette = make_datasette(
        {"hecatomb": project / "build" / "hecatomb.db"}, tmp_path_factory.mktemp("datasette"),
        site=True,
    )
    with serving_app(application(datasette, site, root=project)) as base:
        yield project, base


def open_variation(page, url: str) -> None:
    page.goto(f"{url}/hecatomb/rules/9-main-phase/")
    page.locator(f"#{EXAMPLE} .try-variation a").click()
    page.wait_for_url("**/hecatomb/judge/#example=*")
    page.wait_for_selector("#judge-answer .judge-pass, #judge-answer .judge-fail")


def run_changed(page, old: str, new: str) -> None:
    text = page.locator("#judge-example")
    text.fill(text.input_value().replace(old, new))
    page.get_by_role("button", name="Run").click()


def test_a_variation_of_a_rules_example_is_changed_run_and_drawn(served, page):
    _, url = served
    open_variation(page, url)
    assert EXAMPLE in page.locator("#judge-example").input_value()
    assert page.locator("#judge-answer .judge-pass").is_visible()  # as in the rules
    run_changed(page, "hand: {you: [greed, deceit]}", "hand: {you: [greed, deceit, deceit]}")
    page.wait_for_selector("#judge-answer .judge-fail")
    assert "hand.you" in page.locator(".judge-diff").inner_text()
    assert page.locator("#judge-answer .states img").count() == 2
    assert "hand: {you: [greed, deceit, deceit]}" in page.evaluate(
        "decodeURIComponent(location.hash)"
    )


def test_a_refusal_is_shown_with_its_clause_linked(served, page):
    _, url = served
    open_variation(page, url)
    run_changed(page, "    expect: illegal\n    reason: mana-once\n", "")
    page.wait_for_selector(".refusals li")
    refusal = page.locator(".refusals li").first
    assert "add_mana" in refusal.inner_text() and "mana-once" in refusal.inner_text()
    link = refusal.locator("a.refusing-clause")
    assert link.get_attribute("href") == "/hecatomb/rules/9.2a/"
    link.click()  # the clause's permanent address leads on to its place in its section
    page.wait_for_url("**/hecatomb/rules/9-main-phase/#9.2a")
    assert page.locator("[id='9.2a']").count() == 1


def test_the_address_reloaded_gives_the_same_answer(served, page):
    _, url = served
    open_variation(page, url)
    run_changed(page, "    expect: illegal\n    reason: mana-once\n", "")
    page.wait_for_selector(".refusals li")
    before = page.locator("#judge-answer").inner_text()
    page.reload()
    page.wait_for_selector(".refusals li")
    assert page.locator("#judge-answer").inner_text() == before
    assert "reason: mana-once" not in page.locator("#judge-example").input_value()


def test_copy_as_example_runs_with_charnel_examples_run(served, page, tmp_path):
    project, url = served
    open_variation(page, url)
    run_changed(page, "id: one-mana-card-per-turn", "id: one-mana-card-per-turn-again")
    page.get_by_role("button", name="Copy as example").click()
    block = page.locator("[data-copied]").inner_text()
    assert block.startswith("```example\n") and block.rstrip().endswith("```")
    rules = project / "rules" / "hecatomb" / "09-main-phase.md"
    pasted = tmp_path / "pasted.md"
    pasted.write_text(rules.read_text("utf-8") + "\n" + block, "utf-8")
    result = CliRunner().invoke(
        cli, ["examples", "run", str(pasted), "--root", str(project), "--game", "hecatomb"]
    )
    assert result.exit_code == 0, result.output
    assert "example runs pass" in result.output


def test_a_static_copy_says_the_judge_needs_the_server(site_url, page):
    page.goto(f"{site_url}/judge/")
    assert "charnel serve" in page.locator("[data-judge-server]").inner_text()
    page.get_by_role("button", name="Run").click()
    page.wait_for_selector(".judge-error")
    assert "needs `charnel serve`" in page.locator(".judge-error").inner_text()


def test_a_position_built_with_the_pickers_runs_and_is_reported(served, page):
    """From scratch: a zone, a card (as examples write it, by slug) and an action inserted at
    the cursor from the game's own lists; the run is answered; "Report a question" gives the
    question, the example block and the link that runs it again."""
    _, url = served
    page.goto(f"{url}/hecatomb/judge/")
    cards = page.eval_on_selector_all(
        "#judge-cards option", "os => os.map((o) => [o.label, o.value])"
    )
    hostile = next(slug for label, slug in cards if label.startswith("Mischief"))
    assert "<" not in hostile  # the name is shown as the label, as text
    assert page.locator("script:not([src])").count() == 0  # a name is text, never markup
    name = next(slug for label, slug in cards if label == "Abyssal Cantor")
    text = page.locator("#judge-example")
    text.fill("id: from-the-pickers\ntitle: Built with the pickers\ngiven:\n  ")
    text.press("End")

    def insert(kind: str, value: str) -> None:
        picker = page.locator(f'[data-pick="{kind}"]')
        picker.fill(value) if kind == "card" else picker.select_option(value)
        page.locator(f'[data-insert="{kind}"]').click()

    insert("zone", "hand")
    page.keyboard.type("{you: [")
    insert("card", name)
    page.keyboard.type("]}\nwhen:\n  ")
    insert("action", "add_mana")
    page.keyboard.press("ArrowLeft")
    page.keyboard.type("card: ")
    insert("card", name)
    written = text.input_value()
    assert f"  hand: {{you: [{name}]}}\nwhen:\n  - add_mana: {{card: {name}}}" in written
    page.get_by_role("button", name="Run").click()
    page.wait_for_selector("#judge-answer .judge-pass, #judge-answer .judge-fail")
    assert page.locator("#judge-answer .states img").count() == 2
    page.fill("#judge-question", "May the card go to the mana zone on the first turn?")
    page.get_by_role("button", name="Report a question").click()
    report = page.locator("[data-copied]").inner_text()
    assert report.startswith("Question: May the card go to the mana zone on the first turn?\n")
    assert "```example\n" + written.rstrip() + "\n```" in report
    link = report.split("Run it: ")[1].strip()
    page.goto(link)
    page.wait_for_selector("#judge-answer .judge-pass, #judge-answer .judge-fail")
    assert page.locator("#judge-example").input_value() == written
