"""The headers a request carries besides its body: the ones the provider's own SDK sends
(its user agent, version and platform lines), so the wire is what it was when the SDK sent
it. The SDK's version is read from its `_version.py` without importing the SDK."""

from __future__ import annotations

import functools
import importlib.util
import platform
import re
import sys
from pathlib import Path

_VERSION = re.compile(r"""__version__\s*=\s*["']([^"']+)["']""")
_OS = {"darwin": "MacOS", "windows": "Windows", "linux": "Linux", "freebsd": "FreeBSD"}
_OS |= {"openbsd": "OpenBSD", "android": "Android", "ios": "iOS", "ipados": "iOS"}
_ARCH = {"arm64": "arm64", "aarch64": "arm64", "arm": "arm", "x86_64": "x64"}


@functools.cache
def sdk_version(package: str) -> str:
    """The installed version of `package` ("anthropic", "openai"), or "unknown"."""
    try:
        spec = importlib.util.find_spec(package)
        origin = spec.origin if spec else None
        text = (Path(origin).parent / "_version.py").read_text(encoding="utf-8") if origin else ""
    except (ImportError, OSError, ValueError):
        return "unknown"
    found = _VERSION.search(text)
    return found.group(1) if found else "unknown"


def _os_name() -> str:
    system, machine = platform.system().lower(), platform.machine().lower()
    if machine.startswith(("iphone", "ipad")):
        return "iOS"
    if hasattr(sys, "getandroidapilevel") or "android" in platform.release().lower():
        return "Android"
    return _OS.get(system) or (f"Other:{system}" if system else "Unknown")


def _arch() -> str:
    machine = platform.machine().lower()
    if machine in _ARCH:
        return _ARCH[machine]
    if sys.maxsize <= 2**32:
        return "x32"
    return f"other:{machine}" if machine else "unknown"


@functools.cache
def platform_headers(package: str) -> tuple[tuple[str, str], ...]:
    """The SDK's platform lines, as (name, value) in its spelling: Anthropic's SDK writes
    `X-Stainless-Lang`, OpenAI's `x-stainless-lang`."""
    rows = (
        ("X-Stainless-Lang", "python"),
        ("X-Stainless-Package-Version", sdk_version(package)),
        ("X-Stainless-OS", _os_name()),
        ("X-Stainless-Arch", _arch()),
        ("X-Stainless-Runtime", platform.python_implementation()),
        ("X-Stainless-Runtime-Version", platform.python_version()),
    )
    if package == "openai":
        return tuple((name.lower(), value) for name, value in rows)
    return rows


def user_agent(package: str) -> str:
    name = "Anthropic" if package == "anthropic" else "OpenAI"
    return f"{name}/Python {sdk_version(package)}"
