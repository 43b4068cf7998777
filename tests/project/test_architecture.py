"""The house rules, checked on the real import graph (every import statement, including the
ones inside functions and under TYPE_CHECKING): which room may import which."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("my_agent", "core", "tools", "ui", "bench")
DOMAINS = ("core.model", "core.context", "core.facts", "core.memory", "core.ledger")
STANDALONE = ("core.memory", "core.ledger", "core.codemap")  # depend on the base only
TERMINAL_UI = ("rich", "prompt_toolkit")
WEB_STACK = ("fastapi", "starlette", "uvicorn")
SERVICE_ROOMS = ("core.serve", "core.dashboard")  # glue without the agent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    found = {"cli": ROOT / "cli.py"}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            found[module_name(path)] = path
    return found


MODULES = project_modules()


def imports_of(name: str, path: Path) -> set[str]:
    """Every module `name` imports (project modules and third-party top-level names)."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            submodules = {f"{source}.{a.name}" for a in node.names} & MODULES.keys()
            found.update(submodules)
            if len(submodules) < len(node.names):  # names from the module itself (or its face)
                found.add(source)
    return found


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}


def within(name: str, room: str) -> bool:
    return name == room or name.startswith(room + ".")


def violations(rule) -> list[str]:
    return sorted(
        f"{src} imports {dst}" for src, deps in GRAPH.items() for dst in deps if rule(src, dst)
    )


def own(dst: str) -> bool:
    return dst.split(".")[0] in PACKAGES or dst == "cli"


def test_base_imports_nothing_else_of_ours():
    assert (
        violations(lambda s, d: within(s, "my_agent") and own(d) and not within(d, "my_agent"))
        == []
    )


@pytest.mark.parametrize("room", STANDALONE)
def test_memory_ledger_and_codemap_depend_on_the_base_only(room):
    assert (
        violations(
            lambda s, d: (
                within(s, room) and own(d) and not (within(d, room) or within(d, "my_agent"))
            )
        )
        == []
    )


def test_domains_never_import_the_agent_shell_tools_or_ui():
    def rule(src: str, dst: str) -> bool:
        return any(within(src, room) for room in (*DOMAINS, "core.codemap")) and any(
            within(dst, other) for other in ("core.agent", "ui", "tools", "bench", "cli")
        )

    assert violations(rule) == []


def test_tools_import_no_core_and_no_ui():
    assert (
        violations(lambda s, d: within(s, "tools") and (within(d, "core") or within(d, "ui"))) == []
    )


def test_nothing_under_core_imports_ui_or_bench():
    assert (
        violations(lambda s, d: within(s, "core") and (within(d, "ui") or within(d, "bench"))) == []
    )


def test_ui_and_bench_use_only_the_public_faces():
    faces = (*DOMAINS, "core.codemap", "core.agent", "core.mcp")

    def rule(src: str, dst: str) -> bool:
        return (within(src, "ui") or within(src, "bench") or src == "cli") and any(
            within(dst, face) and dst != face for face in faces
        )

    assert violations(rule) == []


# The screen side's rooms and what each may use of the others (lower rooms first).
UI_ROOMS: dict[str, set[str]] = {
    "words": set(),
    "terminal": {"words"},
    "views": {"words", "terminal"},
    "launch": {"words", "terminal"},
    "subcommands": {"words", "terminal", "views"},
    "commands": {"words", "terminal", "views", "launch", "subcommands"},
    "headless": {"words", "terminal", "views", "launch"},
    "repl": {"words", "terminal", "views", "launch", "subcommands", "commands"},
}
# The agent shell's rooms; options.py and events.py stay flat: the vocabulary all of them speak.
AGENT_ROOMS: dict[str, set[str]] = {
    "prompts": set(),
    "loop": {"prompts"},
    "records": {"prompts"},
    "extensions": {"prompts", "loop"},
    "session": {"prompts", "loop", "records", "extensions"},
}
AGENT_FLAT = {"core.agent", "core.agent.options", "core.agent.events"}


def room(name: str, top: str) -> str | None:
    """`ui.repl.loop` → "repl" for top "ui"; None outside `top` or for its face."""
    parts = name.split(".")
    depth = len(top.split("."))
    return parts[depth] if within(name, top) and len(parts) > depth else None


def test_every_ui_module_lives_in_a_room():
    loose = [n for n in MODULES if within(n, "ui") and n != "ui" and room(n, "ui") not in UI_ROOMS]
    assert loose == []


