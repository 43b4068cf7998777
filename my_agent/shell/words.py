"""Words of a command line on the tokenizer: commands, wrappers, subcommands, written paths.

Every reader of shell commands (facts, memory, permissions) goes through these, so a wrapper
stripped for one is stripped for all.
"""

from __future__ import annotations

import os
import re

from my_agent.shell.tokenize import Simple, parse

# Words that run the rest of the line as a command: name → options that take a separate value.
# A wrapper's own options, numbers (`timeout 5`, `nice -n 10`) and VAR=value words are skipped.
WRAPPERS: dict[str, frozenset[str]] = {
    "sudo": frozenset({"-u", "-g", "-p", "-C", "-h", "-r", "-t", "-U", "-D", "-R"}),
    "doas": frozenset({"-u", "-C"}),
    "env": frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}),
    "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "ionice": frozenset({"-c", "-n", "-p", "--class", "--classdata"}),
    "stdbuf": frozenset({"-i", "-o", "-e"}),
    "watch": frozenset({"-n", "--interval"}),
    "xargs": frozenset({"-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a", "--arg-file"}),
    "exec": frozenset({"-a"}),
    "time": frozenset({"-f", "--format", "-o", "--output"}),
    **dict.fromkeys(
        ("nohup", "command", "builtin", "busybox", "toybox", "then", "do", "else", "if"),
        frozenset(),
    ),
    **dict.fromkeys(("while", "until", "!", "{", "}"), frozenset()),
}
WRITE_OPS = frozenset({">", ">>", ">|", "&>", "&>>", "<>"})
SAFE_WRITE_TARGETS = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/")
_DURATION = re.compile(r"^\d+(?:\.\d+)?[smhd]?$")

# program → (which plain arguments it writes: "last" | "all" | "first", options that take a value,
# options whose value is a destination folder)
FILE_WRITERS: dict[str, tuple[str, frozenset[str], frozenset[str]]] = {
    "tee": ("all", frozenset(), frozenset()),
    "cp": ("last", frozenset({"-S", "--suffix"}), frozenset({"-t", "--target-directory"})),
    "mv": ("all", frozenset({"-S", "--suffix"}), frozenset({"-t", "--target-directory"})),
    "ln": ("last", frozenset({"-S", "--suffix"}), frozenset({"-t", "--target-directory"})),
    "install": (
        "last",
        frozenset({"-m", "-o", "-g", "-S", "--mode", "--owner", "--group", "--suffix"}),
        frozenset({"-t", "--target-directory"}),
    ),
    "truncate": ("all", frozenset({"-s", "-r", "--size", "--reference"}), frozenset()),
    "touch": ("all", frozenset({"-d", "-r", "-t", "--date", "--reference"}), frozenset()),
    "create": ("first", frozenset(), frozenset()),  # SWE-agent's file tool: create NAME
}
IN_PLACE = frozenset({"sed", "perl"})  # `sed -i` / `perl -pi` rewrite their last file argument


def program(word: str) -> str:
    """The program a command word names: `/usr/bin/python3` → `python3`."""
    return os.path.basename(word)


def strip_wrappers(argv: list[str]) -> tuple[list[str], list[str]]:
    """(wrapper names, the command they run): `FOO=1 sudo -u me timeout 5 rm x` →
    (["sudo", "timeout"], ["rm", "x"])."""
    wrappers: list[str] = []
    i = 0
    while i < len(argv):
        word, name = argv[i], program(argv[i])
        if _is_assignment(word):
            i += 1
        elif name in WRAPPERS:
            wrappers.append(name)
            i = _skip_wrapper_args(argv, i + 1, WRAPPERS[name], name == "timeout")
        else:
            break
    return wrappers, argv[i:]


def _is_assignment(word: str) -> bool:
    return "=" in word and not word.startswith(("-", "=")) and word.split("=")[0].isidentifier()


def _skip_wrapper_args(argv: list[str], i: int, valued: frozenset[str], duration: bool) -> int:
    while i < len(argv):
        word = argv[i]
        if word in valued:
            i += 2
        elif word.startswith("-") or word.replace(".", "").isdigit() or "=" in word:
            i += 1
        elif duration and _DURATION.match(word):
            i += 1
            duration = False
        else:
            break
    return i


