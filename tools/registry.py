"""Finds tool modules without importing them, validates arguments and runs handlers."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from typing import Any

from my_agent.errors import os_error_line
from my_agent.secrets import redact, secret_values
from tools.base import Tool, ToolContext, ToolError, ToolOutput
from tools.signature import brief_spec, signature
from tools.textfile import printable

TOOLS_DIR = Path(__file__).resolve().parent
_SKIP = {"__init__.py", "base.py", "registry.py"}  # helper modules declare no TOOLS anyway
PLAN_REFUSAL = (
    "{name} is not allowed in the plan mode: only read-only tools run until the user approves "
    "the plan. Finish exploring, then end your reply with the plan."
)
_TYPES = {
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "array": list,
    "object": dict,
}


_TOOLS_LINE = re.compile(r"^TOOLS\s*[:=]", re.M)


def declares_tools(path: Path) -> bool:
    """True when the module may have a top-level `TOOLS = ...`: a line of its text starts
    so (read, not imported, nor parsed: parsing every tool module cost a tenth of a second
    of each start). A string that starts a line so only makes `discover` import a module it
    then finds without `TOOLS`."""
    try:
        return bool(_TOOLS_LINE.search(path.read_text(encoding="utf-8")))
    except OSError:
        return False


def discover(folder: Path = TOOLS_DIR) -> list[Tool]:
    found: list[Tool] = []
    for path in sorted(folder.glob("*.py")):
        if path.name in _SKIP or not declares_tools(path):
            continue
        module = importlib.import_module(f"tools.{path.stem}")
        found.extend(getattr(module, "TOOLS", []))
    return found


def coerce(schema: dict[str, Any], args: dict[str, Any]) -> dict[str, Any]:
    """Fix what models often send as strings: "5" for an integer, "true" for a boolean, a
    list or object as its JSON text."""
    props = schema.get("properties") or {}
    fixed = dict(args)
    for name, value in args.items():
        spec = props.get(name) if isinstance(props, dict) else None
        expected = spec.get("type") if isinstance(spec, dict) else None
        if not isinstance(value, str):
            continue
        text = value.strip()
        if expected == "integer" and re.fullmatch(r"-?\d+", text):
            fixed[name] = int(text)
        elif expected == "number" and re.fullmatch(r"-?\d+(\.\d+)?", text):
            fixed[name] = float(text)
        elif expected == "boolean" and text.lower() in ("true", "false"):
            fixed[name] = text.lower() == "true"
        elif expected in ("array", "object") and text[:1] in "[{":
            fixed[name] = _json_as(text, list if expected == "array" else dict, value)
    return fixed


def _json_as(text: str, kind: type, otherwise: Any) -> Any:
    """`text` parsed when it is JSON of that kind; else the value as it came (validation then
    names what was expected)."""
    try:
        parsed = json.loads(text)
    except ValueError:
        return otherwise
    return parsed if isinstance(parsed, kind) else otherwise


def _check_value(name: str, spec: dict[str, Any], value: Any) -> str | None:
    expected = spec.get("type")
    pytype = _TYPES.get(expected) if isinstance(expected, str) else None
    bad_bool = isinstance(value, bool) and expected in ("integer", "number")
    if pytype and (not isinstance(value, pytype) or bad_bool):
        return f"argument '{name}' must be {expected}, got {type(value).__name__}"
    if "enum" in spec and value not in spec["enum"]:
        return f"argument '{name}' must be one of {spec['enum']}"
    if "minimum" in spec and isinstance(value, int | float) and value < spec["minimum"]:
        return f"argument '{name}' must be at least {spec['minimum']}"
    if expected == "array" and isinstance(spec.get("items"), dict):
        for item in value:
            problem = _check_value(f"{name}[]", spec["items"], item)
            if problem:
                return problem
    if expected == "object" and isinstance(spec.get("properties"), dict):
        problem = validate(spec, value)  # an object in a list (edit_file's edits)
        return f"{name}: {problem}" if problem else None
    return None


def validate(schema: dict[str, Any], args: Any) -> str | None:
    """Return a one-line problem with `args`, or None when they fit the schema."""
    if not isinstance(args, dict):
        return "arguments must be a JSON object"
    props = schema.get("properties")
    props = props if isinstance(props, dict) else {}
    for name in schema.get("required") or []:
        if name not in args:
            return f"missing required argument '{name}'"
    for name, value in args.items():
        spec = props.get(name)
        if not isinstance(spec, dict):  # absent, or `true` (anything goes)
            if spec is False:
                return f"argument '{name}' is not allowed"
            if spec is None and schema.get("additionalProperties", True) is False:
                return f"unknown argument '{name}' (expected: {', '.join(props) or 'none'})"
            continue
        problem = _check_value(name, spec, value)
        if problem:
            return problem
    return None


def wire_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema as sent (every request carries it): without what only the registry needs —
    `additionalProperties: false`, an empty `required`, a count's `minimum: 1`. The registry
    still enforces them, and its error names what was expected."""
    out = {
        k: v
        for k, v in schema.items()
        if not (k == "additionalProperties" and v is False) and not (k == "required" and not v)
    }
    if isinstance(out.get("properties"), dict):
        out["properties"] = {
            name: (
                _wire_property(spec)
                if isinstance(spec, dict)
                else spec  # `true` / `false` subschemas go as they are
            )
            for name, spec in out["properties"].items()
        }
    return out


