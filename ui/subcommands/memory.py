"""`python cli.py memory list|show|forget|consolidate`: print and edit what Unicum remembers."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ui.subcommands.args import folder_first
from ui.words import Strings


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cli.py memory", description="Print and edit Unicum's memory for a project."
    )
    p.add_argument("--dir", default=".", help="project folder (default: .)")
    sub = p.add_subparsers(dest="action", required=True)
    for name, helptext in (
        ("list", "list entries"),
        ("show", "show one entry in full"),
        ("forget", "remove one entry"),
        ("consolidate", "merge near-duplicates, forget stale entries, write MEMORY.md"),
    ):
        cmd = sub.add_parser(name, help=helptext)
        cmd.add_argument(
            "--scope", choices=["project", "global"], help="only this scope (default: both)"
        )
        if name == "list":
            cmd.add_argument("--type", help="only entries of this type")
        elif name != "consolidate":
            cmd.add_argument("ref", help="the entry's key, id (4+ characters) or text")
    return p


def _list(store, args: argparse.Namespace) -> int:
    s: Strings = args.strings
    pairs = [(s, e) for s, e in store.entries(args.scope) if not args.type or e.type == args.type]
    _instruction_files(store, s)
    if not pairs:
        print(s.t("mem_none", folder=store.workspace))
        return 0
    pairs.sort(key=lambda p: (p[0], p[1].type, -p[1].updated))
    for scope, entry in pairs:
        print(f"{entry.id}  {scope:<7} {entry.type:<11} {entry.content}")
    files = ", ".join(str(f.path) for f in store.files.values())
    print(s.t("mem_count_one" if len(pairs) == 1 else "mem_count", n=len(pairs), files=files))
    return 0


def _instruction_files(store, s: Strings) -> None:
    from core.agent import loaded_instruction_files

    names = loaded_instruction_files(store.workspace, store.home)
    print(s.t("mem_instructions", names=", ".join(names) if names else s.t("mem_no_files")))


def _show(store, args: argparse.Namespace) -> int:
    found = store.find(args.ref, args.scope)
    if found is None:
        print(f"unicum: no single memory entry matches '{args.ref}'", file=sys.stderr)
        return 1
    from core.memory import entry_rows

    scope, e = found
    for name, value in entry_rows(scope, e):
        print(f"{name:<10} {value}")
    return 0


def _forget(store, args: argparse.Namespace) -> int:
    found = store.find(args.ref, args.scope)
    if found is None:
        print(f"unicum: no single memory entry matches '{args.ref}'", file=sys.stderr)
        return 1
    scope, entry = found
    store.remove(scope, entry.key)
    print(f"forgot {entry.key}: {entry.content}")
    return 0


def _consolidate(store, args: argparse.Namespace) -> int:
    from core.memory import consolidate

    print(consolidate(store).summary())
    return 0


def open_store(folder: Path):
    """The team's memory when a team database is set, else the local files."""
    from core.memory import MemoryStore, open_team_memory
    from my_agent.home import unicum_home
    from my_agent.team import database_url

    url = database_url()
    if url:
        return open_team_memory(unicum_home(), folder, url)
    return MemoryStore(unicum_home(), folder)


def main(argv: list[str], strings: Strings | None = None) -> int:
    """The subcommand; the REPL's /memory passes its strings (the CLI speaks English)."""
    args = build_parser().parse_args(folder_first(argv))
    args.strings = strings or Strings("en")
    folder = Path(args.dir).expanduser()
    if not folder.is_dir():
        print(f"unicum: --dir {args.dir}: not a folder", file=sys.stderr)
        return 2
    try:
        store = open_store(folder)
        action = {"list": _list, "show": _show, "forget": _forget, "consolidate": _consolidate}[
            args.action
        ]
        code = action(store, args)
    except OSError as exc:
        print(f"unicum: {exc}", file=sys.stderr)
        return 1
    for warning in store.take_warnings():
        print(f"unicum: warning: {warning}", file=sys.stderr)
    return code
