"""The fact a shell command leaves: read, search, write, test, git, build or run."""

from __future__ import annotations

import re
from typing import Any

from core.facts.check_output import body_of, error_line, exit_code, parse_test_output
from core.facts.outline import describe_code
from my_agent.facts import Fact
from my_agent.langs import language_of
from my_agent.shell.commands import lookup, program_name
from my_agent.shell.tokenize import strip_heredocs
from my_agent.shell.words import (
    argvs,
    commands,
    file_writes,
    program,
    redirect_writes,
    strip_wrappers,
    written_paths,
)

MAX_COMMAND = 100
MAX_ITEMS = 8
_GREP_ROW = re.compile(r"^(?:(?P<path>[^:\s][^:]*?):)?(?P<line>\d+)[:-]")
_SWE_FILE = re.compile(r"\[File: (\S+) \((\d+) lines total\)\]")
_LONG_LS = re.compile(r"^[-dlcbps][rwxsStT-]{9}[@+.]?\s")
_FOUND = re.compile(r"^Found \d+ (?:files?|matches|lines?)\b")
_PLAIN_PATH = re.compile(r"^\.?/?[\w.@+-]+(?:/[\w.@+-]+)*/?$")
# the command table's kinds as fact kinds: project tooling is "build", unknown programs "run"
FACT_KINDS = {
    **dict.fromkeys(("test", "read", "search", "edit", "git"), None),
    **dict.fromkeys(("build", "setup", "lint", "format"), "build"),
}
_DECIDING = ("git", "read", "search", "build")  # the first kind found in this order decides
_VALUED_ARGS = frozenset({"-n", "-A", "-B", "-C", "-e", "-m", "--include", "--exclude", "-g", "-t"})
_VALUED_ARGS |= {"-name", "-type", "-path", "-iname", "-maxdepth"}


def short_command(command: str) -> str:
    """The command as one readable line: heredoc bodies dropped, long ones cut."""
    lines = strip_heredocs(command).strip().splitlines() or [""]
    text = lines[0] + (" …" if len(lines) > 1 else "")
    return text if len(text) <= MAX_COMMAND else text[: MAX_COMMAND - 1] + "…"


def shell_fact(tool: str, command: str, output: Any) -> Fact:
    content: str = output.content
    data: dict = getattr(output, "data", None) or {}
    text = data.get("full_output") or data.get("output") or body_of(content)
    code = exit_code(content, data)
    failed = bool(output.is_error) or (code not in (None, 0))
    kind, argv = command_kind(command)
    if kind == "search" and code == 1 and not text.strip():
        failed = False  # grep's "no match" is an answer, not a failure
    build = _BUILDERS.get(kind, _run)
    summary, details, path = build(command, argv, text, failed)
    if code is not None:
        details["exit_code"] = code
        if kind in ("test", "run", "build"):
            summary = f"exit {code}" + (f", {summary}" if summary else "")
    if failed and kind != "test":
        summary = (f"exit {code}: " if code is not None else "") + error_line(text)
    return Fact(
        tool=tool,
        kind=kind,
        target=short_command(command),
        ok=not failed,
        summary=summary,
        path=path,
        command=short_command(command),
        details=details,
    )


def _fact_kind(argv: list[str]) -> str:
    found = lookup(argv)
    if found is None or found.kind not in FACT_KINDS:
        return "run"
    return FACT_KINDS[found.kind] or found.kind


def _writes_files(command: str) -> bool:
    """A command other than an interpreter writes a file: `cat > f.py <<EOF` does,
    `python run.py > out.txt` only saves what the run printed."""
    for cmd in commands(command):
        argv = strip_wrappers(cmd.argv)[1]
        if argv and program_name(argv[0]) in ("python", "node"):
            continue
        if redirect_writes(cmd) or file_writes(argv):
            return True
    return False


