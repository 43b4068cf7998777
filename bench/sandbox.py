"""The sandbox and the prompts against a corpus of destructive and benign commands.

    python bench/sandbox.py [--corpus bench/data/sandbox_corpus.json] [--show 10] [--escapes-only]

Every command runs for real in the bwrap sandbox (no prompt: the sandbox alone) against a fake
HOME full of sentinel files and a fresh copy of a throwaway git project, in a folder outside
/tmp so the sandbox can see it. Prints:
- outside: destructive commands aimed outside the workspace; blocked = HOME and the scratch
  folder unchanged afterwards (target: 100%); and how many the unsandboxed guard would ask;
- history: inside-workspace destroyers the prompts ask about, sandbox on and off;
- benign: false alarms (the prompt would ask) with the sandbox on and off, and commands the
  sandbox broke (exit 0 unsandboxed, not inside);
- then the ways out of the sandbox (bench/sandbox_escapes.py, bench/sandbox_escapes_files.py),
  a section per kind: attacks tried / blocked beside the benign commands still working.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers.sandbox_helpers import make_home, make_project, tree_digest, visible_tmp_root  # noqa: E402
from tools.permissions import check_command  # noqa: E402
from tools.sandbox import Sandbox, SandboxPolicy  # noqa: E402
from tools.shell import run_command  # noqa: E402

HOST_TMP_LEFTOVERS = ("copy", "a.tgz", "src.tgz", "scratch.txt", "lk", "lockfile")


class World:
    """A fake HOME, a scratch folder outside the workspace and a project reset per command."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = make_home(root)
        self.outside = root / "outside"
        self.template = make_project(root / "template")
        (self.template / "docs").mkdir()
        (self.template / "docs" / "guide.md").write_text("# guide\n")
        self.project = root / "work"
        os.environ["HOME"] = str(self.home)
        self.reset()
        self.sandbox = Sandbox(SandboxPolicy(), self.project, self.home / ".unicum-agent")
        self.clean = self.digest()

    def reset(self) -> None:
        shutil.rmtree(self.project, ignore_errors=True)
        shutil.copytree(self.template, self.project, symlinks=True)
        shutil.rmtree(self.outside, ignore_errors=True)
        self.outside.mkdir()
        (self.outside / "victim.txt").write_text("sentinel outside\n")

    def digest(self) -> str:
        return tree_digest(self.home) + tree_digest(self.outside)

    def run(self, command: str, sandboxed: bool) -> int:
        self.reset()
        box = self.sandbox if sandboxed else None
        _, code, _ = run_command(command, str(self.project), 20, box)
        return code

    def escaped(self) -> bool:
        if self.digest() == self.clean:
            return False
        shutil.rmtree(self.home)
        make_home(self.root)
        return True


def expand(corpus: dict, outside: Path) -> tuple[list[str], list[str]]:
    destructive = []
    for target in corpus["targets"]:
        t, d = (target[k].replace("{OUT}", str(outside)) for k in ("T", "D"))
        destructive += [c.replace("{T}", t).replace("{D}", d) for c in corpus["outside"]]
    benign = list(corpus["benign"])
    for w in corpus["benign_files"]:
        benign += [c.replace("{W}", w) for c in corpus["benign_templates"]]
    return destructive, benign


def rate(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpus", type=Path, default=ROOT / "bench/data/sandbox_corpus.json")
    p.add_argument("--show", type=int, default=10, help="list up to N commands per failure kind")
    p.add_argument("--escapes-only", action="store_true", help="only the escape sections")
    args = p.parse_args(argv)
    if args.escapes_only:
        return escapes()
    corpus = json.loads(args.corpus.read_text())
    root = Path(tempfile.mkdtemp(prefix="unicum-sandbox-bench-", dir=visible_tmp_root()))
    try:
        world = World(root)
        if not world.sandbox.active:
            print(f"sandbox unavailable: {world.sandbox.problem}")
            return 1
        destructive, benign = expand(corpus, world.outside)
        ws = world.project.resolve()
        escaped = [c for c in destructive if (world.run(c, True), world.escaped())[1]]
        guard = [c for c in destructive if check_command(c, ws)]
        history = corpus["history"]
        asked_on = [c for c in history if check_command(c, ws, sandboxed=True)]
        asked_off = [c for c in history if check_command(c, ws)]
        alarms_on = [c for c in benign if check_command(c, ws, sandboxed=True)]
        alarms_off = [c for c in benign if check_command(c, ws)]
        broken = [c for c in benign if world.run(c, False) == 0 and world.run(c, True) != 0]
        blocked = len(destructive) - len(escaped)
        print(f"{world.sandbox.describe()}; corpus {args.corpus.name}")
        print(f"outside  blocked by the sandbox        {rate(blocked, len(destructive))}")
        print(f"outside  asked by the unsandboxed guard {rate(len(guard), len(destructive))}")
        print(f"history  asked, sandbox on             {rate(len(asked_on), len(history))}")
        print(f"history  asked, sandbox off            {rate(len(asked_off), len(history))}")
        print(f"benign   false alarms, sandbox on      {rate(len(alarms_on), len(benign))}")
        print(f"benign   false alarms, sandbox off     {rate(len(alarms_off), len(benign))}")
        print(f"benign   broken by the sandbox         {rate(len(broken), len(benign))}")
        for title, found in (
            ("escaped", escaped),
            ("history not asked (sandbox on)", [c for c in history if c not in asked_on]),
            ("false alarms (sandbox on)", alarms_on),
            ("broken by the sandbox", broken),
        ):
            for command in found[: args.show]:
                print(f"  {title}: {command!r}")
        return escapes() or (0 if not escaped else 1)
    finally:
        shutil.rmtree(root, ignore_errors=True)
        for name in HOST_TMP_LEFTOVERS:  # the benign commands' unsandboxed runs wrote these
            Path("/tmp", name).unlink(missing_ok=True)


def escapes() -> int:
    """The escape sections, each in a fresh world; 1 when an attack got through or a benign
    command broke."""
    from bench.sandbox_escapes import SECTIONS as FIRST
    from bench.sandbox_escapes_files import SECTIONS as FILES
    from bench.sandbox_network import proxy_cost
    from bench.sandbox_world import EscapeWorld

    saved = dict(os.environ)
    root = Path(tempfile.mkdtemp(prefix="unicum-escape-bench-", dir=visible_tmp_root()))
    os.environ["UNICUM_HOME"] = str(root / "home" / ".unicum-agent")
    world = EscapeWorld(root)
    bad = 0
    try:
        print(f"escapes: {world.sandbox.describe()}")
        for section in FIRST + FILES:
            result = section(world)
            print(result.line())
            for line in result.failures():
                print(line)
            bad += len(result.failures())
        print(proxy_cost(world))
    finally:
        world.close()
        shutil.rmtree(root, ignore_errors=True)
        os.environ.clear()
        os.environ.update(saved)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
