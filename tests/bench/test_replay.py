"""bench/replay.py reads all three trajectory formats and prints the comparison table."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

SHARED = ROOT.parent / "shared" / "trajectories"
POLICIES = ("naive", "original", "mask-10k", "mask-every", "pad-10k", "drop-all", "ours")


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


def bench_cli(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
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
    assert len(sections) == 3  # one folder or file each, split into its halves
    for section in sections:
        assert set(_rows(proc.stdout, "total", section)) == set(POLICIES), section


# --- the honesty rules --------------------------------------------------------------------


def _bench():
    sys.path.insert(0, str(ROOT))
    from bench import policies, replay_metrics, trajectories
    from bench import replay as replay_module

    return replay_module, policies, replay_metrics, trajectories


def write_interleaved_claude_code(path: Path, usage_base: int = 0) -> int:
    """Each reply holds two tool uses on two lines sharing `message.id`, with the first
    result logged between them (as Claude Code writes parallel calls). Returns the replies."""
    lines = [{"type": "user", "message": {"role": "user", "content": "Tidy lib/"}}]
    replies = 8
    for n in range(replies):
        for k in range(2):
            use = {
                "type": "tool_use",
                "id": f"t{n}{k}",
                "name": "Read",
                "input": {"file_path": f"/r/m{n}{k}.ex"},
            }
            usage = {"input_tokens": 3, "cache_read_input_tokens": usage_base + 900 * n}
            reply = {"id": f"msg_{n}", "role": "assistant", "content": [use], "usage": usage}
            stamp = f"2026-02-11T22:{10 + n:02d}:0{k}.000Z"
            lines.append({"type": "assistant", "timestamp": stamp, "message": reply})
            result = {"type": "tool_result", "tool_use_id": f"t{n}{k}", "content": _output(n)}
            lines.append({"type": "user", "message": {"role": "user", "content": [result]}})
    path.write_text("\n".join(json.dumps(line) for line in lines))
    return replies


def test_claude_code_lines_sharing_a_message_id_are_one_request(tmp_path):
    bench, policies, _, trajectories = _bench()
    replies = write_interleaved_claude_code(tmp_path / "s.jsonl")
    (rec,) = trajectories.load(tmp_path / "s.jsonl")
    assert sum(m.role == "assistant" for m in rec.messages) == replies
    assert all(len(m.tool_calls) == 2 for m in rec.messages if m.role == "assistant")
    tally = bench.replay(rec, policies.Naive(), 0)
    assert tally.requests == replies == len(rec.billed) == len(rec.times)
    proc = replay(str(tmp_path / "s.jsonl"), "--no-split")
    assert f"claude-code ({replies} requests)" in proc.stdout


def test_overhead_is_measured_from_usage_and_compaction_runs_are_dropped(tmp_path):
    bench, _, _, trajectories = _bench()
    write_interleaved_claude_code(tmp_path / "s.jsonl", usage_base=26_000)
    (tmp_path / "agent-acompact-1.jsonl").write_text((tmp_path / "s.jsonl").read_text())
    assert trajectories.find_files([tmp_path]) == [tmp_path / "s.jsonl"]
    (rec,) = trajectories.load(tmp_path / "s.jsonl")
    assert rec.billed == [3 + 26_000 + 900 * n for n in range(8)]  # fresh + cached, per call
    rec.billed = [26_000 + int(1.15 * e) for e in bench.estimates(rec)]  # as measured on CC
    assert abs(bench.measured_overhead(rec) - 26_000 / 1.15) < 50


def test_cache_prices_differ_by_family_and_expire_after_five_idle_minutes():
    _, _, metrics, _ = _bench()
    assert metrics.price(metrics.ANTHROPIC, 2000, 1500) == 0.1 * 1500 + 1.25 * 500
    assert metrics.price(metrics.OPENAI, 2000, 1500) == 0.5 * 1408 + 1.0 * 592  # 128-blocks
    assert metrics.price(metrics.ANTHROPIC, 2000, 900) == 1.25 * 2000  # too short to cache
    from my_agent.messages import user_text

    history = [user_text("x " * 3000)]
    billed = {}
    for gap in (60.0, 600.0):
        meter = metrics.Meter(0)
        meter.request(history, set(), metrics.Provenance(), when=1000.0)
        meter.request(history, set(), metrics.Provenance(), when=1000.0 + gap)
        billed[gap] = meter.tally.billed
    total = metrics.shown(history[0]).tokens
    for family in metrics.FAMILIES:
        assert billed[600.0][family.name] == 2 * metrics.price(family, total, 0)  # both cold
        assert billed[60.0][family.name] < billed[600.0][family.name]


def write_needy(path: Path, steps: int = 30) -> None:
    """Each step reasons, then reads a new file and greps for names that the reads 4 and 9
    steps earlier showed (on their lines 40 and 41): masking and dropping lose what is needed."""
    thought = " ".join(f"reasoning word{i}" for i in range(120))
    messages = [{"role": "system", "content": "sys"}, {"role": "user", "content": "Fix it"}]
    for n in range(steps):
        cmd = f"cat -n pkg/mod_{n}.py"
        cmd += "".join(
            f" && grep helper_{n - k}_{line} -r ." for k, line in ((4, 40), (9, 41)) if n >= k
        )
        call = {
            "id": f"c{n}",
            "function": {"name": "bash", "arguments": json.dumps({"command": cmd})},
        }
        messages.append({"role": "assistant", "content": thought, "tool_calls": [call]})
        output = "\n".join(f"{i}\tdef helper_{n}_{i}(arg): return arg + {i}" for i in range(1, 100))
        messages.append({"role": "tool", "tool_call_id": f"c{n}", "content": output})
    path.write_text(json.dumps({"messages": messages}))


class FileLineFacts:
    """Test policy: older outputs become `file:line name` fact lines for their lines 40, 41."""

    name, compactions = "facts", 0

    def __init__(self) -> None:
        self.files: dict[str, int] = {}

    def on_tool_result(self, call, output) -> None:
        self.files[call.id] = int(call.arguments["command"].split("mod_")[1].split(".")[0])

    def messages_for_request(self, history):
        from dataclasses import replace

        from my_agent.messages import Message, ToolResult

        def fact(b):
            n = self.files[b.call_id]
            lines = [f"mod_{n}.py:{i} def helper_{n}_{i}(arg)" for i in (40, 41)]
            return replace(b, content="[archived]\n" + "\n".join(lines))

        last = history[-1:] if history else []
        return [
            Message(m.role, [fact(b) if isinstance(b, ToolResult) else b for b in m.blocks])
            for m in history[:-1]
        ] + last


def test_padding_gains_no_retention_and_file_line_facts_do(tmp_path):
    bench, policies, metrics, trajectories = _bench()
    write_needy(tmp_path / "n.traj.json")
    (rec,) = trajectories.load(tmp_path / "n.traj.json")
    masked = bench.replay(rec, policies.Masking(3, 0), 0)
    padded_policy = policies.Padded(3, 0)
    padded = bench.replay(rec, padded_policy, 0)
    assert masked.retention < 0.9  # the recording does need what masking hid
    assert "helper_0_40" in padded_policy.placeholder("c0")  # the bag holds the names ...
    assert padded.retention == masked.retention  # ... and scores nothing
    assert bench.replay(rec, FileLineFacts(), 0).retention == 1.0


def test_dropping_everything_pays_recalls_that_exceed_its_savings(tmp_path):
    bench, policies, _, trajectories = _bench()
    write_needy(tmp_path / "n.traj.json")
    (rec,) = trajectories.load(tmp_path / "n.traj.json")
    naive = bench.replay(rec, policies.Naive(), 500)
    dropped = bench.replay(rec, policies.DropAll(), 500)
    assert dropped.recalls >= len(rec.billed)  # every output was needed again
    assert dropped.raw > naive.raw
    for family, billed in dropped.billed.items():
        assert billed > naive.billed[family], family


def test_split_is_by_file_name_and_holdout_is_reported_whole(tmp_path):
    bench, *_ = _bench()
    shipped, mine = tmp_path / "shipped", tmp_path / "mine"
    shipped.mkdir(), mine.mkdir()
    for n in range(6):
        write_mini(shipped / f"t{n}.traj.json", steps=8)
    write_swe_agent(mine / "demo.traj")
    proc = replay(str(shipped), "--holdout", str(mine))
    assert proc.returncode == 0, proc.stderr
    halves = {bench.half(p) for p in shipped.iterdir()}
    assert halves == {"tune", "report"}  # these six names fall in both halves
    for name in halves:
        files = sorted(p.name for p in shipped.iterdir() if bench.half(p) == name)
        assert f"{name} half ({len(files)} files): {', '.join(files)}" in proc.stdout
    assert set(_rows(proc.stdout, "swe-agent", f"holdout {mine}")) == set(POLICIES)
    tune = replay(str(shipped), "--half", "tune")  # a tuning run never replays the report half
    assert tune.returncode == 0, tune.stderr
    assert re.findall(r"=== (.+) ===", tune.stdout) == ["recordings · tune half"]


def test_ours_carries_unicums_own_fixed_prompt(tmp_path):
    bench, policies, _, trajectories = _bench()
    write_mini(tmp_path / "m.traj.json", steps=3)
    (rec,) = trajectories.load(tmp_path / "m.traj.json")
    fixed = bench.unicum_fixed_tokens()
    assert fixed > 1_000  # system prompt and every real tool schema
    ours = bench.replay(rec, policies.Ours(overhead_tokens=fixed), fixed)
    bare = bench.replay(rec, policies.Ours(), 0)
    assert ours.requests == 3 and ours.recalls == 0
    assert ours.raw == bare.raw + 3 * fixed  # every request carries it
