"""The generations a build stages its outputs in: the invisible one is brought up to the
visible one by the visible one's journal, and ends the same as a whole mirror would make it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from projects import DUEL, copy_project

from charnel import output_record, outputs, pipeline


def tree(root: Path) -> dict[str, int | str]:
    """Every path under `root`: a file by its inode, a folder or link by its kind."""
    found: dict[str, int | str] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            if rel in (outputs.STATE, outputs.JOURNAL):
                continue
            if path.is_symlink():
                found[rel] = "link:" + os.readlink(path)
            elif path.is_dir():
                found[rel] = "dir"
            else:
                found[rel] = path.stat().st_ino
    return found


def staged_matches_visible(out: Path, monkeypatch, whole: bool = False) -> None:
    """Begin a transaction (which catches up) and compare it with the visible generation;
    `whole`: it had to mirror the whole tree (else it must not have)."""
    mirrored = []
    mirror = outputs.mirror
    monkeypatch.setattr(outputs, "mirror", lambda src, dst: (mirrored.append(src),
                                                              mirror(src, dst)))
    staged = outputs.Transaction(out)
    assert tree(staged.dir) == tree(outputs.visible(out))
    assert (outputs.visible(out) in mirrored) == whole


def recorded_as_walked(out: Path) -> None:
    """The visible generation's record (made from its parent's and the build's journal) is
    the one a visit of every file makes."""
    shown = outputs.visible(out)
    assert output_record.read(shown) == output_record.make(shown, None)["files"]


def write(staged: outputs.Transaction, path: str, text: str) -> None:
    target = staged.dir / path
    target.parent.mkdir(parents=True, exist_ok=True)
    outputs.write_bytes(target, text.encode())


def test_the_journal_brings_the_other_generation_up(tmp_path: Path, monkeypatch):
    out = tmp_path / "build"
    with outputs.transaction(out) as staged:
        for i in range(5):
            write(staged, f"site/game/cards/c{i}/index.html", f"card {i}")
        write(staged, "game.db", "db")
        staged.commit(["game"])
    with outputs.transaction(out) as staged:
        write(staged, "site/game/cards/c1/index.html", "card 1, edited")
        (staged.dir / "site/game/cards/c2/index.html").unlink()
        (staged.dir / "site/game/cards/c2").rmdir()
        outputs.changed(staged.dir / "site/game/cards/c2/index.html")
        shutil.rmtree(staged.dir / "site/game/cards/c3")
        outputs.changed(staged.dir / "site/game/cards/c3")
        write(staged, "site/game/cards/c9/index.html", "card 9")
        staged.commit(["game"])
    staged_matches_visible(out, monkeypatch)
    recorded_as_walked(out)
    shown = outputs.visible(out)
    assert (shown / "site/game/cards/c1/index.html").read_text() == "card 1, edited"
    assert not (shown / "site/game/cards/c2").exists()


def test_a_record_that_cannot_be_read_is_made_again_from_every_file(tmp_path: Path,
                                                                     monkeypatch):
    """The journal says what this build changed, not what the lost record held: with the
    visible record unreadable, the next record is made by visiting every file."""
    out = tmp_path / "build"
    with outputs.transaction(out) as staged:
        for i in range(3):
            write(staged, f"site/game/cards/c{i}/index.html", f"card {i}")
        staged.commit([])
    with outputs.transaction(out) as staged:  # the other generation: next, caught up by journal
        write(staged, "site/game/cards/c2/index.html", "card 2, edited")
        staged.commit([])
    (outputs.visible(out) / output_record.NAME).write_text("{not json")
    with outputs.transaction(out) as staged:
        write(staged, "site/game/cards/c1/index.html", "card 1, edited")
        staged.commit([])
    recorded_as_walked(out)
    assert "site/game/cards/c0/index.html" in output_record.read(outputs.visible(out))


def test_a_generation_whose_build_died_is_mirrored_whole(tmp_path: Path, monkeypatch):
    out = tmp_path / "build"
    with outputs.transaction(out) as staged:
        write(staged, "site/a.html", "a")
        staged.commit([])
    with outputs.transaction(out) as staged:
        write(staged, "site/b.html", "b")
        staged.commit([])
    dying = outputs.Transaction(out)  # a build that writes, then dies before its commit
    write(dying, "site/a.html", "half")
    write(dying, "site/stray.html", "stray")
    staged_matches_visible(out, monkeypatch, whole=True)


def test_the_next_generation_can_be_made_ready_ahead_of_its_build(tmp_path: Path,
                                                                  monkeypatch):
    """After a build from nothing the other generation is unknown and the next build would
    mirror every file; made ready at a quiet moment, that build starts from it as it is, and
    its record is still the one a visit of every file makes."""
    out = tmp_path / "build"
    with outputs.transaction(out) as staged:
        for i in range(3):
            write(staged, f"site/game/cards/c{i}/index.html", f"card {i}")
        staged.commit([])
    shown = outputs.visible(out)
    other = out / outputs.GENERATIONS / ("b" if shown.name == "a" else "a")
    with outputs.locked(out):  # a build under way: nothing is made ready beside it
        outputs.ready(out)
    assert not other.exists()
    outputs.ready(out)
    assert tree(other) == tree(shown)
    mirrored = []
    monkeypatch.setattr(outputs, "mirror", lambda src, dst: mirrored.append(src))
    outputs.ready(out)  # ready already: nothing to do
    with outputs.transaction(out) as staged:
        assert staged.same and staged.dir == other
        write(staged, "site/game/cards/c1/index.html", "card 1, edited")
        staged.commit([])
    assert mirrored == []
    recorded_as_walked(out)
    assert (outputs.visible(out) / "site/game/cards/c1/index.html").read_text() == \
        "card 1, edited"


@pytest.mark.parametrize("change", ["edit", "remove", "add", "nothing"])
def test_after_real_builds_the_staged_generation_equals_the_visible_one(tmp_path, monkeypatch,
                                                                      change):
    project = tmp_path / "p"
    copy_project(project, DUEL)
    out = project / "build"
    pipeline.build_all(project, ["dice-duel"], out, site=True)
    pipeline.build_all(project, ["dice-duel"], out, site=True, force=True)
    card = project / "cards" / "dice-duel" / "embers" / "cinder-knight.yaml"
    if change == "edit":
        card.write_text(card.read_text().replace("its own way", "its own road"))
    elif change == "remove":
        card.unlink()
    elif change == "add":
        shutil.copy(card, card.with_name("cinder-squire.yaml"))
        text = card.with_name("cinder-squire.yaml").read_text()
        card.with_name("cinder-squire.yaml").write_text(
            text.replace("Cinder Knight", "Cinder Squire")
        )
    pipeline.build_all(project, ["dice-duel"], out, site=True, force=change == "nothing")
    recorded_as_walked(out)
    staged_matches_visible(out, monkeypatch)


def test_the_server_answers_from_a_complete_generation_during_a_rebuild(tmp_path):
    import asyncio
    import subprocess
    import sys

    import httpx

    from charnel.serve.site import static_site

    project = tmp_path / "p"
    copy_project(project, DUEL)
    out = project / "build"
    pipeline.build_all(project, ["dice-duel"], out, site=True)
    app = static_site(out / "site")
    page = "/dice-duel/cards/cinder-knight/"

    async def fetch() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            return await c.get(page)

    card = project / "cards" / "dice-duel" / "embers" / "cinder-knight.yaml"
    card.write_text(card.read_text().replace("its own way", "its own road"))
    build = subprocess.Popen(
        [sys.executable, "-m", "charnel.cli", "build", "--no-print", "--root", str(project),
         "--out", str(out), "--game", "dice-duel"], stderr=subprocess.PIPE, text=True)
    seen = set()
    while build.poll() is None:
        answer = asyncio.run(fetch())
        assert answer.status_code == 200
        seen.add("road" if "its own road" in answer.text else "way")
        assert "its own way" in answer.text or "its own road" in answer.text
    assert build.returncode == 0, build.stderr.read()
    assert "its own road" in asyncio.run(fetch()).text
    assert "way" in seen


def test_damage_found_while_an_edit_builds_makes_that_build_start_again_forced(tmp_path):
    """The check of the visible outputs runs beside the build: a page changed by hand is
    found while an edit of another card builds, and the build starts again, forced, so that
    the page is made again too."""
    project = copy_project(tmp_path / "p", DUEL)
    out = project / "build"
    pipeline.build_all(project, ["dice-duel"], out, site=True)
    shown = outputs.visible(out)
    page = shown / "site/dice-duel/cards/rime-warden/index.html"
    good = page.read_bytes()
    page.write_bytes(good.replace(b"<title>", b"<title>Damaged "))  # in place, shared inode
    card = project / "cards/dice-duel/embers/cinder-knight.yaml"
    card.write_text(card.read_text().replace("its own way", "its own road"))
    said: list[str] = []
    pipeline.build_all(project, ["dice-duel"], out, site=True, notice=said.append)
    assert any(s.startswith("remaking 1 output(s)") and "rime-warden" in s for s in said), said
    shown = outputs.visible(out)
    assert (shown / "site/dice-duel/cards/rime-warden/index.html").read_bytes() == good
    assert b"its own road" in (shown / "site/dice-duel/cards/cinder-knight/index.html").read_bytes()
    assert output_record.damaged(shown) == []
