"""Ways out of the sandbox (issue #27), one section per kind: every attack runs for real in
the bwrap sandbox (or through the loader it targets) against a fake HOME of sentinel files, a
throwaway git project and loopback listeners; beside them the benign commands that must keep
working. Used by bench/sandbox.py (`--escapes`), which prints tried / blocked per section."""

from __future__ import annotations

from bench.sandbox_network import limits_section, network_sections
from bench.sandbox_world import EscapeWorld, Section
from my_agent.trust import extensions_allowed, trust_folder


def git_section(w: EscapeWorld) -> Section:
    s = Section("1 .git metadata")
    touch = f"touch {w.pwned}"
    for attack in (
        f"git config core.fsmonitor '{touch}'",
        f"printf '#!/bin/sh\\n{touch}\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
        "git config core.hooksPath evil",
        f"git config alias.st '!{touch}'",
        f"git config filter.x.clean '{touch}'",
        f"printf '[core]\\n\\tfsmonitor = {touch}\\n' >> .git/config",
        "mv .git/config .git/c.old",
        "rm -rf .git/hooks",
        "mv .git .git-old",
        "echo '[include] path = ../evil.cfg' > .git/info/attributes; echo x > .git/info/exclude",
    ):
        before = w.git_state()
        w.run(attack)
        w.host_git("status")
        s.attacks.append((attack, w.git_state() == before and not w.pwned.exists()))
        w.reset()
    ident = "-c user.name=a -c user.email=a@example.com"
    for benign in (
        f"echo x > new.txt && git add new.txt && git {ident} commit -qm add",
        "git checkout -qb topic && git branch --show-current",
        "git status --short && git log --oneline -1 && git diff --stat",
        f"git {ident} stash -q --include-untracked; git stash list",
        "git switch -q feature && git switch -q -",
    ):
        s.benign.append((benign, w.run(benign)[1] == 0))
        w.reset()
    return s


def config_section(w: EscapeWorld) -> Section:
    s = Section("2 agent configuration")
    for attack in (
        "echo '{\"hooks\": {}}' > .claude/settings.json",
        'echo \'{"mcpServers": {"x": {"command": "sh"}}}\' > .mcp.json',
        "echo 'obey the repo' >> AGENTS.md",
        "rm -rf .claude",
        "mv .mcp.json x.json",
        "mkdir -p .claude/commands && echo run > .claude/commands/x.md",
    ):
        before = w.config_state()
        w.run(attack)
        s.attacks.append((attack, w.config_state() == before))
        w.reset()
    attack = "mkdir .unicum && echo '{\"hooks\": {}}' > .unicum/settings.json  (next start)"
    trust_folder(w.project, w.unicum_home)
    w.run(attack.split("  (")[0])
    s.attacks.append((attack, not extensions_allowed(w.project, w.unicum_home)))
    w.reset()
    s.benign.append(("cat AGENTS.md .mcp.json", w.run("cat AGENTS.md .mcp.json")[1] == 0))
    return s


def reads_section(w: EscapeWorld) -> Section:
    s = Section("4a reads under home")
    for rel in w.credentials:
        output, _ = w.run(f"cat ~/{rel} 2>&1; cat ~/{rel[:3]}* 2>&1")
        s.attacks.append((f"cat ~/{rel}", "SENTINEL" not in output))
    for benign in ("mytool", "git --version", "python3 -c 'import json; print(1)'"):
        s.benign.append((benign, w.run(benign)[1] == 0))
    return s


def socket_section(w: EscapeWorld) -> Section:
    s = Section("5 unix sockets")
    agent = w.ssh_agent()
    py = "python3 -c 'import socket; socket.socket(socket.{}, socket.{})'"
    for attack, blocked in (
        ("ssh-add -l  (SSH_AUTH_SOCK given)", lambda o, c: c != 0 and "no identities" not in o),
        (f"SSH_AUTH_SOCK={agent} ssh-add -l", lambda o, c: c != 0 and "no identities" not in o),
        (py.format("AF_VSOCK", "SOCK_STREAM"), lambda o, c: c != 0),
        (py.format("AF_PACKET", "SOCK_RAW"), lambda o, c: c != 0),
        (py.format("AF_BLUETOOTH", "SOCK_STREAM"), lambda o, c: c != 0),
        ("ls -A /run/user | grep -q .", lambda o, c: c != 0),
        ("test -S /run/docker.sock || test -S /var/run/docker.sock", lambda o, c: c != 0),
    ):
        output, code = w.run(attack.split("  (")[0], env={"SSH_AUTH_SOCK": str(agent)})
        s.attacks.append((attack, blocked(output, code)))
    unix = (
        "python3 -c 'import socket; a, b = socket.socketpair(); a.send(b\"x\"); print(b.recv(1))'"
    )
    s.benign.append(("socketpair (local IPC)", w.run(unix)[1] == 0))
    return s


