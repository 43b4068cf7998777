"""Images: sized down, sent in both wire formats, a clear line for text-only models."""

from __future__ import annotations

import base64
import io
import os
from pathlib import Path

from PIL import Image

from core.model import anthropic_wire, openai_wire
from my_agent.images import ImageLimits, load_image
from my_agent.messages import ImageBlock, Message, TextBlock, ToolCall, ToolResult
from tests.conftest import provider_env, run_cli
from tests.helpers.repl_driver import Repl


def make_png(path: Path, size: tuple[int, int]) -> Path:
    Image.new("RGB", size, (200, 30, 30)).save(path, "PNG")
    return path


def decoded_size(data: str) -> tuple[int, int]:
    return Image.open(io.BytesIO(base64.b64decode(data))).size


def test_large_image_is_scaled_to_the_limit_small_one_kept(tmp_path):
    big = load_image(make_png(tmp_path / "big.png", (4000, 1000)), ImageLimits(1568))
    assert big.resized and (big.width, big.height) == (1568, 392)
    assert decoded_size(big.block.data) == (1568, 392)
    small = load_image(make_png(tmp_path / "small.png", (40, 30)), ImageLimits(1568))
    assert not small.resized and small.block.media_type == "image/png"
    assert small.describe() == "small.png (PNG, 40×30)"
    noisy = Image.frombytes("RGB", (800, 800), os.urandom(800 * 800 * 3))
    noisy.save(tmp_path / "noisy.png")
    tight = load_image(tmp_path / "noisy.png", ImageLimits(1568, max_bytes=60_000))
    assert (
        tight.block.media_type == "image/jpeg" and len(base64.b64decode(tight.block.data)) <= 60_000
    )


def test_both_wires_carry_images_and_separate_text_blocks():
    image = ImageBlock("image/png", "QUJD", "shot.png")
    history = [
        Message("user", [TextBlock("[Summary of the session so far] ..."), TextBlock("clear")]),
        Message("assistant", [ToolCall("c1", "read_file", {"path": "a.png"})]),
        Message("user", [ToolResult("c1", "[image a.png]", images=[image])]),
        Message("user", [TextBlock("what is this?"), image]),
    ]
    wire = anthropic_wire.messages_to_wire(history)
    result = wire[2]["content"][0]
    assert result["content"][1] == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": "QUJD"},
    }
    assert wire[2]["content"][-1]["type"] == "image"
    oa = openai_wire.messages_to_wire("sys", history)
    assert oa[1]["content"] == "[Summary of the session so far] ...\n\nclear"  # not glued
    assert oa[3]["role"] == "tool"
    parts = oa[4]["content"]
    assert parts[0] == {"type": "text", "text": "[images the tools returned: shot.png]"}
    assert parts[2] == {"type": "text", "text": "what is this?"}
    assert [p["type"] for p in parts] == ["text", "image_url", "text", "image_url"]
    assert parts[1]["image_url"]["url"] == "data:image/png;base64,QUJD"


def test_read_file_on_an_image_sends_it_to_a_vision_model(llm, workspace):
    make_png(workspace / "chart.png", (3000, 600))
    llm.call("read_file", {"path": "chart.png"}).reply("a red bar")
    llm.call("read_file", {"path": "chart.png"}).reply("a red bar")
    for provider in ("anthropic", "openai"):
        proc = run_cli(
            "--dir", str(workspace), "--provider", provider, "-p", "what is chart.png?",
            env=provider_env(llm, provider),
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
    anthropic_result = llm.requests[1].body["messages"][-1]["content"][0]
    image = anthropic_result["content"][1]
    assert image["type"] == "image" and decoded_size(image["source"]["data"]) == (1568, 314)
    assert "chart.png (PNG, 1568×314, resized to fit)" in anthropic_result["content"][0]["text"]
    openai_last = llm.requests[3].body["messages"][-1]
    assert openai_last["role"] == "user"
    url = openai_last["content"][1]["image_url"]["url"]
    assert decoded_size(url.split(",", 1)[1]) == (2048, 410)  # OpenAI's limit is larger


def test_text_only_model_gets_a_line_not_the_image(llm, workspace):
    make_png(workspace / "chart.png", (30, 30))
    llm.call("read_file", {"path": "chart.png"}).reply("cannot see it")
    proc = run_cli(
        "--dir", str(workspace), "--provider", "deepseek", "-p", "look at chart.png",
        env=provider_env(llm, "deepseek"),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    tool = llm.requests[1].body["messages"][-1]
    assert tool["role"] == "tool" and "this model does not accept images" in tool["content"]
    assert "image_url" not in str(llm.requests[1].body)


def test_pasted_image_path_in_the_repl(llm, workspace, tmp_path):
    shots = tmp_path / "My Shots"
    shots.mkdir()
    make_png(shots / "screen shot.png", (50, 40))
    make_png(workspace / "logo.png", (20, 20))
    llm.reply("a red square").reply("two of them")
    repl = Repl(
        "--dir", str(workspace), "--provider", "anthropic", env=provider_env(llm, "anthropic")
    )
    try:
        repl.prompt()
        repl.send(f"what is in {str(shots).replace(' ', chr(92) + ' ')}/screen\\ shot.png")
        repl.expect(r"📎 image screen shot\.png \(PNG, 50×40\)")
        repl.expect("a red square")
        repl.prompt()
        repl.send("compare @logo.png with that")
        repl.expect(r"📎 image logo\.png \(PNG, 20×20\)")
        repl.expect("two of them")
        repl.prompt()
        repl.send("/quit")
        repl.wait_exit()
    finally:
        repl.close()
    first = llm.requests[0].body["messages"][-1]["content"]
    assert [b["type"] for b in first] == ["text", "image"]
    assert decoded_size(first[1]["source"]["data"]) == (50, 40)
    second = llm.requests[1].body["messages"][-1]["content"]
    assert [b["type"] for b in second] == ["text", "image"]


def test_repl_text_only_model_says_the_image_was_not_sent(llm, workspace):
    make_png(workspace / "logo.png", (20, 20))
    llm.reply("ok")
    repl = Repl(
        "--dir", str(workspace), "--provider", "deepseek", env=provider_env(llm, "deepseek")
    )
    try:
        repl.prompt()
        repl.send("look at logo.png")
        repl.expect(r"logo\.png not sent: deepseek-chat does not accept images")
        repl.expect("ok")
        repl.prompt()
        repl.send("/quit")
        repl.wait_exit()
    finally:
        repl.close()
    assert llm.requests[0].body["messages"][-1]["content"] == "look at logo.png"
