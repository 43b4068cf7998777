"""The referee for the code map on Python: the union of jedi's and pyright's references, neither
written here. Targets are seeded from a project's definitions (functions, methods, classes,
names re-exported by a package's `__init__`); each referee site gets its kind (call,
decorator, base, value, annotation, property, import, store) from where it stands in the
file's syntax tree, which decides nothing about what the name means.

Install (once, outside the repository; nothing is downloaded when the bench runs):

    python -m venv ~/.cache/unicum-referee/venv
    ~/.cache/unicum-referee/venv/bin/pip install jedi
    npm install --prefix ~/.cache/unicum-referee pyright typescript@5 zod@3 immer

Answers are cached under ~/.cache/unicum-referee/answers/, keyed by the project's content,
the targets and the referees' versions.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import random
import subprocess
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from bench.referee_pyright import pyright_references

CACHE = Path(os.environ.get("UNICUM_REFEREE", Path.home() / ".cache" / "unicum-referee"))
JEDI_PYTHON = CACHE / "venv" / "bin" / "python"
MODULES = CACHE / "node_modules"
INSTALL = (
    f"python -m venv {CACHE}/venv && {CACHE}/venv/bin/pip install jedi && "
    f"npm install --prefix {CACHE} pyright typescript@5 zod@3 immer"
)
PER_KIND = 8  # targets drawn per kind and project


@dataclass(frozen=True)
class Target:
    path: str
    line: int
    column: int
    qualified: str
    kind: str  # function | method | class | reexport | property


@dataclass
class FileSyntax:
    """Where each name stands in one file, and the function around each line."""

    kinds: dict[tuple[int, int], str] = field(default_factory=dict)  # (line, col) → kind
    spans: list[tuple[int, int, str]] = field(default_factory=list)  # (first, last, qualified)
    names: dict[str, tuple[int, int]] = field(default_factory=dict)  # qualified → name position

    def enclosing(self, line: int) -> str:
        best = ""
        size = 1 << 30
        for first, last, qualified in self.spans:
            if first <= line <= last and last - first < size:
                best, size = qualified, last - first
        return best


def _name_column(source_lines: list[str], node: ast.AST, name: str) -> int:
    text = source_lines[node.lineno - 1]
    word = "class " if isinstance(node, ast.ClassDef) else "def "
    at = text.find(word + name, node.col_offset)
    return at + len(word) if at >= 0 else node.col_offset


class _Syntax(ast.NodeVisitor):
    def __init__(self, source: str) -> None:
        self.lines = source.splitlines()
        self.out = FileSyntax()
        self.stack: list[str] = []
        self.context: list[str] = []  # annotation | decorator | base

    def mark(self, line: int, col: int, kind: str) -> None:
        self.out.kinds.setdefault((line, col), kind)

    def _define(self, node, name: str) -> None:
        qualified = ".".join(self.stack + [name])
        self.out.names[qualified] = (node.lineno, _name_column(self.lines, node, name))
        if not isinstance(node, ast.ClassDef):  # a class body's lines are its function's
            self.out.spans.append((node.lineno, node.end_lineno or node.lineno, qualified))
        self.mark(node.lineno, self.out.names[qualified][1], "definition")

    def _within(self, kind: str, nodes) -> None:
        self.context.append(kind)
        for node in nodes:
            if node is not None:
                self.visit(node)
        self.context.pop()

    def visit_FunctionDef(self, node) -> None:
        self._define(node, node.name)
        self._within("decorator", node.decorator_list)
        args = node.args
        every = args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]
        self._within("annotation", [a.annotation for a in every if a is not None])
        self._within("annotation", [node.returns])
        self.visit_defaults(args)
        self.stack.append(node.name)
        for child in node.body:
            self.visit(child)
        self.stack.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_defaults(self, args: ast.arguments) -> None:
        for d in args.defaults + [d for d in args.kw_defaults if d is not None]:
            self.visit(d)

    def visit_ClassDef(self, node) -> None:
        self._define(node, node.name)
        self._within("decorator", node.decorator_list)
        self._within("base", node.bases)
        for kw in node.keywords:
            self.visit(kw.value)
        self.stack.append(node.name)
        for child in node.body:
            self.visit(child)
        self.stack.pop()

    def visit_AnnAssign(self, node) -> None:
        self.visit(node.target)
        self._within("annotation", [node.annotation])
        if node.value is not None:
            self.visit(node.value)

    def visit_Call(self, node) -> None:
        self._name(node.func, "call")
        for child in node.args + [k.value for k in node.keywords]:
            self.visit(child)

    def visit_Name(self, node) -> None:
        self._name(node, "value")

    def visit_Attribute(self, node) -> None:
        self._name(node, "value")

    def _name(self, node: ast.AST, kind: str) -> None:
        if self.context:
            kind = self.context[-1]
        if isinstance(node, ast.Name):
            store = isinstance(node.ctx, ast.Store | ast.Del)
            self.mark(node.lineno, node.col_offset, "store" if store else kind)
        elif isinstance(node, ast.Attribute):
            line = node.end_lineno or node.lineno
            col = (node.end_col_offset or 0) - len(node.attr)
            store = isinstance(node.ctx, ast.Store | ast.Del)
            self.mark(line, col, "store" if store else "attribute" if kind == "value" else kind)
            self.visit(node.value)
        else:
            self.visit(node)

    def visit_alias(self, node: ast.alias) -> None:
        self.mark(node.lineno, node.col_offset, "import")
        last = node.name.rsplit(".", 1)[-1]
        if last != node.name:  # `import a.b`: b is named too
            self.mark(node.lineno, node.col_offset + len(node.name) - len(last), "import")
        if node.asname:
            at = self.lines[node.lineno - 1].find(node.asname, node.col_offset + len(node.name))
            if at >= 0:
                self.mark(node.lineno, at, "import")


def syntax(root: Path, rel: str, memo: dict[str, FileSyntax]) -> FileSyntax:
    if rel not in memo:
        try:
            source = (root / rel).read_text(encoding="utf-8")
            walker = _Syntax(source)
            walker.visit(ast.parse(source))
            memo[rel] = walker.out
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
            memo[rel] = FileSyntax()
    return memo[rel]


def python_files(root: Path) -> list[str]:
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*.py")
        if not any(part.startswith(".") or part == "__pycache__" for part in p.parts)
    )


def _reexported(root: Path, files: list[str]) -> set[str]:
    names: set[str] = set()
    for rel in files:
        if rel.endswith("__init__.py"):
            try:
                tree = ast.parse((root / rel).read_text(encoding="utf-8"))
            except (SyntaxError, UnicodeDecodeError):
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom):
                    names |= {a.asname or a.name for a in node.names}
    return names


def _is_property(node: ast.AST) -> bool:
    return any(
        (isinstance(d, ast.Name) and d.id in ("property", "cached_property"))
        or (isinstance(d, ast.Attribute) and d.attr in ("cached_property", "setter"))
        for d in getattr(node, "decorator_list", [])
    )


def seed_targets(root: Path, seed: int, per_kind: int = PER_KIND) -> list[Target]:
    """Drawn with `random.Random(seed)`: `per_kind` each of module functions, methods, classes,
    properties and names an `__init__` re-exports, among those named elsewhere in the code."""
    files = python_files(root)
    words: dict[str, int] = defaultdict(int)
    for rel in files:
        for word in set((root / rel).read_text(encoding="utf-8", errors="replace").split()):
            words[word.split("(")[0].rsplit(".", 1)[-1]] += 1
    exported = _reexported(root, files)
    pools: dict[str, list[Target]] = defaultdict(list)
    memo: dict[str, FileSyntax] = {}
    for rel in files:
        tree_names = syntax(root, rel, memo).names
        nodes = _top_nodes(root / rel)
        for qualified, (line, col) in tree_names.items():
            short = qualified.rsplit(".", 1)[-1]
            node = nodes.get(qualified)
            if node is None or short.startswith("__") or len(short) < 3:
                continue
            kind = _kind(node, qualified)
            if short in exported and "." not in qualified:
                kind = "reexport"
            pools[kind].append(Target(rel, line, col, qualified, kind))
    rng = random.Random(seed)
    picked: list[Target] = []
    for kind in ("function", "method", "class", "property", "reexport"):
        pool = sorted(pools[kind], key=lambda t: (t.path, t.line))
        rng.shuffle(pool)
        picked += pool[:per_kind]
    return picked


def _kind(node: ast.AST, qualified: str) -> str:
    if isinstance(node, ast.ClassDef):
        return "class"
    if "." in qualified:
        return "property" if _is_property(node) else "method"
    return "function"


def _top_nodes(path: Path) -> dict[str, ast.AST]:
    """Module functions and classes, and the methods of module classes, by qualified name."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError):
        return {}
    out: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out[node.name] = node
        if isinstance(node, ast.ClassDef):
            for inner in node.body:
                if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                    out.setdefault(f"{node.name}.{inner.name}", inner)
    return out