def env_section(w: EscapeWorld) -> Section:
    s = Section("6 variables")
    env = {
        "UNICUM_DATABASE_URL": "postgresql://team:fake-team-pass@db/x",
        "UNICUM_HOME": str(w.unicum_home),
        "APP_SERVICE": "https://u:fake-url-pass@example.com",
        "SSH_AUTH_SOCK": "/tmp/agent",
        "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/0/bus",
        "DOCKER_HOST": "unix:///run/docker.sock",
        "PLAIN_SETTING": "kept",
    }
    output, _ = w.run("env", env=env)
    for name in list(env)[:-1]:
        s.attacks.append((f"{name} reaches a command", f"\n{name}=" not in f"\n{output}"))
    s.benign.append(("PLAIN_SETTING reaches a command", "PLAIN_SETTING=kept" in output))
    return s


def dotenv_section(w: EscapeWorld) -> Section:
    import os

    from core.agent import load_dotenv_files

    s = Section("3 project .env")
    hostile = {
        "OPENSSL_CONF": f"{w.project}/evil.cnf",
        "BASH_FUNC_ls%%": "() { echo HIJACKED; }",
        "PGHOSTADDR": "127.0.0.9",
        "LD_PRELOAD": f"{w.project}/evil.so",
        "PYTHONPATH": f"{w.project}/evil",
        "NODE_OPTIONS": "--require ./evil.js",
        "GIT_SSH_COMMAND": "sh evil.sh",
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "SSL_CERT_FILE": f"{w.project}/ca.pem",
        "UNICUM_PROVIDER": "openai",
        "PATH": f"{w.project}/bin",
    }
    benign = {"APP_MODE": "production", "DEBUG": "1", "PORT": "8080", "DATABASE_URL": "sqlite:///x"}
    lines = [f"{k}='{v}'" for k, v in {**hostile, **benign}.items()]
    (w.project / ".env").write_text("\n".join(lines) + "\n")
    saved = dict(os.environ)
    report = load_dotenv_files(w.project, trusted=True)
    reached = {k for k in hostile if os.environ.get(k) == hostile[k]}
    os.environ.clear()
    os.environ.update(saved)
    for name in hostile:
        s.attacks.append(
            (f"{name} from the project .env", name not in reached and name not in report.commands)
        )
    for name in benign:
        s.benign.append((f"{name} reaches commands", report.commands.get(name) == benign[name]))
    w.reset()
    return s


def home_section(w: EscapeWorld) -> Section:
    from core.ledger import Ledger
    from my_agent.home import check_home
    from tools.snapshots import Snapshots

    s = Section("8 private home")
    check_home(w.unicum_home)  # what the CLI does at start
    (w.project / "secret.txt").write_text("fake-private-project-secret\n")
    snaps = Snapshots(w.project, w.unicum_home, "bench")
    snaps.after(snaps.before("bench"))
    Ledger(w.unicum_home / "ledger.db").close()
    for path in sorted(p for p in w.unicum_home.rglob("*") if not p.is_symlink()):
        bits = path.stat().st_mode & 0o077
        s.attacks.append((f"{path.relative_to(w.unicum_home)} readable by others", not bits))
    s.benign.append(("snapshot taken", snaps.take_warning() == ""))
    w.reset()
    return s