def command_kind(command: str) -> tuple[str, list[str]]:
    """(fact kind, argv of the command that decides it): test | edit | write | git | read |
    search | build | run, in that order of precedence over the line's commands."""
    firsts = argvs(command, whole_pipelines=False)
    looked = [(argv, lookup(argv)) for argv in firsts]
    segs = [a for a, found in looked if not found or found.kind != "shell"] or firsts or [[""]]
    tests = [a for a in argvs(command) if (found := lookup(a)) and found.kind == "test"]
    if tests:
        return "test", tests[0]
    kinds = [_fact_kind(a) for a in segs]
    if "edit" in kinds:
        return "edit", segs[kinds.index("edit")]
    if _writes_files(command):
        return "write", segs[0]
    for kind in _DECIDING:
        if kind in kinds:
            return kind, segs[kinds.index(kind)]
    return "run", segs[0]


def file_args(argv: list[str]) -> list[str]:
    """Positional arguments that look like files (skips options and sed scripts)."""
    out, skip = [], False
    for i, arg in enumerate(argv[1:], 1):
        if skip:
            skip = False
            continue
        if arg in _VALUED_ARGS and i < len(argv) - 1:
            skip = arg != "-n" or program(argv[0]) in ("head", "tail")  # cat/grep -n
            continue
        if arg.startswith("-") or arg.isdigit():
            continue
        out.append(arg)
    return out


def sed_range(argv: list[str]) -> int | None:
    """First line printed by `sed -n 'A,Bp' file`."""
    for arg in argv[1:]:
        m = re.fullmatch(r"'?(\d+)(?:,\s*\d+)?p'?", arg)
        if m:
            return int(m.group(1))
    return None


def _read(command: str, argv: list[str], text: str, failed: bool) -> tuple[str, dict, str | None]:
    files = file_args(argv)
    path = files[-1] if files else None
    if argv[0] == "sed":
        files = [f for f in files if not re.fullmatch(r"'?\d+(,\s*\d+)?p'?", f)]
        path = files[-1] if files else None
        start = sed_range(argv)
        if start and start > 1 and not re.match(r"^\s*\d+\s", text):
            text = "\n".join(f"{n}\t{row}" for n, row in enumerate(text.splitlines(), start))
    shown = _SWE_FILE.search(text)
    if shown:
        path = shown.group(1)
    if not path or failed:
        return "", {}, path
    summary, details = describe_code(path, text, int(shown.group(2)) if shown else None)
    return summary, details, path


def _matches(text: str) -> tuple[list[tuple[str, str, str]], set[str]]:
    """(path, line, matched text) for each grep -n match row (context rows skipped)."""
    found, files = [], set()
    for row in text.splitlines():
        m = _GREP_ROW.match(row)
        if m and row[m.end() - 1] == ":":
            found.append((m.group("path") or "", m.group("line"), row[m.end() :].strip()))
            if m.group("path"):
                files.add(m.group("path"))
        elif (
            not m
            and ":" in row
            and _PLAIN_PATH.match(row.split(":", 1)[0])
            and ("/" in row.split(":", 1)[0] or "." in row.split(":", 1)[0])
        ):
            files.add(row.split(":", 1)[0])
    return found, files


def _search(command: str, argv: list[str], text: str, failed: bool) -> tuple[str, dict, None]:
    rows = [r for r in text.splitlines() if r.strip() and not _FOUND.match(r)]
    if not rows:
        return "no matches", {"matches": 0}, None
    name = argv[0].rsplit("/", 1)[-1]
    if name in ("find", "ls", "tree", "fd", "find_file", "locate") or all(
        _PLAIN_PATH.match(r.strip()) for r in rows[:20]
    ):
        items = [_entry(r) for r in rows if r.strip() and not r.startswith("total ")]
        listed = ", ".join(items[:MAX_ITEMS]) + (
            f", +{len(items) - MAX_ITEMS} more" if len(items) > MAX_ITEMS else ""
        )
        return f"{len(items)} entries: {listed}", {"entries": len(items)}, None
    found, files = _matches(text)
    if found:
        where = f" in {len(files)} files" if len(files) > 1 else ""
        return (
            f"{len(found)} matches{where}: {_describe_matches(found)}",
            {"matches": len(found), "files": sorted(files)[:20]},
            None,
        )
    listed = ", ".join(sorted(files)[:MAX_ITEMS])
    return (
        f"{len(rows)} matching lines" + (f" in {listed}" if listed else ""),
        {"matches": len(rows)},
        None,
    )


