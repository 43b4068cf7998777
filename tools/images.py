"""read_file on an image: the image itself for a model that accepts images, a line otherwise."""

from __future__ import annotations

from pathlib import Path

from my_agent.images import ImageError, load_image, looks_like_image
from tools.base import ToolContext, ToolError, ToolOutput
from tools.textfile import human_size
from tools.workspace import display

__all__ = ["looks_like_image", "read_image"]

TEXT_ONLY = (
    "{path} is an image ({size}); this model does not accept images, so it was not sent "
    "(a vision model, or UNICUM_IMAGES=1 when this one does, would see it)"
)


def read_image(ctx: ToolContext, target: Path) -> ToolOutput:
    rel = display(ctx, target)
    data = {"path": rel, "image": True}
    if ctx.image_limits is None:
        size = human_size(target.stat().st_size)
        return ToolOutput(TEXT_ONLY.format(path=rel, size=size), data=data)
    try:
        image = load_image(target, ctx.image_limits, rel)
    except ImageError as exc:
        raise ToolError(str(exc)) from None
    data.update(width=image.width, height=image.height, resized=image.resized)
    return ToolOutput(f"[image {image.describe()}: attached]", data=data, images=[image.block])
