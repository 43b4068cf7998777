"""bench/frontier.py: ours with one setting changed at a time, and where a request goes."""

from __future__ import annotations

import subprocess

from tests.bench.test_replay import (
    _rows,
    bench_cli,
    replay,
    write_claude_code,
    write_mini,
)
from tests.bench.test_replay_honesty import _bench, write_needy

SETTINGS = (
    "ours",
    "no-events",
    "free-events",
    "no-early",
    "no-notes",
    "no-lines",
    "no-shape",
    "reads-early",
    "small-8",
    "event-facts",
    "read-task",
    "whole-reads",
    "args-writes",
    "notes-300",
    "floor",
)


def frontier(*args: str) -> subprocess.CompletedProcess[str]:
    return bench_cli("frontier.py", *args)


def test_frontier_prints_every_setting_and_its_default_is_the_replays_ours(tmp_path):
    write_mini(tmp_path / "a.traj.json")
    write_needy(tmp_path / "n.traj.json")
    write_claude_code(tmp_path / "s.jsonl")
    proc = frontier(str(tmp_path), "--half", "all")
    assert proc.returncode == 0, proc.stderr
    mini = _rows(proc.stdout, "mini-swe-agent")
    assert list(mini) == ["naive", "mask-10k", "oracle", *SETTINGS]
    assert mini["no-events"][8] == "0"  # compactions
    assert int(mini["ours"][8]) > 0
    floor, ours = mini["floor"], mini["ours"]
    # every output lined after one turn sends less and never keeps more references or fewer recalls
    assert float(floor[1].rstrip("%")) < float(ours[1].rstrip("%"))
    assert float(floor[6].rstrip("%")) <= float(ours[6].rstrip("%"))
    assert int(floor[7]) >= int(ours[7])
    same = replay(str(tmp_path), "--no-split")
    assert same.returncode == 0, same.stderr
    for source in ("mini-swe-agent", "claude-code", "total"):
        assert _rows(same.stdout, source)["ours"] == _rows(proc.stdout, source)["ours"]
    for name in SETTINGS:
        assert f"\n  {name:<12} " in proc.stdout  # what each setting changes
    assert "\nthe Anthropic bill in parts" in proc.stdout
    assert "\nwhere a request goes" in proc.stdout


def test_composition_counts_outputs_whole_and_cut_and_the_fixed_prompt(tmp_path):
    bench, policies, _, trajectories = _bench()
    from bench.frontier import Composition

    write_needy(tmp_path / "n.traj.json", steps=12)
    (rec,) = trajectories.load(tmp_path / "n.traj.json")
    naive = Composition(policies.Naive(), 700)
    # notes as long as before issue 26's second round: this file's recalls bring back whole
    # outputs, and how many it needs moves with the notes' length (not what is tested here)
    budget = {"early_kinds": ("read",), "old_text_chars": 300}
    ours = Composition(policies.Ours(overhead_tokens=700, **budget), 700)
    for wrapped in (naive, ours):
        tally = bench.replay(rec, wrapped, 700)
        assert wrapped.requests == tally.requests >= 12  # recalls are requests too
        assert wrapped.parts["fixed prompt"] == tally.requests * 700
    assert naive.requests == 12
    assert naive.parts["outputs cut"] == 0
    assert naive.parts["outputs whole"] > 0 and naive.parts["notes"] > 0
    assert ours.parts["outputs cut"] > 0  # reads became their lines after one turn
    assert ours.parts["outputs whole"] < naive.parts["outputs whole"]  # recalled ones count


def test_the_line_oracle_keeps_what_later_calls_use_on_both_bases(tmp_path):
    """The oracle knows the recording: only the output lines a later call uses survive its
    first showing, so nothing is recalled, and no rule-bound policy sends fewer tokens."""
    write_needy(tmp_path / "n.traj.json", steps=12)
    proc = frontier(str(tmp_path), "--half", "all", "--settings", "ours,floor")
    assert proc.returncode == 0, proc.stderr
    for section in ("all recordings", "all recordings · ours with Unicum's prompt"):
        rows = _rows(proc.stdout, "total", section)
        assert list(rows) == ["naive", "mask-10k", "oracle", "ours", "floor"]
        oracle = rows["oracle"]
        assert oracle[6] == "100.0%" and oracle[7] == "0"  # retention, recalls
        for other in ("naive", "mask-10k", "ours", "floor"):
            assert int(oracle[0].replace(",", "")) < int(rows[other][0].replace(",", ""))
    same = _rows(proc.stdout, "total", "all recordings")["oracle"]
    unicum = _rows(proc.stdout, "total", "all recordings · ours with Unicum's prompt")["oracle"]
    assert same != unicum  # charged Unicum's prompt there, its own here
    bad = frontier(str(tmp_path), "--settings", "nope")
    assert bad.returncode != 0 and "no setting nope" in bad.stderr


def test_frontier_errors_are_one_line(tmp_path):
    proc = frontier(str(tmp_path / "nowhere"))
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"frontier: no such file or folder: {tmp_path / 'nowhere'}"
    (tmp_path / "empty").mkdir()
    proc = frontier(str(tmp_path / "empty"), "--half", "all")
    assert proc.returncode == 2 and proc.stderr.strip() == "frontier: no trajectories found"
