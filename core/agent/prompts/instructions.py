"""Instruction files (AGENTS.md, CLAUDE.md, UNICUM.md) from the user level down to --dir.

They go into the system prompt, so they survive every compaction of the history.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from my_agent.capped import read_head
from my_agent.command_made import unconfirmed
from my_agent.messages import PromptSection
from my_agent.secrets import redact

NAMES = ("AGENTS.md", "CLAUDE.md", "UNICUM.md")
LOCAL_NAME = "CLAUDE.local.md"
MAX_IMPORT_DEPTH = 5
MAX_FILE_CHARS = 40_000
MAX_TOTAL_CHARS = 120_000  # every instruction file and import together
MAX_IMPORTS = 40
_IMPORT = re.compile(r"(?:(?<=\s)|^)@((?:~/|\.{1,2}/|/)?[^\s`@]+)")
_CODE_SPAN = re.compile(r"`+[^`]*`+")
_TRAILING = ".,;:!?)]}>'\""
FORBIDDEN_ROOTS = (Path("/proc"), Path("/dev"), Path("/sys"))
# never imported from the Unicum home or ~/.claude: keys, history, transcripts, other projects
PRIVATE_NAMES = frozenset(
    {
        ".credentials.json",
        "credentials.json",
        "history",
        "history.jsonl",
        "config.json",
        "trusted.json",
        "ledger.db",
        "settings.json",
        "settings.local.json",
        ".claude.json",
    }
)
PRIVATE_DIRS = frozenset(
    {"sessions", "memory", "logs", "projects", "checkpoints", "codemap", "todos", "statsig"}
)


@dataclass
class InstructionFile:
    path: Path
    text: str  # with imports expanded
    imported: list[Path]


def git_root(folder: Path) -> Path | None:
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def project_root(workspace: Path) -> Path:
    """The git root above the workspace, or the workspace itself."""
    folder = workspace.expanduser().resolve()
    return git_root(folder) or folder


def candidate_files(workspace: Path, home: Path, user_home: Path | None = None) -> list[Path]:
    """Where instruction files may be, in prompt order: user level, then root down to --dir."""
    folder = workspace.expanduser().resolve()
    user = [home / name for name in NAMES]
    user.append((user_home or Path.home()) / ".claude" / "CLAUDE.md")
    root = project_root(folder)
    chain = (
        [root]
        + [p for p in reversed(folder.parents) if root in p.parents]
        + ([folder] if folder != root else [])
    )
    project = [d / name for d in chain for name in (*NAMES, LOCAL_NAME)]
    return user + project


def _read(path: Path) -> str:
    from tools.textfile import decode_text

    return decode_text(read_head(path, MAX_FILE_CHARS * 4))[:MAX_FILE_CHARS]


def user_roots(home: Path, user_home: Path | None = None) -> tuple[Path, ...]:
    """Folders a user-level instruction file may import from: the Unicum home, ~/.claude."""
    return (
        home.expanduser().resolve(),
        ((user_home or Path.home()) / ".claude").resolve(),
    )


def _private(target: Path, roots: tuple[Path, ...]) -> bool:
    """A key, history, transcript or other private file of the Unicum home or ~/.claude."""
    for root in roots:
        if target != root and root in target.parents:
            parts = target.relative_to(root).parts
            return target.name in PRIVATE_NAMES or parts[0] in PRIVATE_DIRS
    return False


def importable(target: Path, roots: tuple[Path, ...], private: tuple[Path, ...] = ()) -> bool:
    """A resolved path inside one of `roots`; never /proc, /dev, /sys, a `.env*` file, a key
    file, or the private files of the folders in `private`."""
    if target.name.startswith(".env") or any(
        target == r or r in target.parents for r in FORBIDDEN_ROOTS
    ):
        return False
    if target.suffix in (".pem", ".key") or target.name.startswith("id_"):
        return False
    if _private(target, private):
        return False
    return any(target == r or r in target.parents for r in roots) and target.is_file()


def _imports_in(line: str) -> list[str]:
    """`@path` references outside inline code spans."""
    spans = [m.span() for m in _CODE_SPAN.finditer(line)]
    found = []
    for match in _IMPORT.finditer(line):
        if any(a <= match.start() < b for a, b in spans):
            continue
        found.append(match.group(1).rstrip(_TRAILING))
    return found


def expand(
    path: Path,
    text: str,
    seen: set[Path],
    imported: list[Path],
    roots: tuple[Path, ...],
    depth: int = 0,
    private: tuple[Path, ...] = (),
) -> str:
    """Insert each imported file after the line that names it; fenced code is left alone.
    Only files under `roots` are imported (symlinks resolved first), never the private files
    of the folders in `private`, so a cloned repository cannot pull keys or system files into
    the prompt."""
    out: list[str] = []
    fenced = False
    for line in text.splitlines():
        out.append(line)
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or depth >= MAX_IMPORT_DEPTH or "@" not in line:
            continue
        for ref in _imports_in(line):
            target = (path.parent / Path(ref).expanduser()).resolve()
            if len(imported) >= MAX_IMPORTS:
                return "\n".join(out)
            if target in seen or not importable(target, roots, private):
                continue
            seen.add(target)
            imported.append(target)
            try:
                body = expand(target, _read(target), seen, imported, roots, depth + 1, private)
            except OSError:
                continue
            out.append(body.rstrip())
    return "\n".join(out)


def load_instructions(
    workspace: Path,
    home: Path | None = None,
    user_home: Path | None = None,
    trusted: bool | None = None,
) -> list[InstructionFile]:
    """Instruction files in prompt order. A project file must resolve inside the project (a
    symlink to ~/.ssh/id_rsa is skipped) and imports only from it; in an untrusted folder
    (`trusted` None: as remembered) project files are read without their imports."""
    from my_agent.home import unicum_home
    from my_agent.trust import is_trusted

    home = unicum_home() if home is None else home
    trusted = is_trusted(workspace, home) if trusted is None else trusted
    seen: set[Path] = set()
    loaded: list[InstructionFile] = []
    users = user_roots(home, user_home)
    project = (project_root(workspace),)
    held = unconfirmed(home)  # made by a command, not confirmed by the user: not read
    total = 0
    for path in candidate_files(workspace, home, user_home):
        is_user = path.parent in (home, (user_home or Path.home()) / ".claude")
        if not is_user and path in held:
            continue
        try:
            resolved = path.resolve()
            if resolved in seen or not resolved.is_file():
                continue
            seen.add(resolved)
            if not is_user and not importable(resolved, project, users):
                continue
            imported: list[Path] = []
            text = _read(resolved)
            if is_user or trusted:
                roots = users if is_user else project
                text = expand(resolved, text, seen, imported, roots, private=users)
        except OSError:
            continue
        text = text[: max(0, MAX_TOTAL_CHARS - total)]
        total += len(text)
        if text.strip():
            loaded.append(InstructionFile(resolved, text, imported))
    return loaded


def held_instruction_files(workspace: Path, home: Path) -> list[Path]:
    """The project's instruction files a command created that the user has not confirmed
    (my_agent/command_made.py): not read until then."""
    held = unconfirmed(home)
    return [p for p in candidate_files(workspace, home) if p in held]


def _display(path: Path, workspace: Path) -> str:
    root = project_root(workspace)
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def loaded_instruction_files(
    workspace: Path,
    home: Path | None = None,
    user_home: Path | None = None,
    trusted: bool | None = None,
) -> list[str]:
    """What `/memory` lists: each loaded file, its imports marked."""
    names = []
    for item in load_instructions(workspace, home, user_home, trusted):
        names.append(_display(item.path, workspace))
        names += [f"{_display(p, workspace)} (imported)" for p in item.imported]
    return names


def instructions_section(
    workspace: Path,
    home: Path | None = None,
    user_home: Path | None = None,
    trusted: bool | None = None,
) -> PromptSection:
    parts = [
        f"### {_display(item.path, workspace)}\n{item.text.strip()}"
        for item in load_instructions(workspace, home, user_home, trusted)
    ]
    text = (
        "Follow these instruction files (more specific folders win):\n\n" + "\n\n".join(parts)
        if parts
        else ""
    )
    return PromptSection("instructions", redact(text))
