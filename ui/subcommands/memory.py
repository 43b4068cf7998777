"""`python cli.py memory list|show|forget|consolidate`: print and edit what Unicum remembers."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ui.subcommands.args import folder_first
from ui.words import Strings

if TYPE_CHECKING:
    from core.memory import MemoryEntry


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


def entry_text(s: Strings, entry: MemoryEntry) -> str:
    """An entry as the person reads it: automatic ones from their fields, in the UI language."""
    meta = entry.meta or {}
    if entry.type == "files" and "path" in meta:
        bits = [str(meta.get("language") or "")]
        if meta.get("lines"):
            bits.append(s.tn("{n} line", "{n} lines", int(meta["lines"]), n=meta["lines"]))
        if meta.get("symbols"):
            bits.append(s.t("defines {names}", names=", ".join(meta["symbols"][:5])))
        if meta.get("modified"):
            bits.append(s.t("modified"))
        what = s.t(", ").join(b for b in bits if b)
        return s.t("{path}: {what}", path=meta["path"], what=what)
    if entry.type == "commands" and {"category", "command", "tool"} <= meta.keys():
        return s.t(
            "{category}: `{command}` ({tool})",
            category=s.t(str(meta["category"])),
            command=meta["command"],
            tool=meta["tool"],
        )
    return s.entry(entry.content)


def _list(store, args: argparse.Namespace) -> int:
    s: Strings = args.strings
    pairs = [(s, e) for s, e in store.entries(args.scope) if not args.type or e.type == args.type]
    _instruction_files(store, s)
    if not pairs:
        print(s.t("no memory entries for {folder}", folder=store.workspace))
        return 0
    pairs.sort(key=lambda p: (p[0], p[1].type, -p[1].updated))
    for scope, entry in pairs:
        print(f"{entry.id}  {s.t(scope):<7} {s.t(entry.type):<11} {entry_text(s, entry)}")
    files = ", ".join(str(f.path) for f in store.files.values())
    print(
        s.tn(
            "{n} entry (files: {files})",
            "{n} entries (files: {files})",
            len(pairs),
            n=len(pairs),
            files=files,
        )
    )
    return 0


def _instruction_files(store, s: Strings) -> None:
    from core.agent import loaded_instruction_files

    names = loaded_instruction_files(store.workspace, store.home)
    print(s.t("instruction files: {names}", names=", ".join(names) if names else s.t("none")))


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

    done = consolidate(store)
    for line in done.merge_lines():
        print(line)
    print(done.summary())
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
    except BrokenPipeError:  # `… | head`: the reader left; cli.main exits quietly
        raise
    except OSError as exc:
        print(f"unicum: {exc}", file=sys.stderr)
        return 1
    for warning in store.take_warnings():
        print(f"unicum: warning: {warning}", file=sys.stderr)
    return code
