"""jedi's references for bench/referee.py, run under the referee's own venv (it imports nothing
of ours): `VENV/bin/python bench/referee_jedi.py < request.json > answer.json`.

The request is `{"root": DIR, "targets": [[path, line, column], ...]}` (line 1-based, column
0-based, the position of a definition's name); the answer is one list per target of
`[path, line, column]`, every reference jedi finds in the project (the definition left out),
and `{"version": ...}` first. Install: `python -m venv ~/.cache/unicum-referee/venv &&
~/.cache/unicum-referee/venv/bin/pip install jedi`.
"""

from __future__ import annotations

import json
import os
import sys

import jedi


def references(project: jedi.Project, root: str, target: list) -> list[list]:
    path, line, column = target
    script = jedi.Script(path=os.path.join(root, path), project=project)
    try:
        found = script.get_references(line, column, include_builtins=False, scope="project")
    except Exception as exc:  # jedi gives up on some inputs: say so, count none
        print(f"jedi: {path}:{line}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return []
    out = []
    for ref in found:
        if ref.module_path is None or ref.line is None:
            continue
        rel = os.path.relpath(str(ref.module_path), root).replace(os.sep, "/")
        if rel.startswith("..") or (rel == path and ref.line == line and ref.column == column):
            continue
        out.append([rel, ref.line, ref.column])
    return out


def main() -> int:
    request = json.load(sys.stdin)
    root = request["root"]
    project = jedi.Project(root, added_sys_path=[root], smart_sys_path=False)
    answers = [references(project, root, t) for t in request["targets"]]
    json.dump({"version": f"jedi {jedi.__version__}", "answers": answers}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
