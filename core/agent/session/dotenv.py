"""`.env` loading. The Unicum home's `.env` sets variables for Unicum (real variables win;
never one that makes a shell or an interpreter run code: BASH_ENV, LD_PRELOAD, PYTHONPATH,
GIT_*, ...). A trusted project's `.env` sets nothing for Unicum itself (so no OPENSSL_CONF,
PGHOSTADDR or provider URL reaches its process): only the variables on the allow-list
(`COMMAND_ALLOW`, plus config.json's `dotenv.allow`) reach its commands, and every variable
left out is named in one line."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

from my_agent.capped import ENV, NotRead, read_capped
from my_agent.errors import ConfigError
from my_agent.home import read_user_config, unicum_home

# what a project's `.env` may pass to its commands (glob patterns on the name)
COMMAND_ALLOW = (
    "APP_*",
    "DEBUG",
    "PORT",
    "HOST",
    "LOG_LEVEL",
    "LOGLEVEL",
    "NODE_ENV",
    "TZ",
    "ENVIRONMENT",
    "DATABASE_URL",
    "REDIS_URL",
    "TEST_*",
    "FLASK_*",
    "DJANGO_*",
    "NEXT_PUBLIC_*",
    "VITE_*",
    "REACT_APP_*",
    "EXPO_PUBLIC_*",
)
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

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

    skipped: list[str] = field(default_factory=list)  # the home's: names that run code
    left_out: list[str] = field(default_factory=list)  # the project's: not on the allow-list
    untrusted: Path | None = None  # a project .env left unread: the folder is not trusted
    commands: dict[str, str] = field(default_factory=dict)  # what reaches the commands
    unread: list[str] = field(default_factory=list)  # one line per .env left unread (too large)


def load_dotenv_files(workspace: Path | None = None, trusted: bool = False) -> DotenvReport:
    """Load the Unicum home's `.env` (real env vars win), and read the project's when
    `trusted` (for its commands only). A GBK/GB18030 file is read too; anything else
    undecodable is a one-line ConfigError."""
    import os

    report = DotenvReport()
    home_env = unicum_home() / ".env"
    try:
        home_vars = _parse(home_env) if home_env.is_file() else {}
    except NotRead as exc:
        home_vars = {}
        report.unread.append(str(exc))
    for name, value in home_vars.items():
        if runs_code(name):
            report.skipped.append(name)
        elif value is not None and name not in os.environ:
            os.environ[name] = value
    project = (workspace or Path.cwd()).expanduser().resolve() / ".env"
    if project.is_file() and not trusted:
        report.untrusted = project
    elif project.is_file():
        try:
            report.commands, report.left_out = command_variables(project)
        except NotRead as exc:
            report.unread.append(str(exc))
    return report


def command_variables(env_file: Path) -> tuple[dict[str, str], list[str]]:
    """(the project `.env`'s variables its commands get, the names left out)."""
    allow = (*COMMAND_ALLOW, *_configured_allow())
    passed: dict[str, str] = {}
    left_out: list[str] = []
    for name, value in _parse(env_file).items():
        ok = _PLAIN.fullmatch(name) and not runs_code(name) and not provider_setting(name)
        if ok and value is not None and any(fnmatchcase(name, p) for p in allow):
            passed[name] = value
        else:
            left_out.append(name)
    return passed, left_out


def project_command_env(workspace: Path, trusted: bool) -> dict[str, str]:
    """What a session's commands get from the project's `.env` ({} when untrusted)."""
    env_file = workspace.expanduser().resolve() / ".env"
    if not trusted or not env_file.is_file():
        return {}
    try:
        return command_variables(env_file)[0]
    except NotRead:
        return {}  # said once at start-up


def _configured_allow() -> tuple[str, ...]:
    section = read_user_config().get("dotenv") or {}
    allow = section.get("allow") if isinstance(section, dict) else None
    if allow is None:
        return ()
    if not isinstance(allow, list) or not all(isinstance(a, str) for a in allow):
        raise ConfigError("config.json: `dotenv.allow` must be a list of name patterns")
    return tuple(allow)


def _parse(env_file: Path) -> dict[str, str | None]:
    from dotenv import dotenv_values

    return dict(dotenv_values(stream=io.StringIO(_read_env_text(env_file))))


def _read_env_text(env_file: Path) -> str:
    try:
        raw = read_capped(env_file, ENV)
    except NotRead:
        raise
    except OSError as exc:
        raise ConfigError(f"cannot read {env_file}: {exc.strerror or exc}") from exc
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ConfigError(f"cannot read {env_file}: not UTF-8 (nor GBK); save it as UTF-8")
