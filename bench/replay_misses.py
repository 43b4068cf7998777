"""The retention misses of one policy: each reference a recorded call used that the request
did not show, with the output it came from and what the policy had done to that output.

    python bench/replay.py /work/shared/trajectories --half tune --misses /tmp/misses.txt

For tuning on the tune half: the file lists every miss, one a line, after a count per
(source, output kind, treatment)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.replay_metrics import Provenance


@dataclass(frozen=True)
class Miss:
    recording: str  # the file's name
    source: str  # claude-code, mini-swe-agent, swe-agent
    step: int  # the recorded API call that needed it
    ref: str
    call_id: str  # the output it came from ("" when only the model wrote it)
    kind: str  # that output's fact kind
    treatment: str  # what the policy had done to that output
    line: str  # the line the reference came from
    age: int = -1  # steps since that output was shown (-1: unknown)

    def render(self) -> str:
        where = f"{self.recording}#{self.step}"
        return (
            f"{where}\t{self.kind}\t{self.treatment}\tage {self.age}\t{self.ref}\t{self.line[:160]}"
        )


def treatment(policy: object, call_id: str) -> str:
    """What the default policy (`CacheAwareContext`) did to one output; "?" for others."""
    state = getattr(policy, "state", None)
    early = getattr(policy, "early", None)
    if state is None or early is None:
        return "?"
    if call_id in state.results:
        shown = state.results[call_id]
        return "event-line" if shown.startswith("[archived") else "event-lines"
    if call_id in early.lines:
        shown = early.lines[call_id]
        return "early-line" if shown.startswith("[archived") else "lines"
    if call_id in policy.first.shaped:  # type: ignore[attr-defined]
        return "shaped"
    if call_id in policy.repeats.replacements({}):  # type: ignore[attr-defined]
        return "repeat-pointer"
    return "whole"


def misses_of(
    gone: set[str],
    origin: Provenance,
    policy: object,
    recording: str,
    source: str,
    step: int,
    shown_at: dict[str, int] | None = None,
) -> list[Miss]:
    """One `Miss` per reference in `gone`, named by the newest output line carrying it;
    `shown_at`: the step each output was first shown at (for its age)."""
    shown_at = shown_at or {}
    facts = getattr(policy, "facts", {})
    out = []
    for ref in sorted(gone):
        sources = [s for s in origin.sources.get(ref, ()) if s.call_id] or list(
            origin.sources.get(ref, ())
        )
        found = sources[-1] if sources else None
        call_id = found.call_id if found else ""
        fact = facts.get(call_id)
        out.append(
            Miss(
                recording,
                source,
                step,
                ref,
                call_id,
                fact.kind if fact else "",
                treatment(policy, call_id) if call_id else "model",
                found.line if found else "",
                step - shown_at[call_id] if call_id in shown_at else -1,
            )
        )
    return out


def write(misses: list[Miss], path: Path) -> None:
    """The counts per (source, kind, treatment), then every miss."""
    counts = Counter((m.source, m.kind, m.treatment) for m in misses)
    rows = [f"{len(misses)} misses"]
    rows += [f"{n:>5}  {s} {k} {t}" for (s, k, t), n in counts.most_common()]
    rows += ["", *(m.render() for m in misses)]
    path.write_text("\n".join(rows) + "\n")
