"""Unicum: a fast, token-frugal coding agent for the terminal.

This file must still parse on old Pythons (it says which version is needed instead of failing
on an import): only the standard library at the top, nothing of ours before `python_problem`.
(No `from __future__ import annotations`: Python 3.6 cannot parse it; the annotations that need
3.10 are quoted instead.)
"""

import gc
import time

STARTED = time.monotonic()  # `--time` counts `-p`'s start-up from here

import argparse  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

__version__ = "0.1.0"  # the one place; pyproject.toml reads it (tool.setuptools.dynamic)
MIN_PYTHON = (3, 11)
CLAUDE_MODES = ("default", "acceptEdits", "bypassPermissions", "manual", "dontAsk")  # and ours


def subcommand_names() -> "tuple[str, ...]":
    from ui.subcommands import NAMES

    return NAMES


def saved_language() -> "str | None":
    """`language` in the user's settings.json when it is one the screen speaks, else None."""
    import json

    from my_agent.capped import CONFIG, read_capped_text
    from my_agent.home import unicum_home

    try:
        data = json.loads(read_capped_text(unicum_home() / "settings.json", CONFIG))
    except (OSError, ValueError):
        return None
    lang = data.get("language") if isinstance(data, dict) else None
    return lang if isinstance(lang, str) and lang in ui_languages() else None


def ui_languages() -> "tuple[str, ...]":
    from ui.words import languages

    return languages()


def _positive(kind: type):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive: {text}")
        return value

    return parse


def python_problem(version: tuple = tuple(sys.version_info)) -> "str | None":
    """One line saying this Python is too old for Unicum, or None when it is new enough."""
    if tuple(version[:2]) >= MIN_PYTHON:
        return None
    this = ".".join(str(part) for part in version[:3])
    need = ".".join(str(part) for part in MIN_PYTHON)
    return f"Unicum needs Python {need} or newer; this is {this}"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cli.py",
        description="Unicum: a token-frugal coding agent. "
        f"Subcommands: {', '.join(subcommand_names())} (python cli.py SUBCOMMAND --help).",
    )
    p.add_argument("--version", action="version", version=f"unicum {__version__}")
    p.add_argument("--dir", default=".", help="project folder to work in (default: .)")
    p.add_argument(
        "--provider",
        help="zhipu, openai, anthropic, openrouter, deepseek, ollama, openai-compatible",
    )
    p.add_argument("--model", help="model name (default: the provider's default)")
    p.add_argument(
        "-p",
        "--print",
        dest="prompt",
        metavar="TASK",
        nargs="?",
        const="-",
        help="run one task, print the answer on stdout and exit (piped stdin is added to "
        "TASK; `-p -` or `-p` alone: the task is stdin)",
    )
    p.add_argument(
        "--output-format",
        choices=["text", "json", "stream-json"],
        default="text",
        help="-p's output: the answer, one JSON object, or one JSON event a line",
    )
    p.add_argument(
        "--input-format",
        choices=["text", "stream-json"],
        default="text",
        help="-p's input: stream-json reads user messages, one JSON object a line, from stdin",
    )
    p.add_argument("--append-system-prompt", metavar="TEXT", default="")
    p.add_argument(
        "--allowed-tools",
        "--allowedTools",
        dest="allowed_tools",
        action="extend",
        nargs="+",
        default=[],
        metavar="RULE",
        help="tools or rules that run without asking, as in Claude Code: Read "
        '"Bash(git diff:*)" mcp__srv (comma- or space-separated; repeatable)',
    )
    p.add_argument(
        "--disallowed-tools",
        "--disallowedTools",
        dest="disallowed_tools",
        action="extend",
        nargs="+",
        default=[],
        metavar="RULE",
        help='tools taken out (a name) or calls refused (a rule: "Bash(rm:*)")',
    )
    p.add_argument(
        "--mcp-config",
        action="extend",
        nargs="+",
        metavar="FILE",
        help='MCP servers from these files or JSON texts ({"mcpServers": ...}), beside '
        "config.json's and the project's .mcp.json (they win on a name)",
    )
    p.add_argument(
        "--strict-mcp-config",
        action="store_true",
        help="only the servers of --mcp-config",
    )
    p.add_argument(
        "--add-dir",
        action="extend",
        nargs="+",
        metavar="DIR",
        help="more folders the tools may read and write without asking (in the sandbox too)",
    )
    p.add_argument("--yes", action="store_true", help="approve every action without asking")
    p.add_argument(
        "--dangerously-skip-permissions",
        dest="skip_permissions",
        action="store_true",
        help="Claude Code's name for --permission-mode yolo (deny rules still apply)",
    )
    p.add_argument(
        "--trust",
        action="store_true",
        help="trust this folder for this run: load its .env, @imports and skills",
    )
    p.add_argument(
        "--trust-project",
        action="store_true",
        help="trust this folder for this run with everything it configures: .env, imports, "
        "skills, hooks, MCP servers, commands, agents, permission rules (for CI; also "
        "UNICUM_TRUST_PROJECT=1)",
    )
    p.add_argument(
        "--permission-mode",
        choices=["ask", "auto-edit", "yolo", "plan", *CLAUDE_MODES],
        help="ask (default), auto-edit, plan or yolo; Claude Code's default, acceptEdits, "
        "plan and bypassPermissions too (default: settings' defaultMode, else ask)",
    )
    p.add_argument(
        "--auto-commit",
        action="store_true",
        help="commit each turn's file changes with a message the model writes (authored "
        "'NAME (unicum)', apart from your own commits; /undo takes one back)",
    )
    p.add_argument(
        "--sandbox",
        choices=["workspace-write", "read-only", "off"],
        help="OS sandbox for commands (default: config.json, else workspace-write)",
    )
    p.add_argument(
        "--sandbox-network",
        choices=["on", "off"],
        help="on: every host for sandboxed commands (through the proxy); off: the allowed hosts, "
        "others asked per host (default: config.json, else off)",
    )
    p.add_argument(
        "--max-turns", type=_positive(int), metavar="N", help="model turns per task (default 50)"
    )
    p.add_argument("--time", action="store_true", help="show timings per request and task")
    p.add_argument("--debug", action="store_true", help="log requests/responses; tracebacks")
    p.add_argument("--lang", choices=ui_languages(), help="UI language (default: from locale)")
    p.add_argument(
        "-c",
        "--continue",
        dest="cont",
        action="store_true",
        help="resume the last session in this folder",
    )
    p.add_argument(
        "-r",
        "--resume",
        metavar="ID",
        nargs="?",
        const="",
        help="resume a saved session (without ID: list this folder's sessions)",
    )
    p.add_argument(
        "--budget-usd",
        "--max-budget-usd",
        dest="budget_usd",
        type=_positive(float),
        metavar="USD",
        help="stop before a model call once this much is spent (see --budget-scope)",
    )
    p.add_argument(
        "--budget-tokens",
        type=_positive(int),
        metavar="N",
        help="stop before a model call once this many tokens are used",
    )
    p.add_argument(
        "--budget-scope",
        choices=["task", "session", "day"],
        default="session",
        help="what the --budget-* flags limit (default: session)",
    )
    p.add_argument(
        "--tools",
        metavar="LIST",
        help="comma-separated tools to offer the model (Unicum's or Claude Code's names), "
        "or all (default: the lean set for a local server or a small window, else the full "
        "set, less the tools that cannot help; tool_set in config.json)",
    )
    p.add_argument(
        "--context-policy",
        choices=["ours", "masking", "full"],
        default="ours",
        help="what each request carries: ours (default), masking (keep the last 3 outputs, "
        "mask older ones every 10k tokens) or full (the whole history)",
    )
    p.add_argument(
        "--no-codemap",
        dest="no_codemap",
        action="store_true",
        help="leave the repository overview out of the system prompt",
    )
    return p