def _digest(root: Path, files: list[str], targets: list, versions: str) -> str:
    h = hashlib.blake2b(digest_size=12)
    for rel in files:
        h.update(rel.encode() + b"\0" + (root / rel).read_bytes())
    h.update(json.dumps(targets).encode() + versions.encode())
    return h.hexdigest()


def versions() -> str:
    jedi = subprocess.run(
        [str(JEDI_PYTHON), "-c", "import jedi; print(jedi.__version__)"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    pyright = json.loads((MODULES / "pyright" / "package.json").read_text())["version"]
    return f"jedi {jedi}, pyright {pyright}"


def ask(root: Path, positions: list[tuple[str, int, int]]) -> tuple[str, list[set]]:
    """The union of jedi's and pyright's references for each position, cached."""
    files = python_files(root)
    named = versions()
    wanted = [list(p) for p in positions]
    key = _digest(root, files, wanted, named)
    cached = CACHE / "answers" / f"{key}.json"
    if cached.exists():
        answers = json.loads(cached.read_text())
    else:
        request = json.dumps({"root": str(root), "targets": wanted})
        script = Path(__file__).resolve().parent / "referee_jedi.py"
        jedi = subprocess.run(
            [str(JEDI_PYTHON), str(script)], input=request, capture_output=True, text=True,
            check=True,
        )  # fmt: skip
        by_jedi = json.loads(jedi.stdout)["answers"]
        by_pyright = pyright_references(MODULES, root, wanted)[1]
        answers = {"jedi": by_jedi, "pyright": by_pyright}
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(answers))
    union = [
        {tuple(s) for s in a} | {tuple(s) for s in b}
        for a, b in zip(answers["jedi"], answers["pyright"], strict=True)
    ]
    return named, union


def installed() -> str:
    """'' when the referees are installed, else how to install them."""
    if not JEDI_PYTHON.exists() or not (MODULES / "pyright" / "package.json").exists():
        return f"the referees are not installed: {INSTALL}"
    return ""
