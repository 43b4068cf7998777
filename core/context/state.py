"""A context policy's state as JSON, so a resumed session goes on where the live one was: its
summary, the outputs it archived, the reads it turned into lines, its counters.

Generic over the policy's own attributes: everything an instance holds is state, except the
collaborators its class names in `NOT_STATE` (archive, budget, callables, caches). Values are
JSON, tuples, sets, the dataclasses and enums of `STATE_TYPES`, and plain objects held in an
attribute (restored in place, with their own `NOT_STATE`). A value of any other type is a
TypeError at `snapshot`, so new state can never be dropped silently: add its type here.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from core.context.compaction import Compacted
from core.context.phases import TaskPhase
from core.context.policy import Calibration
from core.context.repeats import Repeats
from core.context.summary import SummaryState
from my_agent.facts import Fact

STATE_TYPES: dict[str, type] = {
    cls.__name__: cls for cls in (Calibration, Compacted, Fact, Repeats, SummaryState, TaskPhase)
}
_PLAIN = (str, int, float, bool, type(None))


def snapshot(policy: object) -> dict[str, Any]:
    """The policy's state: `{"policy": class name, "state": {...}}`, JSON-serializable."""
    return {"policy": type(policy).__name__, "state": _object(policy)}


def restore(policy: object, saved: dict[str, Any]) -> bool:
    """Put a snapshot back into a fresh policy of the same class; False (nothing changed)
    when it is another policy's or cannot be read."""
    if not isinstance(saved, dict) or saved.get("policy") != type(policy).__name__:
        return False
    try:
        decoded = _decode_object(policy, saved["state"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return False
    _apply(policy, decoded)
    return True


def _skipped(obj: object) -> tuple[str, ...]:
    return tuple(getattr(type(obj), "NOT_STATE", ()))


def _object(obj: object) -> dict[str, Any]:
    skip = _skipped(obj)
    return {name: _encode(value) for name, value in vars(obj).items() if name not in skip}


def _encode(value: Any) -> Any:
    if isinstance(value, enum.Enum):  # before str: a StrEnum is a str
        return {"e": type(value).__name__, "v": value.value}
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, tuple):
        return {"t": [_encode(v) for v in value]}
    if isinstance(value, set | frozenset):
        kind = "fs" if isinstance(value, frozenset) else "s"
        return {kind: sorted((_encode(v) for v in value), key=repr)}
    if isinstance(value, dict):
        return {"d": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        name = type(value).__name__
        if STATE_TYPES.get(name) is not type(value):
            raise TypeError(f"context state of type {name} is not in STATE_TYPES")
        fields = {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"c": name, "f": fields}
    if hasattr(value, "__dict__") and not callable(value):
        return {"o": _object(value)}
    raise TypeError(f"context state of type {type(value).__name__} cannot be saved")


def _decode(node: Any) -> Any:
    if isinstance(node, _PLAIN):
        return node
    if isinstance(node, list):
        return [_decode(v) for v in node]
    if "t" in node:
        return tuple(_decode(v) for v in node["t"])
    if "s" in node:
        return {_decode(v) for v in node["s"]}
    if "fs" in node:
        return frozenset(_decode(v) for v in node["fs"])
    if "d" in node:
        return {_decode(k): _decode(v) for k, v in node["d"]}
    if "e" in node:
        return STATE_TYPES[node["e"]](node["v"])
    if "c" in node:
        return STATE_TYPES[node["c"]](**{k: _decode(v) for k, v in node["f"].items()})
    raise ValueError("not a context state value")


def _decode_object(obj: object, saved: dict[str, Any]) -> dict[str, Any]:
    """Attribute → decoded value (a plain object's: its own decoded attributes), for the
    attributes the fresh object has; decoded whole before anything is set."""
    current, skip = vars(obj), _skipped(obj)
    found: dict[str, Any] = {}
    for name, node in saved.items():
        if name in skip or name not in current:
            continue
        if isinstance(node, dict) and "o" in node:
            found[name] = _Nested(current[name], _decode_object(current[name], node["o"]))
        else:
            found[name] = _decode(node)
    return found


@dataclasses.dataclass
class _Nested:
    """A plain object's decoded attributes, put back into that object itself."""

    target: object
    values: dict[str, Any]


def _apply(obj: object, decoded: dict[str, Any]) -> None:
    for name, value in decoded.items():
        if isinstance(value, _Nested):
            _apply(value.target, value.values)
        else:
            setattr(obj, name, value)
