"""What may happen without asking: the destructive-command table, the mode policy, approvals."""

from __future__ import annotations

import os
from pathlib import Path

from my_agent.shell.tokenize import Pipeline, Simple, parse
from my_agent.shell.words import (
    SAFE_WRITE_TARGETS,
    WRITE_OPS,
    file_writes,
    program,
    strip_wrappers,
    subcommands,
)
from tools.approvals import save_approvals, saved_approvals
from tools.base import ToolContext, ToolError
from tools.guards import check_secret_access
from tools.permission_rules import (
    BUILD_DIRS,
    DOWNLOADERS,
    HISTORY_RULES,
    MIN_ABBREV,
    RULES,
    SHELLS,
    Rule,
)
from tools.workspace_guard import deletes_unkept, deletes_workspace, unkept_targets

# permission mode → actions that need the user's approval (yolo: nothing asks).
# "edit" (a write inside the workspace) is asked only when someone is at the keyboard: in `-p`
# runs the ask mode lets the task edit its own workspace (see `approve_edit`).
_GUARDED = frozenset(
    {"outside_read", "outside_write", "destructive", "private_network", "private_read", "network"}
)
# "mcp": a call to an MCP server's tool (its effects are the server's; Unicum cannot see them).
ASKS: dict[str, frozenset[str]] = {
    "ask": _GUARDED | {"edit", "mcp"},
    "auto-edit": _GUARDED | {"mcp"},
    "yolo": frozenset(),
}


_GIT_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree"})


def _bare(argv: list[str]) -> list[str]:
    """The command a line runs once its wrappers (`nohup`, `timeout 5`, `FOO=1`) are off."""
    return strip_wrappers(argv)[1]


def writes_outside(target: str, cwd: Path, workspace: Path) -> bool:
    """True when writing `target` (from `cwd`) changes a file outside the workspace, or when
    it cannot be told (variables, substitutions)."""
    if target.startswith(SAFE_WRITE_TARGETS):
        return False
    expanded = os.path.expandvars(os.path.expanduser(target))
    if "$" in expanded or "`" in expanded:
        return True  # cannot tell where it goes
    path = Path(os.path.normpath(cwd / expanded))
    return path != workspace and workspace not in path.parents


def _has_flag(argv: list[str], flags: tuple[str, ...]) -> bool:
    for token in argv[1:]:
        if token == "--":
            break
        name = token.split("=", 1)[0]
        for flag in flags:
            if token == flag or (flag.startswith("--") and token.startswith(flag + "=")):
                return True
            if (
                flag.startswith("--")
                and name.startswith("--")
                and len(name) >= MIN_ABBREV
                and flag.startswith(name)
            ):
                return True  # an abbreviated long option: --rec, --fo
            short = len(flag) == 2 and flag[0] == "-"
            if (
                short
                and token.startswith("-")
                and not token.startswith("--")
                and flag[1] in token[1:]
            ):
                return True
    return False


def _inside_build_dir(target: str, cwd: Path, workspace: Path) -> bool:
    if "$" in target or "`" in target:
        return False
    path = Path(os.path.normpath(cwd / Path(target).expanduser()))
    try:
        rel = path.relative_to(workspace)
    except ValueError:
        return False
    return any(part in BUILD_DIRS for part in rel.parts)


def _rule_hits(rule: Rule, argv: list[str], cwd: Path, workspace: Path) -> bool:
    name = program(argv[0])
    if not any(name == p or name.startswith(p + ".") for p in rule.programs):
        return False
    if rule.sub and subcommands(argv, _GIT_VALUED)[:1] != [rule.sub]:
        return False
    if rule.flags and not _has_flag(argv, rule.flags):
        return False
    if rule.args and not any(a in rule.args for a in argv[1:]):
        return False
    if rule.prefixes:
        rest = argv[argv.index(rule.sub) + 1 :] if rule.sub in argv else argv[1:]
        if not any(a.startswith(rule.prefixes) for a in rest if a != "+"):
            return False
    if rule.spare_build_dirs:
        rest = argv[argv.index(rule.sub) + 1 :] if rule.sub in argv else argv[1:]
        targets = [a for a in rest if not a.startswith("-")]
        if not targets and not rule.sub:
            return False  # `rm -f` of nothing; `git clean -f` of nothing is of everything
        if targets and all(_inside_build_dir(t, cwd, workspace) for t in targets):
            return False
    return True


