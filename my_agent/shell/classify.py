"""Reading shell commands and their output the way a person skimming a terminal would."""

from __future__ import annotations

import re
import shlex

READERS = {
    "cat",
    "head",
    "tail",
    "nl",
    "less",
    "more",
    "bat",
    "open",
    "goto",
    "scroll_up",
    "scroll_down",
    "view",
}
SEARCHERS = {
    "grep",
    "rg",
    "ag",
    "ack",
    "find",
    "ls",
    "tree",
    "fd",
    "find_file",
    "search_dir",
    "search_file",
    "locate",
    "egrep",
    "fgrep",
}
WRITERS = {"tee", "create", "touch", "mkdir", "cp", "mv", "rm", "patch", "insert", "append"}
EDITORS = {"edit", "str_replace", "apply_patch"}
BUILDERS = {
    "make",
    "pip",
    "pip3",
    "npm",
    "yarn",
    "pnpm",
    "cargo",
    "go",
    "mix",
    "mvn",
    "gradle",
    "poetry",
    "uv",
    "tsc",
    "gcc",
    "cc",
    "clang",
    "cmake",
}
TEST_PATTERNS = [
    re.compile(p)
    for p in (
        r"\bpy\.?test\b",
        r"-m\s+(?:pytest|unittest)\b",
        r"\b(?:npm|yarn|pnpm)\s+(?:run\s+)?test\b",
        r"\bgo\s+test\b",
        r"\bcargo\s+(?:test|nextest)\b",
        r"\bmake\s+(?:test|check)\b",
        r"\bmix\s+test\b",
        r"\btox\b",
        r"\bnox\b",
        r"\bjest\b",
        r"\bvitest\b",
        r"runtests\.py\b",
        r"\brspec\b",
        r"\bphpunit\b",
        r"\bctest\b",
        r"\bmanage\.py\s+test\b",
        r"-m\s+django\s+test\b",
    )
]
_SPLIT = re.compile(r"\s*(?:&&|\|\||;|\n)\s*")
_PIPE = re.compile(r"\s*\|(?!\|)\s*")
_REDIRECT = re.compile(r"(?<![0-9&])>>?\s*([^\s;&|<>]+)")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")
_SKIP = {"cd", "export", "source", ".", "set", "echo", "true", "sleep", "pushd", "popd", "clear"}


def strip_heredocs(command: str) -> str:
    """The command without heredoc bodies: `cat <<EOF > f.py` stays, the file text goes."""
    out, lines, i = [], command.splitlines(), 0
    while i < len(lines):
        out.append(lines[i])
        m = _HEREDOC.search(lines[i])
        i += 1
        if m:
            while i < len(lines) and lines[i].strip() != m.group(1):
                i += 1
            i += 1
    return "\n".join(out)


def segments(command: str, whole_pipelines: bool = False) -> list[list[str]]:
    """Each `&&`/`;`-separated part as the argv of its pipeline's first command (or of every
    command in the pipeline)."""
    parts = []
    pieces = []
    for part in _SPLIT.split(strip_heredocs(command)):
        piped = _PIPE.split(part.strip()) if part.strip() else [""]
        pieces += piped if whole_pipelines else piped[:1]
    for first in pieces:
        try:
            argv = shlex.split(first, comments=False)
        except ValueError:
            argv = first.split()
        while argv and re.fullmatch(r"\w+=\S*", argv[0]):
            argv = argv[1:]  # VAR=value prefixes
        if argv and argv[0] in ("sudo", "time", "timeout", "env", "nohup"):
            argv = argv[2:] if argv[0] == "timeout" else argv[1:]
        if argv:
            parts.append(argv)
    return parts


