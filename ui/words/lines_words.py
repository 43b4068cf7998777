"""Words and parts that core's lines contain (`{x:tr}` fields), marked for the catalogs: never
whole lines of their own."""

from __future__ import annotations

from ui.words.catalog import N_

# templates for parts of lines
VALUE_TEMPLATES: tuple[str, ...] = (N_("{amount} tokens"),)

# words looked up whole
LINE_WORDS: frozenset[str] = frozenset(
    {
        # why a command is destructive (tools.permissions)
        N_("deletes files for good"),
        N_("discards uncommitted changes"),
        N_("deletes untracked files"),
        N_("overwrites history on the remote"),
        N_("a +refspec force-pushes over history on the remote"),
        N_("deletes files at the destination"),
        N_("changes permissions of a whole tree"),
        N_("changes owners of a whole tree"),
        N_("writes raw bytes over files or devices"),
        N_("formats a file system"),
        N_("runs as another user"),
        N_("deletes every file found"),
        N_("stops the machine"),
        N_("writes outside the workspace"),
        N_("runs code downloaded from the network"),
        N_("deletes a branch on the remote"),
        N_("deletes a branch with unmerged work"),
        N_("deletes stashed changes"),
        N_("deletes the record of earlier commits"),
        N_("deletes unreachable commits for good"),
        N_("deletes a branch or tag"),
        N_("rewrites the whole history"),
        N_("destroys remote infrastructure"),
        N_("deletes cluster resources"),
        N_("deletes a repository on GitHub"),
        N_("deletes the workspace or its .git, which snapshots cannot bring back"),
        # budget scopes (core.ledger.budget)
        N_("this task"),
        N_("this session"),
        N_("today"),
        N_("day"),
        # failure reasons (core.model.retry)
        N_("connection dropped"),
        N_("timed out"),
        N_("overloaded"),
        N_("rate_limit"),
        N_("api"),
        N_("the stream ended without its final event"),
        N_("connection refused"),
        N_("host not found"),
        # damaged stores (core.memory.file)
        N_("memory file"),
        N_("memory journal"),
        N_("entry"),
        N_("entries"),
        N_("line"),
        N_("lines"),
    }
)
