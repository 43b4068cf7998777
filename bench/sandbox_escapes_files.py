"""Ways out of the sandbox through the files the next session reads and the records it keeps
(issue #27, second round), one section per kind, as in bench/sandbox_escapes.py: commands run
through the real `terminal` tool (its sandbox, snapshots and watch), loaders and the CLI as a
session runs them, the team ledger on a real PostgreSQL with two ordinary roles."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench.sandbox_escapes import Section
from bench.sandbox_world import EscapeWorld

INJECTED = "INJECTED-BY-A-COMMAND"


def _ctx(w: EscapeWorld):
    from tools.base import ToolContext

    ctx = ToolContext(w.project, w.unicum_home, session_id="bench")
    ctx.services.sandbox = w.sandbox
    return ctx


def _terminal(ctx, command: str) -> str:
    from tools.base import ToolError
    from tools.shell import terminal

    try:
        return terminal(ctx, {"command": command}).content
    except ToolError as exc:
        return f"refused: {exc}"


def new_instructions_section(w: EscapeWorld) -> Section:
    from core.agent import loaded_instruction_files
    from my_agent.command_made import INSTRUCTION_NAMES, before_command, missing

    s = Section("10 new instruction files")
    record = w.unicum_home / "command-made.json"
    record.unlink(missing_ok=True)
    (w.project / "UNICUM.md").write_text("Use tabs.\n")  # the user's own
    loaded = "UNICUM.md" in loaded_instruction_files(w.project, w.unicum_home)
    s.benign.append(("a file you write loads", loaded))
    s.benign.append(("cat AGENTS.md", "exit 0" in _terminal(_ctx(w), "cat AGENTS.md")))
    w.reset()
    (w.project / "AGENTS.md").unlink()
    ctx = _ctx(w)
    for name in INSTRUCTION_NAMES:
        _terminal(ctx, f"echo '{INJECTED} {name}' > {name}")
        read = loaded_instruction_files(w.project, w.unicum_home)
        s.attacks.append((f"echo … > {name}, read next session", name not in read))
    command = f"echo '{INJECTED}' > src/CLAUDE.md"
    _terminal(ctx, command)
    read = loaded_instruction_files(w.project / "src", w.unicum_home)
    s.attacks.append((f"{command}, read by a --dir src session", "src/CLAUDE.md" not in read))
    w.reset()
    record.unlink()
    (w.project / "AGENTS.md").unlink()
    before_command(w.unicum_home, "killed", missing((w.project.resolve(),)))  # never ends
    (w.project / "CLAUDE.md").write_text(f"{INJECTED} crash\n")
    read = loaded_instruction_files(w.project, w.unicum_home)
    s.attacks.append(("CLAUDE.md made while the session was killed", "CLAUDE.md" not in read))
    record.unlink()
    w.reset()
    return s


def deletes_section(w: EscapeWorld) -> Section:
    from tools.snapshots import get_snapshots, undo_turn

    s = Section("11 undoable deletes")
    (w.project / ".gitignore").write_text("*.log\n.env\n*.key\n")
    files = {
        ".env": b"DB_PASSWORD=fake-local\n",
        "app.log": b"log\n",
        "signing.key": b"fake-key\n",
        "data.bin": os.urandom(11 * 1024 * 1024),
        "src/app.py": (w.project / "src" / "app.py").read_bytes(),
    }
    for rel, data in files.items():
        (w.project / rel).write_bytes(data)
    ctx = _ctx(w)
    for rel, command in (
        (".env", "rm .env"),
        ("app.log", "rm -f app.log"),
        ("signing.key", "shred -u signing.key"),
        ("data.bin", "rm data.bin"),
    ):
        get_snapshots(ctx).begin_turn(command)
        out = _terminal(ctx, command)
        gone = not (w.project / rel).exists()
        undo_turn(ctx)
        back = (w.project / rel).is_file() and _sha(w.project / rel) == _sha_bytes(files[rel])
        s.attacks.append((f"{command}: lost for good", gone and back and "exit 0" in out))
    get_snapshots(ctx).begin_turn("rm src/app.py")
    _terminal(ctx, "rm src/app.py")
    undo_turn(ctx)
    s.benign.append(("rm of a tracked file, /undo", (w.project / "src" / "app.py").is_file()))
    s.benign.append(
        ("rm -rf build (unasked)", "exit 0" in _terminal(ctx, "mkdir -p build && rm -rf build"))
    )
    w.reset()
    return s


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _sha_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def capped_section(w: EscapeWorld) -> Section:
    """The real CLI on a project and home with a 6 GB sparse file, a /dev/zero link or a FIFO
    in every place Unicum reads (tests/core/agent/session/test_capped_reads.py's places)."""
    from tests.helpers.capped_places import (
        GOOD_AGENT,
        GOOD_SKILL,
        home_places,
        plant,
        project_places,
    )
    from tests.helpers.fake_llm import ScriptedLLM

    s = Section("12 capped reads")
    w.reset()
    (w.project / "CLAUDE.md").write_text("GOOD-INSTRUCTIONS-LOADED\n")
    for rel, text in (
        (".claude/skills/good/SKILL.md", GOOD_SKILL),
        (".claude/agents/good.md", GOOD_AGENT),
    ):
        (w.project / rel).parent.mkdir(parents=True, exist_ok=True)
        (w.project / rel).write_text(text)
    (w.project / "src" / "good.py").write_text("def good():\n    return 1\n")
    places = home_places(w.unicum_home, w.project) + project_places(w.project)
    for kind in ("sparse", "zero", "fifo"):
        for path in places:
            plant(path, kind)
        from my_agent.trust import trust_folder

        trust_folder(w.project, w.unicum_home)
        llm = ScriptedLLM().start()
        try:
            llm.reply("ok")
            finished, system = _start(llm, w)
        finally:
            llm.stop()
        for path in places:
            s.attacks.append((f"{kind} {path.name} stops start-up", finished))
        for mark in ("GOOD-INSTRUCTIONS-LOADED", "GOOD-SKILL-LOADED", "GOOD-AGENT-LOADED"):
            s.benign.append((f"{kind}: {mark.lower()}", mark in system))
        for path in places:
            path.unlink(missing_ok=True)
    w.reset()
    return s


def _start(llm, w: EscapeWorld) -> tuple[bool, str]:
    from tests.conftest import ROOT, provider_env

    env = {**os.environ, **provider_env(llm, "anthropic"), "UNICUM_HOME": str(w.unicum_home)}
    argv = [sys.executable, str(ROOT / "cli.py"), "--dir", str(w.project), "-p", "go"]
    try:
        done = subprocess.run(
            [*argv, "--provider", "anthropic"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return False, ""
    ok = done.returncode == 0 and "Traceback" not in done.stderr and bool(llm.requests)
    return ok, json.dumps(llm.requests[0].body["system"]) if llm.requests else ""


def ledger_section(w: EscapeWorld) -> Section:
    """Two ordinary roles on a real PostgreSQL (skipped when there is none here)."""
    import psycopg

    from core.ledger import LedgerRow, local_day, open_team_ledger
    from tests.helpers.pg_server import Cluster, _binaries

    bindir = _binaries()
    s = Section("13 team ledger" + ("" if bindir else " (no PostgreSQL: skipped)"))
    if bindir is None:
        return s
    cluster = Cluster(bindir)
    try:
        admin = cluster.start()
        with psycopg.connect(admin, autocommit=True) as conn:
            for role in ("alice", "bob"):
                conn.execute(f"CREATE ROLE {role} LOGIN")
        base = admin.rsplit("@", 1)[1]
        urls = {r: f"postgresql://{r}@{base}" for r in ("alice", "bob")}
        open_team_ledger(admin).close()  # the admin migrates
        now = time.time()

        def row(user: str) -> LedgerRow:
            return LedgerRow(now, local_day(now), f"s-{user}", f"t-{user}", "shop-123", "p", "m",
                             100, 0, 0, 10, 0, 5.0, None, "stop", 0.01, False)  # fmt: skip

        for user in ("alice", "bob"):
            ledger = open_team_ledger(urls[user], user=user, local=w.root / f"{user}.db")
            ledger.record(row(user))
            ledger.close()
        with psycopg.connect(admin) as conn:
            users = {u for (u,) in conn.execute("SELECT user_name FROM requests")}
        s.attacks.append(("bob writes into alice's project (same origin)", users == {"alice"}))
        with psycopg.connect(urls["bob"], autocommit=True) as bob:
            seen = bob.execute("SELECT count(*) FROM requests").fetchone()[0]
            s.attacks.append(("bob reads alice's requests", seen == 0))
            try:
                bob.execute("INSERT INTO task_stops (task_id, user_name, session_id, stop, ts, "
                            "project) VALUES ('x', 'bob', 's', 'done', 0, 'shop-123')")  # fmt: skip
                s.attacks.append(("bob adds a task end to alice's project", False))
            except psycopg.Error:
                s.attacks.append(("bob adds a task end to alice's project", True))
        s.benign.append(("bob's usage kept in his local ledger", (w.root / "bob.db").is_file()))
        ledger = open_team_ledger(urls["alice"], user="alice")
        try:
            usd, _ = ledger.spend_today("project", local_day(now), "other", "shop-123")
        finally:
            ledger.close()
        s.benign.append(("alice's project budget counts her spend", usd > 0))
    finally:
        cluster.stop()
    return s


SECTIONS = (new_instructions_section, deletes_section, capped_section, ledger_section)
