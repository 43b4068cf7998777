"""`python -m core.memory list|show|search|forget [--dir DIR]`: a project's memory, plain text or
`--json`. Imports only core.memory and the base (no rich, no agent): usable on its own."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.memory import MemoryEntry, MemoryStore, entry_rows
from my_agent.home import unicum_home

Pair = tuple[str, MemoryEntry]


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--dir", default=argparse.SUPPRESS, help="project folder (default: .)")
    common.add_argument("--scope", choices=["project", "global"], default=argparse.SUPPRESS)
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
    p = argparse.ArgumentParser(
        prog="python -m core.memory",
        description="Unicum's memory for a project (home: $UNICUM_HOME or ~/.unicum-agent).",
    )
    p.add_argument("--dir", default=".", help="project folder (default: .)")
    p.add_argument("--scope", choices=["project", "global"], help="only this scope (default: both)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    sub = p.add_subparsers(dest="action", required=True)
    sub.add_parser("list", parents=[common], help="list entries").add_argument(
        "--type", help="only entries of this type"
    )
    for name, helptext in (("show", "one entry in full"), ("forget", "remove one entry")):
        sub.add_parser(name, parents=[common], help=helptext).add_argument(
            "ref", help="the entry's key, id (4+ characters) or text"
        )
    search = sub.add_parser("search", parents=[common], help="entries ranked for a query")
    search.add_argument("query")
    search.add_argument("-k", type=int, default=10, help="how many entries (default 10)")
    return p


def as_dict(scope: str, entry: MemoryEntry) -> dict:
    return {"scope": scope, "id": entry.id, **entry.to_dict()}


def print_pairs(pairs: list[Pair], as_json: bool, empty: str) -> None:
    if as_json:
        print(json.dumps([as_dict(s, e) for s, e in pairs], ensure_ascii=False))
        return
    for scope, e in pairs:
        print(f"{e.id}  {scope:<7} {e.type:<11} {e.content}")
    print(f"{len(pairs)} {'entry' if len(pairs) == 1 else 'entries'}" if pairs else empty)


def show(scope: str, e: MemoryEntry) -> None:
    for name, value in entry_rows(scope, e):
        print(f"{name:<10} {value}")


def run(store: MemoryStore, args: argparse.Namespace) -> int:
    if args.action == "list":
        pairs = [
            (s, e) for s, e in store.entries(args.scope) if not args.type or e.type == args.type
        ]
        pairs.sort(key=lambda p: (p[0], p[1].type, -p[1].updated))
        print_pairs(pairs, args.json, f"no memory entries for {store.workspace}")
        return 0
    if args.action == "search":
        print_pairs(store.search(args.query, args.scope, k=args.k), args.json, "no match")
        return 0
    found = store.find(args.ref, args.scope)
    if found is None:
        print(f"core.memory: no single memory entry matches '{args.ref}'", file=sys.stderr)
        return 1
    scope, entry = found
    if args.action == "forget":
        store.remove(scope, entry.key)
        print(
            json.dumps(as_dict(scope, entry))
            if args.json
            else f"forgot {entry.key}: {entry.content}"
        )
    elif args.json:
        print(json.dumps(as_dict(scope, entry), ensure_ascii=False))
    else:
        show(scope, entry)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    folder = Path(args.dir).expanduser()
    if not folder.is_dir():
        print(f"core.memory: --dir {args.dir}: not a folder", file=sys.stderr)
        return 2
    store = MemoryStore(unicum_home(), folder)
    try:
        code = run(store, args)
    except OSError as exc:
        print(f"core.memory: {exc}", file=sys.stderr)
        return 1
    for warning in store.take_warnings():
        print(f"core.memory: warning: {warning}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
