"""What an undo or rewind did, as data: the UI words it (in the user's language), the model
reads `text` (English)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Restored:
    """`text`: one English line; `paths`: every file put back or removed (memory forgets they
    were modified); `removed`: those of `paths` the undone work had created; `turn`: the turn
    taken back (0: a single step); `clash`: files changed since, left alone (not `done`)."""

    text: str
    paths: list[str] = field(default_factory=list)
    done: bool = True
    turn: int = 0
    removed: list[str] = field(default_factory=list)
    clash: list[str] = field(default_factory=list)

    @property
    def restored(self) -> list[str]:
        return [p for p in self.paths if p not in self.removed]


def turn_text(turn: int, restored: list[str], removed: list[str]) -> str:
    """The English line for an undone turn: `undid turn 3: restored a.py, b.py; removed c.py`."""
    parts = []
    if restored:
        parts.append("restored " + ", ".join(restored))
    if removed:
        parts.append("removed " + ", ".join(removed))
    return f"undid turn {turn}: " + ("; ".join(parts) or "no file changed")


def undone_turn(turn: int, paths: list[str], removed: list[str]) -> Restored:
    """A turn taken back: `paths` put back or removed, `removed` those the turn had created."""
    kept = [p for p in paths if p not in removed]
    return Restored(turn_text(turn, kept, removed), paths, turn=turn, removed=removed)


def clash_text(turn: int, clash: list[str]) -> str:
    return (
        f"not undone: {', '.join(clash[:5])} changed after turn {turn}; undo again with force "
        "(/undo force) to overwrite those changes"
    )
