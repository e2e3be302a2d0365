"""Write docs/cli.md, the reference of every charnel command and option, from the CLI itself.

    .venv/bin/python scripts/cli_docs.py          # rewrite docs/cli.md
    .venv/bin/python scripts/cli_docs.py --check  # exit 1 if docs/cli.md is out of date

tests/test_docs_cli.py runs the check, so a new command or option cannot go undocumented.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer.main

from charnel.cli import app

DOC = Path(__file__).resolve().parent.parent / "docs" / "cli.md"


def commands(group, prefix: str = "charnel"):
    ctx = group.context_class(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        path = f"{prefix} {name}"
        yield path, command
        if hasattr(command, "list_commands"):
            yield from commands(command, path)


def describe(path: str, command) -> list[str]:
    lines = [f"## `{path}`", "", (command.help or "").strip().split("\n\n")[0], ""]
    arguments = [p for p in command.params if p.param_type_name == "argument"]
    options = [p for p in command.params if p.param_type_name == "option" and p.name != "help"]
    if arguments:
        lines += ["Arguments: " + ", ".join(f"`{a.name.upper()}`" for a in arguments), ""]
    if options:
        lines += ["| option | meaning | default |", "|---|---|---|"]
        for option in options:
            names = " / ".join(f"`{o}`" for o in option.opts + option.secondary_opts)
            default = option.default
            shown = "" if default in (None, False, (), []) or callable(default) else f"`{default}`"
            text = (option.help or "").replace("|", "\\|").replace("\n", " ")
            lines.append(f"| {names} | {text} | {shown} |")
        lines.append("")
    return lines


def render() -> str:
    group = typer.main.get_command(app)
    out = [
        "# Command reference",
        "",
        "Every `charnel` command and option. This page is generated from the CLI by",
        "`scripts/cli_docs.py`; the tests fail when it is out of date.",
        "",
    ]
    for path, command in commands(group):
        out += describe(path, command)
    return "\n".join(out).rstrip() + "\n"


def main() -> int:
    text = render()
    if "--check" in sys.argv:
        if not DOC.exists() or DOC.read_text() != text:
            print("docs/cli.md is out of date: run scripts/cli_docs.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
