"""One-shot runs against a bare HTTP call, measured in the same run, paired and interleaved.

Against the scripted loopback server (tests/helpers/fake_llm.py: the real OpenAI and Anthropic
wire protocols, answering at once), whole processes, wall clock:

- `unicum -p hi --trust` in an empty project with a fresh home (Python's bytecode cache
  warmed once, as an installed copy has it);
- the same with `UNICUM_HTTP=sdk`: every request through the provider's SDK, as before
  requests went out with our own HTTP client;
- a bare 20-line script (`BARE`, below) that POSTs the very body `-p` sent and reads the
  stream to its end, printing the text: with httpx2 (the HTTP client Unicum and both SDKs
  use; the ratio is against it) and with httpx 0.28 (whose import also loads its command
  line's click and rich when they are installed: the slower baseline, shown too);

for both wires: OpenAI Chat Completions (`--provider openai`) and Anthropic Messages
(`--provider zhipu`, the default provider, speaks it). Each round runs the three in a
rotating order, so load from other work hits all alike; the table gives medians and the
median of each round's ratio. Then the REPL's Enter-to-first-token in a pseudo-terminal:
the prompt drawn, Enter pressed `--think` seconds later, until the reply's first text shows
(ours and `UNICUM_HTTP=sdk`, interleaved).

    python bench/oneshot.py [--runs 9] [--repl-runs 5] [--think 1.0]
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers.fake_llm import ScriptedLLM  # noqa: E402

TARGET = 1.8  # `-p` / bare script, at most (issue #31)
ANSWER = "pong from the scripted server"
BARE = """\
import json, sys
import HTTPX as httpx

url, body_file, key = sys.argv[1:4]
headers = {"content-type": "application/json", "authorization": f"Bearer {key}"}
if url.endswith("/messages"):
    headers["anthropic-version"] = "2023-06-01"
text = []
with httpx.stream("POST", url, content=open(body_file, "rb").read(), headers=headers) as r:
    for line in r.iter_lines():
        if not line.startswith("data: ") or line == "data: [DONE]":
            continue
        event = json.loads(line[6:])
        delta = event.get("delta") or (event.get("choices") or [{}])[0].get("delta") or {}
        text.append(delta.get("text") or delta.get("content") or "")
print("".join(text))
"""
WIRES = {"openai": ("openai", "OPENAI"), "anthropic": ("zhipu", "ZHIPUAI")}


class Setup:
    """A fresh home (the project trusted), an empty project, the environment for a wire."""

    def __init__(self, tmp: Path, llm: ScriptedLLM) -> None:
        self.home, self.project = tmp / "home", tmp / "project"
        self.home.mkdir()
        self.project.mkdir()
        trusted = {"folders": [str(self.project.resolve())]}
        (self.home / "trusted.json").write_text(json.dumps(trusted), encoding="utf-8")
        self.llm = llm
        self.bare = {name: tmp / f"bare_{name}.py" for name in ("httpx2", "httpx")}
        for name, path in self.bare.items():
            path.write_text(BARE.replace("HTTPX", name), encoding="utf-8")
        self.body = tmp / "body.json"

    def env(self, wire: str, via_sdk: bool = False) -> dict[str, str]:
        provider, prefix = WIRES[wire]
        drop = ("_API_KEY", "_BASE_URL")
        env = {k: v for k, v in os.environ.items() if not k.endswith(drop)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed copy has its bytecode cached
        env.pop("UNICUM_HTTP", None)
        url = self.llm.url if wire == "anthropic" else self.llm.openai_url
        base_var = "ZHIPUAI_ANTHROPIC_BASE_URL" if provider == "zhipu" else "OPENAI_BASE_URL"
        env.update(
            {
                "UNICUM_HOME": str(self.home),
                "UNICUM_PROVIDER": provider,
                f"{prefix}_API_KEY": "fake-bench-key",
                base_var: url,
                "TERM": "xterm-256color",
                "PROMPT_TOOLKIT_NO_CPR": "1",
            }
        )
        if via_sdk:
            env["UNICUM_HTTP"] = "sdk"
        return env

    def url(self, wire: str) -> str:
        return self.llm.url + ("/v1/messages" if wire == "anthropic" else "/v1/chat/completions")


def run_p(setup: Setup, wire: str, via_sdk: bool = False) -> float:
    setup.llm.reply(ANSWER)
    cmd = [sys.executable, str(ROOT / "cli.py"), "--dir", str(setup.project), "-p", "hi"]
    start = time.perf_counter()
    proc = subprocess.run(
        [*cmd, "--trust"], env=setup.env(wire, via_sdk), capture_output=True, text=True
    )
    took = time.perf_counter() - start
    if proc.returncode != 0 or ANSWER not in proc.stdout:
        raise RuntimeError(f"-p failed: {proc.stderr[-500:]}")
    setup.body.write_bytes(setup.llm.requests[-1].raw)  # what the bare script sends
    return took


def run_bare(setup: Setup, wire: str, library: str) -> float:
    setup.llm.reply(ANSWER)
    script = str(setup.bare[library])
    cmd = [sys.executable, script, setup.url(wire), str(setup.body), "fake-bench-key"]
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=setup.env(wire), capture_output=True, text=True)
    took = time.perf_counter() - start
    if proc.returncode != 0 or ANSWER not in proc.stdout:
        raise RuntimeError(f"the bare script failed: {proc.stderr[-500:]}")
    return took


def paired(setup: Setup, wire: str, runs: int) -> dict[str, list[float]]:
    """Each round: `-p`, `-p` through the SDK and the bare scripts, in a rotating order."""
    jobs = {
        "p": lambda: run_p(setup, wire),
        "sdk": lambda: run_p(setup, wire, via_sdk=True),
        "bare": lambda: run_bare(setup, wire, "httpx2"),
        "httpx": lambda: run_bare(setup, wire, "httpx"),
    }
    for job in jobs.values():
        job()  # warm: bytecode written, files cached (and the body for the bare script)
    samples: dict[str, list[float]] = {name: [] for name in jobs}
    order = list(jobs)
    for n in range(runs):
        for name in order[n % len(order) :] + order[: n % len(order)]:
            samples[name].append(jobs[name]())
    return samples


def enter_to_first_token(setup: Setup, wire: str, via_sdk: bool, think: float) -> float:
    """The REPL in a pseudo-terminal: Enter pressed `think` s after the prompt shows, until
    the reply's text is on the screen."""
    setup.llm.reply(ANSWER)
    argv = [sys.executable, str(ROOT / "cli.py"), "--dir", str(setup.project)]
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(sys.executable, argv, setup.env(wire, via_sdk))
    try:
        _read_until(fd, b"unicum>")
        time.sleep(think)
        os.write(fd, b"hi")
        time.sleep(0.05)
        start = time.perf_counter()
        os.write(fd, b"\r")
        _read_until(fd, ANSWER.split()[0].encode())
        return time.perf_counter() - start
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)


