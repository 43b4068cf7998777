"""TypeScript doc comments' references, as the compiler's findReferences counts them (#30):
`@see Name` and the names in a tag's `{Type}` besides `{@link Name}`."""

from __future__ import annotations

from pathlib import Path

from core.codemap import references
from tests.helpers.codemap_probe import probe

ERRORS = """export class TaskAbortError extends Error {}
export class Other {}
"""

TAGGED = """import { TaskAbortError } from "./errors";

/**
 * @see {TaskAbortError}
 * @throws {TaskAbortError} once cancelled
 * @param {Array<TaskAbortError>} seen the errors so far
 * @see TaskAbortError
 * @returns {string} not a reference to anything of ours
 */
export function validate(seen: unknown): string {
  return "";
}

// @throws {TaskAbortError} in a plain comment is no reference
"""


def test_doc_tags_name_types_as_references(tmp_path: Path):
    with probe(tmp_path, {"src/errors.ts": ERRORS, "src/task.ts": TAGGED}) as idx:
        found = {(s.path, s.line): s.confidence for s in references(idx.db, "TaskAbortError")[1]}
        assert sorted(found) == [("src/task.ts", n) for n in (1, 4, 5, 6, 7)]
        assert min(found.values()) >= 0.5
        assert references(idx.db, "src/errors.ts:Other")[1] == []
