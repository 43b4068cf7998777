"""Old vs new reading of every shell command the tests and the shipped trajectories hold.

    python bench/shell_diff.py ../shared/trajectories [--old /work/base] [--show 40]

For each command: the fact (`extract` on a terminal call with a realistic output), the memory
entries (`facts_to_entries`) and the permission verdict (`approve_command`, the function the
terminal tool asks) computed by the code in `--old` and by this tree, each side in its own
process. Prints every difference, grouped, and flags a permission that got looser (a command
the old code asked about that the new one lets through).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHELL_TOOLS = ("bash", "Bash", "terminal")
# the modules each code layout keeps the three readers in: (extract, facts_to_entries,
# approve_command, ToolCall)
LAYOUTS = {
    "flat": ("core.fact_extractor", "core.fact_to_memory", "tools.permissions", "core.messages"),
    "rooms": ("core.facts", "core.memory", "tools.permissions", "my_agent.messages"),
}
COMMAND_CALLS = {"check_command", "classify_command", "classify", "segments", "written_paths"}
COMMAND_CALLS |= {"parse", "short_command", "command_kind", "approve_command", "program_kind"}
TEST_OUTPUT = "src/app.py:12:def main():\n==== 3 passed in 0.12s ====\n"


# --- collecting ----------------------------------------------------------------------------
def _strings(node: ast.AST) -> list[str]:
    """String constants in `node`, looking into tuples and lists (parametrize rows)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [s for elt in node.elts for s in _strings(elt)]
    return []


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def test_commands(folder: Path) -> list[str]:
    """Command strings the tests hand to the readers: `command=` arguments, `{"command": …}`
    values, arguments of the reader functions, and command tables / parametrize rows."""
    found: list[str] = []
    for path in sorted(folder.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                for kw in node.keywords:
                    if kw.arg in ("command", "cmd"):
                        found += _strings(kw.value)
                if _call_name(node) in COMMAND_CALLS:
                    found += [s for arg in node.args for s in _strings(arg)]
                if _call_name(node) == "parametrize" and len(node.args) > 1:
                    found += _strings(node.args[1])
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value in ("command", "cmd"):
                        found += _strings(value)
            elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id.isupper() for t in node.targets
            ):
                found += _strings(node.value)
    return [s for s in dict.fromkeys(found) if s.strip() and len(s) < 2_000]


def trajectory_commands(folders: list[Path]) -> list[dict[str, Any]]:
    """Every shell call of the recordings with the output it really got."""
    sys.path.insert(0, str(ROOT))
    from bench.trajectories import find_files, load

    cases: list[dict[str, Any]] = []
    for path in find_files(folders):
        for rec in load(path):
            results = {r.call_id: r for m in rec.messages for r in m.tool_results}
            for msg in rec.messages:
                for call in msg.tool_calls:
                    command = call.arguments.get("command") or call.arguments.get("cmd")
                    if call.name in SHELL_TOOLS and isinstance(command, str) and call.id in results:
                        result = results[call.id]
                        cases.append(
                            {
                                "origin": f"{rec.source}/{rec.name}",
                                "tool": call.name,
                                "command": command,
                                "content": result.content,
                                "is_error": result.is_error,
                            }
                        )
    return cases


def collect(folders: list[Path]) -> list[dict[str, Any]]:
    cases = [
        {
            "origin": "tests",
            "tool": "terminal",
            "command": command,
            "content": TEST_OUTPUT + "[exit 0]",
            "is_error": False,
            "data": {"exit_code": 0, "command": command, "output": TEST_OUTPUT.rstrip("\n")},
        }
        for command in test_commands(ROOT / "tests")
    ]
    return cases + trajectory_commands(folders)


# --- one side: run inside the tree being measured -------------------------------------------
class _Recorder:
    """A user at the keyboard who says yes and writes every question down."""

    interactive = True

    def __init__(self) -> None:
        self.questions: list[str] = []

    def confirm(self, question: str) -> str:
        self.questions.append(question)
        return "y"

    def ask(self, question: str, choices: list[str]) -> str:
        return ""


