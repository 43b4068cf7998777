"""The structured fact a tool call leaves behind. Rendered to one line only at the edge."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS = (
    "read", "write", "edit", "search", "list", "test", "run", "git", "build", "web", "ask",
    "recall", "memory", "other",
)  # fmt: skip


@dataclass(frozen=True)
class Fact:
    tool: str  # tool name: read_file, terminal, ...
    kind: str  # one of KINDS
    target: str  # path, command or query the call was about
    ok: bool = True
    summary: str = ""  # short human text: "120 lines, Python: class Auth, def login"
    path: str | None = None  # workspace-relative path when about one file
    command: str | None = None  # the shell command, for terminal facts
    details: dict[str, Any] = field(default_factory=dict)  # lines, language, symbols, counts, ...
    archive_id: str | None = None  # the L2 archive entry holding the full output

    def render(self) -> str:
        mark = "" if self.ok else "FAIL "
        tail = (
            f" ({self.summary})"
            if self.summary and not self.command
            else (f" → {self.summary}" if self.summary else "")
        )
        return f"[{self.tool}] {mark}{self.target}{tail}"
