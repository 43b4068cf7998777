"""`@path` in a task attaches that file's text to the message (the path Tab-completes)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from my_agent.capped import read_head
from tools.base import ToolContext
from tools.permissions import is_private
from tools.textfile import decode_text

MENTION = re.compile(r"(?<![\w@])@(\S+)")
# Images are left in the line as typed: attaching them is the image input's job, not this one.
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp"})
MAX_BYTES = 200_000
TRAILING = ".,;:!?)]}'\""


def mentioned_files(text: str, workspace: Path) -> list[tuple[str, Path]]:
    """(as written, file) for each `@path` naming an existing file; others (`@decorator`,
    an e-mail address, an image) stay plain text."""
    found: list[tuple[str, Path]] = []
    for match in MENTION.finditer(text):
        for raw in dict.fromkeys((match.group(1), match.group(1).rstrip(TRAILING))):
            target = Path(raw).expanduser()
            target = target if target.is_absolute() else workspace / target
            if target.is_file() and target.suffix.lower() not in IMAGE_SUFFIXES:
                found.append((raw, target.resolve()))
                break
    return list(dict.fromkeys(found))


def attach_mentions(
    text: str, ctx: ToolContext, say: Callable[[str, str], None], t: Callable[..., str]
) -> str:
    """The task with each mentioned file appended as a `<file>` block; `say(line, style)`
    reports what was attached or why not (private files such as `.env` never are)."""
    blocks = []
    for raw, path in mentioned_files(text, ctx.workspace):
        if is_private(path, ctx):
            say(t("{path} not attached: it is a private file", path=raw), "yellow")
            continue
        try:
            data = read_head(path, MAX_BYTES + 1)  # a 6 GB file is cut, a FIFO not opened
        except OSError:
            say(t("{path} not attached: not a text file", path=raw), "yellow")
            continue
        if b"\0" in data[:8192]:
            say(t("{path} not attached: not a text file", path=raw), "yellow")
            continue
        body = decode_text(data[:MAX_BYTES])
        if len(data) > MAX_BYTES:
            body += f"\n[… cut at {MAX_BYTES} bytes]"
        say(t("attached {path} ({n} lines)", path=raw, n=len(body.splitlines())), "dim")
        blocks.append(f'<file path="{raw}">\n{body.rstrip()}\n</file>')
    return "\n\n".join([text, *blocks]) if blocks else text
