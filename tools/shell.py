"""terminal: run a shell command in the project folder, safely and with compact output."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import threading
import time
from contextlib import nullcontext
from pathlib import Path
from typing import IO, Any

from my_agent.command_made import INSTRUCTION_NAMES, watching
from my_agent.secrets import is_secret_name
from tools.base import Tool, ToolContext, ToolError, ToolOutput, params
from tools.egress import Egress
from tools.permissions import approve_command, files_to_keep
from tools.sandbox import get_sandbox
from tools.sandbox_hints import open_network, why_it_failed
from tools.services import CommandSandbox
from tools.snapshots import get_snapshots, recorded
from tools.textfile import decode_text
from tools.workspace import resolve_path

MAX_TIMEOUT = 600
SHOW_LINES, SHOW_BYTES = 200, 20_000  # what the model sees: head + tail within these
KEEP_BYTES = 8 * 1024 * 1024  # what `full_output` keeps for recall (head + tail beyond it)
# the user's agents and buses (a command reaching one acts outside the sandbox)
SOCKET_ENV = (
    "SSH_AUTH_SOCK",
    "SSH_AGENT_PID",
    "DBUS_SESSION_BUS_ADDRESS",
    "DBUS_SYSTEM_BUS_ADDRESS",
    "DOCKER_HOST",
    "CONTAINER_HOST",
    "GPG_AGENT_INFO",
    "XDG_RUNTIME_DIR",
    "WAYLAND_DISPLAY",
    "DISPLAY",
    "XAUTHORITY",
    "KUBECONFIG",
)
_CREDENTIAL_URL = re.compile(r"[a-z][a-z0-9+.-]*://[^/?#@\s]*:[^/?#@\s]*@", re.IGNORECASE)
QUIET_ENV = {
    "PAGER": "cat",
    "GIT_PAGER": "cat",
    "GIT_TERMINAL_PROMPT": "0",
    "NO_COLOR": "1",
    "TERM": "dumb",
    "PYTHONUNBUFFERED": "1",
    "DEBIAN_FRONTEND": "noninteractive",
}
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07")


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for commands: no API keys or tokens, no `UNICUM_*` variable, no URL
    with credentials, no agent or bus sockets, no pagers or colours; `extra` (the project
    `.env`'s allowed variables) under the same rules."""
    merged = {**os.environ, **(extra or {})}
    env = {k: v for k, v in merged.items() if passes_to_child(k, v)}
    return {**env, **QUIET_ENV}


def passes_to_child(name: str, value: str) -> bool:
    """A variable a command may see."""
    if is_secret_name(name) or name.upper().startswith("UNICUM_") or name in SOCKET_ENV:
        return False
    return not _CREDENTIAL_URL.search(value)


class Collector:
    """Keeps the first and last KEEP_BYTES/2 of a stream, counting what falls in between."""

    def __init__(self, keep: int = KEEP_BYTES) -> None:
        self.half = keep // 2
        self.head = bytearray()
        self.tail = bytearray()
        self.dropped = 0
        self.stop = threading.Event()

    def add(self, chunk: bytes) -> None:
        room = self.half - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        self.tail += chunk
        if len(self.tail) > self.half:
            cut = len(self.tail) - self.half
            self.dropped += cut
            del self.tail[:cut]

    def pump(self, pipe: IO[bytes]) -> None:
        """Read until EOF, or until `stop` is set once nothing more is coming."""
        fd = pipe.fileno()
        while not self.stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                return
            self.add(chunk)


def decode_output(raw: bytes) -> str:
    """The files' decoding rule (`tools.textfile.decode_bytes`: UTF-8, mostly UTF-8, GB18030
    for Chinese Windows tools, latin-1), colours and progress-bar rewrites removed. Never raises."""
    text = decode_text(raw)
    text = ANSI.sub("", text).replace("\r\n", "\n")
    if "\r" in text:  # progress bars: keep what a terminal would finally show on each line
        text = "\n".join(line.rsplit("\r", 1)[-1] for line in text.split("\n"))
    return text