def _entry(row: str) -> str:
    """A listing row as its name: `ls -l` rows keep only the last field."""
    row = row.strip()
    return row.split()[-1] if _LONG_LS.match(row) else row


def _describe_matches(found: list[tuple[str, str, str]], quoted: int = 4) -> str:
    """The first few matches as 'path:line `text`', then bare locations, as one would jot them."""
    parts = []
    for i, (path, line, snippet) in enumerate(found[: MAX_ITEMS * 2]):
        loc = f"{path}:{line}" if path else f"l.{line}"
        if i < quoted and snippet:
            loc += f" `{snippet[:60]}`"
        parts.append(loc)
    more = len(found) - MAX_ITEMS * 2
    return ", ".join(parts) + (f", +{more} more" if more > 0 else "")


def _write(command: str, argv: list[str], text: str, failed: bool) -> tuple[str, dict, str | None]:
    paths = written_paths(command)
    shown = _SWE_FILE.search(text)
    if shown and not paths:
        paths = [shown.group(1)]
    path = paths[0] if paths else None
    body = _heredoc_body(command)
    if path and body:
        summary, details = describe_code(path, body)
        return f"wrote {path} ({summary})", details, path
    return ("wrote " + ", ".join(paths[:4])) if paths else "", {}, path


def _heredoc_body(command: str) -> str:
    return next((cmd.heredoc for cmd in commands(command) if cmd.heredoc), "")


def _test(command: str, argv: list[str], text: str, failed: bool) -> tuple[str, dict, None]:
    run = parse_test_output(text)
    if not run.found:
        return (error_line(text) if failed else ""), {}, None
    details = {
        "passed": run.passed,
        "failed": run.failed,
        "errors": run.errors,
        "failing": run.failing[:20],
    }
    return run.describe(), details, None


def _git(command: str, argv: list[str], text: str, failed: bool) -> tuple[str, dict, None]:
    sub = argv[1] if len(argv) > 1 else ""
    rows = [r for r in text.splitlines() if r.strip()]
    if sub == "diff" or sub == "show":
        files = re.findall(r"^\+\+\+ b/(\S+)", text, re.M)
        plus = sum(1 for r in rows if r.startswith("+") and not r.startswith("+++"))
        minus = sum(1 for r in rows if r.startswith("-") and not r.startswith("---"))
        if files:
            return (
                f"{len(files)} files changed (+{plus} -{minus}): {', '.join(files[:6])}",
                {"files": files},
                None,
            )
    if sub == "status":
        changed = re.findall(
            r"^\s*(?:modified:|new file:|deleted:|[MADRU?]{1,2})\s+(\S+)", text, re.M
        )
        return (
            ("changed: " + ", ".join(changed[:MAX_ITEMS])) if changed else "clean",
            {"files": changed},
            None,
        )
    return (rows[0][:120] if rows else ""), {}, None


def _run(command: str, argv: list[str], text: str, failed: bool) -> tuple[str, dict, str | None]:
    rows = [
        r.strip()
        for r in text.splitlines()
        if r.strip() and not r.lstrip().startswith(("WARNING", "[notice]"))
    ]
    script = next((a for a in argv[1:] if language_of(a) and not a.startswith("-")), None)
    last = rows[-1][:120] if rows else "no output"
    return last, {}, script


_BUILDERS = {
    "read": _read,
    "search": _search,
    "write": _write,
    "edit": _write,
    "test": _test,
    "git": _git,
    "run": _run,
    "build": _run,
}
