"""Answers as prompt text: capped, one line per item, with an aggregate line first."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from core.codemap.dependents import Impact
from core.codemap.query import KIND_NAMES, Definition, Site
from core.codemap.rename import Edit
from my_agent.capped import SOURCE, read_capped

MAX_SITES = 25
MAX_RENAME = 400
UNCERTAIN = 0.5  # below this confidence a site was matched by name only
MAX_DEFS = 12
MAX_OUTLINE = 120
SNIPPET_LINES = 40
LINE_CHARS = 110


def areas(paths: list[str], shown: int = 5) -> str:
    """'core/, tools/, cli.py': top-level folders (or root files), most frequent first."""
    counts = Counter(p.split("/", 1)[0] + "/" if "/" in p else p for p in paths)
    names = [name for name, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


def aggregate(count: int, noun: str, paths: list[str]) -> str:
    files = len(set(paths))
    plural = "" if count == 1 else "s"
    return (
        f"{count} {noun}{plural} in {files} file{'' if files == 1 else 's'} across {areas(paths)}"
    )


class SourceLines:
    """Reads project files on demand (once each) to quote the lines of an answer."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache: dict[str, list[str]] = {}

    def lines(self, path: str) -> list[str]:
        if path not in self.cache:
            try:
                raw = read_capped(self.root / path, SOURCE)
            except OSError:
                raw = b""
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = raw.decode("gb18030", "replace")
            self.cache[path] = text.splitlines()
        return self.cache[path]

    def line(self, path: str, number: int) -> str:
        rows = self.lines(path)
        text = rows[number - 1].strip() if 0 < number <= len(rows) else ""
        return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"


def render_definitions(target: str, defs: list[Definition], source: SourceLines) -> str:
    if not defs:
        return f"no definition of '{target}' in the code map (try references or a search)"
    head = aggregate(len(defs), "definition", [d.path for d in defs])
    out = [head]
    for d in defs[:MAX_DEFS]:
        out.append(f"{d.path}:{d.line}-{d.end_line} {d.kind} {d.qualified}")
        if len(defs) > 2:
            out.append(f"    {d.signature}")
    if len(defs) <= 2:
        for d in defs:
            out += _snippet(d, source)
    if len(defs) > MAX_DEFS:
        out.append(f"… {len(defs) - MAX_DEFS} more; narrow with path:name or Class.name")
    return "\n".join(out)


def _snippet(d: Definition, source: SourceLines) -> list[str]:
    rows = source.lines(d.path)[d.line - 1 : d.end_line]
    shown = rows[:SNIPPET_LINES]
    out = [f"--- {d.path}:{d.line}"] + [f"{d.line + i:>5}  {r}" for i, r in enumerate(shown)]
    if len(rows) > len(shown):
        out.append(
            f"      … {len(rows) - len(shown)} more lines "
            f"(read_file {d.path} offset={d.line + len(shown)})"
        )
    return out


def render_references(
    target: str, defs: list[Definition], sites: list[Site], source: SourceLines
) -> str:
    """Uses first (the confident ones, then the uncertain under their own heading), then the
    import lines; the first line counts the uses."""
    uses = [s for s in sites if s.kind != "import"]
    imports = [s for s in sites if s.kind == "import"]
    if not sites:
        where = f" (defined at {defs[0].path}:{defs[0].line})" if defs else ""
        return f"no references to '{target}' found{where}"
    calls = all(s.kind in ("call", "new", "macro") for s in uses)
    head = aggregate(len(uses), "call site" if calls else "reference", [s.path for s in uses])
    out = [head if uses else f"no uses of '{target}' found, only imports"]
    sure = [s for s in uses if s.confidence >= UNCERTAIN]
    guesses = uses[len(sure) :]
    if guesses:
        out[0] += f"; {len(guesses)} uncertain (matched by name only, listed apart)"
    if defs:
        where = ", ".join(f"{d.path}:{d.line}" for d in defs[:3])
        out.append(f"'{target}' is defined at {where}" + (" …" if len(defs) > 3 else ""))
    if imports:
        noun = "line" if len(imports) == 1 else "lines"
        out[-1 if defs else 0] += f"; imported in {len(imports)} {noun}"
    shown = 0
    for title, group in (("", sure), ("uncertain (matched by name only):", guesses),
                         ("imported by:", imports)):  # fmt: skip
        if group and shown < MAX_SITES:
            out += [title] if title else []
            for s in group[: MAX_SITES - shown]:
                out.append(_site_line(s, source))
            shown += min(len(group), MAX_SITES - shown)
    if len(sites) > shown:
        rest = (sure + guesses + imports)[shown:]
        hidden = [s for s in rest if s.kind != "import"]
        more = f"… {len(hidden)} more in {areas([s.path for s in hidden])}" if hidden else "…"
        if len(rest) > len(hidden):
            more += f"; {len(rest) - len(hidden)} import lines not shown"
        out.append(f"{more} (narrow with path:name or Class.name; rename lists every site)")
    return "\n".join(out)


