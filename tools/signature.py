"""A tool's arguments as one exact line (`path: str, limit?: int`): the brief wire form.

Every request carries the tool schemas; as JSON they are most of the fixed prompt. The line
says the same as the schema the registry enforces (names, which are optional, types, choices,
the item shape of a list), so a cloud model gets it in about half the tokens. A schema the line
cannot say exactly (nested objects, `anyOf`, patterns, ...) keeps its JSON form."""

from __future__ import annotations

from typing import Any

_SIMPLE = {"string": "str", "integer": "int", "number": "num", "boolean": "bool"}
_KEYS = {"type", "description", "enum", "items", "minimum", "properties", "required"}
_TOP_KEYS = {"type", "properties", "required", "additionalProperties"}


def _value(spec: dict[str, Any], nested: bool) -> str | None:
    """The type of one argument, or None when the line could not say it exactly."""
    if not isinstance(spec, dict) or set(spec) - _KEYS:
        return None
    kind = spec.get("type")
    if "enum" in spec:
        choices = spec["enum"]
        if not all(isinstance(c, str) and c and "|" not in c for c in choices):
            return None
        text = "|".join(choices)
    elif kind in _SIMPLE and "properties" not in spec and "items" not in spec:
        text = _SIMPLE[kind]
    elif kind == "array" and isinstance(spec.get("items"), dict):
        item = _value(spec["items"], nested)
        text = f"[{item}]" if item else None
    elif kind == "object" and not nested and isinstance(spec.get("properties"), dict):
        inner = _fields(spec, nested=True)
        text = f"{{{inner}}}" if inner is not None else None
    else:
        return None
    if text and spec.get("minimum", 1) != 1:  # a count's `>= 1` goes without saying
        if not isinstance(spec["minimum"], int | float) or kind not in ("integer", "number"):
            return None
        text += f" >= {spec['minimum']}"
    return text


def _fields(schema: dict[str, Any], nested: bool = False) -> str | None:
    required = set(schema.get("required") or ())
    parts = []
    for name, spec in (schema.get("properties") or {}).items():
        value = _value(spec, nested)
        if value is None:
            return None
        note = spec.get("description", "")
        if not isinstance(note, str):
            return None
        parts.append(f"{name}{'' if name in required else '?'}: {value}{f' ({note})' * bool(note)}")
    return ", ".join(parts)


def signature(schema: dict[str, Any]) -> str | None:
    """`path: str, offset?: int` for a flat object schema; None when it would not be exact."""
    if not isinstance(schema, dict) or schema.get("type") != "object" or set(schema) - _TOP_KEYS:
        return None
    if not set(schema.get("required") or ()) <= set(schema.get("properties") or {}):
        return None
    return _fields(schema)


def brief_spec(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    """The brief wire form of one tool, or None when its schema must go as JSON."""
    line = signature(schema)
    if line is None:
        return None
    args = f" Args: {line}." if line else " No arguments."
    return {"name": name, "description": description + args, "parameters": {"type": "object"}}
