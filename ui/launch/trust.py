"""Trusted folders at start-up: decide whether the project is trusted (remembered, `--trust`,
or the REPL's one-key question), then load the `.env` files accordingly."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core.agent import load_dotenv_files
from my_agent.errors import ConfigError
from my_agent.trust import is_trusted, trust_folder
from ui.launch.changed import confirm_changed_extensions, confirm_command_made
from ui.terminal import cell_len, terminal_width
from ui.words import Strings


def read_key(prompt: str) -> str:
    """One key from the terminal (a whole line when stdin is not a terminal)."""
    print(fitted(prompt), end="", file=sys.stderr, flush=True)
    if not sys.stdin.isatty():
        return (sys.stdin.readline() or "n").strip()[:1].lower()
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        key = sys.stdin.read(1)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    print(key, file=sys.stderr)
    return key.lower()


def fitted(text: str) -> str:
    """The question wrapped at spaces for the terminal's width in columns (CJK characters
    take two; Chinese, with no spaces, is left to the terminal), the trailing space kept."""
    width, lines = terminal_width() - 1, [""]
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines[-1] else word
        if lines[-1] and cell_len(joined) > width:
            lines.append(word)
        else:
            lines[-1] = joined
    return "\n".join(lines) + " "


def decide_trust(args: argparse.Namespace, strings: Strings, interactive: bool) -> bool:
    """--trust, a remembered trust, or (REPL on a terminal) the user's y/n, remembered on y."""
    folder = Path(args.dir).expanduser().resolve()
    if args.trust or not folder.is_dir() or is_trusted(folder):
        return True
    if not interactive:
        return False
    if (
        read_key(
            strings.t(
                "Do you trust the files in {folder}? y lets them configure Unicum and run "
                "commands: its .env, instruction @imports, skills, hooks, MCP servers, custom "
                "commands, agents and permission rules load. [y/n] ",
                folder=folder,
            )
        )
        != "y"
    ):
        print(
            strings.t(
                "not trusted: its .env, @imports, skills, hooks, MCP servers, commands, agents "
                "and permission rules are not loaded (--trust-project to trust it for a run)"
            ),
            file=sys.stderr,
        )
        return False
    try:
        trust_folder(folder)
        print(strings.t("trusted: {folder} (remembered)", folder=folder), file=sys.stderr)
    except OSError as exc:
        print(
            strings.t("cannot remember the trust: {detail}", detail=exc.strerror or exc),
            file=sys.stderr,
        )
    return True


def prepare_folder(args: argparse.Namespace) -> int | None:
    """Trust decided (args.trusted) and `.env` files loaded; an exit code when that fails."""
    strings = Strings(args.lang)
    interactive = args.prompt is None and sys.stdin.isatty()
    args.trusted = decide_trust(args, strings, interactive)
    folder = Path(args.dir).expanduser().resolve()
    if args.trusted:
        confirm_changed_extensions(folder, strings, read_key if interactive else None)
    confirm_command_made(folder, strings, read_key if interactive else None)
    try:
        report = load_dotenv_files(Path(args.dir), trusted=args.trusted)
    except ConfigError as exc:
        print(f"unicum: {exc}", file=sys.stderr)
        return 2
    for line in report.unread:
        print(f"unicum: {strings.line(line)}", file=sys.stderr)
    if report.skipped:
        names = ", ".join(dict.fromkeys(report.skipped))
        print(
            "unicum: "
            + strings.t(
                ".env: ignored {names} (variables that run code are taken only from the "
                "environment)",
                names=names,
            ),
            file=sys.stderr,
        )
    if report.left_out:
        names = ", ".join(dict.fromkeys(report.left_out))
        print(
            "unicum: "
            + strings.t(
                "project .env: not passed on {names} (a project's .env sets nothing for Unicum "
                "and only allow-listed names reach commands: config.json dotenv.allow)",
                names=names,
            ),
            file=sys.stderr,
        )
    if not interactive and not args.trusted:
        untrusted_line(Path(args.dir), strings)
    if interactive:
        ask_project_servers(Path(args.dir), strings)
    return None


def ask_project_servers(folder: Path, strings: Strings) -> None:
    """A trusted project's `.mcp.json` servers, asked once each before they first start, with
    the command they run (remembered for the project; a changed command is asked again)."""
    from core.agent import remember_server, servers_to_ask
    from my_agent.home import unicum_home

    folder, home = folder.expanduser().resolve(), unicum_home()
    for server in servers_to_ask(folder, home) if folder.is_dir() else []:
        question = strings.t(
            "This project's .mcp.json starts the MCP server '{name}': {command}. Start it? [y/n] ",
            name=server.name,
            command=server.target,
        )
        start = read_key(question) == "y"
        try:
            remember_server(server, start, folder, home)
        except OSError as exc:
            print(strings.t("cannot remember the answer: {detail}", detail=exc), file=sys.stderr)
        if not start:
            print(
                strings.t(
                    "not started: '{name}' (asked again if its command changes)", name=server.name
                ),
                file=sys.stderr,
            )


def untrusted_line(folder: Path, strings: Strings) -> None:
    """`-p` in an untrusted folder: one line naming what its files would have loaded."""
    from core.agent import skipped_by_trust

    skipped = skipped_by_trust(folder)
    if skipped:
        print(
            "unicum: "
            + strings.t(
                "{folder} is not a trusted folder, so its {what} are not loaded "
                "(--trust-project to trust it for this run)",
                folder=folder.expanduser().resolve(),
                what=", ".join(strings.t(item) for item in skipped),
            ),
            file=sys.stderr,
        )
