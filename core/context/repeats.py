"""Shrink an output before it is first sent: runs of lines an earlier output still shown whole
already holds (a re-read of an unchanged file, an editor reprinting its window, the same
traceback again) become one pointer to that output."""

from __future__ import annotations

from dataclasses import dataclass, field

MIN_RUN = 3  # repeated lines a pointer replaces, at least
MIN_CHARS = 120  # and at least this much text


@dataclass
class Repeats:
    """Which lines the request already shows whole, and the outputs shrunk against them."""

    home: dict[str, str] = field(default_factory=dict)  # line -> call id of the output showing it
    shrunk: dict[str, tuple[str, frozenset[str]]] = field(
        default_factory=dict
    )  # id -> (text, cited)

    def shrink(self, call_id: str, text: str, archive_ids: dict[str, str]) -> str:
        """The text to send for a new output (itself, or with pointers); its lines join `home`."""
        lines = text.split("\n")
        out: list[str] = []
        cited: set[str] = set()
        i = 0
        while i < len(lines):
            j, counted = i, 0
            while j < len(lines) and (not lines[j].strip() or lines[j].strip() in self.home):
                counted += bool(lines[j].strip())
                j += 1
            run = [x.strip() for x in lines[i:j] if x.strip()]
            if counted >= MIN_RUN and sum(map(len, run)) >= MIN_CHARS:
                first = self.home[run[0]]
                cited.update(self.home[x] for x in run)
                out.append(f"[{j - i} lines as in #{archive_ids.get(first, first)} above]")
                i = j
            else:
                out.extend(lines[i : max(j, i + 1)])
                i = max(j, i + 1)
        shown = "\n".join(out)
        if cited and len(shown) < 0.8 * len(text):
            self.shrunk[call_id] = (shown, frozenset(cited))
        else:
            shown = text
        self._register(call_id, shown)
        return shown

    def _register(self, call_id: str, shown: str) -> None:
        for line in shown.split("\n"):
            if line.strip():
                self.home.setdefault(line.strip(), call_id)

    def replacements(self, archived: dict[str, str]) -> dict[str, str]:
        """Shrunk texts still valid: the output itself and every output it points at are not
        archived. One whose source was archived is shown whole again."""
        return {
            cid: text
            for cid, (text, cited) in self.shrunk.items()
            if cid not in archived and not cited & archived.keys()
        }

    def pointed_at(self, archived: dict[str, str]) -> set[str]:
        """Outputs a pointer still shown points at."""
        return {c for cid in self.replacements(archived) for c in self.shrunk[cid][1]}

    def rebuild(self, results: list[tuple[str, str]], archived: dict[str, str]) -> None:
        """After a compaction event: only outputs still shown whole may be pointed at."""
        valid = self.replacements(archived)
        self.home = {}
        for call_id, content in results:
            if call_id not in archived:
                self._register(call_id, valid.get(call_id, content))
