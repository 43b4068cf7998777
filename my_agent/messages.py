"""The canonical, typed message model. Only the wire adapters translate it to provider JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Role = Literal["user", "assistant"]


@dataclass
class TextBlock:
    text: str
    type: Literal["text"] = "text"


@dataclass
class ReasoningBlock:
    """Model reasoning ("thinking"); some providers need it sent back with tool-call turns."""

    text: str
    signature: str = ""
    type: Literal["reasoning"] = "reasoning"


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]
    raw_arguments: str = ""  # the JSON text as the model sent it (may be invalid)
    type: Literal["tool_call"] = "tool_call"


@dataclass
class ImageBlock:
    """An image for a vision model: base64 `data` of `media_type`, already sized down."""

    media_type: str  # image/png, image/jpeg, image/gif, image/webp
    data: str  # base64
    name: str = ""  # where it came from (a file name), for the person and for text-only models
    type: Literal["image"] = "image"


@dataclass
class ToolResult:
    call_id: str
    content: str
    is_error: bool = False
    type: Literal["tool_result"] = "tool_result"
    images: list[ImageBlock] = field(default_factory=list)  # read_file on an image


Block = TextBlock | ReasoningBlock | ImageBlock | ToolCall | ToolResult


@dataclass
class Message:
    role: Role
    blocks: list[Block] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(b.text for b in self.blocks if isinstance(b, TextBlock))

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [b for b in self.blocks if isinstance(b, ToolCall)]

    @property
    def tool_results(self) -> list[ToolResult]:
        return [b for b in self.blocks if isinstance(b, ToolResult)]

    def to_dict(self) -> dict[str, Any]:
        return {"role": self.role, "blocks": [_block_dict(b) for b in self.blocks]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Message:
        return cls(role=data["role"], blocks=[_block(b) for b in data.get("blocks", [])])


def _block_dict(block: Block) -> dict[str, Any]:
    data = asdict(block)
    if isinstance(block, ToolResult) and not block.images:
        del data["images"]  # saved transcripts stay as they were without images
    return data


def _block(data: dict[str, Any]) -> Block:
    kinds = {
        "text": TextBlock,
        "reasoning": ReasoningBlock,
        "image": ImageBlock,
        "tool_call": ToolCall,
        "tool_result": ToolResult,
    }
    if data["type"] == "tool_result" and data.get("images"):
        images = [ImageBlock(**image) for image in data["images"]]
        return ToolResult(**{**data, "images": images})
    return kinds[data["type"]](**data)


def message_text(msg: Message) -> str:
    """One message as plain text, for counting, comparing and summary transcripts: the role,
    then each block (a call as `name(JSON arguments)`); reasoning is left out."""
    parts = [msg.role + ":"]
    for block in msg.blocks:
        if isinstance(block, TextBlock):
            parts.append(block.text)
        elif isinstance(block, ToolCall):
            parts.append(f"{block.name}({json.dumps(block.arguments, ensure_ascii=False)})")
        elif isinstance(block, ToolResult):
            parts.append(("error: " if block.is_error else "") + block.content)
        elif isinstance(block, ImageBlock):
            parts.append(f"[image {block.name}]")
    return "\n".join(parts)


def user_text(text: str) -> Message:
    return Message("user", [TextBlock(text)])


@dataclass
class Usage:
    """Normalized token usage. `input` is fresh (uncached) input only."""

    input: int = 0
    cache_read: int = 0
    cache_write: int = 0
    output: int = 0
    reasoning: int = 0  # part of output, when the provider says
    estimated: bool = False  # True when counted locally (e.g. interrupted stream)

    @property
    def total_input(self) -> int:
        return self.input + self.cache_read + self.cache_write

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input + other.input,
            self.cache_read + other.cache_read,
            self.cache_write + other.cache_write,
            self.output + other.output,
            self.reasoning + other.reasoning,
            self.estimated or other.estimated,
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class ModelResponse:
    message: Message
    usage: Usage
    stop_reason: str = ""
    model: str = ""
    ttft: float | None = None  # seconds to first streamed token
    duration: float = 0.0  # the request itself, without `client_seconds`
    client_seconds: float = 0.0  # waited before it for the HTTP client (its import): the first
    purpose: str = "task"  # "summary": a compaction request made outside the task's turns


# Stream events the model client emits to the UI while a response streams.
@dataclass
class TextDelta:
    text: str


@dataclass
class ReasoningDelta:
    text: str


@dataclass
class ToolCallDelta:
    """A tool call started streaming (name known; arguments still arriving)."""

    index: int
    name: str


StreamEvent = TextDelta | ReasoningDelta | ToolCallDelta


@dataclass
class PromptSection:
    """A named part of the system prompt (e.g. "instructions", "memory", "code map")."""

    name: str
    text: str
