"""Session options from the command-line flags (shared by the REPL and `-p`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from core.agent import SessionOptions


def options_from_args(args: argparse.Namespace, task_hint: str = "") -> SessionOptions:
    """The session options the command-line flags ask for (shared by the REPL and `-p`)."""
    tools = getattr(args, "tools", None)
    return SessionOptions(
        workspace=args.dir,
        provider=args.provider,
        model=args.model,
        permission_mode=permission_mode(args),
        yes=args.yes,
        **({"max_turns": args.max_turns} if args.max_turns else {}),
        budget_usd=args.budget_usd,
        budget_tokens=args.budget_tokens,
        budget_scope=args.budget_scope,
        task_hint=task_hint,
        codemap=not args.no_codemap,
        sandbox=args.sandbox,
        sandbox_network=args.sandbox_network,
        trusted=bool(getattr(args, "trusted", False)),
        append_system_prompt=getattr(args, "append_system_prompt", ""),
        allowed_tools=tool_names(getattr(args, "allowed_tools", [])),
        disallowed_tools=tool_names(getattr(args, "disallowed_tools", [])),
        mcp_config=tuple(getattr(args, "mcp_config", None) or ()),
        strict_mcp=bool(getattr(args, "strict_mcp_config", False)),
        add_dirs=tuple(Path(d) for d in getattr(args, "add_dir", None) or ()),
        tools=tuple(tools.split(",")) if tools else None,
        interactive=not getattr(args, "prompt", None),
        context_policy=args.context_policy,
        auto_commit=bool(getattr(args, "auto_commit", False)),
    )


def tool_names(values: list[str]) -> tuple[str, ...]:
    """`--allowedTools Read "Bash(git diff:*)",Edit` → the rules, in order: split at commas
    and spaces outside parentheses."""
    words: list[str] = []
    for value in values:
        word, depth = "", 0
        for char in value:
            depth += {"(": 1, ")": -1}.get(char, 0)
            if char in ", " and depth <= 0:
                words.append(word)
                word, depth = "", 0
            else:
                word += char
        words.append(word)
    return tuple(dict.fromkeys(w.strip() for w in words if w.strip()))


def permission_mode(args: argparse.Namespace) -> str:
    """The flag (Claude Code's names too), else the settings' `defaultMode`, else ask."""
    from tools.claude_code import MODES

    flag = getattr(args, "permission_mode", None)
    if getattr(args, "skip_permissions", False):
        flag = "yolo"
    if flag:
        return MODES.get(flag, flag)
    from core.agent import settings_default_mode

    return settings_default_mode(args.dir) or "ask"
