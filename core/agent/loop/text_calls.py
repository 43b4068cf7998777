"""Tool calls written as text: what a model's reply looks like when the server does not parse
tool calls (llama.cpp without `--jinja`, Ollama or vLLM without a tool parser).

A reply that is only such a call (a JSON object or list, bare, in a ``` fence or in Qwen's
`<tool_call>` tags, with `name` and `arguments`/`parameters`) is read back as real calls;
anything else stays an answer.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from my_agent.messages import ToolCall

_FENCE = re.compile(r"^```[\w-]*\s*\n?(?P<body>.*?)\n?```$", re.S)
_TAGS = re.compile(r"<tool_call>\s*(?P<body>.*?)\s*</tool_call>", re.S)


@dataclass
class TextCalls:
    """The calls a reply spelled out, and names it used that are no tool of the session."""

    calls: list[ToolCall] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)


def _objects(text: str) -> list[object] | None:
    body = text.strip()
    tagged = _TAGS.findall(body)
    if tagged and not _TAGS.sub("", body).strip():
        parts = tagged
    else:
        fenced = _FENCE.match(body)
        parts = [fenced.group("body") if fenced else body]
    found: list[object] = []
    for part in parts:
        try:
            value = json.loads(part.strip())
        except ValueError:
            return None
        found += value if isinstance(value, list) else [value]
    return found or None


def _call(obj: object, call_id: str) -> ToolCall | None:
    if not isinstance(obj, dict):
        return None
    inner = obj.get("function") if isinstance(obj.get("function"), dict) else obj
    name = inner.get("name")
    args = inner.get("arguments", inner.get("parameters", {}))
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except ValueError:
            return None
    if not isinstance(name, str) or not name or not isinstance(args, dict):
        return None
    if set(inner) - {"name", "arguments", "parameters", "type", "id"}:
        return None  # more keys: data that happens to have a name, not a call
    raw = json.dumps(args, ensure_ascii=False)
    return ToolCall(call_id, name, args, raw)


def read_text_calls(text: str, known: set[str], prefix: str = "text_call") -> TextCalls | None:
    """The calls when the whole reply is tool calls as JSON; None when it is an answer.
    Call ids are `prefix_1`, `prefix_2`…: give each reply its own prefix."""
    if "{" not in text or '"name"' not in text:
        return None
    objects = _objects(text)
    if objects is None:
        return None
    calls = [_call(obj, f"{prefix}_{i}") for i, obj in enumerate(objects, 1)]
    if any(c is None for c in calls):
        return None
    found = TextCalls()
    for call in calls:
        if call is None:
            continue
        if call.name in known:
            found.calls.append(call)
        else:
            found.unknown.append(call.name)
    return found


def server_fix(provider: str, base_url: str | None) -> str:
    """The one-line notice, with the fix for the server at `base_url`."""
    url = base_url or ""
    if provider == "ollama" or ":11434" in url:
        fix = "use a model whose Ollama template supports tools, or update Ollama"
    elif ":8000" in url:
        fix = "start vLLM with --enable-auto-tool-choice --tool-call-parser hermes"
    else:
        fix = "start llama-server with --jinja (vLLM: --enable-auto-tool-choice)"
    return (
        f"the server at {url} returned tool calls as text: it does not parse tool calls; "
        f"Unicum ran them anyway (fix: {fix})"
    )


def unknown_tool_line(names: list[str], known: set[str]) -> str:
    return (
        f"The reply looks like a call of {', '.join(sorted(set(names)))}, which is not a tool "
        f"here (tools: {', '.join(sorted(known))}); it was not run."
    )
