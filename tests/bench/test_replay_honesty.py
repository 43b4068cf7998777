"""The replay's honesty rules: one API call one request, the fixed prompts charged, caches where
the product puts them, retention that padding cannot raise, recalls that stay in the history."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from tests.bench.test_replay import (
    POLICIES,
    UNICUM,
    _output,
    _rows,
    replay,
    write_mini,
    write_swe_agent,
)
from tests.conftest import ROOT


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
    from bench.replay_meter import Meter
    from my_agent.messages import user_text

    history = [user_text("x " * 3000)]
    billed = {}
    for gap in (60.0, 600.0):
        meter = Meter(0)
        meter.request(history, when=1000.0)
        meter.request(history, when=1000.0 + gap)
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
    """Test policy (padding): older outputs become `file:line name` index lines for exactly the
    lines 40 and 41 later calls use; the text of those lines is gone."""

    name, compactions = "facts", 0

    def __init__(self, index: bool = True) -> None:
        self.files: dict[str, int] = {}
        self.index = index  # False: the same outputs dropped, no index

    def on_tool_result(self, call, output) -> None:
        if "command" in call.arguments:  # not a recall: those stay as they are
            self.files[call.id] = int(call.arguments["command"].split("mod_")[1].split(".")[0])

    def messages_for_request(self, history):
        from dataclasses import replace

        from my_agent.messages import Message, ToolResult

        def fact(b):
            if b.call_id not in self.files:
                return b
            n = self.files[b.call_id]
            lines = [f"mod_{n}.py:{i} def helper_{n}_{i}(arg)" for i in (40, 41) if self.index]
            return replace(b, content="[archived]\n" + "\n".join(lines))

        last = history[-1:] if history else []
        return [
            Message(m.role, [fact(b) if isinstance(b, ToolResult) else b for b in m.blocks])
            for m in history[:-1]
        ] + last


def test_padding_gains_no_retention_nor_do_file_line_indexes(tmp_path):
    bench, policies, metrics, trajectories = _bench()
    write_needy(tmp_path / "n.traj.json")
    (rec,) = trajectories.load(tmp_path / "n.traj.json")
    masked = bench.replay(rec, policies.Masking(3, 0), 0)
    padded_policy = policies.Padded(3, 0)
    padded = bench.replay(rec, padded_policy, 0)
    assert masked.retention < 0.9  # the recording does need what masking hid
    assert "helper_0_40" in padded_policy.placeholder("c0")  # the bag holds the names ...
    assert padded.retention == masked.retention  # ... and scores nothing
    # an index of `file:line name` stand-ins shows positions, not the lines: no better
    # than dropping the same outputs with no index at all
    indexed = bench.replay(rec, FileLineFacts(), 0)
    assert indexed.retention == bench.replay(rec, FileLineFacts(index=False), 0).retention < 0.9
    kept = bench.replay(rec, policies.Naive(), 0)
    assert kept.retention == 1.0


def test_dropping_everything_pays_a_recall_for_every_use(tmp_path):
    bench, policies, _, trajectories = _bench()
    write_needy(tmp_path / "n.traj.json")
    (rec,) = trajectories.load(tmp_path / "n.traj.json")
    naive = bench.replay(rec, policies.Naive(), 500)
    dropped = bench.replay(rec, policies.DropAll(), 500)
    uses = sum(
        len(bench.Provenance().needed_by(m)) >= 0 for m in rec.messages if m.role == "assistant"
    )
    assert dropped.retention == 0.0 and dropped.recalls == dropped.refs_needed > uses
    assert dropped.requests > naive.requests
    for family, billed in dropped.billed.items():
        assert dropped.recall_billed[family] > 0.3 * billed, family  # recalls: a third or more
    assert dropped.billed["anthropic"] > naive.billed["anthropic"]


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
    assert re.findall(r"=== (.+) ===", tune.stdout) == [
        "recordings · tune half",
        f"recordings · tune half · {UNICUM}",
    ]


def test_the_second_table_charges_ours_unicums_prompt_and_the_first_the_recordings(tmp_path):
    bench, policies, _, trajectories = _bench()
    write_mini(tmp_path / "m.traj.json", steps=3)
    (rec,) = trajectories.load(tmp_path / "m.traj.json")
    own, unicum = bench.replay_bases(rec, policies.Ours(), [600, 2600])
    assert own.requests == unicum.requests == 3 and own.recalls == 0
    assert unicum.raw == own.raw + 3 * 2000  # every request carries it
    rows = bench.replay_file(tmp_path / "m.traj.json", 2600)
    own_fixed = bench.estimate_tokens(rec.system) + rec.overhead_tokens
    same = {name: t for basis, _, name, t in rows if basis == ""}
    second = {name: t for basis, _, name, t in rows if basis}
    assert set(second) == {"naive", "mask-10k", "ours"}
    assert second["naive"].raw == same["naive"].raw  # the baselines keep their own
    assert second["ours"].raw - same["ours"].raw == 3 * (2600 - own_fixed)


def _turns(n: int, size: int = 300) -> list:
    """A user task, then n tool turns of `size` words each."""
    from my_agent.messages import Message, ToolCall, ToolResult, user_text

    history = [user_text("the task")]
    for i in range(n):
        history.append(Message("assistant", [ToolCall(f"c{i}", "bash", {"command": f"ls {i}"})]))
        history.append(Message("user", [ToolResult(f"c{i}", f"out{i} " * size)]))
    return history


def test_anthropic_reads_only_what_the_products_breakpoints_wrote():
    """The wire marks the fixed prompt and the newest two user turns: a rewrite of an older
    output leaves only the fixed prompt cached (a common-prefix count would keep all before
    it); an untouched history reads everything the previous request wrote."""
    from dataclasses import replace

    from bench.replay_meter import Meter
    from my_agent.messages import Message

    history = _turns(12)
    grown = [*history, *_turns(13)[-2:]]
    rewritten = list(grown)
    old = rewritten[10]
    rewritten[10] = Message("user", [replace(old.blocks[0], content="[archived]")])
    _, _, metrics, _ = _bench()

    def size(messages) -> int:
        return 2000 + sum(metrics.shown(m).tokens for m in messages)

    def second_bill(first, then) -> float:
        meter = Meter(2000)
        meter.request(first)
        before = meter.tally.billed["anthropic"]
        meter.request(then)
        return meter.tally.billed["anthropic"] - before

    anthropic = metrics.ANTHROPIC
    rewrite = metrics.price(anthropic, size(rewritten), 2000)
    assert second_bill(history, rewritten) == pytest.approx(rewrite)
    grow = metrics.price(anthropic, size(grown), size(history))
    assert second_bill(history, grown) == pytest.approx(grow)


class KeepOne:
    """Test policy: only the newest output is shown whole; older ones are dropped."""

    name, compactions = "keep-one", 0

    def on_tool_result(self, call, output) -> None:
        return None

    def messages_for_request(self, history):
        from dataclasses import replace

        from my_agent.messages import Message, ToolResult

        ids = [b.call_id for m in history for b in m.tool_results]
        keep = set(ids[-1:])
        return [
            Message(
                m.role,
                [
                    replace(b, content="[dropped]")
                    if isinstance(b, ToolResult) and b.call_id not in keep
                    else b
                    for b in m.blocks
                ],
            )
            for m in history
        ]


def write_reuse(path: Path) -> None:
    """Output 0 names `target_fn`; steps 5 and 6 both use it (the second right after the
    first), nothing else is reused."""
    messages = [{"role": "system", "content": "sys"}, {"role": "user", "content": "Fix it"}]
    for n in range(8):
        cmd = "grep -rn target_fn ." if n in (5, 6) else f"ls dir_{n}"
        call = {
            "id": f"c{n}",
            "function": {"name": "bash", "arguments": json.dumps({"command": cmd})},
        }
        messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
        out = "src/x.py:3:def target_fn():" if n == 0 else f"file_{n}_a\nfile_{n}_b"
        messages.append({"role": "tool", "tool_call_id": f"c{n}", "content": out})
    path.write_text(json.dumps({"messages": messages}))


def test_a_recalled_output_stays_in_later_requests_until_the_policy_drops_it(tmp_path):
    bench, policies, _, trajectories = _bench()
    write_reuse(tmp_path / "r.traj.json")
    (rec,) = trajectories.load(tmp_path / "r.traj.json")
    # keep-one: the recall's answer is the newest output when step 6 is decided, so one
    # recall serves both uses; it costs one more request, not a constant
    tally = bench.replay(rec, KeepOne(), 500)
    assert tally.recalls == 1 and tally.requests == 8 + 1
    assert tally.retention == 0.5  # step 5 lacked it, step 6 saw the recalled text
    # masking every step (keep 3) keeps it for three more outputs as well
    masked = bench.replay(rec, policies.Masking(3, 0), 500)
    assert masked.recalls == 1


class FirstOutputOnly:
    """Test policy: the first output and the newest stay whole; every other output and every
    argument the model typed are gone from the request."""

    name, compactions = "first-only", 0

    def on_tool_result(self, call, output) -> None:
        return None

    def messages_for_request(self, history):
        from dataclasses import replace

        from my_agent.messages import Message, ToolCall, ToolResult

        def hide(b):
            if isinstance(b, ToolResult) and b.call_id != "c0":
                return replace(b, content="[gone]")
            return replace(b, arguments={}) if isinstance(b, ToolCall) else b

        last = history[-1:] if history else []
        return [Message(m.role, [hide(b) for b in m.blocks]) for m in history[:-1]] + last


def test_an_output_still_shown_counts_however_often_the_model_quoted_it(tmp_path):
    """Output 0 names `target_fn`; the model then types it on twelve lines of its own (hidden
    by the policy) before one more call uses it: the output's line is still in the request."""
    bench, _, _, trajectories = _bench()
    messages = [{"role": "system", "content": "sys"}, {"role": "user", "content": "Fix it"}]
    for n in range(14):
        cmd = "grep -rn def src" if n == 0 else f"echo step {n} target_fn"
        call = {"id": f"c{n}", "function": {"name": "bash", "arguments": json.dumps({"command": cmd})}}  # fmt: skip
        messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
        out = "src/x.py:3:def target_fn():" if n == 0 else f"step {n}"
        messages.append({"role": "tool", "tool_call_id": f"c{n}", "content": out})
    (tmp_path / "q.traj.json").write_text(json.dumps({"messages": messages}))
    (rec,) = trajectories.load(tmp_path / "q.traj.json")
    tally = bench.replay(rec, FirstOutputOnly(), 500)
    assert tally.retention == 1.0 and tally.recalls == 0
