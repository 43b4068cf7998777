"""How the task bench starts each agent on one task: Unicum through its CLI (`-p`, JSON out),
mini-swe-agent through its own `mini` command in its own environment. Both get the same prompt,
the same turn cap and the same server (through the counting proxy)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MINI_VENV = Path.home() / ".cache" / "unicum-bench" / "mswea-venv"
# Unicum's tool sets (the names the table shows), chosen by the tool_set setting: `default` is
# what the session decides (lean for a local server), `full` what it offered before that
UNICUM_SETS = {"default": "auto", "lean": "lean", "full": "full"}
MINI_CONFIGS = {"mini": "mini.yaml", "mini-text": "mini_textbased.yaml"}
MINI_CLASSES = {"mini": "litellm", "mini-text": "litellm_textbased"}
REPLY_CAP = 4096  # tokens a reply may have: what Unicum sends at a 16k window (a quarter of it)


@dataclass
class Limits:
    max_turns: int = 15
    timeout: float = 900.0  # seconds a run may take in all
    context_policy: str = "ours"  # Unicum's --context-policy
    reply_cap: int = REPLY_CAP  # max tokens of each reply, for both agents


@dataclass
class Ran:
    stop: str  # the agent's own word for how it ended (done, repeated, Submitted, timeout...)
    seconds: float
    turns: int | None = None  # as the agent reported them
    detail: str = ""  # the end of its output, when it failed to start


def _run(cmd: list[str], env: dict[str, str], cwd: Path, timeout: float, log: Path):
    """Run in its own process group (a timeout ends the whole group); output into `log`."""
    started = time.monotonic()
    with log.open("w", encoding="utf-8") as out:
        proc = subprocess.Popen(
            cmd,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            text=True,
        )
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return None, time.monotonic() - started
    return proc.returncode, time.monotonic() - started


def _env(extra: dict[str, str]) -> dict[str, str]:
    """This Python's folder first on PATH: `python -m pytest` works for both agents."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return {**os.environ, "PATH": path, **extra}


def run_unicum(
    prompt: str, project: Path, run_dir: Path, url: str, model: str, tools: str, limits: Limits
) -> Ran:
    home = run_dir / "unicum-home"
    home.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable,
        str(ROOT / "cli.py"),
        "-p",
        prompt,
        "--dir",
        str(project),
        "--provider",
        "openai-compatible",
        "--output-format",
        "json",
        "--yes",
        "--max-turns",
        str(limits.max_turns),
        "--context-policy",
        limits.context_policy,
    ]
    env = _env(
        {
            "UNICUM_BASE_URL": url,
            "UNICUM_MODEL": model,
            "UNICUM_HOME": str(home),
            "UNICUM_TOOL_SET": UNICUM_SETS[tools],
            "UNICUM_MAX_OUTPUT_TOKENS": str(limits.reply_cap),
        }
    )
    log = run_dir / "unicum.log"
    (run_dir / "unicum.cmd.json").write_text(json.dumps(cmd[1:]), encoding="utf-8")
    code, seconds = _run(cmd, env, project, limits.timeout, log)
    if code is None:
        return Ran("timeout", seconds)
    result = _last_json(log.read_text(encoding="utf-8", errors="replace"))
    if result is None:
        return Ran(f"exit {code}", seconds, detail=_tail(log))
    return Ran(str(result.get("stop") or "?"), seconds, result.get("num_turns"))


def _last_json(text: str) -> dict | None:
    for line in reversed(text.splitlines()):
        if line.startswith("{"):
            try:
                found = json.loads(line)
            except ValueError:
                continue
            if isinstance(found, dict) and found.get("type") == "result":
                return found
    return None


def _tail(log: Path, lines: int = 5) -> str:
    return " | ".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])


def mini_command(venv: Path = MINI_VENV) -> Path | None:
    found = venv / "bin" / "mini"
    return found if found.is_file() else None


def run_mini(
    prompt: str, project: Path, run_dir: Path, url: str, model: str, kind: str, limits: Limits
) -> Ran:
    """mini-swe-agent with its own config for `kind` (its default `mini.yaml`, or the text-based
    one), confirmations off, its step limit at our turn cap, the cost limit off, its reply cap
    Unicum's (without one a reply runs on to the window's end: llama-server finishes a request
    whose client was killed at the timeout, and the next run waits for it)."""
    mini = mini_command()
    if mini is None:
        return Ran("not installed", 0.0, detail=f"pip install mini-swe-agent into {MINI_VENV}")
    traj = run_dir / "mini.traj.json"
    config = {
        "agent.step_limit": limits.max_turns,
        "agent.cost_limit": 0,
        "environment.cwd": str(project),
        "model.model_class": MINI_CLASSES[kind],
        "model.model_kwargs.api_base": url,
        "model.model_kwargs.api_key": "fake-local-key",
        "model.model_kwargs.max_tokens": limits.reply_cap,  # a killed run's request ends too
        "model.cost_tracking": "ignore_errors",
    }
    cmd = [str(mini), "-m", f"openai/{model}", "-t", prompt, "-y", "--exit-immediately"]
    cmd += ["-o", str(traj), "-c", MINI_CONFIGS[kind]]
    for key, value in config.items():
        cmd += ["-c", f"{key}={value}"]
    env = _env(
        {
            "MSWEA_CONFIGURED": "true",
            "MSWEA_SILENT_STARTUP": "1",
            "MSWEA_GLOBAL_CONFIG_DIR": str(run_dir / "mini-config"),
            "MSWEA_COST_TRACKING": "ignore_errors",
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",  # nothing downloads at run time
        }
    )
    code, seconds = _run(cmd, env, project, limits.timeout, run_dir / "mini.log")
    if code is None:
        return Ran("timeout", seconds)
    try:
        info = json.loads(traj.read_text(encoding="utf-8"))["info"]
    except (OSError, ValueError, KeyError):
        return Ran(f"exit {code}", seconds, detail=_tail(run_dir / "mini.log"))
    calls = info.get("model_stats", {}).get("api_calls")
    return Ran(str(info.get("exit_status") or "?"), seconds, calls)
