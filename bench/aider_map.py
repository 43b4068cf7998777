"""Aider's tags and repo map on a tree, run by `bench/codemap.py` under aider-chat's own venv
(`python -m venv /tmp/aider-venv && /tmp/aider-venv/bin/pip install aider-chat`; for the
benchmark only, never a dependency). Imports nothing of ours.

    /tmp/aider-venv/bin/python bench/aider_map.py ROOT NAMES_FILE

Prints one JSON line: CPU-seconds of `get_tags` over every `*.py` file and of one
`get_repo_map` (1,024 tokens, no chat files, the task's identifiers mentioned), and, for each
name in NAMES_FILE (one a line), the (path, line) of Aider's `ref` tags with that name: its
references. Tokens are counted as 4 characters each (Aider's `Model` would load litellm's
model table); the tags cache is Aider's own, `.aider.tags.cache.v*` in ROOT, so a second run
is a warm one.
"""

from __future__ import annotations

import json
import os
import sys
from collections import defaultdict

from aider.io import InputOutput
from aider.repomap import RepoMap


class FourCharTokens:
    def token_count(self, text: str) -> float:
        return len(text) / 4


def cpu() -> float:
    t = os.times()
    return t[0] + t[1]


def main() -> int:
    root, names_file = sys.argv[1], sys.argv[2]
    with open(names_file, encoding="utf-8") as fh:
        names = {line.strip() for line in fh if line.strip()}
    files = sorted(
        os.path.join(folder, name)
        for folder, dirs, found in os.walk(root)
        for name in found
        if name.endswith(".py") and not any(p.startswith(".") for p in folder.split(os.sep))
    )
    start = cpu()
    io = InputOutput(pretty=False, yes=True, fancy_input=False)
    repo_map = RepoMap(map_tokens=1024, root=root, main_model=FourCharTokens(), io=io)
    refs: dict[str, list[tuple[str, int]]] = defaultdict(list)
    count = 0
    for fname in files:
        for tag in repo_map.get_tags(fname, repo_map.get_rel_fname(fname)):
            count += 1
            if tag.kind == "ref" and tag.name in names:
                refs[tag.name].append((tag.rel_fname.replace(os.sep, "/"), tag.line + 1))
    tags = cpu() - start
    start = cpu()
    text = repo_map.get_repo_map([], files, mentioned_idents={"JSONDecoder", "decoder"}) or ""
    mapped = cpu() - start
    result = {"files": len(files), "tags": count, "tags_cpu": tags, "map_cpu": mapped}
    print(json.dumps(result | {"map_chars": len(text), "refs": refs}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
