"""Images for vision models: recognised by their bytes, sized down to a provider's limits and
encoded as base64 content blocks. Pillow is imported only when an image is actually read."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from pathlib import Path

from my_agent.messages import ImageBlock

SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".webp"}
MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


@dataclass(frozen=True)
class ImageLimits:
    """What a provider accepts: the longest side in pixels and the encoded size in bytes."""

    max_px: int = 1568
    max_bytes: int = 5 * 1024 * 1024


class ImageError(Exception):
    """The file is not an image Unicum can send (the message says why, in one line)."""


def media_type(raw: bytes) -> str | None:
    for magic, kind in MAGIC:
        if raw.startswith(magic):
            return kind
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return "image/webp"
    return None


def looks_like_image(path: Path) -> bool:
    return path.suffix.lower() in SUFFIXES


@dataclass(frozen=True)
class LoadedImage:
    block: ImageBlock
    width: int
    height: int
    resized: bool

    def describe(self) -> str:
        """`shot.png (PNG, 1568×980, resized)`: what was sent, for the person and the model."""
        kind = self.block.media_type.split("/")[1].upper()
        note = ", resized to fit" if self.resized else ""
        return f"{self.block.name} ({kind}, {self.width}×{self.height}{note})"


def load_image(path: Path, limits: ImageLimits, name: str = "") -> LoadedImage:
    """The image at `path` as a content block, scaled down (never up) to fit `limits`."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ImageError(f"cannot read {name or path}: {exc.strerror or exc}") from None
    return image_from_bytes(raw, limits, name or path.name)


def image_from_bytes(raw: bytes, limits: ImageLimits, name: str) -> LoadedImage:
    """An image's bytes (a file's, an MCP tool's) as a content block fitting `limits`."""
    path = name
    kind = media_type(raw)
    if kind is None:
        raise ImageError(f"{name or path} is not a PNG, JPEG, GIF or WebP image")
    from PIL import Image, UnidentifiedImageError

    try:
        image = Image.open(io.BytesIO(raw))
        width, height = image.size
    except (UnidentifiedImageError, OSError) as exc:
        raise ImageError(f"{name or path} is a damaged image ({exc})") from None
    resized = False
    if max(width, height) > limits.max_px or len(raw) > limits.max_bytes:
        raw, kind, (width, height) = _shrink(image, limits, png=kind != "image/jpeg")
        resized = True
    data = base64.b64encode(raw).decode("ascii")
    return LoadedImage(ImageBlock(kind, data, name), width, height, resized)


def _shrink(image, limits: ImageLimits, png: bool) -> tuple[bytes, str, tuple[int, int]]:
    """Scale to the longest side allowed; PNG (sharp text, transparency) unless the source was
    a JPEG; JPEG when PNG is too big, lowering the quality and then the size until it fits."""
    image = image.copy()
    image.thumbnail((limits.max_px, limits.max_px))
    if png:
        out = io.BytesIO()
        image.save(out, "PNG", optimize=True)
        if out.tell() <= limits.max_bytes:
            return out.getvalue(), "image/png", image.size
    rgb = image.convert("RGB")
    while True:
        for quality in (85, 70, 55, 40):
            out = io.BytesIO()
            rgb.save(out, "JPEG", quality=quality)
            if out.tell() <= limits.max_bytes:
                return out.getvalue(), "image/jpeg", rgb.size
        if max(rgb.size) <= 64:
            return out.getvalue(), "image/jpeg", rgb.size
        rgb = rgb.resize((max(1, rgb.width * 3 // 4), max(1, rgb.height * 3 // 4)))
