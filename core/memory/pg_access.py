"""Who may read and write a project's shared memory, decided by PostgreSQL: row-level
security on `memory_entries` and `memory_scopes` lets a database role see a scope's rows only
when it is one of that scope's members (`memory_members`; a member may be a group role, and
`public` means every role). The first role to write to a scope nobody holds becomes its member;
members add others (`INSERT INTO memory_members VALUES ('project:<name>', 'bob')`). So a
repository that names another project's origin gets nothing of it: the scope string the client
sends picks rows, the database decides whether it may have them.

The tables' owner (who ran the migration: the team's admin role) and superusers are not
limited by the member table: team members connect as their own, ordinary roles. Scopes written
before this migration stay open to every role (`public`) until their members are narrowed.
"""

from __future__ import annotations

from typing import Any

# `who`: the caller's role, passed by the policy (inside a SECURITY DEFINER function
# current_user is the function's owner)
MAY_USE = """CREATE OR REPLACE FUNCTION unicum_may_use(s TEXT, who NAME) RETURNS BOOLEAN
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  SELECT EXISTS (SELECT 1 FROM public.memory_members m WHERE m.scope = s AND (
      m.member = 'public' OR m.member = who
      OR (EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = m.member)
          AND pg_has_role(who, m.member, 'MEMBER'))))
$$"""
CLAIM = """CREATE OR REPLACE FUNCTION unicum_claim(s TEXT) RETURNS BOOLEAN
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('unicum-claim:' || s, 0));
  IF NOT EXISTS (SELECT 1 FROM public.memory_members WHERE scope = s) THEN
    INSERT INTO public.memory_members VALUES (s, session_user);
  END IF;
  RETURN public.unicum_may_use(s, session_user);
END $$"""


def m003_members(conn: Any) -> None:
    """The member table, the two functions and the policies (see the module's docstring)."""
    conn.execute(
        "CREATE TABLE memory_members (scope TEXT NOT NULL, member NAME NOT NULL, "
        "PRIMARY KEY (scope, member))"
    )
    conn.execute(
        "INSERT INTO memory_members SELECT DISTINCT scope, 'public' FROM memory_entries "
        "UNION SELECT scope, 'public' FROM memory_scopes"
    )
    conn.execute(MAY_USE)
    conn.execute(CLAIM)
    for table in ("memory_entries", "memory_scopes"):
        conn.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        conn.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        conn.execute(
            f"CREATE POLICY members ON {table} USING (unicum_may_use(scope, current_user)) "
            "WITH CHECK (unicum_may_use(scope, current_user))"
        )
        conn.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {table} TO PUBLIC")
    conn.execute("ALTER TABLE memory_members ENABLE ROW LEVEL SECURITY")
    conn.execute(
        "CREATE POLICY members ON memory_members USING (unicum_may_use(scope, current_user)) "
        "WITH CHECK (unicum_may_use(scope, current_user))"
    )
    conn.execute("GRANT SELECT, INSERT, DELETE ON memory_members TO PUBLIC")
    conn.execute("REVOKE ALL ON FUNCTION unicum_claim(TEXT) FROM PUBLIC")
    conn.execute("GRANT EXECUTE ON FUNCTION unicum_claim(TEXT) TO PUBLIC")


def claim(conn: Any, scope: str) -> bool:
    """Hold `scope` when nobody does; whether this role may use it."""
    row = conn.execute("SELECT unicum_claim(%s)", (scope,)).fetchone()
    return bool(row and row[0])
