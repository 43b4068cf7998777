"""One project's code map for a session: lazy index, background build, refresh-then-answer."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from core.codemap import query, render
from core.codemap.dependents import impact
from core.codemap.index import CodeIndex, RefreshStats
from core.codemap.overview import render_overview
from core.codemap.rank import ensure_ranks
from core.codemap.rename import rename_sites
from core.codemap.walk import MAX_FILES
from my_agent.home import project_id

QUERY_REFRESH_SECONDS = 10.0  # a huge folder is indexed a slice per question, never hangs
FIRST_PART_SECONDS = 4.0  # a cold build ranks what it has by then, for the first overview
OVERVIEW_TOKENS = 1000  # the overview the system prompt carries


def db_path_for(workspace: Path, home: Path) -> Path:
    return home / "codemap" / f"{project_id(workspace)}.db"


class CodeMap:
    """Answers code questions about `workspace`; every answer starts with a cheap refresh."""

    def __init__(self, workspace: Path, home: Path, max_files: int = MAX_FILES) -> None:
        self.root = workspace.expanduser().resolve()
        self.db_path = db_path_for(self.root, home)
        self.max_files = max_files
        self.last_stats: RefreshStats | None = None
        self.error = ""
        self.graph: None = None  # the graph and ranks live in the index now (rank.py)
        self._index: CodeIndex | None = None
        self._open_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._first_part = threading.Event()
        self.early_overview = ""  # what a build cut short had ranked (start_background)

    @property
    def index(self) -> CodeIndex:
        with self._open_lock:
            if self._index is None:
                self._index = CodeIndex(self.root, self.db_path, self.max_files)
            return self._index

    def close(self) -> None:
        with self._open_lock:
            if self._index is not None:
                self._index.close()
                self._index = None

    def refresh(
        self, max_seconds: float = QUERY_REFRESH_SECONDS, workers: int | None = None
    ) -> RefreshStats:
        self.last_stats = self.index.refresh(max_seconds, workers)
        return self.last_stats

    def start_background(
        self,
        max_seconds: float = 30.0,
        workers: int | None = None,
        first_seconds: float = FIRST_PART_SECONDS,
        overview_tokens: int = OVERVIEW_TOKENS,
    ) -> None:
        """Build or refresh in a daemon thread; `wait()` joins it. Errors are kept, not raised.
        A build still parsing after `first_seconds` ranks what it has and keeps an overview of
        it (`early_overview`) for a first task that cannot wait for the rest."""
        if self._thread is not None:
            return

        def build() -> None:
            try:
                started = time.monotonic()
                first = self.refresh(min(first_seconds, max_seconds), workers)
                if first.stopped:
                    self._rank_early(first.files, overview_tokens)
                    self.refresh(max(0.0, max_seconds - (time.monotonic() - started)), workers)
                with self.index.lock:
                    ensure_ranks(self.index.db)
            except Exception as exc:  # a broken index must never break the session
                self.error = f"{type(exc).__name__}: {exc}"
            finally:
                self._first_part.set()

        self._thread = threading.Thread(target=build, name="codemap-build", daemon=True)
        self._thread.start()

    def _rank_early(self, files: int, overview_tokens: int) -> None:
        with self.index.lock:
            db = self.index.db
            ensure_ranks(db)
            text = render_overview(db, "", overview_tokens)
            done = db.execute("SELECT COUNT(*) FROM files").fetchone()[0]
        if text:
            self.early_overview = (
                f"{text}\n(ranked on the first {done:,} of {files:,} files while the index was "
                "still being built; the code_map tool sees every file)"
            )
        self._first_part.set()

    def wait(self, timeout: float | None = None) -> bool:
        """True when no background build is running (any longer)."""
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def wait_first_part(self, timeout: float | None = None) -> bool:
        """True when the background build has finished or ranked its first part."""
        return self._thread is None or self._first_part.wait(timeout)

    # --- answers as prompt text ------------------------------------------------------------
    def _fresh(self):
        self.refresh()
        return self.index

    def _noted(self, answer: str) -> str:
        """Say so when the index is partial (a capped walk or a build cut off by its deadline)."""
        cut = self.last_stats.truncated if self.last_stats else ""
        return f"{answer}\n(code map incomplete: {cut})" if cut else answer

    def definition(self, target: str) -> str:
        index = self._fresh()
        with index.lock:
            defs = query.definitions(index.db, target)
        return self._noted(render.render_definitions(target, defs, render.SourceLines(self.root)))

    def references(self, target: str, confident: bool = False) -> str:
        """Every site (the uncertain ones apart), or with `confident` those >= 0.5 only."""
        index = self._fresh()
        with index.lock:
            defs, sites = query.references(
                index.db, target, render.UNCERTAIN * confident, cache=index.cache
            )
        return self._noted(
            render.render_references(target, defs, sites, render.SourceLines(self.root))
        )

    def rename(self, target: str, new_name: str) -> str:
        """Dry run of a rename: every line to change, nothing written."""
        index = self._fresh()
        with index.lock:
            defs, edits = rename_sites(index.db, target, index.cache)
        source = render.SourceLines(self.root)
        return self._noted(render.render_rename(target, new_name, defs, edits, source))

    def data(self, action: str, target: str, confident: bool = False) -> object:
        """Every item of an answer, uncapped, as plain data (for `codemap … --json`):
        references as {"references": confident sites, "uncertain": the guesses}."""
        index = self._fresh()
        with index.lock:
            if action == "references":
                return _reference_records(index, target, confident)
            return _records(index, action, self.relative(target) if action == "impact" else target)

    def impact(self, target: str, max_depth: int = 2, limit: int = 60) -> str:
        index = self._fresh()
        target = self.relative(target)
        with index.lock:
            found = impact(index.db, target, max_depth, limit, cache=index.cache)
        return self._noted(render.render_impact(found))

    def overview(self, task: str = "") -> str:
        """The ranked overview of the project (files and their main symbols), the files
        matching `task` first: what the system prompt carried before it came on demand."""
        index = self._fresh()
        with index.lock:
            return self._noted(render_overview(index.db, task, OVERVIEW_TOKENS))

    def outline(self, path: str) -> str:
        index = self._fresh()
        rel = self.relative(path)
        with index.lock:
            defs = query.outline(index.db, rel)
        return self._noted(render.render_outline(rel, defs))

    def relative(self, path: str) -> str:
        """A workspace-relative POSIX path for `path` (absolute or relative); else as given."""
        candidate = Path(path).expanduser()
        if candidate.is_absolute():
            try:
                return candidate.resolve().relative_to(self.root).as_posix()
            except (ValueError, OSError):
                return path
        return candidate.as_posix().removeprefix("./")

    def stats(self) -> dict[str, object]:
        index = self._fresh()
        with index.lock:
            db = index.db
            files, lines = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(lines), 0) FROM files"
            ).fetchone()
            langs = db.execute(
                "SELECT lang, COUNT(*), SUM(lines) FROM files GROUP BY lang ORDER BY 3 DESC"
            ).fetchall()
            symbols = db.execute("SELECT COUNT(*) FROM symbols WHERE kind != 'import'").fetchone()[
                0
            ]
            refs = db.execute("SELECT COUNT(*) FROM refs").fetchone()[0]
        return {
            "files": files,
            "lines": lines,
            "symbols": symbols,
            "references": refs,
            "languages": langs,
            "database": str(self.db_path),
            "truncated": self.last_stats.truncated if self.last_stats else "",
        }


def _site_record(s: query.Site) -> dict[str, object]:
    return {
        "path": s.path,
        "line": s.line,
        "symbol": s.caller,
        "confidence": s.confidence,
        "kind": query.KIND_NAMES.get(s.kind, s.kind),
        "reason": s.reason,
    }


def _reference_records(index: CodeIndex, target: str, confident: bool) -> dict[str, object]:
    defs, sites = query.references(index.db, target, cache=index.cache)
    sure = [_site_record(s) for s in sites if s.confidence >= render.UNCERTAIN]
    answer: dict[str, object] = {
        "target": target,
        "definitions": [f"{d.path}:{d.line}" for d in defs],
        "references": sure,
    }
    if not confident:
        answer["uncertain"] = [_site_record(s) for s in sites if s.confidence < render.UNCERTAIN]
    return answer


def _impact_records(index: CodeIndex, target: str) -> dict[str, object]:
    """Two levels, as the tool's answer, but up to 1,000 dependents and within the time limit."""
    found = impact(index.db, target, max_depth=2, limit=1000, cache=index.cache)
    rows = [
        {
            "path": d.path,
            "line": d.line,
            "symbol": d.symbol,
            "confidence": d.confidence,
            "kind": query.KIND_NAMES.get(d.kind, d.kind),
            "depth": d.depth,
            "via": d.via,
        }
        for d in found.dependents
    ]
    return {
        "target": target,
        "dependents": [r for r, d in zip(rows, found.dependents, strict=True) if not d.uncertain],
        "uncertain": [r for r, d in zip(rows, found.dependents, strict=True) if d.uncertain],
        "left_out": found.left_out,
    }


def _records(index: CodeIndex, action: str, target: str) -> object:
    db = index.db
    if action == "definition":
        return [
            {
                "path": d.path,
                "line": d.line,
                "end_line": d.end_line,
                "symbol": d.qualified,
                "kind": d.kind,
                "signature": d.signature,
                "confidence": 1.0,
            }
            for d in query.definitions(db, target)
        ]
    if action == "impact":
        return _impact_records(index, target)
    return [
        {
            "path": d.path,
            "line": d.line,
            "symbol": d.symbol,
            "confidence": d.confidence,
            "kind": "dependent",
            "depth": d.depth,
            "via": d.via,
        }
        for d in query.impact(db, target, max_depth=2, limit=1_000_000)
    ]
    return [
        {
            "path": e.path,
            "line": e.line,
            "symbol": e.symbol,
            "confidence": e.confidence,
            "kind": e.kind,
        }
        for e in rename_sites(db, target, index.cache)[1]
    ]
