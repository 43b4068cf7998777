"""TypeScript doc comments' references, as the compiler's findReferences counts them (#30):
`@see Name` and the names in a tag's `{Type}` besides `{@link Name}`."""

from __future__ import annotations

from pathlib import Path

from core.codemap import references
from tests.helpers.codemap_probe import probe

ERRORS = """export class TaskAbortError extends Error {}
export class Other {}
export class Cancel {
  cancel(): void {}
}
"""

TAGGED = """import { TaskAbortError } from "./errors";

/**
 * @see {TaskAbortError}
 * @throws {TaskAbortError} once cancelled
 * @param {Array<TaskAbortError>} seen the errors so far
 * @see TaskAbortError
 * @returns {string} not a reference to anything of ours
 * @deprecated use {@link TaskAbortError#cancel cancel}
 */
export function validate(seen: unknown): string {
  return "";
}

// @throws {TaskAbortError} in a plain comment is no reference
"""


def test_doc_tags_name_types_as_references(tmp_path: Path):
    with probe(tmp_path, {"src/errors.ts": ERRORS, "src/task.ts": TAGGED}) as idx:
        found = {(s.path, s.line): s.confidence for s in references(idx.db, "TaskAbortError")[1]}
        assert sorted(found) == [("src/task.ts", n) for n in (1, 4, 5, 6, 7, 9)]
        assert min(found.values()) >= 0.5
        assert references(idx.db, "src/errors.ts:Other")[1] == []


def test_a_link_names_a_member_with_a_hash(tmp_path: Path):
    errors = ERRORS.replace("class Cancel", "class Unused").replace(
        "class TaskAbortError extends Error {}",
        "class TaskAbortError extends Error {\n  cancel(): void {}\n}",
    )
    with probe(tmp_path, {"src/errors.ts": errors, "src/task.ts": TAGGED}) as idx:
        assert [s.line for s in references(idx.db, "TaskAbortError.cancel")[1]] == [9]
        assert references(idx.db, "Unused.cancel")[1] == []
