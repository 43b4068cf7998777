"""`unicum serve`, the real process: a token given on the command line is refused (every user
sees it in `ps`) while stdin and UNICUM_SERVE_TOKEN work; a request naming another Host (DNS
rebinding) gets 421; the memory API stores no secret raw."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

from tests.conftest import ROOT, run_cli
from tests.helpers.serve_helpers import start_server

TOKEN = "team-token-0123456789abcdef"


def test_a_token_on_the_command_line_is_refused(isolated_home: Path):
    done = run_cli("serve", "--port", "0", "--token", TOKEN, timeout=120)
    assert done.returncode == 2 and "ps" in done.stderr and TOKEN not in done.stderr
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "cli.py"), "serve", "--port", "0", "--token", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(TOKEN + "\n")
        proc.stdin.flush()
        banner = proc.stdout.readline()
        assert "Unicum service on" in banner
        ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
        assert TOKEN not in ps
    finally:
        proc.terminate()
        proc.communicate(timeout=60)
    assert not (isolated_home / "serve.token").exists()


def test_another_host_name_is_not_served_and_secrets_are_not_stored(
    isolated_home: Path, workspace: Path, monkeypatch
):
    server = start_server(isolated_home, env={"UNICUM_SERVE_TOKEN": TOKEN})
    try:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        rebound = httpx.get(
            f"{server.url}/ledger/report", headers={**headers, "Host": "evil.example:80"}
        )
        assert rebound.status_code == 421
        with server.client(token=TOKEN) as http:
            assert http.get("/ledger/report").status_code == 200
            key = "ghp_" + "a1B2" * 9
            entry = {"project": str(workspace), "type": "notes", "content": f"the key is {key}"}
            made = http.post("/memory", json=entry)
            assert made.status_code == 201, made.text
            listed = http.get("/memory", params={"project": str(workspace)}).text
        assert key not in listed and "[redacted]" in listed
        stored = "".join(p.read_text() for p in isolated_home.rglob("*.json*") if p.is_file())
        assert key not in stored
    finally:
        server.stop()