def test_every_agent_module_lives_in_a_room_or_is_the_shared_vocabulary():
    loose = [
        n
        for n in MODULES
        if within(n, "core.agent")
        and n not in AGENT_FLAT
        and room(n, "core.agent") not in AGENT_ROOMS
    ]
    assert loose == []


def test_ui_rooms_meet_only_at_their_faces():
    """Outside a room, `ui.repl`, never `ui.repl.loop` (cli.py and bench/ included)."""

    def rule(src: str, dst: str) -> bool:
        there = room(dst, "ui")
        return there is not None and room(src, "ui") != there and dst != f"ui.{there}"

    assert violations(rule) == []


@pytest.mark.parametrize(
    ("top", "rooms"), [("ui", UI_ROOMS), ("core.agent", AGENT_ROOMS)], ids=["ui", "agent"]
)
def test_rooms_depend_only_on_the_rooms_below_them(top, rooms):
    def rule(src: str, dst: str) -> bool:
        here, there = room(src, top), room(dst, top)
        return here in rooms and there in rooms and here != there and there not in rooms[here]

    assert violations(rule) == []


def test_no_file_over_400_lines():
    long = [
        f"{name}: {n} lines"
        for name, path in MODULES.items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 400
    ]
    long += [
        f"{path.name}: {n} lines"
        for path in (ROOT / "tests").rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 400
    ]
    assert long == []


def test_only_ui_and_cli_import_the_terminal_libraries():
    def rule(src: str, dst: str) -> bool:
        return dst.split(".")[0] in TERMINAL_UI and not (within(src, "ui") or src == "cli")

    assert violations(rule) == []


def test_the_service_and_dashboard_never_import_the_agent_tools_or_ui():
    def rule(src: str, dst: str) -> bool:
        return any(within(src, room) for room in SERVICE_ROOMS) and any(
            within(dst, other) for other in ("core.agent", "ui", "tools", "bench", "cli")
        )

    assert violations(rule) == []


def test_only_the_service_and_its_subcommand_import_the_web_stack():
    def rule(src: str, dst: str) -> bool:
        return dst.split(".")[0] in WEB_STACK and not (
            within(src, "core.serve") or src == "ui.subcommands.serve"
        )

    assert violations(rule) == []


def test_the_mcp_room_is_glue_of_the_base_and_the_tools_only():
    """core/mcp: MCP servers as tools; it sees the base and the tools' types, nothing else."""

    def rule(src: str, dst: str) -> bool:
        return (
            within(src, "core.mcp")
            and own(dst)
            and not any(within(dst, r) for r in ("core.mcp", "my_agent", "tools"))
        )

    assert violations(rule) == []


def test_only_the_mcp_room_imports_the_mcp_sdk():
    def rule(src: str, dst: str) -> bool:
        return dst.split(".")[0] in ("mcp", "mcp_types") and not within(src, "core.mcp")

    assert violations(rule) == []


def test_every_face_lists_its_public_names():
    ui_faces = tuple(f"ui.{r}" for r in UI_ROOMS)
    for face in (*DOMAINS, "core.codemap", "core.agent", "core.mcp", *SERVICE_ROOMS, *ui_faces):
        tree = ast.parse(MODULES[face].read_text(encoding="utf-8"))
        listed = [
            node
            for node in tree.body
            if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        ]
        assert listed, f"{face}/__init__.py has no __all__"


def cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), project modules only."""
    edges = {n: sorted(d for d in deps if d in MODULES and d != n) for n, deps in GRAPH.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles_lazy_imports_included():
    assert cycles() == []


def test_the_checker_sees_a_cycle_and_a_lazy_import():
    """The rules above must be able to fail: a lazy import inside a function is an edge."""
    source = "def f():\n    from ui.repl.loop import Repl\n"
    tree_imports = {
        node.module for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)
    }
    assert tree_imports == {"ui.repl.loop"}
    saved = dict(GRAPH)
    try:
        GRAPH["core.model.client"] = {*GRAPH["core.model.client"], "ui.repl.loop"}
        GRAPH["ui.repl.loop"] = {*GRAPH["ui.repl.loop"], "core.model.client"}
        assert violations(lambda s, d: within(s, "core") and within(d, "ui"))
        assert any("core.model.client" in group for group in cycles())
    finally:
        GRAPH.clear()
        GRAPH.update(saved)
