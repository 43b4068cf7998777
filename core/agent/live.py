"""Opens a session for the REPL or `-p`: agent, memory, transcript, debug log, resumed history."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.agent.debug_log import DebugLog
from core.agent.events import AgentHooks, HookList, TaskResult
from core.agent.loop import INTERRUPTED, Agent
from core.agent.session import SessionOptions, create_agent, session_notices, session_warnings
from core.agent.session import end_session as close_session
from core.agent.transcript import (
    Transcript,
    TranscriptHooks,
    close_open_tool_calls,
    find_session,
    read_history,
)
from core.context import Archive, CacheAwareContext, archive_path
from my_agent.home import project_id, unicum_home
from my_agent.messages import ModelResponse
from tools.base import Prompter


class DebugHooks(AgentHooks):
    """Appends each response (and retries) to the debug log; requests come from the client."""

    def __init__(self, log: DebugLog) -> None:
        self.log = log

    def on_response(self, response: ModelResponse) -> None:
        self.log.write(
            "response",
            {
                "model": response.model,
                "stop_reason": response.stop_reason,
                "usage": response.usage.to_dict(),
                "ttft": response.ttft,
                "duration": response.duration,
                "message": response.message.to_dict(),
            },
        )

    def on_retry(self, attempt: int, wait: float, reason: str) -> None:
        self.log.write("retry", {"attempt": attempt, "wait": wait, "reason": reason})

    def on_task_end(self, result: TaskResult) -> None:
        self.log.write(
            "task_end",
            {"stop": result.stop, "turns": result.turns, "usage": result.usage.to_dict()},
        )


@dataclass
class LiveSession:
    agent: Agent
    transcript: Transcript
    debug_log: DebugLog | None = None
    resumed: int = 0  # messages restored from a saved session


def resume_path(opts: SessionOptions, cont: bool, resume_id: str | None) -> Path | None:
    """The transcript `--continue` / `--resume ID` name, or None; TranscriptError if missing."""
    if not cont and not resume_id:
        return None
    return find_session(unicum_home(), opts.workspace.expanduser().resolve(), resume_id)


def open_session(
    opts: SessionOptions,
    hooks: list[AgentHooks],
    prompter: Prompter | None = None,
    resume: Path | None = None,
    debug: bool = False,
) -> LiveSession:
    """A ready agent whose every appended message is saved as it happens. `create_agent` builds
    the system prompt (project memory included), so `/new` and `/cd` re-inject memory."""
    home = unicum_home()
    if resume is not None:
        opts.session_id = resume.stem
    agent = create_agent(opts, hooks=HookList(list(hooks)), prompter=prompter)
    notices = session_notices(agent.tool_context.services)  # skipped lines: a start note
    history = read_history(resume, notices) if resume is not None else []
    if resume is not None:
        transcript = Transcript(resume, history=history)
    else:
        transcript = Transcript.create(
            home,
            agent.tool_context.workspace,
            opts.session_id,
            provider=agent.client.provider.profile.name,
            model=agent.client.model,
        )
    if resume is not None:
        adopt_archive(agent, resume)
    agent.history = list(history)
    close_open_tool_calls(agent.history, INTERRUPTED)
    transcript.sync(agent.history)
    extra: list[AgentHooks] = [TranscriptHooks(transcript, lambda: agent.history)]
    log = None
    if debug:
        log = DebugLog(home, opts.session_id)
        agent.client.on_request = lambda request: log.write("request", request)
        extra.append(DebugHooks(log))
    agent.hooks = HookList([agent.hooks, *extra])
    agent.client.on_retry = agent.hooks.on_retry
    return LiveSession(agent, transcript, log, len(history))


def adopt_archive(agent: Agent, resume: Path) -> None:
    """A session resumed from another folder's saved sessions keeps its own archive (stored
    under the project it was saved in), so `recall` of what it archived there still works."""
    ctx = agent.tool_context
    project = resume.parent.name  # sessions/<project id>/<session id>.jsonl
    if project == project_id(ctx.workspace):
        return  # the policy already opened archive_path(home, this project, session id)
    archive = Archive.open(archive_path(ctx.home, project, resume.stem))
    ctx.services["archive"] = archive
    if isinstance(agent.context, CacheAwareContext):
        agent.context.archive = archive


def start_notes(agent: Agent) -> list[str]:
    """Warnings the session's services raised while starting (each shown once)."""
    return [f"warning: {w}" for w in session_warnings(agent)]


def end_session(agent: Agent) -> list[str]:
    """Close the session's services (memory written at the end); returns their warnings."""
    close_session(agent)
    return start_notes(agent)
