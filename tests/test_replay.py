"""bench/replay.py reads all three trajectory formats and prints the comparison table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

SHARED = ROOT.parent / "shared" / "trajectories"
POLICIES = ("naive", "original", "mask-10k", "mask-every", "ours")


def _output(n: int) -> str:
    return "\n".join(f"{i}\tdef helper_{n}_{i}(arg): return arg + {i}" for i in range(1, 150))


def write_mini(path: Path, steps: int = 30) -> None:
    messages = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "Fix the bug in pkg/util.py"},
    ]
    for n in range(steps):
        call = {
            "id": f"m{n}",
            "type": "function",
            "function": {
                "name": "bash",
                "arguments": json.dumps(
                    {
                        "command": f"cat -n pkg/mod_{n}.py"
                        if n % 3
                        else f"sed -i 's/helper_{n - 3}_40/fixed/' pkg/mod_{n - 3}.py"
                    }
                ),
            },
        }
        messages.append(
            {
                "role": "assistant",
                "content": f"Step {n}",
                "tool_calls": [call],
                "extra": {"response": {"usage": {"prompt_tokens": 1000 + n}}},
            }
        )
        messages.append(
            {
                "role": "tool",
                "tool_call_id": f"m{n}",
                "content": f"<returncode>0</returncode>\n<output>\n{_output(n)}\n</output>",
            }
        )
    path.write_text(json.dumps({"messages": messages}))


def write_swe_agent(path: Path) -> None:
    history = [
        {"role": "system", "content": "SETTING: you are an autonomous programmer"},
        {"role": "user", "content": "ISSUE: TimeDelta rounding"},
    ]
    trajectory = [
        {
            "action": f"open src/fields.py {100 * n}",
            "observation": _output(n),
            "thought": f"look at part {n}",
        }
        for n in range(12)
    ]
    path.write_text(json.dumps({"history": history, "trajectory": trajectory}))


def write_claude_code(path: Path) -> None:
    lines = [{"type": "user", "message": {"role": "user", "content": "Refactor the renderer"}}]
    for n in range(20):
        use = {
            "type": "tool_use",
            "id": f"toolu_{n}",
            "name": "Read",
            "input": {"file_path": f"/repo/lib/mod_{n}.ex"},
        }
        lines.append(
            {
                "type": "assistant",
                "message": {"id": f"msg_{n}", "role": "assistant", "content": [use]},
            }
        )
        lines.append({"type": "progress", "data": {}})
        lines.append(
            {
                "type": "user",
                "message": {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": _output(n)}
                    ],
                },
            }
        )
    path.write_text("\n".join(json.dumps(line) for line in lines))


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "replay.py"), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def _rows(stdout: str, source: str) -> dict[str, list[str]]:
    block = stdout.split(f"\n{source} (", 1)[1].split("\n\n", 1)[0].splitlines()
    return {row.split()[0]: row.split()[1:] for row in block[2:]}


def test_replay_reads_every_format_and_prints_the_table(tmp_path):
    write_mini(tmp_path / "task.traj.json")
    write_swe_agent(tmp_path / "demo.traj")
    write_claude_code(tmp_path / "session.jsonl")
    (tmp_path / "notes.txt").write_text("not a trajectory")

    proc = replay(str(tmp_path))

    assert proc.returncode == 0, proc.stderr
    assert "raw input" in proc.stdout and "billed" in proc.stdout and "retention" in proc.stdout
    for source in ("mini-swe-agent", "swe-agent", "claude-code", "total"):
        rows = _rows(proc.stdout, source)
        assert set(rows) == set(POLICIES), source
        assert rows["naive"][1] == "100%" and rows["naive"][3] == "100%"
    total = _rows(proc.stdout, "total")
    assert int(total["ours"][1].rstrip("%")) < 100  # fewer raw tokens than naive
    assert int(total["ours"][5]) >= 1  # compaction fired and is reported
    assert "ratio" in proc.stdout  # estimator checked against the recorded billing


def test_replay_errors_are_one_line(tmp_path):
    proc = replay(str(tmp_path / "missing"))
    assert proc.returncode == 2 and "no such file" in proc.stderr and "Traceback" not in proc.stderr
    bad = tmp_path / "bad.traj"
    bad.write_text("{}")
    proc = replay(str(bad))
    assert proc.returncode == 2 and "skipped" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.skipif(not SHARED.is_dir(), reason="shipped trajectories not next to the repo")
def test_replay_on_shipped_trajectories():
    files = [
        SHARED / "mini-swe-agent" / "django__django-11099.traj.json",
        SHARED / "swe-agent" / "marshmallow-code__marshmallow-1867.traj",
        SHARED / "claude-code" / "agent-a7be2f0.jsonl",
    ]
    proc = replay(*map(str, files))
    assert proc.returncode == 0, proc.stderr
    assert set(_rows(proc.stdout, "total")) == set(POLICIES)
