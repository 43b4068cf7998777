"""`unicum plugins`: the plugins the installed packages declare (entry points), as a session
loads them; one that fails to load is shown with its error."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str]) -> int:
    argparse.ArgumentParser(
        prog="unicum plugins",
        description="Plugins: entry points in unicum.tools, unicum.providers, "
        "unicum.fact_rules and unicum.memory_rules.",
    ).parse_args(argv)
    from core.agent import load_plugins

    plugins = load_plugins(lambda _: None)
    if not plugins.found:
        print("no plugins installed")
        return 0
    for info in plugins.found:
        what = f"error: {info.error}" if info.error else info.provides
        print(f"{info.group}\t{info.name}\t{info.package}\t{what}")
    return 1 if any(i.error for i in plugins.found) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
