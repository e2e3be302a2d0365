"""Run the README's tour, command by command, in the order written, as a newcomer would.

    python scripts/tour.py [PROJECT]      # PROJECT: a fresh copy of the repository (default .)

Every line of a ```bash block between "## A tour" and "## Writing data" runs in PROJECT with
the project's .venv active. A line must exit 0, or 1 when its comment says "exit 1". A line
that starts a server (`charnel serve`, `http.server`) runs as written but on a free port of
127.0.0.1 in place of the port and address it names (the README's ports may be taken, and
nothing here listens beyond this machine); it must answer GET / there within the time a first
build takes, and is then stopped. Prints each command, how long it took, and exits 1 at the
first that does not work.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

SERVER = re.compile(r"\bcharnel serve\b|\bhttp\.server\b")
START_SECONDS = 240  # a server line may build everything first


def commands(readme: str) -> list[str]:
    tour = readme.split("## A tour", 1)[1].split("## Writing data", 1)[0]
    found = []
    for block in re.findall(r"```bash\n(.*?)```", tour, re.S):
        found += [line for line in block.splitlines() if line.strip()]
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def on_free_port(command: str, port: int) -> str:
    """The server line as written, listening on 127.0.0.1 at `port` instead of where it says
    (`charnel serve`'s own default port when it names none)."""
    line = command.split("#", 1)[0].rstrip()
    line = re.sub(r"--host\s+\S+", "--host 127.0.0.1", line)
    if "http.server" in line:
        return re.sub(r"\b\d{4,5}\b(?!.*\b\d{4,5}\b)", str(port), line) + " --bind 127.0.0.1"
    if re.search(r"--port\s+\d+", line):
        return re.sub(r"--port\s+\d+", f"--port {port}", line)
    return f"{line} --port {port}"


def shell(command: str) -> list[str]:
    return ["bash", "-c", f"source .venv/bin/activate && {command}"]


def run_server(command: str, project: Path) -> str | None:
    """None when the server answered GET /, else why not."""
    port = free_port()
    proc = subprocess.Popen(
        shell(on_free_port(command, port)), cwd=project, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return f"exited {proc.returncode}: {proc.stdout.read().decode()[-2000:]}"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    return None if answer.status == 200 else f"GET / answered {answer.status}"
            except OSError:
                time.sleep(0.5)
        return f"did not answer on port {port} within {START_SECONDS} s"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def run(command: str, project: Path) -> str | None:
    """None when the command worked as the README says, else why not."""
    if SERVER.search(command):
        return run_server(command, project)
    expected = 1 if re.search(r"#.*\bexit 1\b", command) else 0
    done = subprocess.run(shell(command), cwd=project, capture_output=True, text=True)
    if done.returncode != expected or "Traceback" in done.stderr:
        output = done.stdout[-2000:] + done.stderr[-3000:]
        return f"exit {done.returncode} (expected {expected}):\n{output}"
    return None


def main(argv: list[str]) -> int:
    project = Path(argv[1] if len(argv) > 1 else ".").resolve()
    for command in commands((project / "README.md").read_text(encoding="utf-8")):
        print(f"$ {command}", flush=True)
        started = time.monotonic()
        why = run(command, project)
        print(f"  {time.monotonic() - started:.1f} s", flush=True)
        if why is not None:
            print(f"tour: this command does not work as written: {why}", flush=True)
            return 1
    print("tour: every command works as written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
