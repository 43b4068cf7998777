"""The entries a change works on: a dict that remembers what the change did to it."""

from __future__ import annotations

from typing import Any

from core.memory.entry import MemoryEntry


class Tracked(dict):
    """Entries by key. Between `start()` and `changes()` it keeps the value each key had
    before it was first set or removed, so saving a change need not compare every entry
    with a copy of the stored ones."""

    def __init__(self, entries: dict[str, MemoryEntry]) -> None:
        super().__init__(entries)
        self.before: dict[str, MemoryEntry | None] = {}
        self.edits = -1  # MemoryEntry.edits when changes() last looked at every entry

    def start(self) -> None:
        self.before = {}

    def changes(self) -> tuple[list[MemoryEntry], list[str]]:
        """(entries set or changed in place, keys removed) since `start()`."""
        changed = []  # changed in place (fields set): none if no entry anywhere changed
        if MemoryEntry.edits != self.edits:
            changed = [e for e in self.values() if e.dirty]
            self.edits = MemoryEntry.edits
        flagged = {id(e) for e in changed}
        gone = []
        for key, old in self.before.items():
            new = dict.get(self, key)
            if new is None:
                gone += [key] if old is not None else []
            elif new is not old and id(new) not in flagged:
                changed.append(new)
        return changed, gone

    def _touch(self, key: str) -> None:
        if key not in self.before:
            self.before[key] = dict.get(self, key)

    def __setitem__(self, key: str, value: MemoryEntry) -> None:
        self._touch(key)
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self._touch(key)
        super().__delitem__(key)

    def pop(self, key: str, *default: Any) -> Any:
        self._touch(key)
        return super().pop(key, *default)

    def popitem(self) -> tuple[str, MemoryEntry]:
        key, value = super().popitem()
        self.before.setdefault(key, value)
        return key, value

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._touch(key)
        return super().setdefault(key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def __ior__(self, other: Any) -> Tracked:  # type: ignore[override]
        self.update(other)
        return self

    def clear(self) -> None:
        for key in list(self):
            self._touch(key)
        super().clear()