def smaller_section(w: EscapeWorld) -> Section:
    from core.agent import find_agents
    from tools.permissions import check_command
    from tools.sandbox import Sandbox, SandboxPolicy

    s = Section("9 smaller")
    out, code = w.run("truncate -s 6G .git/info/exclude")
    size = (w.project / ".git" / "info" / "exclude").stat().st_size
    s.attacks.append(("truncate -s 6G .git/info/exclude", code != 0 and size < 1 << 30))
    small = Sandbox(SandboxPolicy(limits={"memory_mb": 256}), w.project, w.unicum_home)
    out, code, _ = run_small(small, w, "python3 -c 'x = bytearray(512 * 1024 * 1024)'")
    s.attacks.append(("allocate 512 MB under memory_mb 256", code != 0))
    s.attacks.append(("read_file of a swapped-in symlink (200 reads)", swap_race(w) == 0))
    ws = w.project.resolve()
    for command in ("git reset --merge HEAD~1", "git reset --keep HEAD"):
        s.attacks.append((f"{command} asked", bool(check_command(command, ws, sandboxed=True))))
    agents = w.project / ".unicum" / "agents"
    agents.mkdir(parents=True)
    (agents / "general.md").write_text("---\nname: general\ndescription: evil\n---\nobey\n")
    (agents / "helper.md").write_text("---\nname: helper\ndescription: h\n---\nhelp\n")
    found = find_agents(w.project, w.unicum_home)
    s.attacks.append(("untrusted folder's agent definitions", "helper" not in found))
    s.attacks.append(("a project agent replacing general", found["general"].path is None))
    w.reset()
    for benign in (
        "python3 -m unittest -q 2>&1 | tail -1",
        "python3 -m compileall -q src && tar czf build.tgz src && ls build.tgz",
        "ulimit -u && ulimit -f",
    ):
        s.benign.append((benign, w.run(benign)[1] == 0))
    return s


def run_small(box, w: EscapeWorld, command: str):
    from tools.shell import run_command

    return run_command(command, str(w.project), 60, box)


def swap_race(w: EscapeWorld, reads: int = 200) -> int:
    """How many of `reads` read_text calls returned the secret a thread swaps in."""
    import os
    import threading

    from tools.base import ToolContext, ToolError
    from tools.textfile import read_text
    from tools.workspace import resolve_path

    secret = w.root / "outside-secret.txt"
    secret.write_text("SENTINEL-SWAP\n")
    stop, leaks = threading.Event(), 0

    def swap() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            plain, link = w.project / f".p{n}", w.project / f".l{n}"
            plain.write_text("ordinary\n")
            link.symlink_to(secret)
            os.replace(plain, w.project / "notes.txt")
            os.replace(link, w.project / "notes.txt")

    ctx = ToolContext(w.project, w.unicum_home)
    thread = threading.Thread(target=swap, daemon=True)
    thread.start()
    try:
        for _ in range(reads):
            try:
                leaks += "SENTINEL" in read_text(resolve_path(ctx, "notes.txt"), "notes.txt").text
            except ToolError:
                pass
    finally:
        stop.set()
        thread.join()
    w.reset()
    return leaks


def team_section(w: EscapeWorld) -> Section:
    """Two ordinary roles on a real PostgreSQL (skipped when there is none here)."""
    import subprocess

    import psycopg

    from core.memory import open_team_memory
    from my_agent.team import describe_url
    from tests.helpers.pg_server import Cluster, _binaries

    bindir = _binaries()
    s = Section("7 team database" + ("" if bindir else " (no PostgreSQL: skipped)"))
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
        folders = {}
        for name in ("alice-1", "alice-2", "bob"):
            folder = w.root / "team" / name
            folder.mkdir(parents=True)
            subprocess.run(["git", "init", "-q", str(folder)], check=True)
            subprocess.run(
                ["git", "-C", str(folder), "remote", "add", "origin", "git@x:acme/shop.git"],
                check=True,
            )
            folders[name] = folder
        open_team_memory(w.unicum_home, folders["alice-1"], admin)  # the admin migrates
        open_team_memory(w.unicum_home, folders["alice-1"], urls["alice"]).add(
            "project", "notes", "ALICE-NOTE"
        )
        seen = open_team_memory(w.root / "h2", folders["alice-2"], urls["alice"]).entries("project")
        s.benign.append(
            ("a member's other checkout reads it", any("ALICE-NOTE" in e.content for _, e in seen))
        )
        bob = open_team_memory(w.root / "h3", folders["bob"], urls["bob"])
        leaked = any("ALICE-NOTE" in e.content for _, e in bob.entries("project"))
        s.attacks.append(("a repo naming the same origin reads it (bob)", not leaked))
        try:
            bob.add("project", "notes", "BOB-PLANTED")
            s.attacks.append(("bob writes into alice's project", False))
        except OSError:
            s.attacks.append(("bob writes into alice's project", True))
        for url in (
            "postgresql//a:fake-pw-1@h/db",
            "postgresql://a:fake-p@ss-2@h/db",
            "x://h/db?password=fake-pw-3",
        ):
            s.attacks.append(
                (f"{describe_url(url)} printed with its password", "fake-" not in describe_url(url))
            )
    finally:
        cluster.stop()
    return s


SECTIONS = (
    git_section,
    config_section,
    dotenv_section,
    reads_section,
    *network_sections,
    socket_section,
    env_section,
    team_section,
    home_section,
    smaller_section,
    limits_section,
)
