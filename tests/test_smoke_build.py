from pathlib import Path

from typer.testing import CliRunner

from charnel.cli import app


def test_build_writes_database(project: Path):
    result = CliRunner().invoke(app, ["build", "--root", str(project), "--out", str(project / "build"), "--no-site", "--no-print"])
    assert result.exit_code == 0, result.output
    assert (project / "build" / "hecatomb.db").exists()
