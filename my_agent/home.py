"""The Unicum home (`$UNICUM_HOME` or `~/.unicum-agent`), its config.json, and project ids."""

from __future__ import annotations

import json
import os
from pathlib import Path

from my_agent.capped import CONFIG, NotRead, read_capped_text
from my_agent.errors import ConfigError

HOME_ENV = "UNICUM_HOME"
DEFAULT_HOME_DIRNAME = ".unicum-agent"


def unicum_home() -> Path:
    """The user's Unicum folder: $UNICUM_HOME or ~/.unicum-agent (not created here)."""
    override = os.environ.get(HOME_ENV)
    return Path(override).expanduser() if override else Path.home() / DEFAULT_HOME_DIRNAME


HOME_FOLDERS = (
    "sessions", "memory", "codemap", "logs", "checkpoints", "projects", "skills", "cache"
)  # fmt: skip


HOME_FILES = ("ledger.db", "config.json", "pricing.json", "history", ".env")


def check_home(home: Path) -> Path:
    """The Unicum home as a writable folder (created if missing), or a one-line ConfigError
    naming what is in the way: a file where a folder must be, or the other way round."""
    fix = f"move it away or set {HOME_ENV} to another folder"
    if home.exists() and not home.is_dir():
        raise ConfigError(f"Unicum home {home} is not a folder: {fix}")
    try:
        home.mkdir(parents=True, exist_ok=True)
        if home.stat().st_uid == os.getuid() and home.stat().st_mode & 0o077:
            os.chmod(home, 0o700)  # private: nobody else may enter it (see my_agent/private.py)
        secrets = home / ".env"
        if secrets.is_file() and secrets.stat().st_mode & 0o077:
            os.chmod(secrets, 0o600)  # keys
    except OSError as exc:
        raise ConfigError(
            f"Unicum home {home} cannot be created ({exc.strerror or exc}): {fix}"
        ) from exc
    if not os.access(home, os.W_OK | os.X_OK):
        raise ConfigError(
            f"Unicum home {home} is not writable: fix its permissions or set "
            f"{HOME_ENV} to another folder"
        )
    for name in HOME_FOLDERS:
        if (home / name).exists() and not (home / name).is_dir():
            raise ConfigError(f"{home / name} must be a folder but is a file: {fix}")
    for name in HOME_FILES:
        if (home / name).is_dir():
            raise ConfigError(f"{home / name} must be a file but is a folder: {fix}")
    return home


def project_id(workspace: Path) -> str:
    """`<folder name>-<short hash of the absolute path>`: two folders called `app` never collide."""
    import hashlib

    resolved = workspace.expanduser().resolve()
    digest = hashlib.sha256(str(resolved).encode("utf-8")).hexdigest()[:10]
    return f"{resolved.name or 'root'}-{digest}"


def read_user_config() -> dict:
    """The optional `config.json` in the Unicum home; a broken file is a ConfigError."""
    path = unicum_home() / "config.json"
    if not path.is_file():
        return {}
    try:
        data = json.loads(read_capped_text(path, CONFIG))
    except NotRead as exc:
        raise ConfigError(str(exc)) from exc
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path} must hold a JSON object")
    return data