def _wire_property(spec: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in spec.items() if not (k == "minimum" and v == 1)}
    items = out.get("items")
    if isinstance(items, dict) and items.get("type") == "object":  # a list of objects (edits)
        out["items"] = wire_schema(items)
    return out


def _scrub(value: Any, secrets: list[str]) -> Any:
    """Every string in a result with secret values redacted and stray bytes as U+FFFD."""
    if isinstance(value, str):
        return printable(redact(value, secrets))
    if isinstance(value, dict):
        return {k: _scrub(v, secrets) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_scrub(v, secrets) for v in value]
    return value


class Registry:
    """`brief`: schemas go as one-line signatures (cloud models); False: as JSON (a local
    server's small model, whose tool-call grammar may be built from them)."""

    def __init__(self, tools: list[Tool], brief: bool = True) -> None:
        self.tools = {t.name: t for t in tools}
        self.brief = brief
        self.later: list[Tool] = []  # offered once they are available (see `release`)

    def only(self, tools: list[Tool]) -> Registry:
        """Another registry of these tools, in the same wire form (with the same later ones)."""
        chosen = Registry(tools, self.brief)
        chosen.later = list(self.later)
        return chosen

    def release(self, ctx: ToolContext) -> list[str]:
        """Offer the later tools that are available now (e.g. `recall` once an output is
        archived); their names."""
        ready = [t for t in self.later if t.available(ctx) is None]
        for tool in ready:
            self.later.remove(tool)
            self.tools.setdefault(tool.name, tool)
        return [t.name for t in ready]

    @classmethod
    def default(cls) -> Registry:
        return cls(discover())

    def extend(self, tools: list[Tool]) -> None:
        """Tools that join later (a session's MCP tools, once, before its first request); a
        name already taken keeps its tool."""
        for tool in tools:
            self.tools.setdefault(tool.name, tool)

    def specs(self) -> list[dict[str, Any]]:
        """Provider-neutral schemas in a stable order (keeps the prompt prefix cacheable), in
        their wire form: every request carries them."""
        return [self._spec(t) for t in sorted(self.tools.values(), key=lambda t: t.name)]

    def _spec(self, tool: Tool) -> dict[str, Any]:
        if self.brief and tool.brief:
            brief = brief_spec(tool.name, tool.description, tool.parameters)
            if brief is not None:
                return brief
        return {
            "name": tool.name,
            "description": tool.description,
            "parameters": wire_schema(tool.parameters),
        }

    def availability(self, ctx: ToolContext) -> dict[str, str | None]:
        return {name: tool.available(ctx) for name, tool in sorted(self.tools.items())}

    def execute(self, name: str, args: Any, ctx: ToolContext) -> ToolOutput:
        """Run one call; every failure comes back as an error output, never a raise.
        Known secret values (API keys, tokens, the `.env` files' values) and key shapes never
        reach the model: they are redacted."""
        out = self._execute(name, args, ctx)
        secrets = secret_values(dotenv_files=(ctx.home / ".env", ctx.workspace / ".env"))
        out.content = _scrub(out.content, secrets)
        out.data = _scrub(out.data, secrets)
        return out

    def _execute(self, name: str, args: Any, ctx: ToolContext) -> ToolOutput:
        tool = self.tools.get(name)
        if tool is None:
            return ToolOutput(
                f"unknown tool '{name}'; available: {', '.join(sorted(self.tools))}", is_error=True
            )
        if isinstance(args, str):
            try:
                args = json.loads(args or "{}")
            except ValueError as exc:
                return ToolOutput(f"arguments are not valid JSON: {exc}", is_error=True)
        if isinstance(args, dict):
            args = coerce(tool.parameters, args)
        problem = validate(tool.parameters, args)
        if problem:
            expected = signature(tool.parameters)
            hint = f"; expected {name}({expected})" if expected is not None else ""
            return ToolOutput(f"{name}: {problem}{hint}", is_error=True)
        if ctx.permission_mode == "plan" and not tool.read_only:
            return ToolOutput(PLAN_REFUSAL.format(name=name), is_error=True)
        reason = tool.available(ctx)
        if reason:
            return ToolOutput(f"{name} is unavailable: {reason}", is_error=True)
        try:
            out = tool.handler(ctx, args)
        except ToolError as exc:
            return ToolOutput(str(exc), is_error=True)
        except OSError as exc:  # the file system said no: one line, the path relative
            return ToolOutput(f"{name}: {os_error_line(exc, ctx.workspace)}", is_error=True)
        except Exception as exc:  # a tool bug must not kill the session
            return ToolOutput(f"{name} failed: {type(exc).__name__}: {exc}", is_error=True)
        return out if isinstance(out, ToolOutput) else ToolOutput(str(out))
