"""Memory that consolidates itself, by rules only (no model call): at session end and with
`unicum memory consolidate`.

- near-duplicates (same type and same file or command, text nearly the same) merge into the
  newest one, which keeps the sum of their hits, the union of their tags, the oldest `created`;
  an entry with a key of its own (given by the model, the user or another agent, not one
  Unicum made up) is never merged away: ten keyed "service X listens on port 80NN" stay ten;
  each merge is listed (`merges`) so it can be said;
- an entry not confirmed (written again) for `stale_after` sessions is forgotten, except the
  user's own words (types user, feedback, reference), which never decay;
- an entry about a file that no longer exists is dropped;
- `MEMORY.md` next to the project's memory file lists what is left, by type.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from core.memory.entry import MemoryEntry
from core.memory.ranking import DUPLICATE_RATIO, similarity, tokens
from core.memory.store import MemoryStore
from my_agent.files import atomic_write

STALE_AFTER_SESSIONS = 20
NEVER_DECAY = ("user", "feedback", "reference")
RARE_WORDS = 3  # an entry is compared with the entries sharing one of its rarest words
BUCKET_CAP = 64  # a word that many entries share says nothing about duplicates
INDEX_NAME = "MEMORY.md"
MADE_UP_KEYS = ("note:", "file:", "command:", "convention:")  # the keys Unicum gives entries
ORDER = ("user", "feedback", "project", "reference", "commands", "conventions", "notes", "files")


@dataclass
class Consolidation:
    merged: int = 0  # entries folded into a newer near-duplicate
    decayed: int = 0  # forgotten: not confirmed for `stale_after` sessions
    missing: int = 0  # about a file that no longer exists
    kept: int = 0
    sessions: int = 0  # sessions counted for this project so far
    index: Path | None = None  # the MEMORY.md written
    merges: list[tuple[str, list[str]]] = field(default_factory=list)  # (kept, merged keys)

    def summary(self) -> str:
        return (
            f"{self.kept} entries kept; merged {self.merged} near-duplicates, forgot "
            f"{self.decayed} unconfirmed for {STALE_AFTER_SESSIONS}+ sessions, dropped "
            f"{self.missing} about deleted files; index: {self.index}"
        )

    def merge_lines(self) -> list[str]:
        """One line per merge: which entries were folded into which."""
        return [
            f"memory: merged {', '.join(merged)} into {kept} (near-duplicates)"  # a line template
            for kept, merged in self.merges
        ]


def consolidate(
    store: MemoryStore,
    session_end: bool = False,
    stale_after: int = STALE_AFTER_SESSIONS,
    now: float | None = None,
) -> Consolidation:
    """Consolidate the project's memory and write its MEMORY.md; `session_end` counts a
    session (what decay is measured in)."""
    now = time.time() if now is None else now
    memory = store.file("project")
    if not memory.entries() and not memory.hidden:
        return Consolidation()  # nothing remembered here yet: write nothing
    sessions, last = store.count_session(session_end, now)
    result = Consolidation(sessions=sessions)

    def apply(cur: dict[str, MemoryEntry]) -> list[MemoryEntry]:
        result.missing = memory.hidden  # a local file's read drops entries of missing files
        for entry in list(cur.values()):
            if entry.updated > last or "seen" not in entry.meta:
                _mark_seen(entry, sessions)
            if _file_gone(entry, store.workspace):
                del cur[entry.key]
                result.missing += 1
            elif entry.type not in NEVER_DECAY and sessions - entry.meta["seen"] >= stale_after:
                del cur[entry.key]
                result.decayed += 1
        for group in duplicate_groups([e for e in cur.values() if not has_own_key(e)]):
            result.merged += len(group) - 1
            keep = fold(group)
            result.merges.append((keep.key, [e.key for e in group if e is not keep]))
            for entry in group:
                if entry is not keep:
                    del cur[entry.key]
        return list(cur.values())

    entries = memory.change(apply, fold=True)  # the JSON file whole again, journal folded
    if result.missing or result.decayed or result.merged:
        store.index.forget_saved()  # forgotten text must not outlive it in the index cache
    with contextlib.suppress(OSError):  # a read-only global file keeps its journal
        store.file("global").fold()
    result.kept = len(entries)
    result.index = memory.path.with_name(INDEX_NAME)
    atomic_write(result.index, render_index(store.workspace, entries, now).encode("utf-8"))
    return result


def has_own_key(entry: MemoryEntry) -> bool:
    """The entry's key was given (by the model, the user, an API client), not made up by
    Unicum from its text, file or command: such an entry is never merged away."""
    return bool(entry.meta.get("own_key")) or not entry.key.startswith(MADE_UP_KEYS)


def _mark_seen(entry: MemoryEntry, session: int) -> None:
    meta = entry.meta
    meta["seen"] = session
    entry.meta = meta


def _file_gone(entry: MemoryEntry, root: Path) -> bool:
    path = entry.meta.get("path")
    return isinstance(path, str) and bool(path) and not os.path.lexists(root / path)


def _same_thing(entry: MemoryEntry) -> tuple[str, str, str]:
    """Entries may merge only within one type and about one file or command."""
    meta = entry.meta
    return entry.type, str(meta.get("path", "")), str(meta.get("command", ""))


def duplicate_groups(entries: Sequence[MemoryEntry]) -> list[list[MemoryEntry]]:
    """Groups of two or more near-duplicates. Each entry is compared only with the entries
    sharing one of its RARE_WORDS rarest words (near-duplicates share most of their words)."""
    words = [set(tokens(e.content)) for e in entries]
    counts = Counter(w for ws in words for w in ws)
    buckets: dict[tuple, list[int]] = defaultdict(list)
    for i, ws in enumerate(words):
        for word in sorted(ws, key=lambda w: (counts[w], w))[:RARE_WORDS]:
            buckets[(*_same_thing(entries[i]), word)].append(i)
    parent = list(range(len(entries)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for members in buckets.values():
        if len(members) > BUCKET_CAP:
            continue
        for n, i in enumerate(members):
            for j in members[n + 1 :]:
                if root(i) != root(j) and (
                    similarity(entries[i].content, entries[j].content) >= DUPLICATE_RATIO
                ):
                    parent[root(j)] = root(i)
    groups: dict[int, list[MemoryEntry]] = defaultdict(list)
    for i, entry in enumerate(entries):
        groups[root(i)].append(entry)
    return [g for g in groups.values() if len(g) > 1]


def fold(group: list[MemoryEntry]) -> MemoryEntry:
    """The newest entry of `group`, given the sum of the hits, the union of the tags and the
    earliest creation time of all of them."""
    keep = max(group, key=lambda e: (e.updated, e.key))
    keep.hits = sum(e.hits for e in group)
    keep.tags = sorted({t for e in group for t in e.tags})
    keep.created = min((e.created for e in group if e.created), default=keep.created)
    return keep


def render_index(workspace: Path, entries: Sequence[MemoryEntry], now: float) -> str:
    """MEMORY.md: what Unicum remembers about the project, grouped by type, newest first."""
    by_type: dict[str, list[MemoryEntry]] = defaultdict(list)
    for entry in entries:
        by_type[entry.type].append(entry)
    stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(now))
    lines = [
        f"# Memory: {workspace.name}",
        "",
        f"Project folder `{workspace}`: {len(entries)} entries, consolidated {stamp}.",
        "Written by Unicum from its memory file; edit memory with `unicum memory` "
        "(changes made here are not read back).",
    ]
    for kind in sorted(by_type, key=lambda t: (ORDER.index(t) if t in ORDER else len(ORDER), t)):
        group = sorted(by_type[kind], key=lambda e: -e.updated)
        lines += ["", f"## {kind} ({len(group)})", ""]
        for entry in group:
            day = time.strftime("%Y-%m-%d", time.localtime(entry.updated or now))
            hits = f", {entry.hits} hits" if entry.hits else ""
            text = " ".join(str(entry.content).split())
            lines.append(f"- {text} (`{entry.key}`, {day}{hits})")
    return "\n".join(lines) + "\n"
