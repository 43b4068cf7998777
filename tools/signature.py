"""A tool's arguments as one exact line (`path: str, limit?: int`): the brief wire form.

Every request carries the tool schemas; as JSON they are most of the fixed prompt. The line
says the same as the schema the registry enforces (names, which are optional, types, choices,
the item shape of a list), so a cloud model gets it in about half the tokens. A schema the line
cannot say exactly (nested objects, `anyOf`, patterns, ...) keeps its JSON form."""

from __future__ import annotations

from typing import Any

_SIMPLE = {"string": "str", "integer": "int", "number": "num", "boolean": "bool"}
_KEYS = {"type", "description", "enum", "items", "minimum", "properties", "required"}
_KEYS |= {"additionalProperties"}  # nested objects: only `false`, as at the top
_TOP_KEYS = {"type", "properties", "required", "additionalProperties"}


_UNSAFE = (", ", ": ", "(", ")", "|", "[", "]", "{", "}", "?")  # would blur the line


def _plain(text: object) -> bool:
    """A name or choice the line can say without ambiguity."""
    return isinstance(text, str) and bool(text) and not any(u in text for u in _UNSAFE)


def _value(spec: dict[str, Any], nested: bool) -> str | None:
    """The type of one argument, or None when the line could not say it exactly."""
    if not isinstance(spec, dict) or set(spec) - _KEYS:
        return None
    kind = spec.get("type")
    if not isinstance(kind, str) or not isinstance(spec.get("description", ""), str):
        return None  # ["string", "null"], no type at all: JSON says it
    if "minimum" in spec and (
        kind not in ("integer", "number") or not isinstance(spec["minimum"], int | float)
    ):
        return None
    if "enum" in spec:
        choices = spec["enum"]
        if kind != "string" or not choices or not all(_plain(c) for c in choices):
            return None
        text = "|".join(choices)
    elif kind in _SIMPLE and not {"properties", "items"} & set(spec):
        text = _SIMPLE[kind]
    elif kind == "array" and isinstance(spec.get("items"), dict):
        items = spec["items"]
        item = None if "description" in items else _value(items, nested)
        text = f"[{item}]" if item else None
    elif kind == "object" and not nested and isinstance(spec.get("properties"), dict):
        inner = _fields(spec, nested=True)
        text = f"{{{inner}}}" if inner else None
    else:
        return None
    if text and spec.get("minimum", 1) != 1:  # a count's `>= 1` goes without saying
        text += f" >= {spec['minimum']}"
    return text


def _fields(schema: dict[str, Any], nested: bool = False) -> str | None:
    """`a: str, b?: int (note)`, or None when some part would not be exact."""
    props = schema.get("properties", {})
    required = schema.get("required") or []
    if not isinstance(props, dict) or not isinstance(required, list):
        return None
    if not set(required) <= set(props) or schema.get("additionalProperties", False) is not False:
        return None
    parts = []
    for name, spec in props.items():
        value = _value(spec, nested)
        if value is None or not _plain(name):
            return None
        note = spec.get("description", "")
        optional = "" if name in required else "?"
        parts.append(f"{name}{optional}: {value}{f' ({note})' * bool(note)}")
    return ", ".join(parts)


def signature(schema: dict[str, Any]) -> str | None:
    """`path: str, offset?: int` for a flat object schema; None when it would not be exact."""
    if not isinstance(schema, dict) or schema.get("type") != "object" or set(schema) - _TOP_KEYS:
        return None
    if not isinstance(schema.get("properties", {}), dict):
        return None
    return _fields(schema)


def brief_spec(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    """The brief wire form of one tool, or None when its schema must go as JSON."""
    line = signature(schema)
    if line is None:
        return None
    args = f" Args: {line}." if line else " No arguments."
    return {"name": name, "description": description + args, "parameters": {"type": "object"}}