def subcommands(argv: list[str], valued: frozenset[str] = frozenset()) -> list[str]:
    """The plain words after the program, options (and the values of `valued` ones) skipped:
    `git -C src log -n 3` → ["log", "3"] with valued {"-C"}."""
    out: list[str] = []
    i = 1
    while i < len(argv):
        word = argv[i]
        if word in valued:
            i += 2
            continue
        if not word.startswith("-"):
            out.append(word)
        i += 1
    return out


def commands(text: str, whole_pipelines: bool = True) -> list[Simple]:
    """The simple commands of `text` in order (subshells included, substitutions not); only
    each pipeline's first command unless `whole_pipelines`."""
    return [cmd for pipe in parse(text) for cmd in (pipe if whole_pipelines else pipe[:1])]


def argvs(text: str, whole_pipelines: bool = True) -> list[list[str]]:
    """Each command of `text` as the argv it runs, wrappers stripped; empty ones left out."""
    out = [strip_wrappers(cmd.argv)[1] for cmd in commands(text, whole_pipelines)]
    return [argv for argv in out if argv]


def file_writes(argv: list[str]) -> list[str]:
    """The paths a file command writes (or moves away), as written: FILE_WRITERS, `sed -i`."""
    if not argv:
        return []
    name = program(argv[0])
    if name in IN_PLACE and any(a.startswith("-i") or a == "-pi" for a in argv[1:]):
        return _in_place_files(argv)
    spec = FILE_WRITERS.get(name)
    if spec is None:
        return []
    which, valued, dest_opts = spec
    plain, dests = _split_args(argv[1:], valued, dest_opts)
    if which == "first":
        return plain[:1]
    if which == "all" or dests:
        return dests + (plain if which == "all" else [])
    return plain[-1:] if len(plain) >= 2 else []


def _split_args(
    args: list[str], valued: frozenset[str], dest_opts: frozenset[str]
) -> tuple[list[str], list[str]]:
    """(plain arguments, destination folders given by option)."""
    plain: list[str] = []
    dests: list[str] = []
    rest = iter(args)
    options = True
    for arg in rest:
        if options and arg == "--":
            options = False
        elif options and arg.startswith("-") and arg != "-":
            name, eq, value = arg.partition("=")
            if name in valued | dest_opts and not eq:
                value = next(rest, "")
            if name in dest_opts or (len(name) > 2 and name[:2] == "-t" and name[1] != "-"):
                dests.append(value or name[2:])
        else:
            plain.append(arg)
    return plain, dests


def _in_place_files(argv: list[str]) -> list[str]:
    """The files `sed -i SCRIPT FILE…` / `perl -pi -e SCRIPT FILE…` rewrite: every plain
    argument but the script (which `-e`/`-f` may give instead)."""
    plain: list[str] = []
    script_given = False
    rest = iter(argv[1:])
    for arg in rest:
        if arg in ("-e", "--expression", "-f", "--file") or (
            program(argv[0]) == "perl" and re.fullmatch(r"-[a-zA-Z]*e", arg)
        ):
            next(rest, None)
            script_given = True
        elif arg.startswith(("--expression=", "--file=")):
            script_given = True
        elif not arg.startswith("-"):
            plain.append(arg)
    return plain if script_given else plain[1:]


def redirect_writes(cmd: Simple) -> list[str]:
    """Files the command's redirections write (`> f`, `>> f`, `&> f`), /dev/null and the like
    left out."""
    return [
        w.text
        for op, w in cmd.redirects
        if op in WRITE_OPS and not w.text.startswith(SAFE_WRITE_TARGETS)
    ]


def written_paths(text: str) -> list[str]:
    """Every file `text` writes: redirections, tee, cp/mv/ln/install/truncate/touch targets,
    `sed -i`; in order, once each."""
    paths: list[str] = []
    for cmd in commands(text):
        paths += redirect_writes(cmd)
        paths += file_writes(strip_wrappers(cmd.argv)[1])
    return list(dict.fromkeys(paths))
