"""bench/replay.py reads all three trajectory formats and prints the comparison table."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

SHARED = ROOT.parent / "shared" / "trajectories"
POLICIES = ("naive", "original", "mask-10k", "mask-every", "pad-10k", "drop-all", "ours")
UNICUM = "ours with Unicum's prompt"  # the second table's sections end so


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


FIXED = "1500"  # Unicum's fixed prompt for the runs that are not about it (measuring takes ~10 s)


def bench_cli(script: str, *args: str, fixed: str = FIXED) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "UNICUM_BENCH_FIXED": fixed}
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    return bench_cli("replay.py", *args)


def _rows(stdout: str, source: str, section: str = "") -> dict[str, list[str]]:
    """policy -> [raw, %, billed anthropic, %, billed openai, %, retention, recalls, compact,
    peak] of one source's table (in `section` when given)."""
    if section:
        stdout = stdout.split(f"=== {section} ===", 1)[1].split("\n=== ", 1)[0]
    block = stdout.split(f"\n{source} (", 1)[1].split("\n\n", 1)[0].splitlines()
    return {row.split()[0]: row.split()[1:] for row in block[2:]}


def test_replay_reads_every_format_and_prints_the_table(tmp_path):
    write_mini(tmp_path / "task.traj.json")
    write_swe_agent(tmp_path / "demo.traj")
    write_claude_code(tmp_path / "session.jsonl")
    (tmp_path / "notes.txt").write_text("not a trajectory")

    proc = replay(str(tmp_path), "--no-split")

    assert proc.returncode == 0, proc.stderr
    assert (
        "raw input" in proc.stdout and "billed anth" in proc.stdout and "billed open" in proc.stdout
    )
    for source in ("mini-swe-agent", "swe-agent", "claude-code", "total"):
        rows = _rows(proc.stdout, source)
        assert set(rows) == set(POLICIES), source
        assert rows["naive"][1] == rows["naive"][3] == rows["naive"][5] == "100%"
    total = _rows(proc.stdout, "total")
    assert int(total["ours"][1].rstrip("%")) < 100  # fewer raw tokens than naive
    assert int(total["ours"][8]) >= 1  # compaction fired and is reported
    assert "fixed prompt" in proc.stdout  # the measured overhead is reported


def test_replay_errors_are_one_line(tmp_path):
    proc = replay(str(tmp_path / "missing"))
    assert proc.returncode == 2 and "no such file" in proc.stderr and "Traceback" not in proc.stderr
    bad = tmp_path / "bad.traj"
    bad.write_text("{}")
    proc = replay(str(bad))
    assert proc.returncode == 2 and "skipped" in proc.stderr and "Traceback" not in proc.stderr


BAD_FILES = {
    "bin.traj": (b"\xff\xfe\x00garbage", "not UTF-8 text"),
    "cut.traj.json": (b'{"messages": [', "not JSON (line 1, column 15)"),
    "ints.traj.json": (b'{"messages": [1, 2]}', "not a mini-swe-agent, SWE-agent or Claude"),
    "shape.traj": (b'{"trajectory": "x"}', "not a mini-swe-agent, SWE-agent or Claude"),
    "noid.traj.json": (
        b'{"messages": [{"role": "assistant", "content": "", "tool_calls": '
        b'[{"function": {"name": "bash", "arguments": "{}"}}]}]}',
        "(no 'id' field)",
    ),
    "torn.jsonl": (
        b'{"type": "user", "message": {"role": "user", "content": "hi"}}\n{"ty',
        "line 2 is not JSON",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_file_of_the_wrong_shape_is_skipped_with_its_reason(tmp_path, name):
    body, reason = BAD_FILES[name]
    bad = tmp_path / name
    bad.write_bytes(body)
    proc = replay(str(bad), "--no-split")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    first, last = proc.stderr.splitlines()
    assert first.startswith(f"skipped {bad}: ") and reason in first
    assert last == "replay: no trajectories found"


def test_a_recording_without_api_calls_is_skipped_not_divided_by(tmp_path):
    empty = tmp_path / "empty.traj.json"
    empty.write_text(json.dumps({"messages": [{"role": "user", "content": "Fix it"}]}))
    proc = replay(str(empty), "--no-split")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [
        f"skipped {empty}: no API calls in it",
        "replay: no trajectories found",
    ]
    write_mini(tmp_path / "task.traj.json", steps=4)
    proc = replay(str(tmp_path), "--no-split")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert _rows(proc.stdout, "mini-swe-agent")["naive"][1] == "100%"


@pytest.mark.skipif(not SHARED.is_dir(), reason="shipped trajectories not next to the repo")
def test_replay_on_shipped_trajectories():
    files = [
        SHARED / "mini-swe-agent" / "django__django-11099.traj.json",
        SHARED / "swe-agent" / "marshmallow-code__marshmallow-1867.traj",
        SHARED / "claude-code" / "agent-a7be2f0.jsonl",
    ]
    proc = replay(*map(str, files))
    assert proc.returncode == 0, proc.stderr
    sections = re.findall(r"=== (.+) ===", proc.stdout)
    assert len(sections) == 6  # one folder or file each, split into its halves, both bases
    for section in sections:
        second = section.endswith(UNICUM)
        wanted = {"naive", "mask-10k", "ours"} if second else set(POLICIES)
        assert set(_rows(proc.stdout, "total", section)) == wanted, section


def test_misses_lists_each_reference_ours_did_not_show_with_what_it_did(tmp_path):
    messages = [{"role": "system", "content": "sys"}, {"role": "user", "content": "Fix pkg/a.py"}]
    for n in range(20):  # many reads, then a use of a line of the first one
        command = f"cat -n pkg/mod_{n}.py" if n < 19 else "grep -n helper_0_77 pkg/mod_0.py"
        arguments = json.dumps({"command": command})
        call = {
            "id": f"m{n}",
            "type": "function",
            "function": {"name": "bash", "arguments": arguments},
        }
        messages.append({"role": "assistant", "content": f"Step {n}", "tool_calls": [call]})
        output = f"<returncode>0</returncode>\n<output>\n{_output(n)}\n</output>"
        messages.append({"role": "tool", "tool_call_id": f"m{n}", "content": output})
    (tmp_path / "task.traj.json").write_text(json.dumps({"messages": messages}))

    proc = replay(str(tmp_path), "--no-split", "--misses", str(tmp_path / "misses.txt"))

    assert proc.returncode == 0, proc.stderr
    listed = (tmp_path / "misses.txt").read_text().splitlines()
    assert listed[0] == "1 misses" and "1 retention misses" in proc.stdout
    where, kind, _, age, ref, line = listed[-1].split("\t", 5)
    assert (where, kind, age, ref) == ("task.traj.json#19", "read", "age 18", "helper_0_77")
    assert "def helper_0_77" in line
