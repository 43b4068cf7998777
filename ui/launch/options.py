"""Session options from the command-line flags (shared by the REPL and `-p`)."""

from __future__ import annotations

import argparse

from core.agent import SessionOptions


def options_from_args(args: argparse.Namespace, task_hint: str = "") -> SessionOptions:
    """The session options the command-line flags ask for (shared by the REPL and `-p`)."""
    tools = getattr(args, "tools", None)
    return SessionOptions(
        workspace=args.dir,
        provider=args.provider,
        model=args.model,
        permission_mode=args.permission_mode,
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
        tools=tuple(tools.split(",")) if tools else None,
        interactive=not getattr(args, "prompt", None),
        context_policy=args.context_policy,
        auto_commit=bool(getattr(args, "auto_commit", False)),
    )


def tool_names(values: list[str]) -> tuple[str, ...]:
    """`--allowed-tools read_file,grep --allowed-tools "shell edit"` → the names, in order."""
    words = [w for value in values for w in value.replace(",", " ").split()]
    return tuple(dict.fromkeys(words))
