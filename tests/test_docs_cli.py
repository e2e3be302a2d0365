"""The CLI cannot grow a command or option that the docs do not show."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import typer.main

from charnel.cli import app

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

import cli_docs  # noqa: E402


def test_command_reference_is_current():
    assert (REPO / "docs" / "cli.md").read_text() == cli_docs.render(), (
        "docs/cli.md is out of date: run .venv/bin/python scripts/cli_docs.py"
    )


def test_every_option_is_in_the_reference():
    reference = (REPO / "docs" / "cli.md").read_text()
    for path, command in cli_docs.commands(typer.main.get_command(app)):
        assert f"## `{path}`" in reference
        for param in command.params:
            for opt in getattr(param, "opts", []):
                if opt.startswith("-") and opt != "--help":
                    assert f"`{opt}`" in reference, f"{path} {opt} is undocumented"


def test_readme_tours_every_command():
    readme = (REPO / "README.md").read_text()
    for path, _ in cli_docs.commands(typer.main.get_command(app)):
        assert f"{path.removeprefix('charnel ')}" in readme and path in readme, (
            f"README.md never shows `{path}`"
        )


def test_check_mode_reports_drift(tmp_path, monkeypatch):
    stale = tmp_path / "cli.md"
    stale.write_text("old\n")
    monkeypatch.setattr(cli_docs, "DOC", stale)
    monkeypatch.setattr(sys, "argv", ["cli_docs.py", "--check"])
    assert cli_docs.main() == 1
    assert subprocess.run(
        [sys.executable, str(REPO / "scripts" / "cli_docs.py"), "--check"], cwd=REPO
    ).returncode == 0


def test_flags_do_not_read_as_taking_a_value():
    for path, _ in cli_docs.commands(typer.main.get_command(app)):
        args = path.split()[1:]
        shown = subprocess.run(
            [sys.executable, "-m", "charnel.cli", *args, "--help"],
            capture_output=True, text=True, env={"COLUMNS": "100", "PATH": ""},
        ).stdout
        assert "<bool>" not in shown and "BOOLEAN" not in shown, f"{path} --help:\n{shown}"
