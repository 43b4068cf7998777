"""Tool calls written as text: what a model's reply looks like when the server does not parse
tool calls (llama.cpp without `--jinja`, or with a chat template that does not read the model's
own form, as Qwen2.5-Coder's stock one; Ollama or vLLM without a tool parser).

The calls are JSON objects with `name` and `arguments`/`parameters`: in `<tool_call>` or
`<tools>` tags, in ``` fences (prose around them is kept as the reply's text), or the whole
reply, several one a line or as a list. Anything else stays an answer.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from my_agent.messages import ToolCall

_TAGGED = re.compile(
    r"<(tool_call|tool_calls|tools|function_call)>\s*(?P<body>.*?)\s*(?:</\1>|\Z)", re.S
)
_FENCED = re.compile(r"```[\w-]*[ \t]*\n?(?P<body>.*?)\n?```", re.S)


@dataclass
class TextCalls:
    """The calls a reply spelled out, and the prose around them."""

    calls: list[ToolCall] = field(default_factory=list)
    prose: str = ""


_ESCAPE = re.compile(r"\\(.)", re.S)
JSON_ESCAPES = frozenset('"\\/bfnrtu')


def _own_backslashes(text: str) -> str:
    """A backslash before a character JSON does not escape stands for itself (doubled)."""
    return _ESCAPE.sub(lambda m: m[0] if m[1] in JSON_ESCAPES else "\\" + m[0], text)


def _values(body: str) -> list[object] | None:
    """JSON values one after another (one a line, comma-separated, or a list); None when
    anything else is there. A small model's JSON is read as it means it: raw newlines and tabs
    inside strings, and a backslash before a character JSON does not escape (a regex's d or a
    shell's dollar) kept as the backslash itself."""
    found = _decoded(body.strip())
    if found is None and "\\" in body:
        found = _decoded(_own_backslashes(body.strip()))
    return found


def _decoded(text: str) -> list[object] | None:
    decoder, at, found = json.JSONDecoder(strict=False), 0, []
    while at < len(text):
        while at < len(text) and text[at] in " \t\r\n,":
            at += 1
        if at >= len(text):
            break
        try:
            value, at = decoder.raw_decode(text, at)
        except ValueError:
            return None
        found += value if isinstance(value, list) else [value]
    return found or None


def _objects(text: str) -> tuple[list[object], str] | None:
    """The JSON values in the reply's tags, else its fences (a fence of code is skipped), else
    the whole reply; with the prose left around them."""
    body = text.strip()
    for pattern in (_TAGGED, _FENCED):
        parts = [m.group("body") for m in pattern.finditer(body)]
        values = [v for part in parts for v in (_values(part) or [])]
        if values:
            return values, pattern.sub("", body).strip()
    whole = _values(body)
    return (whole, "") if whole else None


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


def read_text_calls(text: str, prefix: str = "text_call") -> TextCalls | None:
    """The calls a reply wrote as JSON; None when it is an answer. A name that is no tool of
    the session is a call too: the registry answers it with the tools there are. Call ids are
    `prefix_1`, `prefix_2`…: give each reply its own prefix."""
    if "{" not in text or '"name"' not in text:
        return None
    found = _objects(text)
    if found is None:
        return None
    objects, prose = found
    calls = [_call(obj, f"{prefix}_{i}") for i, obj in enumerate(objects, 1)]
    if any(c is None for c in calls):
        return None
    return TextCalls([c for c in calls if c is not None], prose)


def server_fix(provider: str, base_url: str | None, server: str = "") -> str:
    """The one-line notice, with the fix for the server at `base_url` (`server`: what answered
    the window probe, e.g. llama.cpp)."""
    url = base_url or ""
    if server == "llama.cpp":  # it took the request's tools: --jinja is on
        return (
            f"the server at {url} returned tool calls as text: its chat template does not "
            "parse the calls this model writes; Unicum ran them anyway (fix: give llama-server "
            "a chat template that parses them, --chat-template-file)"
        )
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
