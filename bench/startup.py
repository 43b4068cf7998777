"""Start-up time against `python -c pass`, measured in the same run:

- `python cli.py --help`;
- the REPL: time until its prompt is drawn in a pseudo-terminal (a provider key is set but no
  request is made; the home and the project are temporary folders);
- the same with three MCP servers configured in the project's .mcp.json (the test server over
  stdio, one that never answers, one whose command does not exist): they start in the
  background, so the prompt must not wait for them.
"""

from __future__ import annotations

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
PROMPT = b"unicum>"


def timed(cmd: list[str], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


BARE_PROMPT = "from prompt_toolkit import PromptSession; PromptSession().prompt('unicum> ')"


def time_to_prompt(env: dict[str, str], argv: list[str], timeout: float = 10.0) -> float:
    """Seconds from spawning `python ARGV` in a pseudo-terminal to the prompt on its screen."""
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(sys.executable, [sys.executable, *argv], env)
    seen = b""
    try:
        while PROMPT not in seen:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                raise RuntimeError(f"no prompt within {timeout}s: {seen[-300:]!r}")
            seen += os.read(fd, 65536)
        return time.perf_counter() - start
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(fd)


MCP_SERVER = str(ROOT / "tests" / "helpers" / "mcp_server.py")
THREE_SERVERS = {
    "srv": {"command": sys.executable, "args": [MCP_SERVER, "stdio"]},
    "mute": {"command": sys.executable, "args": [MCP_SERVER, "hang"]},
    "gone": {"command": "/no/such/mcp-server"},
}


def prompts(runs: int, mcp: bool = False) -> tuple[float, float]:
    """(the REPL's time to prompt, a bare prompt_toolkit prompt's: the floor); with `mcp`,
    three MCP servers are configured in the project."""
    with tempfile.TemporaryDirectory() as tmp:
        if mcp:
            servers = json.dumps({"mcpServers": THREE_SERVERS})
            (Path(tmp) / ".mcp.json").write_text(servers, encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
        env.update(
            {
                "UNICUM_HOME": str(Path(tmp) / "home"),
                "OPENAI_API_KEY": "fake-bench-key",
                "UNICUM_PROVIDER": "openai",
                "TERM": "xterm-256color",
                "PROMPT_TOOLKIT_NO_CPR": "1",
            }
        )
        home = Path(tmp) / "home"  # the folder is trusted, as a returning user's would be
        home.mkdir()
        trusted = {"folders": [str(Path(tmp).resolve())]}
        (home / "trusted.json").write_text(json.dumps(trusted), encoding="utf-8")
        repl = [str(ROOT / "cli.py"), "--dir", tmp]
        time_to_prompt(env, repl)  # warm the file cache once
        bare = statistics.median(time_to_prompt(env, ["-c", BARE_PROMPT]) for _ in range(runs))
        return statistics.median(time_to_prompt(env, repl) for _ in range(runs)), bare


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    base = timed([sys.executable, "-c", "pass"], runs)
    helptime = timed([sys.executable, "cli.py", "--help"], runs)
    prompt, bare = prompts(runs)
    with_mcp, _ = prompts(runs, mcp=True)
    print(f"python -c pass      {base * 1000:7.1f} ms")
    for name, value in (
        ("cli.py --help", helptime),
        ("bare prompt_toolkit", bare),
        ("REPL prompt drawn", prompt),
        ("+ 3 MCP servers", with_mcp),
    ):
        print(
            f"{name:<19} {value * 1000:7.1f} ms  ({value / base:.1f}x baseline, "
            f"+{(value - base) * 1000:.0f} ms)"
        )
    met = "met" if max(prompt, with_mcp) < 0.3 else "NOT met"
    print(f"target: REPL prompt < 300 ms, with three MCP servers too — {met}")


if __name__ == "__main__":
    main()