def _check_simple(cmd: Simple, cwd: Path, workspace: Path, sandboxed: bool) -> list[str]:
    """Reasons to ask about one simple command. Sandboxed, only what the sandbox cannot see:
    history destroyers and deleting the workspace itself (outside writes fail there)."""
    rules = HISTORY_RULES if sandboxed else RULES
    found: list[str] = []
    for op, target in cmd.redirects:
        if not sandboxed and op in WRITE_OPS and writes_outside(target.text, cwd, workspace):
            found.append(f"redirection over {target.text}: writes outside the workspace")
    wrappers, argv = strip_wrappers(cmd.argv)
    for wrapper in wrappers:  # sudo, doas: a rule of their own
        found += [f"{r.label}: {r.why}" for r in rules if _rule_hits(r, [wrapper], cwd, workspace)]
    if not argv:
        return found
    if not sandboxed and ("$" in argv[0] or (cmd.words[len(cmd.argv) - len(argv)].subs)):
        found.append(
            f"unknown program {argv[0]}: the command name comes from a variable or "
            "substitution, so what runs cannot be checked"
        )
    if "xargs" in wrappers:
        argv = [*argv, "$(stdin)"]  # targets come from stdin: unknown
    name = program(argv[0])
    if not sandboxed:
        for target in file_writes(argv):
            if writes_outside(target, cwd, workspace):
                found.append(f"{name} {target}: writes outside the workspace")
    found += [f"{r.label}: {r.why}" for r in rules if _rule_hits(r, argv, cwd, workspace)]
    found += deletes_unkept(argv, cwd, workspace)
    return found + (deletes_workspace(argv, cwd, workspace) if sandboxed else [])


def _inner_commands(cmd: Simple) -> list[str]:
    """Command strings run by this command: substitutions, `bash -c`, `eval`, `find -exec`."""
    inner = [sub for w in cmd.words for sub in w.subs]
    inner += [sub for _, w in cmd.redirects for sub in w.subs]
    argv = _bare(cmd.argv)
    if not argv:
        return inner
    name = program(argv[0])
    if name in SHELLS and "-c" in argv[1:-1]:
        inner.append(argv[argv.index("-c") + 1])
    elif name == "eval":
        inner.append(" ".join(argv[1:]))
    if name == "find":
        for flag in ("-exec", "-execdir", "-ok", "-okdir"):
            if flag in argv:
                rest = argv[argv.index(flag) + 1 :]
                stop = next((i for i, a in enumerate(rest) if a in (";", "+")), len(rest))
                inner.append(" ".join(rest[:stop]))
    return inner


def _runs_download(pipe: Pipeline) -> bool:
    """`curl … | sh`, `sh <(curl …)`, `bash -c "$(curl …)"`, `eval "$(wget …)"`."""
    names = [program((_bare(c.argv) or [""])[0]) for c in pipe]
    for k, name in enumerate(names):
        if name in SHELLS and any(n in DOWNLOADERS for n in names[:k]):
            return True
        cmd = pipe[k]
        runs_sub = name in SHELLS or (cmd.words and cmd.words[0].subs)
        subs = [s for w in cmd.words for s in w.subs]
        if runs_sub and any(
            p and program(p[0].argv[0] if p[0].argv else "") in DOWNLOADERS
            for s in subs
            for p in parse(s)
        ):
            return True
    return False