def _read_until(fd: int, mark: bytes, timeout: float = 30.0) -> None:
    seen = b""
    while mark not in seen:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            raise RuntimeError(f"{mark!r} not seen within {timeout}s: {seen[-300:]!r}")
        seen += os.read(fd, 65536)


def repl_rows(setup: Setup, runs: int, think: float) -> list[tuple[str, float, float]]:
    rows = []
    for wire in WIRES:
        times: dict[bool, list[float]] = {False: [], True: []}
        for n in range(runs):
            for via_sdk in (n % 2 == 1, n % 2 == 0):
                times[via_sdk].append(enter_to_first_token(setup, wire, via_sdk, think))
        rows.append((wire, statistics.median(times[False]), statistics.median(times[True])))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--repl-runs", type=int, default=5)
    parser.add_argument("--think", type=float, default=1.0)
    args = parser.parse_args()
    llm = ScriptedLLM().start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            setup = Setup(Path(tmp), llm)
            report(setup, args)
    finally:
        llm.stop()


def report(setup: Setup, args: argparse.Namespace) -> None:
    load = os.getloadavg()[0]
    print(f"{args.runs} paired rounds per wire, wall clock, medians (load {load:.1f})")
    head = ("wire", "unicum -p", "bare httpx2", "ratio", "bare httpx", "ratio", "via SDK", "ratio")
    print("{:<10} {:>9} {:>11} {:>6} {:>10} {:>6} {:>8} {:>6}".format(*head))
    met = True
    for wire in WIRES:
        s = paired(setup, wire, args.runs)
        ratio = {k: _ratio(s[k], s["bare"]) for k in ("p", "sdk")}
        ratio["httpx"] = _ratio(s["p"], s["httpx"])
        met = met and ratio["p"] <= TARGET
        m = {k: statistics.median(v) for k, v in s.items()}
        print(
            f"{wire:<10} {m['p']:8.2f}s {m['bare']:10.2f}s {ratio['p']:5.2f}x {m['httpx']:9.2f}s"
            f" {ratio['httpx']:5.2f}x {m['sdk']:7.2f}s {ratio['sdk']:5.2f}x"
        )
    verdict = "met" if met else "NOT met"
    print(f"target: unicum -p <= {TARGET}x bare httpx2 on both wires — {verdict}")
    print(
        f"REPL Enter-to-first-token ({args.repl_runs} runs, Enter {args.think:g} s after the prompt)"
    )
    for wire, ours, sdk in repl_rows(setup, args.repl_runs, args.think):
        print(f"{wire:<10} {ours * 1000:7.0f} ms   via SDK {sdk * 1000:7.0f} ms")


def _ratio(ours: list[float], baseline: list[float]) -> float:
    """The median of each round's ratio."""
    return statistics.median(a / b for a, b in zip(ours, baseline, strict=True))


if __name__ == "__main__":
    main()
