"""Unicum's fixed prompt as the bench charges it: measured from the CLI's first request on each
wire, each bill charged its own wire's (bench/fixed_prompt.py, bench/replay.py)."""

from __future__ import annotations

import sys

import pytest

from tests.bench.test_replay import bench_cli, write_mini
from tests.bench.test_replay_honesty import _bench, _turns
from tests.conftest import ROOT, provider_env, run_cli


@pytest.mark.parametrize("wire", ["anthropic", "openai"])
def test_the_fixed_prompt_charged_is_the_clis_first_request_on_each_wire(llm, tmp_path, wire):
    """The CLI's request to the scripted server carries exactly the (estimated) tokens the bench
    measures before its messages (system text and tool schemas), on either wire; the replay
    charges each wire's own figure, not one for both."""
    sys.path.insert(0, str(ROOT))
    from bench.fixed_prompt import cli_fixed_prompt, measure

    project = tmp_path / "proj"
    project.mkdir()
    for n in range(6):
        (project / f"mod_{n}.py").write_text(f"def handler_{n}(x):\n    return x + {n}\n")
    llm.reply("done")
    env = provider_env(llm, wire)
    proc = run_cli("--provider", wire, "-p", "Fix the failing test", env=env, cwd=project)
    assert proc.returncode == 0, proc.stderr
    sent = measure(llm.requests[0].body)
    assert sent.system > 0 and sent.tools > 0 and sent.code_map == 0  # overview on demand
    assert cli_fixed_prompt(project.resolve(), wire) == sent
    bench, *_ = _bench()
    charged = bench.unicum_fixed_tokens()
    assert charged[wire] == cli_fixed_prompt(ROOT, wire).tokens
    assert charged["anthropic"] != charged["openai"]  # OpenAI's wire wraps each tool in more


def test_each_bill_is_charged_its_own_wires_fixed_prompt_and_raw_the_larger():
    from bench.replay_meter import Meter
    from bench.replay_metrics import ANTHROPIC, OPENAI, price, shown

    history = _turns(3)
    body = sum(shown(m).tokens for m in history)
    meter = Meter(2600, {"anthropic": 2000, "openai": 2600})
    meter.request(history)
    assert meter.tally.raw == 2600 + body
    assert meter.tally.billed["anthropic"] == pytest.approx(price(ANTHROPIC, 2000 + body, 0))
    assert meter.tally.billed["openai"] == pytest.approx(price(OPENAI, 2600 + body, 0))
    meter.request(history)  # the same again: every cached prefix starts with the wire's prompt
    again = price(ANTHROPIC, 2000 + body, 2000 + body)
    assert meter.tally.billed["anthropic"] == pytest.approx(
        price(ANTHROPIC, 2000 + body, 0) + again
    )


def test_the_replay_says_both_wires_it_charged(tmp_path):
    write_mini(tmp_path / "m.traj.json", steps=3)
    proc = bench_cli("replay.py", str(tmp_path), "--no-split", fixed="1400,1600")
    assert proc.returncode == 0, proc.stderr
    assert "anthropic wire 1,400, openai wire 1,600; each bill its own wire's" in proc.stdout
    bench, policies, _, trajectories = _bench()
    (rec,) = trajectories.load(tmp_path / "m.traj.json")
    one, each = bench.replay_bases(
        rec, policies.Ours(), [1600, {"anthropic": 1400, "openai": 1600}]
    )
    assert each.raw == one.raw and each.billed["openai"] == one.billed["openai"]
    assert each.billed["anthropic"] < one.billed["anthropic"]
