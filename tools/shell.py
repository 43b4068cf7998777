"""terminal: run a shell command in the project folder."""

from __future__ import annotations

import os
import signal
import subprocess
from typing import Any

from tools.base import Tool, ToolContext, ToolError, ToolOutput, params
from tools.workspace import resolve_path

MAX_TIMEOUT = 600
SECRET_SUFFIXES = ("_API_KEY",)


def child_env() -> dict[str, str]:
    """The environment for commands, without provider API keys."""
    return {k: v for k, v in os.environ.items() if not k.endswith(SECRET_SUFFIXES)}


def terminal(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    command: str = args["command"]
    if not command.strip():
        raise ToolError("command is empty")
    cwd = resolve_path(ctx, args["cwd"]) if args.get("cwd") else ctx.workspace
    timeout = min(max(1, int(args.get("timeout", 120))), MAX_TIMEOUT)
    proc = subprocess.Popen(
        ["bash", "-c", command], cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, env=child_env(), start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        timed_out = True
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise
    text = out.decode("utf-8", errors="replace")
    code = proc.returncode
    status = f"timed out after {timeout}s" if timed_out else f"exit {code}"
    body = f"{text.rstrip()}\n[{status}]" if text.strip() else f"[{status}]"
    return ToolOutput(body, is_error=timed_out or code != 0,
                      data={"exit_code": code, "timed_out": timed_out, "output": text})


TOOLS = [
    Tool(
        "terminal",
        "Run a bash command in the project folder (stdin closed). Returns output and exit code.",
        params(["command"], command={"type": "string"}, cwd={"type": "string"},
               timeout={"type": "integer", "description": "seconds, max 600"}),
        terminal,
        key_arg="command",
    ),
]
