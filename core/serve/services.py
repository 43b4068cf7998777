"""What the routes share: the Unicum home, the ledger file, code maps kept open per project."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import HTTPException, Request

from core.codemap import CodeMap
from core.dashboard import TaskText
from core.ledger import Ledger, PriceTable, load_prices


@dataclass
class Services:
    home: Path
    ledger_path: Path
    task_text: TaskText | None = None
    prices: PriceTable = field(init=False)
    ledger: Ledger = field(init=False)  # one writer (and connection) for the service's life
    _codemaps: dict[Path, CodeMap] = field(default_factory=dict, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)

    def __post_init__(self) -> None:
        self.prices = load_prices(self.home)
        self.ledger = Ledger(self.ledger_path)

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
