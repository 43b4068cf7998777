"""`.env` loading: the Unicum home's, then (in a trusted folder) the project's; real
variables win. A project's `.env` never sets provider keys, base URLs or proxies (a cloned
repository must not send the user's key elsewhere), and no `.env` sets a variable that makes
a shell or an interpreter run code (BASH_ENV, LD_PRELOAD, PYTHONPATH, GIT_*, ...)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from my_agent.errors import ConfigError
from my_agent.home import unicum_home

# variables that make shells, loaders and interpreters run code or change what runs
_SHELL_CODE = re.compile(
    r"BASH_ENV|ENV|PROMPT_COMMAND|PS[0-4]|SHELLOPTS|BASHOPTS|IFS|CDPATH|PATH|HOME|SHELL|ZDOTDIR"
    r"|INPUTRC|HISTFILE|LD_\w+|DYLD_\w+|PYTHON\w*|NODE_OPTIONS|NODE_PATH|NPM_CONFIG_\w+"
    r"|GIT_\w+|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS"
    r"|JDK_JAVA_OPTIONS|EDITOR|VISUAL|PAGER|LESSOPEN|LESSCLOSE|SSH_ASKPASS|SUDO_ASKPASS"
    r"|GIT_ASKPASS|XDG_CONFIG_HOME|PIP_\w+|UV_\w+|BROWSER|TMPDIR",
    re.IGNORECASE,
)
# where the model's requests go and with which key: the environment and the home only
_PROVIDER = re.compile(
    r"\w*_API_KEY|\w*_APIKEY|\w*_AUTH_TOKEN|\w*_BASE_URL|UNICUM_\w+|\w*_PROXY|"
    r"REQUESTS_CA_BUNDLE|SSL_CERT_FILE|SSL_CERT_DIR|CURL_CA_BUNDLE|ZHIPUAI_\w+|ANTHROPIC_\w+"
    r"|OPENAI_\w+|OPENROUTER_\w+|DEEPSEEK_\w+|OLLAMA_\w+|TAVILY_\w+",
    re.IGNORECASE,
)


def runs_code(name: str) -> bool:
    """A variable that makes a shell or an interpreter run code (never taken from a .env)."""
    return bool(_SHELL_CODE.fullmatch(name))


def provider_setting(name: str) -> bool:
    """A provider key, base URL, proxy or CA setting (never taken from a project's .env)."""
    return bool(_PROVIDER.fullmatch(name))


@dataclass
class DotenvReport:
    """What `.env` loading skipped, for one line at start-up."""

    skipped: list[str] = field(default_factory=list)  # "PROJECT/.env: NAME"
    untrusted: Path | None = None  # a project .env left unread: the folder is not trusted


def load_dotenv_files(workspace: Path | None = None, trusted: bool = False) -> DotenvReport:
    """Load the Unicum home's `.env`, then the project's when `trusted`; real env vars win.
    A GBK/GB18030 file is read too; anything else undecodable is a one-line ConfigError."""
    import os

    report = DotenvReport()
    project = (workspace or Path.cwd()).expanduser().resolve() / ".env"
    for env_file, is_project in ((unicum_home() / ".env", False), (project, True)):
        if not env_file.is_file():
            continue
        if is_project and not trusted:
            report.untrusted = env_file
            continue
        for name, value in _parse(env_file).items():
            if runs_code(name) or (is_project and provider_setting(name)):
                report.skipped.append(name)
            elif value is not None and name not in os.environ:
                os.environ[name] = value
    return report


def _parse(env_file: Path) -> dict[str, str | None]:
    from dotenv import dotenv_values

    return dict(dotenv_values(stream=io.StringIO(_read_env_text(env_file))))


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
