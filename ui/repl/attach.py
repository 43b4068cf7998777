"""Images in a typed or pasted line: `@shot.png`, or a file path (as a terminal pastes it,
quoted or with `\\ ` for spaces) to an image → image blocks sent with the task."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from my_agent.images import ImageError, ImageLimits, load_image, looks_like_image
from my_agent.messages import ImageBlock
from ui.words import N_

CANDIDATE = re.compile(r"""'([^']+)'|"([^"]+)"|@?((?:\\ |[^\s'"])+)""")


@dataclass
class Attached:
    images: list[ImageBlock] = field(default_factory=list)
    lines: list[tuple[str, str]] = field(default_factory=list)  # (i18n key, what) to show


def image_paths(line: str, workspace: Path) -> list[Path]:
    """The existing image files `line` names, in order, each once."""
    found: dict[Path, None] = {}
    for match in CANDIDATE.finditer(line):
        word = next(g for g in match.groups() if g is not None).replace("\\ ", " ")
        if not looks_like_image(Path(word)):
            continue
        path = Path(word).expanduser()
        path = path if path.is_absolute() else workspace / path
        if path.is_file():
            found[path.resolve()] = None
    return list(found)


def attach_images(line: str, workspace: Path, limits: ImageLimits | None) -> Attached:
    """The images `line` names, loaded for a vision model (`limits`), or for a text-only
    model (None) the lines saying they were not sent."""
    out = Attached()
    for path in image_paths(line, workspace):
        if limits is None:
            out.lines.append(
                (
                    N_(
                        "{what} not sent: {model} does not accept images (UNICUM_IMAGES=1 if it does)"
                    ),
                    path.name,
                )
            )
            continue
        try:
            image = load_image(path, limits)
        except ImageError as exc:
            out.lines.append((N_("image not sent: {what}"), str(exc)))
            continue
        out.images.append(image.block)
        out.lines.append((N_("📎 image {what}"), image.describe()))
    return out


def images_for(repl, text: str) -> list[ImageBlock]:
    """The images a REPL line names (`@shot.png`, a pasted path), each with a line saying so."""
    context = repl.agent.tool_context
    found = attach_images(text, context.workspace, context.image_limits)
    for key, what in found.lines:
        style = "dim" if key == "📎 image {what}" else "yellow"
        repl.say(repl.s.t(key, what=what, model=repl.agent.client.model), style=style)
    return found.images
