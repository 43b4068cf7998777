"""Request bodies serialized piece by piece, each piece cached by its content.

A conversation is append-only between compactions, so the same messages go out with every
request: converting and serializing them once, then joining the bytes, keeps a request's cost
to its new messages. Keys are the pieces' values (never object identity), so a message changed
in place or rebuilt by a compaction is a new entry and never sent stale."""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from my_agent.messages import ImageBlock, Message, ReasoningBlock, TextBlock, ToolCall, ToolResult

T = TypeVar("T")

LIMIT_BYTES = 64 * 1024 * 1024  # past this the cache starts over (a long session's old pieces)

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def dumps(value: Any) -> bytes:
    """Compact UTF-8 JSON, as every request body is sent."""
    return _ENCODER.encode(value).encode()


def _image_key(image: ImageBlock) -> tuple[Any, ...]:
    return ("i", image.media_type, image.data, image.name)


def block_key(block: Any) -> Hashable | None:
    """Everything a wire format may send of `block`; None for a kind not known here."""
    kind = type(block)
    if kind is ToolResult:
        images = tuple(map(_image_key, block.images)) if block.images else ()
        return ("r", block.call_id, block.content, block.is_error, images)
    if kind is TextBlock:
        return ("t", block.text)
    if kind is ToolCall:
        # argument values that are lists or dicts make the key unhashable: not cached
        args = tuple(block.arguments.items())
        return ("c", block.id, block.name, block.raw_arguments, args)
    if kind is ReasoningBlock:
        return ("g", block.text, block.signature)
    if kind is ImageBlock:
        return _image_key(block)
    return None


def message_key(msg: Message, variant: Hashable) -> Hashable | None:
    """`msg`'s key as converted one way (`variant`), None when a block has no key."""
    keys = tuple(map(block_key, msg.blocks))
    return None if None in keys else (msg.role, variant, keys)


class FragmentCache:
    """Serialized pieces by content key, bounded by their total size."""

    def __init__(self, limit: int = LIMIT_BYTES) -> None:
        self.limit = limit
        self._pieces: dict[Hashable, Any] = {}
        self._size = 0

    def get(self, key: Hashable | None, make: Callable[..., T], *args: Any) -> T:
        """The piece for `key`, `make(*args)` (and kept) on a miss; made afresh for a key that
        cannot be hashed (None, or argument values that are lists). A piece's `len` is its
        size in bytes."""
        if key is None:
            return make(*args)
        try:
            piece = self._pieces.get(key)
        except TypeError:
            return make(*args)
        if piece is None:
            piece = make(*args)
            self._size += len(piece)  # type: ignore[arg-type]
            if self._size > self.limit:
                self._pieces.clear()
                self._size = len(piece)  # type: ignore[arg-type]
            self._pieces[key] = piece
        return piece