def head_tail(text: str) -> tuple[str, int]:
    """`text` cut to SHOW_LINES / SHOW_BYTES as head + tail, and the number of lines elided."""
    lines = text.split("\n")
    if len(lines) <= SHOW_LINES and len(text.encode("utf-8")) <= SHOW_BYTES:
        return text, 0
    head = _fit(lines[: SHOW_LINES // 2])
    tail = _fit(lines[len(head) :][-(SHOW_LINES // 2) :][::-1])[::-1]
    elided = len(lines) - len(head) - len(tail)
    if not head and not tail:  # one enormous line
        half = SHOW_BYTES // 4  # characters; CJK may take 3 bytes each
        return f"{text[:half]}\n[… {len(text) - 2 * half} characters elided …]\n{text[-half:]}", 0
    note = f"[… {elided} lines elided; the full output is kept and can be recalled …]"
    return "\n".join([*head, note, *tail]), elided


def _fit(lines: list[str]) -> list[str]:
    """The leading lines that fit in half of SHOW_BYTES."""
    kept, size = [], 0
    for line in lines:
        size += len(line.encode("utf-8")) + 1
        if size > SHOW_BYTES // 2:
            break
        kept.append(line)
    return kept


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_command(
    command: str,
    cwd: str,
    timeout: int,
    sandbox: CommandSandbox | None = None,
    egress: Egress | None = None,
    env: dict[str, str] | None = None,
) -> tuple[Collector, int, bool]:
    """(output, exit code, timed out): own process group, stdin closed; inside `sandbox`
    when it is active (reaching hosts through `egress`, whose questions are answered here
    while the command runs); `env`: the project's variables."""
    argv = ["bash", "-c", command]
    if sandbox is not None and sandbox.active:
        argv = sandbox.wrap(argv, Path(cwd), egress)
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=child_env(env),
        start_new_session=True,
    )
    out = Collector()
    reader = threading.Thread(target=out.pump, args=(proc.stdout,), daemon=True)
    reader.start()
    timed_out = False
    try:
        _wait(proc, timeout, egress)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)
    except BaseException:  # Ctrl-C: take the whole group down, then let it propagate
        _kill_group(proc)
        proc.wait()
        out.stop.set()
        raise
    reader.join(timeout=1)  # a background child may still hold the pipe open
    out.stop.set()  # keep what came so far; the child dies of SIGPIPE when it writes again
    reader.join()
    proc.stdout.close()
    code = proc.wait()
    if sandbox is not None and sandbox.active:
        sandbox.finished()
    return out, code, timed_out


def _wait(proc: subprocess.Popen, timeout: float, egress: Egress | None) -> None:
    """Wait for the command, answering its proxy's questions meanwhile (the time the user
    takes to answer is not the command's)."""
    if egress is None:
        proc.wait(timeout=timeout)
        return
    deadline = time.monotonic() + timeout
    while True:
        try:
            proc.wait(timeout=max(0.0, min(0.05, deadline - time.monotonic())))
            return
        except subprocess.TimeoutExpired:
            if time.monotonic() >= deadline:
                raise
        deadline += egress.pump(0.05)


def terminal(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    command: str = args["command"]
    if not command.strip():
        raise ToolError("command is empty")
    cwd = resolve_path(ctx, args["cwd"]) if args.get("cwd") else ctx.workspace.resolve()
    if not cwd.is_dir():
        raise ToolError(f"cwd {args['cwd']} is not a folder")
    sandbox = get_sandbox(ctx)
    sandboxed = sandbox is not None and sandbox.active
    approve_command(ctx, command, cwd, sandboxed=sandboxed)
    egress = open_network(ctx, sandbox, command, bool(args.get("network"))) if sandboxed else None
    timeout = min(max(1, int(args.get("timeout", 120))), MAX_TIMEOUT)
    made_here, keep = (ctx.workspace.resolve(),), files_to_keep(command, ctx.workspace, cwd)
    with watching(ctx.home, ctx.session_id, made_here) as created:
        with recorded(ctx, f"terminal `{command}`", keep=keep) as step, egress or nullcontext():
            out, code, timed_out = run_command(
                command, str(cwd), timeout, sandbox, egress, ctx.command_env
            )
        created += get_snapshots(ctx).added(step, INSTRUCTION_NAMES)  # in deeper folders too
    text = decode_output(bytes(out.head))
    if out.dropped:
        text += f"\n[… {out.dropped} bytes not kept …]\n"
    text = (text + decode_output(bytes(out.tail))).rstrip("\n")
    shown, elided = head_tail(text)
    status = f"timed out after {timeout}s; process group killed" if timed_out else f"exit {code}"
    if out.dropped:
        status += f"; {out.dropped} bytes of output in the middle were not kept"
    if sandboxed:
        status += why_it_failed(text, egress, command, code)
    body = f"{shown}\n[{status}]" if shown.strip() else f"[{status}]"
    data: dict[str, Any] = {
        "exit_code": code,
        "timed_out": timed_out,
        "command": command,
        "lines": text.count("\n") + 1 if text else 0,
    }
    if shown != text:
        data["full_output"] = text
        data["elided_lines"] = elided
    else:
        data["output"] = text
    return ToolOutput(body, is_error=timed_out or code != 0, data=data)


TOOLS = [
    Tool(
        "terminal",
        "Run a bash command in the project folder (no stdin; timeout: seconds, max 600); "
        "its output and exit code. Offline unless network is true (asked per host).",
        params(
            ["command"],
            command={"type": "string"},
            cwd={"type": "string"},
            timeout={"type": "integer", "minimum": 1},
            network={"type": "boolean"},
        ),
        terminal,
        key_arg="command",
    ),
]