def written_paths(command: str) -> list[str]:
    """Files the command writes: redirections, tee, heredoc targets, sed -i."""
    head = strip_heredocs(command)
    paths = [p for p in _REDIRECT.findall(head) if not p.startswith(("/dev/", "&"))]
    for argv in segments(command, whole_pipelines=True):
        name = argv[0].rsplit("/", 1)[-1]
        if name in ("sed", "perl") and any(a.startswith("-i") or a == "-pi" for a in argv):
            paths += [a for a in argv[1:] if not a.startswith("-") and _looks_like_path(a)][-1:]
        elif name == "tee":
            paths += [a for a in argv[1:] if not a.startswith("-")]
        elif name in ("create", "touch"):
            paths += argv[1:2]
    return list(dict.fromkeys(paths))


def _looks_like_path(arg: str) -> bool:
    return "/" in arg or bool(re.search(r"\.\w{1,5}$", arg))


def classify(command: str) -> tuple[str, list[str]]:
    """(kind, argv of the segment that decides it): test | write | edit | git | read | search |
    build | run."""
    segs = [s for s in segments(command) if s[0] not in _SKIP] or segments(command) or [[""]]
    if any(p.search(command) for p in TEST_PATTERNS):
        return "test", next(
            (s for s in segs if any(p.search(" ".join(s)) for p in TEST_PATTERNS)), segs[0]
        )
    names = [s[0].rsplit("/", 1)[-1] for s in segs]
    if any(n in EDITORS for n in names):
        return "edit", segs[names.index(next(n for n in names if n in EDITORS))]
    if written_paths(command) and not any(n in ("python", "python3", "node") for n in names):
        return "write", segs[0]
    for kind, table in (
        ("git", {"git"}),
        ("read", READERS),
        ("search", SEARCHERS),
        ("build", BUILDERS),
    ):
        for seg, name in zip(segs, names, strict=True):
            if name in table or (kind == "read" and name == "sed" and "-n" in seg):
                return kind, seg
    return "run", segs[0]


def file_args(argv: list[str]) -> list[str]:
    """Positional arguments that look like files (skips options and sed scripts)."""
    out, skip = [], False
    for i, arg in enumerate(argv[1:], 1):
        if skip:
            skip = False
            continue
        if (
            arg
            in (
                "-n",
                "-A",
                "-B",
                "-C",
                "-e",
                "-m",
                "--include",
                "--exclude",
                "-name",
                "-type",
                "-path",
                "-iname",
                "-maxdepth",
                "-g",
                "-t",
            )
            and i < len(argv) - 1
        ):
            skip = arg != "-n" or argv[0].rsplit("/", 1)[-1] in ("head", "tail")  # cat/grep -n
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


def exit_code(content: str, data: dict) -> int | None:
    """The exit status from structured data or from the usual text markers."""
    if isinstance(data.get("exit_code"), int):
        return data["exit_code"]
    for rx in (
        r"<returncode>(-?\d+)</returncode>",
        r"\[exit (-?\d+)\]\s*$",
        r"[Ee]xit code:?\s*(-?\d+)",
    ):
        m = re.search(rx, content)
        if m:
            return int(m.group(1))
    return None


def body_of(content: str) -> str:
    """Output text without the agent's wrapping markers."""
    text = re.sub(
        r"</?returncode>.*?</returncode>|</?output>|\[exit -?\d+\]\s*$", "", content, flags=re.S
    )
    return text.strip("\n")


_ERROR_LINE = re.compile(
    r"^\s*(?:[\w.]+(?:Error|Exception|Exit|Interrupt|Warning)\b|error\b|Error\b|ERROR\b|fatal\b|"
    r"FAIL(?:ED)?\b|E\s{2,}|.*: (?:command )?not found|.*No such file|.*cannot |.*Permission denied"
    r"|panic:|thread '.*' panicked|\*\* \()"
)


def error_line(text: str) -> str:
    """The first line that says what went wrong (a Python traceback's last line wins)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for line in reversed(lines):
        if re.match(r"^[\w.]+(?:Error|Exception|Exit)\b", line):
            return line[:160]
    for line in lines:
        if _ERROR_LINE.match(line) and not line.startswith("Traceback"):
            return line[:160]
    return (lines[-1] if lines else "")[:160]
