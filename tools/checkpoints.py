"""Checkpoints: the bytes a file had before a tool wrote it, so `/undo` can put them back."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from tools.base import ToolContext


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

    def save(self, path: Path) -> None:
        """Record `path` as it is now (its bytes, or that it does not exist) before a write."""
        path = Path(path).absolute()
        numbers = self._numbers()
        number = (numbers[-1] + 1) if numbers else 1
        self.folder.mkdir(parents=True, exist_ok=True)
        meta: dict[str, object] = {"path": str(path), "existed": path.is_file()}
        if path.is_file():
            (self.folder / f"{number:06d}.bin").write_bytes(path.read_bytes())
            meta["mode"] = path.stat().st_mode & 0o7777
        else:
            missing = [p for p in [path.parent, *path.parent.parents] if not p.exists()]
            meta["created_dir"] = str(missing[-1]) if missing else None
        (self.folder / f"{number:06d}.json").write_text(json.dumps(meta), encoding="utf-8")

    def undo(self) -> str | None:
        """Restore the newest checkpoint and drop it; a one-line description, or None."""
        numbers = self._numbers()
        if not numbers:
            return None
        stem = self.folder / f"{numbers[-1]:06d}"
        meta = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
        path = Path(meta["path"])
        if meta["existed"]:
            _restore(path, stem.with_suffix(".bin").read_bytes(), meta.get("mode"))
            text = f"restored {self._show(path)}"
        else:
            path.unlink(missing_ok=True)
            _remove_empty_dirs(path.parent, meta.get("created_dir"))
            text = f"removed new file {self._show(path)}"
        stem.with_suffix(".bin").unlink(missing_ok=True)
        stem.with_suffix(".json").unlink()
        return text

    def _show(self, path: Path) -> str:
        if self.root is not None:
            try:
                return str(path.relative_to(self.root.resolve()))
            except ValueError:
                pass
        return str(path)


def _restore(path: Path, data: bytes, mode: int | None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".undo")
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    if mode is not None:
        os.chmod(tmp, mode)
    os.replace(tmp, path)


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


def get_checkpoints(ctx: ToolContext) -> CheckpointStore:
    """The session's store from `ctx.services`, created on first use."""
    store = ctx.services.get("checkpoints")
    if store is None:
        folder = ctx.home / "checkpoints" / (ctx.session_id or "default")
        store = CheckpointStore(folder, root=ctx.workspace)
        ctx.services["checkpoints"] = store
    return store