def check_command(
    command: str,
    workspace: Path,
    cwd: Path | None = None,
    sandboxed: bool = False,
    _depth: int = 0,
) -> list[str]:
    """Why `command` is destructive (one reason per hit), or [] when it is not; `sandboxed`:
    only what the OS sandbox cannot stop (see `_check_simple`)."""
    workspace = workspace.resolve()
    cwd = cwd or workspace
    found: list[str] = []
    for pipe in parse(command):
        if _runs_download(pipe):
            found.append("curl … | sh: runs code downloaded from the network")
        for cmd in pipe:
            argv = cmd.argv
            if argv and argv[0] == "cd" and len(argv) > 1 and "$" not in argv[1]:
                cwd = Path(os.path.normpath(cwd / Path(argv[1]).expanduser()))
            found += _check_simple(cmd, cwd, workspace, sandboxed)
            if _depth < 8:
                for inner in _inner_commands(cmd):
                    found += check_command(inner, workspace, cwd, sandboxed, _depth + 1)
    return list(dict.fromkeys(found))


def files_to_keep(
    command: str, workspace: Path, cwd: Path | None = None, _depth: int = 0
) -> list[tuple[Path, bool]]:
    """What `command` would delete that snapshots do not hold, for the snapshot store to keep
    first (tools/kept_files.py): `rm`/`unlink`/`shred` targets, inner commands included."""
    workspace = workspace.resolve()
    cwd = cwd or workspace
    found: list[tuple[Path, bool]] = []
    for pipe in parse(command):
        for cmd in pipe:
            if cmd.argv[:1] == ["cd"] and len(cmd.argv) > 1 and "$" not in cmd.argv[1]:
                cwd = Path(os.path.normpath(cwd / Path(cmd.argv[1]).expanduser()))
            found += unkept_targets(_bare(cmd.argv), cwd, workspace) if _bare(cmd.argv) else []
            for inner in _inner_commands(cmd) if _depth < 8 else []:
                found += files_to_keep(inner, workspace, cwd, _depth + 1)
    return found


def authorize(ctx: ToolContext, action: str, question: str, key: str, detail: str = "") -> None:
    """Return when `action` may go ahead; raise ToolError telling the model why not."""
    _decide(ctx, action, [key], question, detail)


def _decide(
    ctx: ToolContext, action: str, keys: list[str], question: str, detail: str = ""
) -> None:
    """Ask once about `keys` not yet approved (showing `detail`, e.g. the diff): 'y' once,
    's' these keys for the session, 'a' these keys always (saved for the project)."""
    if action not in ASKS.get(ctx.permission_mode, ASKS["ask"]):
        return
    approved = ctx.approvals | saved_approvals(ctx) if ctx.prompter.interactive else ctx.approvals
    if f"{action}:*" in approved:
        return
    pending = [k for k in keys if f"{action}:{k}" not in approved]
    if not pending:
        return
    edits = action == "edit"
    answer = (
        ctx.prompter.confirm(question, detail, edits=True)
        if edits
        else ctx.prompter.confirm(question, detail)
    )
    # an edit's "this session" is every edit this session (as in Claude Code; its key says so)
    granted = ["edit:*"] if edits and answer == "s" else [f"{action}:{k}" for k in pending]
    if answer in ("s", "a"):
        ctx.approvals.update(granted)
    if answer == "a":
        save_approvals(ctx, granted)
    if answer in ("y", "s", "a"):
        return
    raise ToolError(refusal(ctx, question, answer))


def refusal(ctx: ToolContext, question: str, answer: str) -> str:
    """The refused call's result, as the model reads it (with the user's reason after 'e')."""
    if not ctx.prompter.interactive:
        return (
            f"refused: {question} Not allowed in a non-interactive run "
            "(the user can rerun with --yes or --permission-mode yolo). "
            "Find another way that stays within the rules."
        )
    why = answer[2:].strip() if answer.startswith("e:") else ""
    if why:
        return f"refused by the user: {question} The user says: {why}"
    return (
        f"refused by the user: {question} Do not retry it; take another approach "
        "or ask with clarify."
    )


