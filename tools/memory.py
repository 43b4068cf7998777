"""memory: add, update, remove, list and search what Unicum remembers about the user and project."""

from __future__ import annotations

from typing import Any

from my_agent.secrets import holds_secret, secret_values
from tools.base import Tool, ToolContext, ToolError, ToolOutput, params
from tools.guards import approve_global_memory
from tools.services import MemoryBook, MemoryItem

ACTIONS = ["add", "update", "remove", "list", "search"]
LIST_LIMIT = 40


def _store(ctx: ToolContext) -> MemoryBook:
    store = ctx.services.memory
    if store is None:
        raise ToolError("this session has no memory store")
    return store


def _available(ctx: ToolContext) -> str | None:
    return None if ctx.services.memory is not None else "this session has no memory store"


def _line(scope: str, entry: MemoryItem) -> str:
    return f"{entry.key} [{entry.type}, {scope}] {entry.content}"


def _find(store: MemoryBook, args: dict[str, Any]) -> tuple[str, MemoryItem]:
    ref = args.get("key") or args.get("content") or ""
    if not ref.strip():
        raise ToolError("give key (an entry's key, id or text) to say which entry")
    found = store.find(ref, args.get("scope"))
    if found is None:
        raise ToolError(f"no single memory entry matches '{ref[:60]}'; use action=search first")
    return found


def _check_write(ctx: ToolContext, scope: str, args: dict[str, Any]) -> None:
    """A secret is never stored (the next session would send it to the provider); a global
    entry (every project's prompt) is asked about first."""
    text = f"{args.get('key', '')}\n{args.get('content', '')}"
    secrets = secret_values(dotenv_files=(ctx.home / ".env", ctx.workspace / ".env"))
    if holds_secret(text, secrets):
        raise ToolError(
            "refused: the entry holds a secret (an API key, token or password); memory never "
            "stores secrets. Remember where it is kept instead (e.g. 'the key is in .env')."
        )
    if scope == "global":
        approve_global_memory(ctx, str(args.get("content") or args.get("key") or ""))


def memory(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    store, action = _store(ctx), args["action"]
    scope = args.get("scope") or "project"
    if action in ("add", "update"):
        _check_write(ctx, scope, args)
    try:
        if action == "add":
            what, entry = store.add(
                scope,
                args.get("type") or "notes",
                args.get("content", ""),
                key=args.get("key", ""),
                source=ctx.session_id,
            )
            note = (
                " (it nearly duplicated this entry)"
                if what == "updated" and entry.key != args.get("key")
                else ""
            )
            return ToolOutput(f"{what} {_line(scope, entry)}{note}")
        if action == "update":
            found_scope, entry = _find(store, {**args, "content": ""})
            changed = store.update(
                found_scope,
                entry.key,
                args.get("content") or None,
                args.get("type") or None,
                source=ctx.session_id,
            )
            return ToolOutput(f"updated {_line(found_scope, changed)}")
        if action == "remove":
            found_scope, entry = _find(store, args)
            store.remove(found_scope, entry.key)
            return ToolOutput(f"removed {_line(found_scope, entry)}")
    except ValueError as exc:
        raise ToolError(str(exc)) from None
    pairs = store.entries(args.get("scope"))
    if action == "search":
        query = args.get("content") or args.get("key") or ""
        pairs = store.search(query, args.get("scope"))
    if args.get("type"):
        pairs = [(s, e) for s, e in pairs if e.type == args["type"]]
    if not pairs:
        return ToolOutput("no memory entries")
    more = (
        f"\n[{len(pairs) - LIST_LIMIT} more; narrow with type or search]"
        if len(pairs) > LIST_LIMIT
        else ""
    )
    return ToolOutput("\n".join(_line(s, e) for s, e in pairs[:LIST_LIMIT]) + more)


TOOLS = [
    Tool(
        "memory",
        "Memory across sessions: add a lasting fact, update or remove one (key: its key, id or "
        "text), list, search (content: query); scope: project (default) or global.",
        params(
            ["action"],
            action={"type": "string", "enum": ACTIONS},
            scope={"type": "string", "enum": ["project", "global"]},
            type={
                "type": "string",
                "enum": [
                    "user",
                    "feedback",
                    "project",
                    "reference",
                    "files",
                    "commands",
                    "conventions",
                    "notes",
                ],
            },
            key={"type": "string"},
            content={"type": "string"},
        ),
        memory,
        available=_available,
        key_arg="action",
    ),
]