def _site_line(s: Site, source: SourceLines) -> str:
    caller = f" in {s.caller}" if s.caller else " (module level)"
    kind = "" if s.kind in ("call", "new", "macro", "import") else f" [{KIND_NAMES[s.kind]}]"
    mark = "  [uncertain]" if s.confidence < UNCERTAIN else ""
    return f"{s.path}:{s.line}{caller}: {source.line(s.path, s.line)}{kind}{mark}"


def render_rename(
    target: str, new_name: str, defs: list[Definition], edits: list[Edit], source: SourceLines
) -> str:
    """Dry run: every line to change, grouped by file, with the line as it reads now."""
    if not defs:
        return f"no definition of '{target}' in the code map: nothing to rename"
    counts = Counter("call site" if e.kind in ("call", "new", "macro") else e.kind for e in edits)
    parts = ", ".join(f"{n} {k}{'' if n == 1 else 's'}" for k, n in sorted(counts.items()))
    guesses = sum(1 for e in edits if e.confidence < UNCERTAIN)
    old = target.rsplit(":", 1)[-1].rsplit(".", 1)[-1]
    head = (
        f"rename {old} → {new_name} (dry run): {len(edits)} lines in "
        f"{len({e.path for e in edits})} files ({parts})"
    )
    out = [head + (f"; {guesses} uncertain: check those marked" if guesses else "")]
    current = ""
    for e in edits[:MAX_RENAME]:
        if e.path != current:
            current = e.path
            out.append(f"{e.path}:")
        mark = "  [uncertain]" if e.confidence < UNCERTAIN else ""
        out.append(f"  {e.line}: {source.line(e.path, e.line)}{mark}")
    if len(edits) > MAX_RENAME:
        out.append(f"… {len(edits) - MAX_RENAME} more lines; rename a narrower target first")
    return "\n".join(out)


def render_impact(found: Impact) -> str:
    """Dependents by depth (those reached only through a guessed site marked), then what the
    limits left out."""
    deps = found.dependents
    if not deps:
        return f"nothing in the project depends on '{found.target}' (per the code map)"
    out = [aggregate(len(deps), "dependent", [d.path for d in deps])]
    guesses = sum(d.uncertain for d in deps)
    if guesses:
        out[0] += f"; {guesses} reached only through uncertain sites (marked)"
    for depth in sorted({d.depth for d in deps}):
        out.append(f"depth {depth}:")
        for d in (x for x in deps if x.depth == depth):
            what = f"{d.path}:{d.line} {d.symbol}" if d.symbol else f"{d.path}:{d.line}"
            kind = "" if d.kind in ("call", "new", "macro") else f"{KIND_NAMES[d.kind]} of "
            mark = "  [uncertain]" if d.uncertain else ""
            out.append(f"  {what}  (uses {kind}{d.via.rsplit(':', 1)[-1]}){mark}")
    left = _left_out(found)
    return "\n".join(out + ([left] if left else []))


def _left_out(found: Impact) -> str:
    parts = []
    if found.unexpanded:
        where = "whose own dependents were not asked for"
        parts.append(f"{found.unexpanded} dependents {where} (depth {found.max_depth} or limits)")
    if found.unvisited:
        parts.append(f"{found.unvisited} more dependents over the limit of {len(found.dependents)}")
    if found.stopped == "time":
        parts.append("stopped at the time limit")
    if not parts:
        return ""
    return "left out: " + "; ".join(parts) + " (ask about a narrower symbol or a dependent)"


def render_outline(path: str, defs: list[Definition]) -> str:
    if not defs:
        return f"{path}: no symbols (not indexed, empty, or not a supported language)"
    imports = [d.name for d in defs if d.kind == "import" and d.name]
    symbols = [d for d in defs if d.kind != "import"]
    out = [f"{path}: {len(symbols)} symbols" + (f", {len(imports)} imports" if imports else "")]
    if imports:
        shown = ", ".join(dict.fromkeys(imports))
        out.append("imports: " + (shown if len(shown) <= 300 else shown[:299] + "…"))
    for d in symbols[:MAX_OUTLINE]:
        indent = "  " * (d.scope.count(".") + 1 if d.scope else 0)
        out.append(f"{indent}{d.line}-{d.end_line} {d.signature or d.kind + ' ' + d.name}")
    if len(symbols) > MAX_OUTLINE:
        out.append(f"… {len(symbols) - MAX_OUTLINE} more symbols")
    return "\n".join(out)
