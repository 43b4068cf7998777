"""`python -m core.codemap build|stats|def|refs|impact|outline [--dir DIR]`: the project's code
map as plain text or `--json`. Imports only core.codemap and the base: usable on its own."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.codemap import CodeMap
from my_agent.home import unicum_home

ACTIONS = {"def": "definition", "refs": "references", "impact": "impact", "outline": "outline"}


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--dir", default=argparse.SUPPRESS, help="project folder (default: .)")
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
    p = argparse.ArgumentParser(
        prog="python -m core.codemap", description="The code map: symbols, call sites, impact."
    )
    p.add_argument("--dir", default=".", help="project folder (default: .)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    sub = p.add_subparsers(dest="action", required=True)
    build = sub.add_parser("build", parents=[common], help="build or refresh the index")
    build.add_argument("--workers", type=int, help="parser processes (default: one per core)")
    sub.add_parser("stats", parents=[common], help="what the index holds")
    for name, text in (("def", "where NAME is defined"), ("refs", "who references NAME")):
        sub.add_parser(name, parents=[common], help=text).add_argument("name")
    impact = sub.add_parser("impact", parents=[common], help="what depends on NAME or a file")
    impact.add_argument("name")
    outline = sub.add_parser("outline", parents=[common], help="a file's symbols")
    outline.add_argument("name", metavar="PATH")
    return p


def run(cmap: CodeMap, args: argparse.Namespace) -> dict[str, object] | str:
    if args.action == "build":
        s = cmap.refresh(max_seconds=600, workers=args.workers)
        found = {"root": str(cmap.root), "files": s.files, "parsed": s.parsed, "lines": s.lines}
        return found | {"removed": s.removed, "seconds": round(s.seconds, 3), "note": s.truncated}
    if args.action == "stats":
        return {"root": str(cmap.root), **cmap.stats()}
    return getattr(cmap, ACTIONS[args.action])(args.name)


def plain(action: str, a: dict) -> str:
    if action == "build":
        lines = [
            f"{a['root']}: {a['files']} files; parsed {a['parsed']} ({a['lines']:,} lines), "
            f"removed {a['removed']} in {a['seconds']:.2f} s"
        ]
        return "\n".join(lines + ([a["note"]] if a["note"] else []))
    lines = [
        f"{a['root']}  ({a['database']})",
        f"{a['files']:,} files, {a['lines']:,} lines, {a['symbols']:,} symbols, "
        f"{a['references']:,} references",
    ]
    for lang, files, count in a["languages"]:
        lines.append(f"  {lang:<12} {files:>6,} files {count or 0:>9,} lines")
    return "\n".join(lines + ([a["truncated"]] if a["truncated"] else []))


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    folder = Path(args.dir).expanduser()
    if not folder.is_dir():
        print(f"core.codemap: --dir {args.dir}: not a folder", file=sys.stderr)
        return 2
    cmap = CodeMap(folder, unicum_home())
    try:
        answer = run(cmap, args)
    except Exception as exc:  # one line for people, never a traceback
        print(f"core.codemap: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    finally:
        cmap.close()
    if args.json:
        body = answer if isinstance(answer, dict) else {"action": args.action, "text": answer}
        print(json.dumps(body, ensure_ascii=False))
    else:
        print(answer if isinstance(answer, str) else plain(args.action, answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
