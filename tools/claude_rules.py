"""Permission rules in Claude Code's syntax: `Bash(npm test:*)`, `Edit(src/**)`,
`Read(./.env)`, `WebFetch(domain:example.com)`, `mcp__server`, `mcp__server__tool`, a bare tool
name, or Unicum's names (`terminal(git:*)`). Read by settings' `permissions`, the
`--allowedTools` / `--disallowedTools` flags and custom commands' `allowed-tools`.

A terminal command is read by the shell reader, not as text: an allow rule covers a command only
when every simple command of it matches (so `Bash(git diff:*)` never allows
`git diff && rm -r x`), and one with a substitution in it never; a deny or ask rule covers it when
any command does, substitutions included. Paths follow Claude Code: `//abs`, `~/home`,
`/from-the-project-root`, `./from-here` or `x/y` (from the project folder), and a name with no
slash matches at any depth; `**` crosses folders, `*` does not."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from my_agent.shell.tokenize import parse
from my_agent.shell.words import strip_wrappers
from tools.claude_code import KINDS, MULTI_EDIT, is_multi_edit, unicum_tools

RULE = re.compile(r"\s*([\w.-]+)\s*(?:\((.*)\))?\s*", re.S)
PATH_TOOLS = frozenset({"read_file", "write_file", "edit_file", "search_files", "list_files"})


@dataclass(frozen=True)
class ToolRule:
    text: str  # as written
    tool: str  # the name as written: Bash, Edit, terminal, mcp__srv, mcp__srv__tool
    spec: str | None  # what is inside the parentheses (None: the whole tool)
    origin: str = ""  # where it was written: a settings file, a flag, a command


def parse_rule(text: str, origin: str = "") -> ToolRule | None:
    """A rule from its text, or None when it is not one."""
    match = RULE.fullmatch(text)
    if match is None:
        return None
    spec = match.group(2)
    return ToolRule(text.strip(), match.group(1), None if spec in (None, "", "*") else spec, origin)


def covers(rule: ToolRule, tool: str, args: dict[str, Any], workspace: Path, every: bool) -> bool:
    """Whether `rule` covers a call of `tool` with `args`. `every`: a terminal command must
    match in all its parts (allow rules); otherwise in any (deny and ask rules)."""
    if rule.tool.startswith("mcp__"):
        return _mcp(rule.tool, tool)
    if tool not in {*unicum_tools(rule.tool), *KINDS.get(rule.tool, ())}:
        return False
    if rule.tool == MULTI_EDIT and not is_multi_edit(tool, args):
        return False  # a MultiEdit rule covers several edits in one call, not a single Edit
    if rule.spec is None:
        return True
    if tool == "terminal":
        return _command(rule.spec, str(args.get("command", "")), every)
    if tool in PATH_TOOLS:
        target = args.get("path") or "."
        return isinstance(target, str) and _path(rule.spec, target, workspace)
    if tool == "web_read" and rule.spec.startswith("domain:"):
        host = (urlparse(str(args.get("url", ""))).hostname or "").lower()
        domain = rule.spec[len("domain:") :].strip().lower()
        return host == domain or host.endswith("." + domain)
    if tool == "task":
        return str(args.get("agent") or "general") == rule.spec.strip()
    return False


def allowing(
    rules: list[ToolRule], tool: str, args: dict[str, Any], workspace: Path
) -> ToolRule | None:
    """The allow rule that covers a call, or None. A terminal command is covered when each of
    its simple commands is covered by one of the rules (`git add x && git commit -m y` by
    `Bash(git add:*)` and `Bash(git commit:*)`); a substitution in it keeps every rule off."""
    if tool != "terminal":
        return next((r for r in rules if covers(r, tool, args, workspace, every=True)), None)
    mine = [r for r in rules if tool in {*unicum_tools(r.tool), *KINDS.get(r.tool, ())}]
    whole = next((r for r in mine if r.spec is None), None)
    if whole is not None:
        return whole
    parts = _simple_commands(str(args.get("command", "")))
    if not parts or any(subs for _, subs in parts):
        return None
    found = []
    for argv, _ in parts:
        lines = _forms(argv, every=True)
        rule = next(
            (r for r in mine if r.spec and any(_one_command(r.spec.strip(), x) for x in lines)),
            None,
        )
        if rule is None:
            return None
        found.append(rule)
    return found[0]


def _mcp(rule: str, tool: str) -> bool:
    parts = rule.split("__")
    if len(parts) == 2 or parts[2] in ("", "*"):
        return tool.startswith(f"mcp__{parts[1]}__")
    return tool == rule


# what Claude Code strips before matching an allow rule (permissions.md, "Wrappers"), and the
# variables whose leading assignment it looks past; a deny or ask rule looks past any of them
CLAUDE_WRAPPERS = frozenset({"timeout", "time", "nice", "nohup", "stdbuf", "command", "builtin"})
SAFE_VARS = frozenset(
    {"NODE_ENV", "CI", "DEBUG", "LANG", "LC_ALL", "TZ", "NO_COLOR", "FORCE_COLOR"}
)
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=")


def _command(spec: str, command: str, every: bool) -> bool:
    """`npm test:*` / `npm test *` (that command and anything after it), `git * main` (a
    wildcard), or exact; matched past wrappers (`timeout 30 npm test`) and assignments."""
    found: list[bool] = []
    for argv, has_subs in _simple_commands(command):
        if has_subs and every:
            return False  # what a substitution runs is not known: no allow rule covers it
        found.append(any(_one_command(spec.strip(), line) for line in _forms(argv, every)))
    return bool(found) and (all(found) if every else any(found))


def _forms(argv: list[str], every: bool) -> list[str]:
    """The lines a rule is matched against: the command as written and, past its wrappers
    and leading assignments, what it runs — for an allow rule only past Claude Code's
    wrappers and safe variables (`FOO=1 rm x` is never allowed by `Bash(rm *)`)."""
    wrappers, runs = strip_wrappers(argv)
    lines = [" ".join(argv)]
    if not runs or runs == argv:
        return lines
    assigned = {m.group(1) for w in argv[: len(argv) - len(runs)] if (m := _ASSIGNMENT.match(w))}
    if not every or (set(wrappers) <= CLAUDE_WRAPPERS and assigned <= SAFE_VARS):
        lines.append(" ".join(runs))
    return lines


def _simple_commands(command: str, depth: int = 0) -> list[tuple[list[str], bool]]:
    out: list[tuple[list[str], bool]] = []
    for pipe in parse(command):
        for cmd in pipe:
            subs = [s for w in cmd.words for s in w.subs] + [
                s for _, w in cmd.redirects for s in w.subs
            ]
            if cmd.argv:
                out.append((list(cmd.argv), bool(subs)))
            if depth < 4:
                for sub in subs:
                    out += _simple_commands(sub, depth + 1)
    return out


def _one_command(spec: str, line: str) -> bool:
    if spec.endswith((":*", " *")):  # a word boundary: the command alone, or with arguments
        head = spec[:-2].rstrip()
        pattern = ".*".join(re.escape(part) for part in head.split("*"))
        return re.fullmatch(pattern + r"(?: .*)?", line, re.S) is not None
    if "*" in spec:
        pattern = ".*".join(re.escape(part) for part in spec.split("*"))
        return re.fullmatch(pattern, line, re.S) is not None
    return line == spec


def _path(spec: str, target: str, workspace: Path) -> bool:
    """Whether the file `target` (as the tool was given it) is, or is inside, what `spec` names."""
    root = workspace.resolve()
    path = Path(os.path.normpath(root / Path(target).expanduser()))
    regex = re.compile(_glob_regex(_anchored(spec.strip(), root)))
    return any(regex.fullmatch(p.as_posix()) for p in (path, *path.parents))


def _anchored(spec: str, root: Path) -> str:
    if spec.startswith("//"):
        return spec[1:]
    if spec.startswith("~/"):
        return str(Path.home()) + spec[1:]
    if spec.startswith("/"):
        return root.as_posix() + spec
    rest = spec[2:] if spec.startswith("./") else spec
    if "/" not in rest.rstrip("/") and not spec.startswith("./"):
        return root.as_posix() + "/**/" + rest  # a bare name: at any depth
    return root.as_posix() + "/" + rest


def _glob_regex(pattern: str) -> str:
    out, i = [], 0
    pattern = pattern.rstrip("/") or "/"
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)
