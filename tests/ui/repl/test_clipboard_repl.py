"""Ctrl-V at the REPL prompt: a clipboard image (read by an `xclip` stand-in first on PATH, as
on X11) is saved in the session's folder and sent with the line as an image block; text on the
clipboard is pasted as text; no clipboard tool at all is one clear line, in English and Chinese."""

from __future__ import annotations

import base64
import os
import stat
from pathlib import Path

from my_agent.home import project_id
from tests.core.model.test_images import decoded_size, make_png
from tests.helpers.repl_driver import Repl, start_repl, user_texts
from ui.repl.clipboard import Clip, read_clipboard

CTRL_V = "\x16"


def fake_xclip(folder: Path, png: Path | None, text: str = "") -> Path:
    """An `xclip` that answers `-t image/png -o` with `png` (or fails, as xclip does when the
    clipboard holds no image) and a plain `-o` with `text`."""
    folder.mkdir(parents=True, exist_ok=True)
    image = f'cat "{png}"' if png else 'echo "Error: target image/png not available" >&2; exit 1'
    script = folder / "xclip"
    script.write_text(
        "#!/bin/sh\n"
        f'echo "$*" >> "{folder}/calls"\n'
        f'case "$*" in *image/png*) {image} ;; *) printf %s "{text}" ;; esac\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return folder


def start(llm, workspace: Path, path: str, *extra: str) -> Repl:
    return start_repl(llm, workspace, *extra, env={"PATH": path})


def test_ctrl_v_attaches_a_clipboard_image(llm, workspace, isolated_home, tmp_path):
    shot = make_png(tmp_path / "copied.png", (64, 48))
    tools = fake_xclip(tmp_path / "bin", shot)
    llm.reply("a red rectangle")
    repl = start(llm, workspace, f"{tools}{os.pathsep}{os.environ['PATH']}")
    try:
        repl.child.send("what is this? ")
        repl.child.send(CTRL_V)
        found = repl.expect(r"📎 clipboard image saved as (clipboard-[\d-]+\.png); it goes with")
        repl.send("")  # Enter: the line with the image's path goes
        repl.expect(r"📎 image clipboard-[\d-]+\.png \(PNG, 64×48\)")
        repl.expect("a red rectangle")
        repl.prompt()
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    assert "-selection clipboard -t image/png -o" in (tools / "calls").read_text()
    sessions = isolated_home / "sessions" / project_id(workspace.resolve())
    saved = list(sessions.glob(f"*/{found.group(1)}"))
    assert len(saved) == 1 and saved[0].read_bytes() == shot.read_bytes()
    assert (sessions / f"{saved[0].parent.name}.jsonl").is_file()  # next to its transcript
    content = llm.requests[0].body["messages"][-1]["content"]
    assert [b["type"] for b in content] == ["text", "image"]
    assert content[1]["source"]["media_type"] == "image/png"
    assert base64.b64decode(content[1]["source"]["data"]).startswith(b"\x89PNG")
    assert decoded_size(content[1]["source"]["data"]) == (64, 48)
    assert user_texts(llm.requests[0].body)[0].startswith("what is this? ")


def test_ctrl_v_pastes_clipboard_text_as_text(llm, workspace, tmp_path):
    tools = fake_xclip(tmp_path / "bin", None, text="def add(a, b)")
    llm.reply("it adds")
    repl = start(llm, workspace, f"{tools}{os.pathsep}{os.environ['PATH']}")
    try:
        repl.child.send("explain ")
        repl.child.send(CTRL_V)
        repl.send("")
        repl.expect("it adds")
        repl.prompt()
    finally:
        repl.close()
    assert user_texts(llm.requests[0].body) == ["explain def add(a, b)"]
    assert "clipboard image" not in repl.text


def test_ctrl_v_without_a_clipboard_tool_says_so_in_both_languages(llm, workspace, tmp_path):
    empty = tmp_path / "no-tools"
    empty.mkdir()
    for lang, line in (
        ("en", r"Ctrl-V: no clipboard tool found \(install wl-clipboard on Wayland, xclip on X11"),
        ("zh", r"Ctrl-V：找不到剪贴板工具（Wayland 请安装 wl-clipboard，X11 请安装 xclip"),
    ):
        repl = start(llm, workspace, str(empty), "--lang", lang)
        try:
            repl.child.send(CTRL_V)
            repl.expect(line)
            help_line = (
                r"Ctrl-V: paste a clipboard\s+image" if lang == "en" else r"Ctrl-V：粘贴剪贴板图片"
            )
            repl.command("/help", help_line)
        finally:
            repl.close()
    assert llm.requests == []  # nothing was sent


def test_macos_osascript_image_wins_over_wayland_text(tmp_path, monkeypatch):
    """`osascript` prints the PNG as «data PNGf<hex>»; an image anywhere beats text."""
    shot = make_png(tmp_path / "mac.png", (10, 10))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    scripts = {
        "wl-paste": 'case "$*" in *image*) exit 1 ;; *) printf "some text" ;; esac',
        "osascript": f"printf '«data PNGf{shot.read_bytes().hex().upper()}»'",
    }
    for name, body in scripts.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    assert read_clipboard() == Clip(image=shot.read_bytes())
    (bin_dir / "osascript").unlink()
    assert read_clipboard() == Clip(text="some text")
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    assert read_clipboard() is None