def collect_from_here() -> None:
    """What exists now lives as long as the process: set it aside for good (`gc.freeze`)
    and let the cyclic collector run from here on."""
    gc.freeze()
    gc.enable()


def main(argv: "list[str] | None" = None) -> int:
    # Start-up makes only long-lived objects (modules, classes, the session): collecting them
    # is wasted time. The cyclic collector starts once they are made (`collect_from_here`).
    gc.disable()
    from ui.launch import end_cleanly_on_hangup

    try:
        with end_cleanly_on_hangup():  # a closed terminal or a `kill` ends it as /quit does
            code = _main(argv)
        sys.stdout.flush()  # here, not at exit: a reader that left is caught below
        return code
    except BrokenPipeError:  # `unicum usage --json | head`: the reader left; no traceback
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the exit-time flush must not fail again
        return 1
    finally:
        gc.enable()  # whichever way it went


def _main(argv: "list[str] | None") -> int:
    problem = python_problem()
    if problem:
        print(problem, file=sys.stderr)
        return 2
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in subcommand_names():
        from ui.subcommands import run

        collect_from_here()
        return run(argv[0], argv[1:])
    args = build_parser().parse_args(argv)
    args.dir = Path(args.dir)
    args.started = STARTED
    args.lang = args.lang or saved_language()  # `/config language=zh`: from the next start
    if args.trust_project:  # the explicit opt-in for a CI run: every loader reads it
        from my_agent.trust import TRUST_ENV

        os.environ[TRUST_ENV] = "1"
    from ui.launch import prepare_folder

    failed = prepare_folder(args)  # trusted folder? then the .env files
    if failed is not None:
        return failed
    from ui.launch import is_piped

    if args.prompt is None and is_piped():
        args.stdin_text = sys.stdin.read()  # `echo hi | unicum`: stdin is the task, as -p -
        if args.stdin_text.strip():
            args.prompt = "-"
            print("unicum: stdin is not a terminal: running it as one task (-p -)", file=sys.stderr)
    if args.prompt is not None and not args.prompt.strip():
        print("unicum: -p needs a task (it was empty)", file=sys.stderr)
        return 2
    if args.prompt is not None:
        from ui.headless import run_print

        return run_print(args)  # collects once its session is open
    from ui.repl import run_repl

    collect_from_here()
    return run_repl(args)


if __name__ == "__main__":
    sys.exit(main())
