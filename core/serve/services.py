"""What the routes share: the Unicum home, the stores the CLI uses (the local files, or the
team database when one is set, as `unicum usage` and `unicum memory` read it), code maps kept
open per project."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import HTTPException, Request

from core.codemap import CodeMap
from core.dashboard import TaskText
from core.ledger import (
    Ledger,
    PriceTable,
    load_prices,
    open_ledger,
    open_team_ledger,
    open_team_reports,
)
from core.memory import MemoryStore, open_team_memory
from my_agent.home import project_id
from my_agent.team import describe_url, team_project


@dataclass
class Services:
    home: Path
    ledger_path: Path
    task_text: TaskText | None = None
    team_url: str = ""  # the team database (PostgreSQL): ledger and project memory live there
    prices: PriceTable = field(init=False)
    ledger: Ledger = field(init=False)  # one writer (and connection) for the service's life
    _codemaps: dict[Path, CodeMap] = field(default_factory=dict, init=False)
    _memories: dict[Path, MemoryStore] = field(default_factory=dict, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def __post_init__(self) -> None:
        """OSError (one line) when the team database cannot be reached."""
        self.prices = load_prices(self.home)
        self.ledger = open_team_ledger(self.team_url) if self.team_url else Ledger(self.ledger_path)

    @property
    def where(self) -> str:
        """The ledger, for messages."""
        return describe_url(self.team_url) if self.team_url else str(self.ledger_path)

    def project(self, folder: Path) -> str:
        """The project's id in the ledger: the team's name for it, or this machine's."""
        return team_project(folder) if self.team_url else project_id(folder)

    @contextmanager
    def reports(self) -> Iterator[Any]:
        """A connection the ledger's reports read (None: nothing recorded yet), closed after;
        a team database that cannot be reached is a one-line 503."""
        try:
            db = (
                open_team_reports(self.team_url) if self.team_url else open_ledger(self.ledger_path)
            )
        except OSError as exc:
            raise HTTPException(503, f"cannot read the token ledger: {exc}") from None
        try:
            yield db
        finally:
            if db is not None:
                db.close()

    def memory(self, folder: Path) -> MemoryStore:
        """The project's memory store, as the CLI opens it: the local files read afresh for
        each request (sessions write them meanwhile), or the team's, one connection per project
        for the life of the service."""
        if not self.team_url:
            return MemoryStore(self.home, folder)
        with self._lock:
            if folder not in self._memories:
                try:
                    self._memories[folder] = open_team_memory(self.home, folder, self.team_url)
                except OSError as exc:
                    raise HTTPException(503, f"cannot open memory: {exc}") from None
            return self._memories[folder]

    def codemap(self, folder: Path) -> CodeMap:
        """One CodeMap per project for the life of the service (its index stays open)."""
        with self._lock:
            if folder not in self._codemaps:
                self._codemaps[folder] = CodeMap(folder, self.home)
            return self._codemaps[folder]

    def close(self) -> None:
        with self._lock:
            for cmap in self._codemaps.values():
                cmap.close()
            self._codemaps.clear()
            self._memories.clear()
        self.ledger.close()


def services(request: Request) -> Services:
    return request.app.state.services


def project_folder(project: str, must_exist: bool = True) -> Path:
    """A folder given by absolute path (an existing one unless `must_exist` is False: another
    machine's agent may record requests for its own folders); else the client's mistake."""
    path = Path(project).expanduser()
    if not path.is_absolute() or "\0" in project:
        raise HTTPException(400, f"project must be an absolute folder path, not '{project}'")
    if must_exist and not path.is_dir():
        raise HTTPException(400, f"project {project}: not a folder")
    return path.resolve()
