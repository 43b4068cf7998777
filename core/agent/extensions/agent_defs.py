"""Sub-agent definitions: Markdown files with front matter (name, description, tools, model)
in `.unicum/agents/` and `.claude/agents/` of the project, then `agents/` in the Unicum home."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from core.agent.extensions.gate import project_extensions_allowed
from my_agent.capped import NotRead, read_capped_text
from my_agent.messages import PromptSection

FOLDERS = (".unicum/agents", ".claude/agents")
MAX_AGENT_BYTES, MAX_AGENTS = 64 * 1024, 100
# Claude Code's tool names → ours (a definition written for it works here)
TOOL_NAMES = {
    "Read": ("read_file",),
    "Write": ("write_file",),
    "Edit": ("edit_file",),
    "MultiEdit": ("edit_file",),
    "Bash": ("terminal",),
    "Grep": ("search_files",),
    "Glob": ("list_files",),
    "LS": ("list_files",),
    "WebFetch": ("web_read",),
    "WebSearch": ("web_search",),
    "TodoWrite": ("todo",),
}
INHERIT = {"", "inherit", "sonnet", "opus", "haiku"}  # Claude's aliases: the parent's model


@dataclass(frozen=True)
class AgentDef:
    name: str
    description: str
    tools: tuple[str, ...] = ()  # empty: every tool but `task`
    model: str = ""  # empty: the parent's model
    prompt: str = ""  # the body: the child's instructions
    path: Path | None = None  # None: built in
    max_tokens: int = 0  # its budget share (input + output over its requests); 0: the default


GENERAL = AgentDef(
    "general",
    "explores the code or runs a long search on its own and reports back (built in)",
)
_FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n?(.*)\Z", re.S)


def _tools(value: str) -> tuple[str, ...]:
    names = [n.strip().strip("'\"") for n in value.strip("[] ").split(",") if n.strip()]
    mapped = [m for n in names for m in TOOL_NAMES.get(n, (n,))]
    return tuple(dict.fromkeys(mapped))


def parse_agent(path: Path, warnings: list[str] | None = None) -> AgentDef | None:
    """One definition; None when the file has no front matter or no name, or is not read (a
    link to /dev/zero, a FIFO, 6 GB: one line in `warnings`)."""
    try:
        text = read_capped_text(path, MAX_AGENT_BYTES)
    except NotRead as exc:
        if warnings is not None:
            warnings.append(str(exc))
        return None
    except (OSError, UnicodeDecodeError):
        return None
    match = _FRONT.match(text)
    if match is None:
        return None
    fields: dict[str, str] = {}
    for line in match[1].splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip().lower()] = value.strip()
    name = fields.get("name") or path.stem
    share = fields.get("max_tokens", "").replace("_", "").replace(",", "")
    return AgentDef(
        name,
        fields.get("description", "").strip("'\""),
        _tools(fields.get("tools", "")),
        fields.get("model", ""),
        match[2].strip(),
        path,
        int(share) if share.isdigit() else 0,
    )


def find_agents(
    workspace: Path, home: Path, warnings: list[str] | None = None
) -> dict[str, AgentDef]:
    """Built-in first, then the home's, then the project's when its extensions may load (a
    later one of a name wins; the built-in `general` is never replaced)."""
    found = {GENERAL.name: GENERAL}
    folders = [home / "agents"]
    if project_extensions_allowed(workspace):  # a project's agents only where trusted
        folders += [workspace / f for f in reversed(FOLDERS)]
    for folder in folders:
        for path in sorted(folder.glob("*.md"))[:MAX_AGENTS] if folder.is_dir() else []:
            agent = parse_agent(path, warnings)
            if agent is not None and agent.name != GENERAL.name:
                found[agent.name] = agent
    return found


def agents_section(workspace: Path, home: Path, warnings: list[str] | None = None) -> PromptSection:
    """The sub-agents the `task` tool can start, for the model (empty with only the built-in)."""
    agents = find_agents(workspace, home, warnings)
    if len(agents) == 1:
        return PromptSection("sub-agents", "")
    rows = [f"- {a.name}: {a.description}" for a in agents.values()]
    return PromptSection("sub-agents", "The task tool's `agent` may be:\n" + "\n".join(rows))