def approve_path(ctx: ToolContext, target: Path, write: bool) -> None:
    """Outside the workspace: 's' approves this path (and what is in it) for the session,
    'a' always; a write approval covers reading too."""
    actions = ("outside_write",) if write else ("outside_read", "outside_write")
    for folder in [target, *target.parents]:
        if any(f"{a}:{folder}" in ctx.approvals for a in actions):
            return
    if any(f"{a}:*" in ctx.approvals for a in actions):
        return
    verb = "Write" if write else "Read"
    try:
        _decide(
            ctx,
            actions[0],
            [str(target)],
            f"{verb} {target}, outside the workspace {ctx.workspace}?",
        )
    except ToolError as refused:
        if not write:
            raise
        raise ToolError(f"{refused} {inside_hint(target, ctx.workspace)}") from None


def inside_hint(target: Path, workspace: Path) -> str:
    """The allowed alternative to a write outside: the in-project relative path (the part
    after a folder named like the project, else the file name)."""
    parts = target.parts
    named = [i for i, p in enumerate(parts) if p == workspace.name]
    rel = Path(*parts[named[-1] + 1 :]) if named and named[-1] + 1 < len(parts) else target.name
    return f'To write inside the project, use the relative path "{rel}".'


def approve_edit(ctx: ToolContext, target: Path, diff: str, new_file: bool) -> None:
    """A write inside the workspace, asked with its diff before the file changes (the ask mode
    at the keyboard); a non-interactive run (`-p`) goes ahead."""
    if not ctx.prompter.interactive:
        return
    verb = "Write" if new_file else "Edit"
    _decide(ctx, "edit", [str(target)], f"{verb} {target}?", diff)


def is_private(target: Path, ctx: ToolContext) -> bool:
    """Unicum's own files (keys, history) anywhere, and `.env` files outside the workspace."""
    home = ctx.home.expanduser().resolve()
    if target == home or home in target.parents:
        return True
    root = ctx.workspace.resolve()
    inside = target == root or root in target.parents
    return not inside and (target.name == ".env" or target.name.startswith(".env."))


def approve_private_read(ctx: ToolContext, target: Path) -> None:
    """Keys live there: asked every time it is not approved for this very file."""
    _decide(
        ctx,
        "private_read",
        [str(target)],
        f"Read {target}? It may hold API keys or Unicum's private data.",
    )


def _private_dirs(ctx: ToolContext) -> list[Path]:
    dirs = {
        ctx.home.expanduser(),
        ctx.home.expanduser().resolve(),
        Path("~/.unicum-agent").expanduser(),
    }
    return sorted(dirs)


def _touches_private(command: str, cwd: Path, dirs: list[Path], depth: int = 0) -> bool:
    """True when a word or redirection of `command` names a path in the Unicum home."""
    for pipe in parse(command):
        for cmd in pipe:
            for word in [*cmd.words, *(w for _, w in cmd.redirects)]:
                text = os.path.expandvars(os.path.expanduser(word.text))
                path = Path(os.path.normpath(cwd / text))
                if any(path == d or d in path.parents for d in dirs):
                    return True
                if depth < 4 and any(_touches_private(s, cwd, dirs, depth + 1) for s in word.subs):
                    return True
    return False


def approve_command(ctx: ToolContext, command: str, cwd: Path, sandboxed: bool = False) -> None:
    """One question for a destructive command; 'always' covers those kinds for the session.
    `sandboxed`: the command runs in the OS sandbox, where the Unicum home is hidden and
    nothing outside the workspace can be written, so only the second layer asks."""
    check_secret_access(ctx, command, cwd)  # tools/guards.py: asked in every mode
    if not sandboxed and _touches_private(command, cwd, _private_dirs(ctx)):
        _decide(
            ctx,
            "private_read",
            [command],
            f"Run `{command}`? It touches the Unicum home, which holds API keys and private data.",
        )
    reasons = check_command(command, ctx.workspace, cwd, sandboxed)
    if reasons:
        labels = list(dict.fromkeys(r.split(":")[0] for r in reasons))
        _decide(
            ctx,
            "destructive",
            labels,
            f"Run `{command}`? It is destructive ({'; '.join(reasons)}).",
        )
