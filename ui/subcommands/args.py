"""Subcommand flags that may be typed anywhere: `codemap build --dir X` as `codemap --dir X
build`, `memory --dir X list` as `memory list --dir X`."""

from __future__ import annotations

FOLDER_FLAGS = ("--dir", "--project")


def folder_first(argv: list[str], flags: tuple[str, ...] = FOLDER_FLAGS) -> list[str]:
    """`argv` with each folder flag and its value moved to the front, where the subcommand's
    top-level parser reads it (a flag without a value is left for argparse to report)."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        if word in flags and i + 1 < len(argv):
            front += [word, argv[i + 1]]
            i += 2
            continue
        if any(word.startswith(flag + "=") for flag in flags):
            front.append(word)
        else:
            rest.append(word)
        i += 1
    return front + rest
