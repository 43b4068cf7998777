"""L2: full tool outputs under stable ids, searchable, saved with the session."""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from my_agent.capped import MEMORY, NotRead, read_capped_text
from my_agent.files import atomic_write
from my_agent.messages import Message, message_text
from my_agent.private import open_private

ARCHIVED_MARK = "archived #"  # in every stand-in for an archived output: [archived #a3] ...
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+|[\u4e00-\u9fff]")


@dataclass
class ArchiveEntry:
    id: str  # "a7": stable for the session, shown as [archived #a7]
    tool: str
    target: str
    text: str  # the full output
    fact: str = ""  # the one-line fact shown in its place
    call_id: str = ""


def _terms(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


class Archive:
    """Entries in insertion order; ids never change, so old `[archived #id]` marks stay valid."""

    def __init__(self, path: Path | None = None) -> None:
        self.entries: dict[str, ArchiveEntry] = {}
        self._by_call: dict[str, str] = {}
        self.path = path  # when set, each new entry is appended there as one JSON line
        self.persist_error = ""  # why entries stopped being saved, if they did

    @classmethod
    def open(cls, path: Path) -> Archive:
        """The archive persisted at `path` (JSON lines), continued; a torn last line is skipped."""
        archive = cls()
        try:
            text = read_capped_text(path, MEMORY, "replace") if path.exists() else ""
            if text and not text.endswith("\n"):
                with open_private(path, "a", encoding="utf-8") as fh:
                    fh.write("\n")  # end a torn last line so new entries start clean
        except OSError as exc:
            archive.persist_error = f"{path}: {exc.strerror or exc}"
            return archive  # in memory only; the session goes on
        for line in text.splitlines():
            try:
                archive._put(ArchiveEntry(**json.loads(line)))
            except (ValueError, TypeError):
                continue
        archive.path = path
        return archive

    def _put(self, entry: ArchiveEntry) -> None:
        self.entries[entry.id] = entry
        if entry.call_id:
            self._by_call[entry.call_id] = entry.id

    def add(self, tool: str, target: str, text: str, fact: str = "", call_id: str = "") -> str:
        if call_id and call_id in self._by_call:
            return self._by_call[call_id]
        entry_id = self.next_id
        entry = ArchiveEntry(entry_id, tool, target, text, fact, call_id)
        self._put(entry)
        if self.path is not None:
            try:
                with open_private(self.path, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(asdict(entry), ensure_ascii=False) + "\n")
            except OSError as exc:  # disk full, read-only home: keep working in memory
                self.persist_error, self.path = f"{self.path}: {exc.strerror or exc}", None
        return entry_id

    @property
    def next_id(self) -> str:
        return f"a{len(self.entries) + 1}"

    def add_note(self, text: str) -> str:
        """One of the model's longer notes, kept whole (the same id on resume)."""
        return self.add("assistant", "earlier reasoning", text, call_id=_note_key(text))

    def note_entry(self, text: str) -> str | None:
        """The id a note was archived under, if it was."""
        return self._by_call.get(_note_key(text))

    def get(self, entry_id: str) -> ArchiveEntry | None:
        return self.entries.get(entry_id.strip().lstrip("#"))

    def id_for_call(self, call_id: str) -> str | None:
        return self._by_call.get(call_id)

    def search(self, query: str, limit: int = 5) -> list[tuple[float, ArchiveEntry]]:
        """Entries ranked by query-term hits (BM25-like), target and fact weighing triple."""
        terms = set(_terms(query))
        if not terms:
            return []
        docs = {
            eid: _terms(f"{e.target} {e.fact} " * 3 + e.text) for eid, e in self.entries.items()
        }
        n = len(docs)
        df = {t: sum(1 for words in docs.values() if t in words) for t in terms}
        scored = []
        for eid, words in docs.items():
            counts = {t: words.count(t) for t in terms}
            score = sum(math.log(1 + n / df[t]) * c / (c + 1.5) for t, c in counts.items() if c)
            if score:
                phrase = query.lower() in self.entries[eid].text.lower()
                scored.append((score + (2.0 if phrase else 0.0), self.entries[eid]))
        scored.sort(key=lambda pair: (-pair[0], int(pair[1].id[1:])))
        return scored[:limit]

    def to_dict(self) -> dict[str, Any]:
        return {"version": 1, "entries": [asdict(e) for e in self.entries.values()]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Archive:
        archive = cls()
        for raw in data.get("entries", []):
            archive._put(ArchiveEntry(**raw))
        return archive

    def save(self, path: Path) -> None:
        """Atomic: a crash mid-write leaves the previous file intact."""
        atomic_write(path, json.dumps(self.to_dict(), ensure_ascii=False).encode("utf-8"))

    @classmethod
    def load(cls, path: Path) -> Archive:
        """An empty archive when the file is missing; a clear ValueError when it is corrupt."""
        if not path.exists():
            return cls()
        try:
            return cls.from_dict(json.loads(read_capped_text(path, MEMORY)))
        except (ValueError, TypeError, KeyError, NotRead) as exc:
            raise ValueError(f"archive {path} is unreadable: {exc}") from exc


def archive_path(home: Path, project: str, session_id: str) -> Path:
    """Where a session's archive lives: next to the project's other per-project data."""
    return home / "projects" / project / "archives" / f"{session_id}.jsonl"


def _note_key(text: str) -> str:
    return f"text:{hashlib.sha1(text.encode('utf-8')).hexdigest()[:16]}"


def shows_archived(messages: list[Message]) -> bool:
    """Whether these messages (a request's) hold a stand-in for an archived output."""
    return any(ARCHIVED_MARK in message_text(m) for m in messages)
