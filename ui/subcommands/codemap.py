"""`python cli.py codemap build|stats|def NAME|refs NAME|impact NAME|outline PATH|rename NAME NEW`
(`--json` after def/refs/impact/rename: every item, uncapped)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from ui.subcommands.args import folder_first

_LOCATION = re.compile(r"^(\s*)([\w./\\-]+\.\w+:\d+(?:-\d+)?)(.*)$")
ACTIONS = {
    "def": "definition",
    "refs": "references",
    "impact": "impact",
    "outline": "outline",
    "rename": "rename",
}


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cli.py codemap", description="The project's code map: symbols, call sites, impact."
    )
    p.add_argument("--dir", default=".", help="project folder (default: .)")
    sub = p.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="build or refresh the index")
    build.add_argument("--full", action="store_true", help="drop the index and rebuild it")
    build.add_argument(
        "--workers",
        type=int,
        help="parser processes (default: 1 on two cores, else one per core but one)",
    )
    sub.add_parser("stats", help="what the index holds")
    for name, help_text in (
        ("def", "where NAME is defined"),
        ("refs", "who references NAME"),
        ("impact", "what depends on NAME or a file"),
    ):
        action = sub.add_parser(name, help=help_text)
        action.add_argument("name")
        action.add_argument("--json", action="store_true", help="every site, uncapped, as JSON")
        if name == "refs":
            action.add_argument(
                "--confident", action="store_true", help="resolved sites only (no name guesses)"
            )
    sub.add_parser("outline", help="a file's symbols").add_argument("name", metavar="PATH")
    rename = sub.add_parser("rename", help="dry run: every line a rename must change")
    rename.add_argument("name")
    rename.add_argument("new_name")
    rename.add_argument("--json", action="store_true", help="every line, as JSON")
    return p


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(folder_first(argv))
    from rich.console import Console

    from core.codemap import CodeMap
    from my_agent.home import unicum_home

    console = Console(highlight=False, soft_wrap=True)
    folder = Path(args.dir).expanduser()
    if not folder.is_dir():
        print(f"unicum codemap: --dir {args.dir}: not a folder", file=sys.stderr)
        return 2
    try:
        if args.command == "build" and args.full:
            for suffix in ("", "-wal", "-shm"):
                Path(str(CodeMap(folder, unicum_home()).db_path) + suffix).unlink(missing_ok=True)
        cmap = CodeMap(folder, unicum_home())
        try:
            return _run(console, cmap, args)
        finally:
            cmap.close()
    except BrokenPipeError:  # `… | head`: the reader left; cli.main exits quietly
        raise
    except Exception as exc:  # one line for people, never a traceback
        print(f"unicum codemap: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


def _run(console, cmap, args: argparse.Namespace) -> int:
    if args.command == "build":
        stats = cmap.refresh(max_seconds=600, workers=args.workers)
        rate = stats.lines / stats.seconds if stats.seconds else 0
        console.print(
            f"[bold]{cmap.root}[/bold]: {stats.files} files; parsed {stats.parsed} "
            f"({stats.lines:,} lines), removed {stats.removed} in {stats.seconds:.2f} s"
            + (f" — {rate:,.0f} lines/s" if stats.parsed else "")
        )
        if stats.truncated:
            console.print(f"[yellow]{stats.truncated}[/yellow]")
        return 0
    if args.command == "stats":
        return _stats(console, cmap)
    if getattr(args, "json", False):
        import json

        sure = {"confident": True} if getattr(args, "confident", False) else {}
        print(json.dumps(cmap.data(ACTIONS[args.command], args.name, **sure), indent=1))
        return 0
    extra = [args.new_name] if args.command == "rename" else []
    if getattr(args, "confident", False):
        extra = [True]
    text = getattr(cmap, ACTIONS[args.command])(args.name, *extra)
    _print_answer(console, text)
    return 0


def _stats(console, cmap) -> int:
    from rich.table import Table

    info = cmap.stats()
    console.print(f"[bold]{cmap.root}[/bold]  ({info['database']})")
    console.print(
        f"{info['files']:,} files, {info['lines']:,} lines, {info['symbols']:,} symbols, "
        f"{info['references']:,} references"
    )
    table = Table("language", "files", "lines")
    for lang, files, lines in info["languages"]:
        table.add_row(lang, f"{files:,}", f"{lines or 0:,}")
    console.print(table)
    if info["truncated"]:
        console.print(f"[yellow]{info['truncated']}[/yellow]")
    return 0


def _print_answer(console, text: str) -> None:
    from rich.markup import escape

    lines = text.splitlines()
    if lines:
        console.print(f"[bold]{escape(lines[0])}[/bold]")
    for line in lines[1:]:
        match = _LOCATION.match(line)
        if match:
            indent, where, rest = match.groups()
            console.print(f"{indent}[cyan]{escape(where)}[/cyan]{escape(rest)}")
        else:
            console.print(escape(line), style="dim" if line.startswith(("…", "  ", "---")) else "")
