"""What a session lends its tools, declared as the shapes the tools use (tools never import core:
the session fills these fields with its memory store, skill book, code map and archive)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tools.restored import Restored

if TYPE_CHECKING:
    from tools.egress import Ask, Egress


class MemoryItem(Protocol):
    @property
    def key(self) -> str: ...

    @property
    def type(self) -> str: ...

    @property
    def content(self) -> str: ...


class MemoryLookup(Protocol):
    """Reading memory: every entry, the best matches for a query, one entry by reference."""

    def entries(self, scope: str | None = None, /) -> Sequence[tuple[str, MemoryItem]]: ...

    def search(
        self, query: str, scope: str | None = None, /
    ) -> Sequence[tuple[str, MemoryItem]]: ...

    def find(self, ref: str, scope: str | None = None, /) -> tuple[str, MemoryItem] | None: ...


class MemoryBook(MemoryLookup, Protocol):
    """Memory the `memory` tool reads and changes (ValueError: a refused change)."""

    def add(
        self, scope: str, type_: str, content: str, /, key: str = "", *, source: str = ""
    ) -> tuple[str, MemoryItem]: ...

    def update(
        self,
        scope: str,
        ref: str,
        content: str | None = None,
        type_: str | None = None,
        /,
        *,
        source: str = "",
    ) -> MemoryItem | None: ...

    def remove(self, scope: str, key: str, /) -> bool: ...


class SkillInfo(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def path(self) -> Path: ...  # the SKILL.md file


class SkillShelf(Protocol):
    """The skills a session can load (found afresh on each lookup)."""

    def all(self) -> Mapping[str, SkillInfo]: ...

    def body(self, skill: SkillInfo, /) -> str: ...


class CodeLookup(Protocol):
    """The code map's answers, as text for the model (OSError: the index is unavailable)."""

    def definition(self, target: str, /) -> str: ...

    def references(self, target: str, /) -> str: ...

    def rename(self, target: str, new_name: str, /) -> str: ...

    def impact(self, target: str, /) -> str: ...

    def outline(self, path: str, /) -> str: ...

    def overview(self, task: str = "", /) -> str: ...


class ArchivedOutput(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def tool(self) -> str: ...

    @property
    def target(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def fact(self) -> str: ...


class ArchiveLookup(Protocol):
    """Full tool outputs the context replaced by one-line facts, under stable ids."""

    @property
    def entries(self) -> Mapping[str, ArchivedOutput]: ...

    @property
    def persist_error(self) -> str: ...  # why entries stopped being saved, if they did

    def get(self, entry_id: str, /) -> ArchivedOutput | None: ...

    def search(self, query: str, /) -> Sequence[tuple[float, ArchivedOutput]]: ...


class Checkpoints(Protocol):
    """The bytes files had before a tool wrote them, for `/undo`."""

    def save(self, path: Path, turn: int = 0, /) -> None: ...

    def wrote(self, path: Path, /) -> None: ...

    def undo(self, force: bool = False) -> str | None: ...

    def undo_turn(self, force: bool = False) -> Restored | None: ...

    def __len__(self) -> int: ...


class TodoBoard(Protocol):
    """The model's checklist: (text, status) rows, status pending | in_progress | done."""

    def replace(self, items: Sequence[tuple[str, str]], /) -> None: ...

    def render(self) -> str: ...


class AgentInfo(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...


class SubAgents(Protocol):
    """Child agents with a fresh context (`task`): each returns only its final report."""

    def definitions(self) -> Mapping[str, AgentInfo]: ...

    def run(self, agent: str, prompt: str, /) -> str: ...


class CommandSandbox(Protocol):
    """The OS sandbox `terminal` runs commands in (tools/sandbox.py)."""

    @property
    def active(self) -> bool: ...  # False: commands run unsandboxed, the guard asks

    def egress(self, command: str, ask: Ask | None, /) -> Egress | None: ...  # its proxy

    def wrap(self, argv: list[str], cwd: Path, egress: Egress | None = None, /) -> list[str]: ...


class StepSnapshots(Protocol):
    """Workspace snapshots around each command and edit (tools/snapshots.py)."""

    def before(self, label: str, /) -> object | None: ...  # a step, or None: none was made

    def after(self, step: Any, /) -> None: ...


@dataclass
class ToolServices:
    """A field left None: this session has no such service (the tool says so when asked)."""

    memory: MemoryBook | None = None
    skills: SkillShelf | None = None
    codemap: CodeLookup | None = None
    archive: ArchiveLookup | None = None
    checkpoints: Checkpoints | None = None  # made on the first write (see get_checkpoints)
    sandbox: CommandSandbox | None = None  # None: commands run unsandboxed, guarded
    snapshots: StepSnapshots | None = None  # made on first use (see get_snapshots)
    todos: TodoBoard | None = None
    subagents: SubAgents | None = None  # None in a child agent: no grandchildren
