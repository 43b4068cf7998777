"""Resolution by name, for the languages the resolver has no rules for: a reference means
a definition its file imports, one owned by the receiver's class, one in the same file, or, as a
guess, any definition of the name in the same language family."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from core.codemap.imports import file_matches, module_stems
from core.codemap.langs import language_family

SELF_RECEIVERS = frozenset({"", "self", "this", "cls", "super()", "Self", "$this", "static"})


@dataclass(frozen=True)
class Definition:
    path: str
    name: str
    kind: str
    line: int
    end_line: int
    scope: str
    signature: str
    exported: bool = False

    @property
    def qualified(self) -> str:
        return f"{self.scope}.{self.name}" if self.scope else self.name


class Resolver:
    """Scores how surely a reference in a file points at one of a name's definitions."""

    def __init__(self, db: sqlite3.Connection, all_defs: list[Definition]) -> None:
        self.db = db
        self.all_defs = all_defs
        self.all_keys = frozenset((d.path, d.line) for d in self.all_defs)
        self.imports: dict[int, list[tuple[str, str, str]]] = {}
        self.families: dict[str, Family] = {}
        self.fetched: set[str] = set()

    def prefetch(self, ref_name: str) -> None:
        """Load, in one query, the imports that can matter to the references to `ref_name`:
        those binding the name itself or the receiver it is called on. Done once, when the
        first reference by this name is resolved here (Python's and JavaScript's never are)."""
        if ref_name in self.fetched:
            return
        self.fetched.add(ref_name)
        rows = self.db.execute(
            """
            SELECT DISTINCT s.file_id, s.name, s.module, s.orig FROM symbols s JOIN (
                SELECT DISTINCT file_id, receiver, CASE WHEN instr(receiver, '.') > 0
                    THEN substr(receiver, 1, instr(receiver, '.') - 1) ELSE receiver END AS head
                FROM refs WHERE name = ?) r
            ON s.file_id = r.file_id AND (s.name = ? OR s.name = r.head OR s.name = r.receiver)
            WHERE s.kind = 'import'""",
            (ref_name, ref_name),
        )
        for fid, *row in rows:
            self.imports.setdefault(fid, []).append(tuple(row))
        for (fid,) in self.db.execute(
            "SELECT DISTINCT file_id FROM refs WHERE name=?", (ref_name,)
        ):
            self.imports.setdefault(fid, [])

    def _imports_of(self, file_id: int) -> list[tuple[str, str, str]]:
        if file_id not in self.imports:
            self.imports[file_id] = self.db.execute(
                "SELECT name, module, orig FROM symbols WHERE file_id=? AND kind='import'",
                (file_id,),
            ).fetchall()
        return self.imports[file_id]

    def _family(self, path: str) -> Family:
        """A Ruby call cannot mean a Java method: keep definitions of the same language family."""
        family = language_family(path)
        if family not in self.families:
            self.families[family] = Family(
                [d for d in self.all_defs if language_family(d.path) == family]
            )
        return self.families[family]

    def resolve(
        self, file_id: int, path: str, name: str, receiver: str
    ) -> tuple[frozenset[tuple[str, int]], float, str]:
        """The definitions (path, line) a reference may mean, the confidence and why."""
        self.prefetch(name)
        head = receiver.split(".")[0].split("(")[0].split("::")[0] if receiver else ""
        family = self._family(path)
        for local, key, imported in self._imports_of(file_id):
            by_name = local == name
            if by_name or (head and local in (head, receiver)):
                hits = family.from_module(key, imported, by_name)
                if hits:
                    return hits, 0.95, "import"
                return frozenset(), 0.0, "external"
        if head[:1].isupper():  # Tax.compute(), Config::new(): a definition owned by `head`
            owned = family.owned_by(head)
            if owned:
                return owned, 0.8, "receiver type"
        if receiver in SELF_RECEIVERS:
            same = family.in_file(path)
            if same:
                return same, 0.9, "same file"
        if len(family.defs) == 1:  # a method call on an unknown object stays a guess
            sure = receiver in SELF_RECEIVERS or head[:1].isupper()
            return family.keys, 0.7 if sure else 0.45, "unique name"
        return family.keys, 0.4 if family.defs else 0.2, "name match"


class Family:
    """One language family's definitions of a name, with the lookups resolution needs, cached."""

    def __init__(self, defs: list[Definition]) -> None:
        self.defs = defs
        self.keys = frozenset((d.path, d.line) for d in defs)
        self.by_suffix: dict[str, list[Definition]] = {}
        for d in defs:
            for stem in module_stems(d.path):
                parts = stem.split("/")
                for i in range(len(parts)):
                    self.by_suffix.setdefault("/".join(parts[i:]), []).append(d)
        self.cache: dict[tuple, frozenset[tuple[str, int]]] = {}

    def _matching(self, key: str) -> list[Definition]:
        if key.startswith("dir:"):
            return [d for d in self.defs if file_matches(key, d.path)]
        return self.by_suffix.get(key, [])

    def from_module(self, key: str, imported: str, by_name: bool) -> frozenset[tuple[str, int]]:
        slot = ("module", key, imported, by_name)
        if slot not in self.cache:
            keys = [key, f"{key}/{imported}"] if imported and imported != "*" else [key]
            exact = imported if by_name and imported not in ("", "*", "default") else ""
            self.cache[slot] = frozenset(
                (d.path, d.line)
                for k in keys
                if k
                for d in self._matching(k)
                if not exact or d.name == exact
            )
        return self.cache[slot]

    def owned_by(self, head: str) -> frozenset[tuple[str, int]]:
        slot = ("owner", head)
        if slot not in self.cache:
            self.cache[slot] = frozenset(
                (d.path, d.line)
                for d in self.defs
                if d.scope == head or d.scope.endswith("." + head)
            )
        return self.cache[slot]

    def in_file(self, path: str) -> frozenset[tuple[str, int]]:
        slot = ("file", path)
        if slot not in self.cache:
            self.cache[slot] = frozenset(k for k in self.keys if k[0] == path)
        return self.cache[slot]
