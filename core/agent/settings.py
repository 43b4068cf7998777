"""`.env` loading: the working directory, then the Unicum home; real variables win."""

from __future__ import annotations

from pathlib import Path

from my_agent.errors import ConfigError
from my_agent.home import unicum_home


def load_dotenv_files(cwd: Path | None = None) -> None:
    """Load `.env` from the working directory, then the Unicum home; real env vars win.
    A GBK/GB18030 file is read too; anything else undecodable is a one-line ConfigError."""
    import io

    from dotenv import load_dotenv

    for folder in (cwd or Path.cwd(), unicum_home()):
        env_file = folder / ".env"
        if env_file.is_file():
            load_dotenv(stream=io.StringIO(_read_env_text(env_file)), override=False)


def _read_env_text(env_file: Path) -> str:
    try:
        raw = env_file.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read {env_file}: {exc.strerror or exc}") from exc
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ConfigError(f"cannot read {env_file}: not UTF-8 (nor GBK); save it as UTF-8")
