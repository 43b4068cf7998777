"""The session's MCP servers, started in one background thread with its own event loop so the
prompt never waits for them: each server has its start-up deadline, counted from its first output
(a line on stderr or its handshake answer); one that fails to start or
dies is one warning and its tools report it as their reason for being unavailable."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from core.mcp.config import ServerConfig
from core.mcp.stderr_tap import StderrTap
from my_agent.private import open_private

if TYPE_CHECKING:
    import asyncio

START_TIMEOUT = 10.0  # seconds a server may take to start and list its tools
CALL_TIMEOUT = 300.0  # seconds one call may take unless the server's entry says otherwise
TIMEOUT_ENV = "UNICUM_MCP_TIMEOUT"
# The SDK takes most of a second of CPU to import: the thread lets the REPL draw its prompt
# first (the GIL is shared), unless the session needs the servers sooner (its first request).
START_DELAY = 0.3


CLAUDE_TIMEOUT_ENV = "MCP_TIMEOUT"  # Claude Code's name, in milliseconds


def start_timeout() -> float:
    """`UNICUM_MCP_TIMEOUT` seconds, else Claude Code's `MCP_TIMEOUT` milliseconds."""
    for name, scale in ((TIMEOUT_ENV, 1.0), (CLAUDE_TIMEOUT_ENV, 0.001)):
        try:
            value = float(os.environ.get(name, "")) * scale
        except ValueError:
            continue
        if value > 0:
            return value
    return START_TIMEOUT


@dataclass
class ServerState:
    config: ServerConfig
    status: str = "starting"  # starting | ready | failed | stopped
    reason: str = ""  # why it failed or stopped
    tools: list[dict[str, Any]] = field(default_factory=list)
    client: Any = None
    settled: threading.Event = field(default_factory=threading.Event)
    deadline: float = 0.0  # its own start-up deadline once spawned (0: the hub's, until then)
    heard: bool = False  # it has said something (stderr, or its handshake answer)

    @property
    def name(self) -> str:
        return self.config.name


@dataclass(frozen=True)
class CallResult:
    text: str
    is_error: bool = False
    data: dict[str, Any] = field(default_factory=dict)
    unavailable: bool = False  # the server is gone: the text says why
    images: list[bytes] = field(default_factory=list)  # the result's images, as sent


