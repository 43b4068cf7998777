"""Snapshots of the workspace before and after each command and edit (shadow git, see
tools/shadow_git.py): `/undo` takes back the last step that changed files, whatever made it;
`/rewind` puts the files back as they were when a turn began; `/diff` shows the session's work.

The session's steps are a JSON-lines log next to the shadow repository:
{"turn", "label", "before", "after"} (tree ids; "after" missing when the step never finished).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from my_agent.home import project_id
from my_agent.private import write_private
from tools import kept_files
from tools.base import ToolContext
from tools.checkpoints import get_checkpoints
from tools.restored import Restored, clash_text, undone_turn
from tools.shadow_git import Change, ShadowGit, SnapshotError


@dataclass
class Step:
    turn: int
    label: str
    before: str
    after: str = ""
    time: float = 0.0  # when the step began (files created since then are its own)
    kept: dict[str, str] = field(default_factory=dict)  # deleted files git does not hold


class Snapshots:
    """One session's steps over the project's shadow repository."""

    def __init__(self, workspace: Path, home: Path, session_id: str) -> None:
        self.workspace = workspace.resolve()
        folder = home / "snapshots" / project_id(self.workspace)
        self.git = ShadowGit(self.workspace, folder / "git")
        self.log = folder / "sessions" / f"{session_id or 'default'}.jsonl"
        self.kept_root = folder / "kept"  # tools/kept_files.py: one folder a step
        self.session_id = session_id or "default"
        self.steps = self._load()
        self.turn = max((s.turn for s in self.steps), default=0)
        self.tasks: dict[int, str] = {}  # turn → its task as typed (this process's turns)
        self.sent: dict[int, str] = {}  # turn → the text its task's message went out with
        self.commits: dict[int, str] = {}  # turn → the agent's commit of it (--auto-commit)
        self.marks: dict[int, int] = {}  # turn → length of the conversation when it began
        self.warning = ""  # why the last snapshot was skipped, once

    def _load(self) -> list[Step]:
        if not self.log.is_file():
            return []
        steps = []
        for line in self.log.read_text("utf-8").splitlines():
            try:
                steps.append(Step(**json.loads(line)))
            except (ValueError, TypeError):
                continue
        return steps

    def _save(self) -> None:
        lines = [json.dumps(s.__dict__) for s in self.steps]
        write_private(self.log, "".join(line + "\n" for line in lines))

    def begin_turn(self, task: str = "") -> int:
        """A new task: the steps that follow belong to it (`/rewind` goes back by turns)."""
        self.turn += 1
        self.tasks[self.turn] = task
        return self.turn

    def _tree(self) -> str:
        try:
            return self.git.tree()
        except (SnapshotError, OSError) as exc:
            self.warning = f"snapshot skipped: {exc}"
            return ""

    def before(self, label: str) -> Step | None:
        """Record the workspace before a step; None when no snapshot could be made."""
        began = time.time()
        tree = self._tree()
        if not tree:
            return None
        step = Step(self.turn, label[:200], tree, time=began)
        self.steps.append(step)
        self._save()
        return step

    def keep(self, step: Step, targets: list[tuple[Path, bool]]) -> None:
        """Before `step` runs: keep the files it will delete that git does not hold."""
        if not step.kept:
            kept_files.prune(self.kept_root)
        folder = self.kept_root / f"{self.session_id}-{len(self.steps)}-{int(step.time * 1000)}"
        kept, missed = kept_files.keep(targets, self.workspace, folder)
        step.kept.update(kept)
        if missed:
            self.warning = f"not kept for /undo: {', '.join(missed[:5])}"
        self._save()

    def _kept(self, steps: list[Step]) -> dict[str, str]:
        """The files `steps` kept that are missing now (the earliest copy of each)."""
        found: dict[str, str] = {}
        for step in steps:
            for rel, stored in step.kept.items():
                if not (self.workspace / rel).exists():
                    found.setdefault(rel, stored)
        return found

    def added(self, step: Step | None, names: tuple[str, ...]) -> list[str]:
        """The files named one of `names` that `step` created or changed (absolute paths),
        anywhere in the workspace git does not ignore; [] when it made no snapshot."""
        if step is None or not step.after or step.after == step.before:
            return []
        try:
            changes = self.git.changes(step.before, step.after)
        except SnapshotError:
            return []
        return [
            str(self.workspace / c.path)
            for c in changes
            if c.status in ("A", "M", "T") and c.path.rsplit("/", 1)[-1] in names
        ]

    def _drop(self, steps: list[Step]) -> None:
        for step in steps:
            kept_files.forget(step.kept)

    def after(self, step: Step | None) -> None:
        if step is None:
            return
        step.after = self._tree()
        if step.after and step.after != step.before:
            try:
                self.git.keep(step.before, step.label)
                self.git.keep(step.after, step.label)
            except SnapshotError as exc:
                self.warning = f"snapshot not kept: {exc}"
        self._save()

    def _after_of(self, index: int, now: str) -> str:
        step = self.steps[index]
        if step.after:
            return step.after
        return self.steps[index + 1].before if index + 1 < len(self.steps) else now

    def undo_turn(self, force: bool = False) -> Restored | None:
        """Take back every file change of the newest turn that changed files, in one step;
        None when no turn did. Files changed again since are left alone (a refusal naming
        them) unless `force`."""
        if not self.steps:
            return None
        now = self._tree()
        if not now:
            return Restored(self.warning, done=False)
        for turn in sorted({s.turn for s in self.steps}, reverse=True):
            mine = [i for i, s in enumerate(self.steps) if s.turn == turn]
            first = self.steps[mine[0]]
            after = self._after_of(mine[-1], now)
            changed = self.git.changes(first.before, after)
            kept = self._kept([self.steps[i] for i in mine])
            if not changed and not kept:
                continue
            later = {c.path for c in self.git.changes(after, now)}
            clash = sorted(later & set(_paths(changed)))
            if clash and not force:
                return Restored(clash_text(turn, clash), done=False, turn=turn, clash=clash)
            changed = self.git.restore(first.before, changed, first.time)
            back = kept_files.put_back(kept, self.workspace)
            self._drop(self.steps[mine[0] :])
            del self.steps[mine[0] :]
            self._save()
            removed = [c.path for c in changed if c.status == "A"]
            return undone_turn(turn, _paths(changed) + back, removed)
        return None

    def turn_paths(self, turn: int) -> list[str]:
        """The files turn `turn` changed (workspace-relative), from its first step to its last."""
        mine = [i for i, s in enumerate(self.steps) if s.turn == turn]
        if not mine:
            return []
        now = self._tree()
        if not now:
            return []
        return _paths(self.git.changes(self.steps[mine[0]].before, self._after_of(mine[-1], now)))

    def turns(self) -> list[tuple[int, str]]:
        """(turn, first step's label) for each turn that has steps, oldest first."""
        seen: dict[int, str] = {}
        for step in self.steps:
            seen.setdefault(step.turn, step.label)
        return sorted(seen.items())

    def rewind(self, turn: int) -> Restored:
        """Files back as they were when `turn` began (its first step's snapshot)."""
        now = self._tree()
        if not now:
            return Restored(self.warning, done=False)
        first = next((s for s in self.steps if s.turn >= turn), None)
        if first is None:
            return Restored("no file changes since then")
        changed = self.git.changes(first.before, now)
        changed = self.git.restore(first.before, changed, first.time)
        gone = [s for s in self.steps if s.turn >= turn]
        back = kept_files.put_back(self._kept(gone), self.workspace)
        changed += [Change("D", rel) for rel in back]
        self._drop(gone)
        self.steps = [s for s in self.steps if s.turn < turn]
        self._save()
        return Restored(f"files back as before turn {turn}: {_summary(changed)}", _paths(changed))

    def diff(self) -> tuple[list[Change], str]:
        """What the session changed: from its first snapshot to now (files, unified patch)."""
        if not self.steps:
            return [], ""
        now = self._tree()
        if not now:
            return [], self.warning
        start = self.steps[0].before
        return self.git.changes(start, now), self.git.patch(start, now)

    def take_warning(self) -> str:
        found, self.warning = self.warning, ""
        return found


def _paths(changes: list[Change]) -> list[str]:
    return [c.path for c in changes]


def _summary(changes: list[Change]) -> str:
    if not changes:
        return "no file changed"
    words = {"A": "removed", "D": "restored", "M": "restored", "T": "restored"}
    shown = [f"{words.get(c.status, 'restored')} {c.path}" for c in changes[:5]]
    more = f" and {len(changes) - 5} more" if len(changes) > 5 else ""
    return ", ".join(shown) + more


def get_snapshots(ctx: ToolContext) -> Snapshots:
    """The session's snapshots from `ctx.services`, made on first use."""
    found = ctx.services.snapshots
    if not isinstance(found, Snapshots):
        found = Snapshots(ctx.workspace, ctx.home, ctx.session_id)
        ctx.services.snapshots = found
    return found


@contextmanager
def recorded(
    ctx: ToolContext,
    label: str,
    path: Path | None = None,
    keep: list[tuple[Path, bool]] | None = None,
) -> Iterator[Step | None]:
    """Snapshot the workspace around one step. When no snapshot can be made, an edit of `path`
    still gets a per-file checkpoint (tools/checkpoints.py), so `/undo` can take it back.
    `keep`: files the step will delete that git does not hold (kept first, for `/undo`).
    Yields the step (None: no snapshot), complete once the block has ended."""
    snaps = get_snapshots(ctx)
    step = snaps.before(label)
    if step is not None and keep:
        snaps.keep(step, keep)
    checkpoints = get_checkpoints(ctx) if step is None and path is not None else None
    if checkpoints is not None and path is not None:
        checkpoints.save(path, snaps.turn)
    try:
        yield step
    finally:
        snaps.after(step)
        if checkpoints is not None and path is not None:
            checkpoints.wrote(path)


def undo_turn(ctx: ToolContext, force: bool = False) -> Restored | None:
    """`/undo`: the newest turn's file changes from the snapshots, else from the per-file
    checkpoints (the turn's edits, when no snapshot could be made)."""
    found = get_snapshots(ctx).undo_turn(force)
    if found is not None and (found.done or found.clash):
        return found
    fallback = get_checkpoints(ctx).undo_turn(force)  # also when no snapshot can be made now
    return fallback if fallback is not None else found
