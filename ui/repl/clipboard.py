"""Ctrl-V at the prompt: an image on the system clipboard is saved under the session's folder
in the Unicum home and its path goes into the line, so it is attached as a pasted image path
(ui/repl/attach.py); text on the clipboard is pasted as text.

The clipboard is read with whatever is installed: `wl-paste` (Wayland), `xclip` (X11),
`pngpaste` or `osascript` (macOS; `pbpaste` for text)."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from my_agent.images import media_type
from ui.words import Strings

if TYPE_CHECKING:
    from ui.commands import ReplApi

TIMEOUT = 2.0  # seconds for one clipboard program (Ctrl-V waits for it)
MAX_BYTES = 50 * 1024 * 1024
OSA_PNG = "the clipboard as «class PNGf»"
OSA_DATA = re.compile(r"«data PNGf([0-9A-Fa-f]+)»")

# (program, arguments that print an image, arguments that print text); None: cannot
READERS: tuple[tuple[str, list[str] | None, list[str] | None], ...] = (
    ("wl-paste", ["--type", "image/png"], ["--no-newline"]),
    (
        "xclip",
        ["-selection", "clipboard", "-t", "image/png", "-o"],
        ["-selection", "clipboard", "-o"],
    ),
    ("pngpaste", ["-"], None),
    ("osascript", ["-e", OSA_PNG], None),
    ("pbpaste", None, []),
)


@dataclass(frozen=True)
class Clip:
    """What the clipboard held: an image's bytes, else text (both empty: nothing usable)."""

    image: bytes = b""
    text: str = ""


def _run(program: str, args: list[str]) -> bytes:
    try:
        done = subprocess.run(
            [program, *args], capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.TimeoutExpired):
        return b""
    return done.stdout[:MAX_BYTES] if done.returncode == 0 else b""


def _image(program: str, out: bytes) -> bytes:
    if program == "osascript":
        found = OSA_DATA.search(out.decode("utf-8", "replace"))
        out = bytes.fromhex(found.group(1)) if found else b""
    return out if media_type(out) else b""


def read_clipboard(which: Callable[[str], str | None] = shutil.which) -> Clip | None:
    """The clipboard's image (preferred) or text; None when no clipboard program exists."""
    found = [(which(name), name, image, text) for name, image, text in READERS]
    found = [row for row in found if row[0]]
    if not found:
        return None
    for path, name, image, _ in found:
        if image is not None:
            data = _image(name, _run(str(path), image))
            if data:
                return Clip(image=data)
    for path, _, _, text in found:
        if text is not None:
            words = _run(str(path), text).decode("utf-8", "replace")
            if words:
                return Clip(text=words)
    return Clip()


def save_image(data: bytes, folder: Path) -> Path:
    """The image in `folder` as `clipboard-<time>.png` (a new name each time)."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    n = 1
    while (folder / f"clipboard-{stamp}-{n}.png").exists():
        n += 1
    path = folder / f"clipboard-{stamp}-{n}.png"
    path.write_bytes(data)
    return path


def paste(folder: Path, s: Strings, clip: Clip | None) -> tuple[str, str]:
    """(what goes into the line, a line for the person or "") for one Ctrl-V."""
    if clip is None:
        return "", s.t(
            "Ctrl-V: no clipboard tool found (install wl-clipboard on Wayland, "
            "xclip on X11, pngpaste on macOS)"
        )
    if clip.text:
        return clip.text, ""
    if not clip.image:
        return "", s.t("Ctrl-V: the clipboard holds no image and no text")
    try:
        path = save_image(clip.image, folder)
    except OSError as exc:
        return "", s.t(
            "Ctrl-V: the clipboard image could not be saved: {why}", why=exc.strerror or exc
        )
    shown = f"'{path}'" if " " in str(path) else str(path)
    return f"{shown} ", s.t(
        "📎 clipboard image saved as {path}; it goes with this line", path=path.name
    )


def session_folder(home: Path, workspace: Path, session_id: str) -> Path:
    """The session's own folder in the Unicum home, next to its transcript."""
    from core.agent import sessions_dir

    return sessions_dir(home, workspace) / (session_id or "default")


def paste_clipboard(repl: ReplApi) -> tuple[str, str]:
    """Ctrl-V in the REPL: `paste` of the clipboard into this session's folder."""
    folder = session_folder(
        repl.home, repl.opts.workspace.expanduser().resolve(), repl.opts.session_id
    )
    return paste(folder, repl.s, read_clipboard())
