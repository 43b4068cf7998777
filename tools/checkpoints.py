"""Checkpoints: the bytes a file had before a tool wrote it, so `/undo` can put them back."""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from itertools import takewhile
from pathlib import Path
from typing import Any

from my_agent.files import atomic_write
from my_agent.private import open_private, private_dir, write_private
from tools.base import ToolContext
from tools.restored import Restored, clash_text, undone_turn
from tools.services import Checkpoints

KEEP_DAYS = 14  # checkpoints of sessions untouched for longer are pruned
ABSENT = "absent"


def fingerprint(path: Path) -> str:
    """sha256 of the file's bytes, or ABSENT."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return ABSENT


class CheckpointStore:
    """Numbered checkpoints in one folder: `<n>.json` (what) and `<n>.bin` (previous bytes)."""

    def __init__(self, folder: Path, root: Path | None = None) -> None:
        self.folder = folder
        self.root = root  # paths are described relative to it

    def _numbers(self) -> list[int]:
        if not self.folder.is_dir():
            return []
        return sorted(int(p.stem) for p in self.folder.glob("*.json") if p.stem.isdigit())

    def __len__(self) -> int:
        return len(self._numbers())

    def save(self, path: Path, turn: int = 0) -> None:
        """Record `path` as it is now (its bytes, or that it does not exist) before a write
        made during `turn` (the session's task number)."""
        path = Path(path).absolute()
        numbers = self._numbers()
        number = (numbers[-1] + 1) if numbers else 1
        private_dir(self.folder)
        meta: dict[str, object] = {"path": str(path), "existed": path.is_file(), "turn": turn}
        if path.is_file():
            _write_private_bytes(self.folder / f"{number:06d}.bin", path.read_bytes())
            meta["mode"] = path.stat().st_mode & 0o7777
        else:
            missing = [p for p in [path.parent, *path.parent.parents] if not p.exists()]
            meta["created_dir"] = str(missing[-1]) if missing else None
        write_private(self.folder / f"{number:06d}.json", json.dumps(meta))

    def wrote(self, path: Path) -> None:
        """After the write: remember what the tool left, so `undo` notices later changes."""
        path = Path(path).absolute()
        for number in reversed(self._numbers()):
            meta = self._meta(number)
            if meta["path"] == str(path):
                meta["written"] = fingerprint(path)
                write_private(self.folder / f"{number:06d}.json", json.dumps(meta))
                return

    def undo(self, force: bool = False) -> str | None:
        """Restore the newest checkpoint and drop it; a one-line description, or None.
        A file changed since the tool wrote it is left alone (a refusal line naming it)
        unless `force`."""
        numbers = self._numbers()
        if not numbers:
            return None
        stem = self.folder / f"{numbers[-1]:06d}"
        meta = self._meta(numbers[-1])
        path = Path(meta["path"])
        written = meta.get("written")
        if not force and written and fingerprint(path) != written:
            return (
                f"not undone: {self._show(path)} changed after the tool wrote it; "
                "undo again with force (/undo force) to overwrite those changes"
            )
        if meta["existed"]:
            atomic_write(path, stem.with_suffix(".bin").read_bytes(), meta.get("mode"))
            text = f"restored {self._show(path)}"
        else:
            path.unlink(missing_ok=True)
            _remove_empty_dirs(path.parent, meta.get("created_dir"))
            text = f"removed new file {self._show(path)}"
        stem.with_suffix(".bin").unlink(missing_ok=True)
        stem.with_suffix(".json").unlink()
        return text

    def _meta(self, number: int) -> dict[str, Any]:
        meta: dict[str, Any] = json.loads((self.folder / f"{number:06d}.json").read_text("utf-8"))
        return meta

    def undo_turn(self, force: bool = False) -> Restored | None:
        """Restore every checkpoint of the newest turn, in one step; None when there is none.
        When a file changed since the tool last wrote it, nothing is restored unless `force`."""
        numbers = self._numbers()
        if not numbers:
            return None
        metas = [self._meta(n) for n in numbers]
        turn = metas[-1].get("turn", 0)
        # the newest run of that turn: what `undo` pops (a resumed session numbers turns anew)
        mine = list(takewhile(lambda m: m.get("turn", 0) == turn, reversed(metas)))[::-1]
        newest = {m["path"]: m for m in mine}  # the last write of each file
        oldest = {m["path"]: m for m in reversed(mine)}  # what it was before the turn
        clash = [
            self._show(Path(p))
            for p, m in newest.items()
            if m.get("written") and fingerprint(Path(p)) != m["written"]
        ]
        if clash and not force:
            return Restored(clash_text(turn, clash), done=False, turn=turn, clash=clash)
        for _ in mine:
            self.undo(force=True)
        shown = {p: self._show(Path(p)) for p in oldest}
        removed = sorted(shown[p] for p, m in oldest.items() if not m["existed"])
        kept = sorted(shown[p] for p, m in oldest.items() if m["existed"])
        return undone_turn(turn, kept + removed, removed)

    def _show(self, path: Path) -> str:
        if self.root is not None:
            try:
                return str(path.relative_to(self.root.resolve()))
            except ValueError:
                pass
        return str(path)


def _remove_empty_dirs(folder: Path, top: str | None) -> None:
    """Remove folders the undone write created, innermost first, while they are empty."""
    if not top:
        return
    stop = Path(top)
    for current in [folder, *folder.parents]:
        try:
            current.rmdir()
        except OSError:
            return
        if current == stop:
            return


def prune_old(top: Path, keep_days: float = KEEP_DAYS, spare: Path | None = None) -> int:
    """Delete session folders under `top` untouched for `keep_days`; how many went."""
    if not top.is_dir():
        return 0
    cutoff = time.time() - keep_days * 86400
    gone = 0
    for folder in top.iterdir():
        try:
            if folder != spare and folder.is_dir() and folder.stat().st_mtime < cutoff:
                shutil.rmtree(folder)
                gone += 1
        except OSError:
            continue  # pruning is housekeeping: never fail a write over it
    return gone


def get_checkpoints(ctx: ToolContext) -> Checkpoints:
    """The session's store from `ctx.services`, created on first use (old sessions' checkpoints
    are pruned then)."""
    if ctx.services.checkpoints is None:
        folder = ctx.home / "checkpoints" / (ctx.session_id or "default")
        prune_old(folder.parent, spare=folder)
        ctx.services.checkpoints = CheckpointStore(folder, root=ctx.workspace)
    return ctx.services.checkpoints


def _write_private_bytes(path: Path, data: bytes) -> None:
    with open_private(path, "wb") as fh:
        fh.write(data)
