"""`python -m core.ledger [--by day|task|session|model] [--project DIR] [--json]`: what the token
ledger recorded, as plain text or JSON. Imports only core.ledger and the base: usable on its own."""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path

from core.ledger import Filter, Group, Totals, grouped, ledger_path, open_ledger, totals
from my_agent.home import project_id, unicum_home

COLUMNS = ("requests", "input", "cache read", "cache write", "output", "cache hit", "cost")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m core.ledger", description="Token use and cost recorded in the ledger."
    )
    p.add_argument(
        "action", nargs="?", choices=["report"], default="report", help=argparse.SUPPRESS
    )
    p.add_argument("--by", choices=["day", "task", "session", "model"], default="day")
    p.add_argument("--project", "--dir", dest="project", metavar="DIR", help="only this folder")
    p.add_argument("--ledger", type=Path, help="ledger file (default: $UNICUM_HOME/ledger.db)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    return p


def money(t: Totals) -> str:
    if t.cost_usd is None:
        return "unknown"
    return f"${t.cost_usd:,.4f}" + ("+?" if t.unpriced else "")


def cells(t: Totals) -> list[str]:
    counts = (t.requests, t.input_tokens, t.cache_read_tokens, t.cache_write_tokens)
    return [f"{n:,}" for n in (*counts, t.output_tokens)] + [f"{t.cache_hit_rate:.0%}", money(t)]


def table(by: str, groups: list[Group], total: Totals) -> str:
    rows = [[by, *COLUMNS]] + [[g.key, *cells(g.totals)] for g in groups]
    rows.append(["total", *cells(total)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]

    def line(row: list[str]) -> str:
        first = row[0].ljust(widths[0])
        return "  ".join([first, *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True))])

    rule = "-" * len(line(rows[0]))
    return "\n".join([line(rows[0]), rule, *map(line, rows[1:-1]), rule, line(rows[-1])])


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    path = args.ledger or ledger_path(unicum_home())
    flt = Filter(project=project_id(Path(args.project)) if args.project else None)
    try:
        db = open_ledger(path, lambda text: print(f"core.ledger: warning: {text}", file=sys.stderr))
        groups = grouped(db, args.by, flt) if db else []
        total = totals(db, flt) if db else Totals()
    except sqlite3.Error as exc:
        print(f"core.ledger: cannot read the token ledger {path}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        report = {"by": args.by, "project": flt.project, "ledger": str(path)}
        report |= {"groups": [g.to_dict() for g in groups], "totals": total.to_dict()}
        print(json.dumps(report, ensure_ascii=False))
    elif total.requests:
        print(table(args.by, groups, total))
    else:
        print(f"no model requests recorded (ledger: {path})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