def emit(cases_file: Path) -> None:
    """Print one JSON record per case, computed by the code in the current directory."""
    sys.path = [os.getcwd(), *(p for p in sys.path if Path(p).resolve() != ROOT / "bench")]
    layout = "flat" if Path("core/fact_extractor.py").exists() else "rooms"
    mods = (
        *(importlib.import_module(m) for m in LAYOUTS[layout]),
        importlib.import_module("tools.base"),
    )
    with tempfile.TemporaryDirectory(prefix="shell_diff_") as tmp:
        work = Path(tmp)
        (work / "ws").mkdir()
        (work / "home").mkdir()
        cases = json.loads(cases_file.read_text(encoding="utf-8"))
        out = [_read_case(i, case, work, mods) for i, case in enumerate(cases)]
    print(json.dumps(out))


def _read_case(i: int, case: dict[str, Any], work: Path, mods: tuple) -> dict[str, Any]:
    facts_mod, memory_mod, perm_mod, msg_mod, base = mods
    call = msg_mod.ToolCall(f"c{i}", case["tool"], {"command": case["command"]})
    output = base.ToolOutput(case["content"], case["is_error"], dict(case.get("data") or {}))
    fact = facts_mod.extract(call, output)
    entries = memory_mod.facts_to_entries([fact], root=None, source="", now=0.0)
    user = _Recorder()
    ctx = base.ToolContext(
        workspace=work / "ws", home=work / "home", prompter=user, permission_mode="ask"
    )
    perm_mod.approve_command(ctx, case["command"], (work / "ws").resolve())
    verdict = [q.replace(str(work), "<tmp>") for q in user.questions]
    return {
        "fact": [fact.kind, fact.target, fact.ok, fact.summary, fact.path],
        "details": json.dumps(fact.details, sort_keys=True, default=str),
        "memory": [f"{e.key} = {e.content}" for e in entries],
        "verdict": verdict,
    }


def run_side(tree: Path, cases_file: Path) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--emit", str(cases_file)],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


# --- comparing -----------------------------------------------------------------------------
def compare(cases: list[dict[str, Any]], old: list[dict], new: list[dict], show: int) -> int:
    changed: Counter[str] = Counter()
    looser = 0
    shown: Counter[str] = Counter()
    for case, a, b in zip(cases, old, new, strict=True):
        for part in ("fact", "details", "memory", "verdict"):
            if a[part] == b[part]:
                continue
            changed[part] += 1
            loose = part == "verdict" and a["verdict"] and not b["verdict"]
            looser += bool(loose)
            if shown[part] < show or loose:
                shown[part] += 1
                head = case["command"].replace("\n", "⏎")[:140]
                print(f"[{part}{' LOOSER' if loose else ''}] {case['origin']}: {head}")
                print(f"    old: {a[part]}\n    new: {b[part]}")
    print(f"\n{len(cases)} commands; differences: {dict(changed) or 'none'}; looser: {looser}")
    return looser


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, help="trajectory files or folders")
    parser.add_argument("--old", type=Path, default=Path("/work/base"))
    parser.add_argument("--show", type=int, default=40, help="differences shown per part")
    parser.add_argument("--emit", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.emit:
        emit(args.emit)
        return 0
    cases = collect([f.resolve() for f in args.folders])
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(cases, fh)
    cases_file = Path(fh.name)
    try:
        old, new = run_side(args.old, cases_file), run_side(ROOT, cases_file)
    finally:
        cases_file.unlink()
    origins = Counter(c["origin"].split("/")[0] for c in cases)
    print(f"commands by origin: {dict(origins)}")
    return 1 if compare(cases, old, new, args.show) else 0


if __name__ == "__main__":
    sys.exit(main())