class McpHub:
    def __init__(
        self,
        servers: list[ServerConfig],
        workspace: Path,
        log_dir: Path,
        warn: Callable[[str], None],
        timeout: float | None = None,
    ) -> None:
        self.servers = {s.name: ServerState(s) for s in servers}
        self.workspace = workspace
        self.log_dir = log_dir
        self.warn = warn
        self.timeout = timeout or start_timeout()
        self.deadline = time.monotonic() + self.timeout
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._running = threading.Event()
        self._thread: threading.Thread | None = None
        self._go = threading.Event()  # set: start now, without the delay
        self._tasks: dict[str, asyncio.Task] = {}  # each server's, on the hub's loop
        self._delay = START_DELAY

    def start(self, delay: float = START_DELAY) -> None:
        """Start every server in the background, after `delay` seconds (or when `settle`
        asks first); returns at once."""
        if not self.servers or self._thread is not None:
            return
        self._delay = delay
        self.deadline = time.monotonic() + delay + self.timeout
        self._thread = threading.Thread(target=self._main, name="unicum-mcp", daemon=True)
        self._thread.start()

    def _main(self) -> None:
        try:
            self._go.wait(self._delay)
            import asyncio  # 0.1 s to import: only a session with servers needs it

            asyncio.run(self._run_all())
        except BaseException as exc:  # the SDK missing, a loop failure: every server fails
            for state in self.servers.values():
                self._fail(state, f"{type(exc).__name__}: {exc}")
        finally:
            self._running.set()

    async def _run_all(self) -> None:
        import asyncio

        from core.mcp import connect  # noqa: F401 - the SDK loads here, in this thread

        # the deadline counts from now: loading the SDK (seconds on a busy machine) is ours
        self.deadline = time.monotonic() + self.timeout
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        self._running.set()
        self._tasks = {s.name: asyncio.create_task(self._serve(s)) for s in self.servers.values()}
        await self._stop.wait()
        await asyncio.wait(list(self._tasks.values()), timeout=10)

    def restart(self, server: str) -> bool:
        """Stop the server (its process ends) and start it afresh, with a new deadline; its
        tools keep their names and reach the new connection. False: the hub is not running."""
        import asyncio

        if self._loop is None or self._loop.is_closed() or server not in self.servers:
            return False
        future = asyncio.run_coroutine_threadsafe(self._restart(server), self._loop)
        try:
            future.result(15)
        except (TimeoutError, RuntimeError):  # concurrent.futures' TimeoutError, since 3.11
            return False
        return True

    async def _restart(self, server: str) -> None:
        import asyncio

        old = self._tasks.get(server)
        self.servers[server].status = "restarting"  # its ending is no failure to warn about
        if old is not None and not old.done():
            old.cancel()
            await asyncio.wait([old], timeout=10)
        state = self.servers[server]
        state.status, state.reason, state.tools, state.client = "starting", "", [], None
        state.settled.clear()
        state.deadline = time.monotonic() + self.timeout
        self._tasks[server] = asyncio.create_task(self._serve(state))

    async def _serve(self, state: ServerState) -> None:
        import asyncio

        from core.mcp import connect  # the SDK loads in this thread, never before the prompt

        assert self._stop is not None
        loop = asyncio.get_running_loop()
        state.heard = False
        state.deadline = time.monotonic() + self.timeout  # until its first output
        try:
            with self._errlog(state) as errlog, contextlib.ExitStack() as taps:
                async with contextlib.AsyncExitStack() as stack:
                    try:
                        async with asyncio.timeout(self.timeout) as window:
                            tap = StderrTap(errlog, loop, lambda: self._heard(state, window))
                            taps.callback(tap.close)
                            opened = connect.connect(state.config, self.workspace, tap.stream)
                            client = await stack.enter_async_context(opened)
                            self._heard(state, window)  # its answer to the handshake is output
                            state.tools = await connect.list_tools(client)
                    except Exception as exc:  # failed now; the SDK's shutdown may take a while
                        self._fail(state, self._why(exc, state))
                        return
                    if state.status != "starting":  # the deadline passed meanwhile
                        return
                    state.client, state.status = client, "ready"
                    state.settled.set()
                    await self._stop.wait()
        except BaseException as exc:  # noqa: BLE001 - a server must never take the session down
            if state.status == "starting" and not self._stop.is_set():
                self._fail(state, self._why(exc, state))
        finally:
            state.client = None
            state.settled.set()

    def _heard(self, state: ServerState, window: asyncio.Timeout) -> None:
        """The server's first output (a line on stderr, or its handshake answer): its
        start-up deadline counts from now."""
        if state.heard or state.status != "starting":
            return
        state.heard = True
        state.deadline = time.monotonic() + self.timeout
        import asyncio

        window.reschedule(asyncio.get_running_loop().time() + self.timeout)

    def _why(self, exc: BaseException, state: ServerState | None = None) -> str:
        if isinstance(exc, TimeoutError):
            return self._slow(state)
        return _describe(exc)

    def _slow(self, state: ServerState | None) -> str:
        """A start past the deadline: often a first `npx -y …` downloading; say what to set."""
        log = f"; its log: {self.log_dir / f'mcp-{state.name}.log'}" if state is not None else ""
        after = " of its first output" if state is not None and state.heard else ""
        return (
            f"no answer within {self.timeout:g} s{after} (a slow first start, such as npx "
            f"downloading the server, needs more: {TIMEOUT_ENV}=60{log})"
        )

    def _errlog(self, state: ServerState) -> IO[str]:
        """A stdio server's stderr goes to logs/mcp-<name>.log, never onto the screen."""
        return open_private(self.log_dir / f"mcp-{state.name}.log", "a", encoding="utf-8")

    def _fail(self, state: ServerState, reason: str, status: str = "failed") -> None:
        if state.status in ("failed", "stopped"):
            return
        state.status, state.reason = status, reason
        verb = "did not start" if status == "failed" else "stopped"
        self.warn(f"MCP server '{state.name}' {verb}: {reason}")
        state.settled.set()

    def settle(self) -> list[str]:
        """Wait (until the start-up deadline at most) for servers still starting; the names
        of those it waited for. The deadline moves once the SDK has loaded, so it is read
        again while waiting."""
        self._go.set()
        waited = [name for name, state in self.servers.items() if not state.settled.is_set()]
        for state in self.servers.values():
            while not state.settled.wait(min(0.2, max(0.0, self._until(state)))):
                if self._until(state) <= 0:
                    break
        self.refresh()
        return waited

    def _until(self, state: ServerState) -> float:
        """Seconds left before the server's start-up deadline (it moves at its first output)."""
        return (state.deadline or self.deadline) - time.monotonic()

    def refresh(self) -> None:
        """Servers still starting past the deadline have failed (whatever the thread is at)."""
        now = time.monotonic()
        for state in self.servers.values():
            if state.status == "starting" and now >= (state.deadline or self.deadline):
                self._fail(state, self._slow(state))

    def call(self, server: str, tool: str, args: dict[str, Any]) -> CallResult:
        """Run one tool call on the server's loop and wait for it (Ctrl-C cancels it)."""
        state = self.servers[server]
        if state.status != "ready" or state.client is None or self._loop is None:
            return CallResult(self.unavailable(server) or "not connected", True, unavailable=True)
        import asyncio

        from core.mcp import connect

        timeout = state.config.timeout or CALL_TIMEOUT
        future = asyncio.run_coroutine_threadsafe(
            connect.call_tool(state.client, tool, args, timeout), self._loop
        )
        try:
            text, is_error, data, images = future.result(timeout + 5)
        except KeyboardInterrupt:
            future.cancel()
            raise
        except TimeoutError:  # concurrent.futures' own, since Python 3.11
            future.cancel()
            return CallResult(
                f"{tool}: no answer from MCP server '{server}' in {timeout:g} s", True
            )
        except Exception as exc:
            if connect.closed(exc) or state.client is None:
                self._fail(state, _describe(exc), status="stopped")
                return CallResult(self.unavailable(server) or "", True, unavailable=True)
            return CallResult(f"MCP server '{server}' refused the call: {_describe(exc)}", True)
        return CallResult(text, is_error, data, images=images)

    def unavailable(self, server: str) -> str | None:
        """Why the server's tools cannot run now, or None."""
        self.refresh()
        state = self.servers[server]
        if state.status == "ready":
            return None
        if state.status == "starting":
            return f"MCP server '{server}' is still starting"
        return f"MCP server '{server}' {state.status}: {state.reason}"

    def close(self, wait: float = 5.0) -> None:
        """Stop every server (stdio processes are ended by the SDK) and the thread."""
        if self._thread is None:
            return
        self._running.wait(wait)
        if self._loop is not None and self._stop is not None and not self._loop.is_closed():
            try:
                self._loop.call_soon_threadsafe(self._stop.set)
            except RuntimeError:  # the loop already ended
                pass
        self._thread.join(wait)
        self._thread = None


def _describe(exc: BaseException) -> str:
    """One line for an error, looking inside the SDK's exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, TimeoutError):  # asyncio's too, since Python 3.11
        return "no answer in time"
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:200]
