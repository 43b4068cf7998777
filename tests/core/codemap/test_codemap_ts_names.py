"""TypeScript names written through a namespace (#30): a qualified type (`z.ZodError` in a
cast or an annotation) is a reference to what the namespace exports."""

from __future__ import annotations

from pathlib import Path

from core.codemap import references
from tests.helpers.codemap_probe import probe

ERRORS = """export class ZodError extends Error {
  flatten(): string[] {
    return [];
  }
}
export enum Kind {
  Member = 1,
}
"""

QUALIFIED = """import * as z from "./errors";

export function report(caught: unknown, kind: z.Kind.Member): z.ZodError {
  const error = caught as z.ZodError;
  return error;
}
"""


def test_a_qualified_type_is_a_reference_to_the_namespace_export(tmp_path: Path):
    with probe(tmp_path, {"src/errors.ts": ERRORS, "src/report.ts": QUALIFIED}) as idx:
        found = {(s.path, s.line, s.kind): s.confidence for s in references(idx.db, "ZodError")[1]}
        assert found == {("src/report.ts", 3, "type"): 0.95, ("src/report.ts", 4, "type"): 0.95}
        assert references(idx.db, "src/errors.ts:Member")[1] == []


EXPORTS = """function check(): number {
  return 1;
}
export { check };
export { check as verify };
export const pick = Math.random() > 0.5 ? check : undefined;
export type Checker = ReturnType<typeof check>;
"""

IMPORTS = """import { verify } from "./checks";
verify();
"""


def test_export_lists_aliases_and_value_positions_are_references(tmp_path: Path):
    with probe(tmp_path, {"src/checks.ts": EXPORTS, "src/use.ts": IMPORTS}) as idx:
        found = {(s.path, s.line): s.confidence for s in references(idx.db, "check")[1]}
        assert found == {  # export lists, a ternary's branch, `typeof`, the alias's import
            ("src/checks.ts", 4): 0.95,
            ("src/checks.ts", 5): 0.95,
            ("src/checks.ts", 6): 0.95,
            ("src/checks.ts", 7): 0.95,
            ("src/use.ts", 1): 0.95,
            ("src/use.ts", 2): 0.95,
        }


SHADOWED = """export function bigint(): number {
  return 1;
}
export interface Checks {
  gte(value: bigint): this;
}
export const big = bigint();
"""


def test_a_type_never_names_a_function(tmp_path: Path):
    with probe(tmp_path, {"src/shadowed.ts": SHADOWED}) as idx:
        assert [(s.line, s.confidence) for s in references(idx.db, "bigint")[1]] == [(7, 0.95)]
