"""The destructive-command table and the word lists the permission check reads (data only).
Wrappers, redirections and file writers are the shell reader's: my_agent.shell.words."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    """A destructive command: program(s), optional subcommand, and flags/args that make it so."""

    label: str
    why: str
    programs: tuple[str, ...]
    sub: str = ""  # required subcommand (git reset, git push, ...)
    flags: tuple[str, ...] = ()  # any one of these; a short flag also matches inside -rf
    args: tuple[str, ...] = ()  # any one of these plain arguments
    prefixes: tuple[str, ...] = ()  # any argument after the subcommand starting with one
    spare_build_dirs: bool = False  # harmless when every target is a build folder in the workspace


# What a sandbox cannot see: history and remote state a command destroys from inside the
# workspace. Asked with the sandbox on or off.
HISTORY_RULES: tuple[Rule, ...] = (
    Rule("git reset --hard", "discards uncommitted changes", ("git",), "reset", ("--hard",)),
    Rule(
        "git reset --merge/--keep",
        "may discard uncommitted changes",
        ("git",),
        "reset",
        ("--merge", "--keep"),
    ),
    Rule(
        "git clean -f",
        "deletes untracked files",
        ("git",),
        "clean",
        ("-f", "--force"),
        spare_build_dirs=True,
    ),
    Rule(
        "git push --force",
        "overwrites history on the remote",
        ("git",),
        "push",
        (
            "-f",
            "--force",
            "--force-with-lease",
            "--force-if-includes",
            "--mirror",
            "--delete",
            "-d",
            "--prune",
        ),
    ),
    Rule(
        "git push --force",
        "a +refspec force-pushes over history on the remote",
        ("git",),
        "push",
        prefixes=("+",),
    ),
    Rule(
        "git push :branch",
        "deletes a branch on the remote",
        ("git",),
        "push",
        prefixes=(":",),
    ),
    Rule(
        "git checkout -- .", "discards uncommitted changes", ("git",), "checkout", args=("--", ".")
    ),
    Rule(
        "git checkout -f",
        "discards uncommitted changes",
        ("git",),
        "checkout",
        ("-f", "--force", "--discard-changes"),
    ),
    Rule(
        "git switch -f",
        "discards uncommitted changes",
        ("git",),
        "switch",
        ("-f", "--force", "--discard-changes"),
    ),
    Rule("git restore .", "discards uncommitted changes", ("git",), "restore", args=(".",)),
    Rule("git branch -D", "deletes a branch with unmerged work", ("git",), "branch", ("-D",)),
    Rule(
        "git stash drop",
        "deletes stashed changes",
        ("git",),
        "stash",
        args=("drop", "clear"),
    ),
    Rule(
        "git reflog expire",
        "deletes the record of earlier commits",
        ("git",),
        "reflog",
        args=("expire", "delete"),
    ),
    Rule("git gc --prune", "deletes unreachable commits for good", ("git",), "gc", ("--prune",)),
    Rule("git update-ref -d", "deletes a branch or tag", ("git",), "update-ref", ("-d",)),
    Rule("git filter-branch", "rewrites the whole history", ("git",), "filter-branch"),
    Rule("git filter-repo", "rewrites the whole history", ("git",), "filter-repo"),
    Rule("terraform destroy", "destroys remote infrastructure", ("terraform",), "destroy"),
    Rule("kubectl delete", "deletes cluster resources", ("kubectl",), "delete"),
    Rule("gh repo delete", "deletes a repository on GitHub", ("gh",), "repo", args=("delete",)),
)
# What the sandbox makes harmless: asked only when commands run unsandboxed.
OUTSIDE_RULES: tuple[Rule, ...] = (
    Rule(
        "rm -r/-f",
        "deletes files for good",
        ("rm",),
        flags=("-r", "-R", "-f", "--recursive", "--force"),
        spare_build_dirs=True,
    ),
    Rule(
        "rsync --delete",
        "deletes files at the destination",
        ("rsync",),
        flags=(
            "--delete",
            "--delete-before",
            "--delete-during",
            "--delete-delay",
            "--delete-after",
            "--delete-excluded",
            "--remove-source-files",
        ),
    ),
    Rule(
        "chmod -R", "changes permissions of a whole tree", ("chmod",), flags=("-R", "--recursive")
    ),
    Rule(
        "chown -R",
        "changes owners of a whole tree",
        ("chown", "chgrp"),
        flags=("-R", "--recursive"),
    ),
    Rule("dd", "writes raw bytes over files or devices", ("dd",)),
    Rule("mkfs", "formats a file system", ("mkfs",)),
    Rule("sudo", "runs as another user", ("sudo", "su", "doas")),
    Rule("find -delete", "deletes every file found", ("find",), args=("-delete",)),
    Rule("shutdown", "stops the machine", ("shutdown", "reboot", "halt", "poweroff")),
)
RULES = HISTORY_RULES + OUTSIDE_RULES  # unsandboxed: every rule
BUILD_DIRS = frozenset(
    {
        "build",
        "dist",
        "out",
        "target",
        "node_modules",
        "__pycache__",
        ".pytest_cache",
        ".mypy_cache",
        ".ruff_cache",
        ".tox",
        ".nox",
        "htmlcov",
        ".coverage",
        ".next",
        ".cache",
        ".parcel-cache",
        "coverage",
    }
)
DOWNLOADERS = frozenset({"curl", "wget"})
SHELLS = frozenset(
    {
        "sh",
        "bash",
        "zsh",
        "dash",
        "ksh",
        "fish",
        "python",
        "python3",
        "perl",
        "ruby",
        "node",
        "eval",
        "source",
        ".",
    }
)
MIN_ABBREV = 3  # `--rec` is how GNU tools accept an unambiguous prefix of `--recursive`
