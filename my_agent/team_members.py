"""Who may use a project's rows in the team database, decided by PostgreSQL: one member table
(`memory_members`: scope, member role) read by the row-level security policies of the shared
memory (`core/memory/pg_access.py`) and of the ledger (`core/ledger/pg.py`), so a project has
one set of members for both. A scope is `project:<name>` (or another memory scope); a member
is a role, a group role, or `public` (every role). The first role to write to a scope nobody
holds becomes its member (`unicum_claim`); members add others (`INSERT INTO memory_members
VALUES ('project:<name>', 'bob')`). The tables' owner (the team's admin, who ran the migrations)
and superusers are not limited: team members connect as their own, ordinary roles.

`ensure_members` is idempotent: whichever component migrates first creates the table, the
functions and the table's own policy; the other finds them there.
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
POLICY = "USING (unicum_may_use({scope}, current_user)) WITH CHECK (unicum_may_use({scope}, current_user))"


def ensure_members(conn: Any) -> None:
    """The member table, the two functions and the table's own policy (members see and add
    the members of their scopes), made when missing."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS memory_members (scope TEXT NOT NULL, member NAME NOT NULL, "
        "PRIMARY KEY (scope, member))"
    )
    conn.execute(MAY_USE)
    conn.execute(CLAIM)
    conn.execute("ALTER TABLE memory_members ENABLE ROW LEVEL SECURITY")
    conn.execute("DROP POLICY IF EXISTS members ON memory_members")
    conn.execute(f"CREATE POLICY members ON memory_members {POLICY.format(scope='scope')}")
    conn.execute("GRANT SELECT, INSERT, DELETE ON memory_members TO PUBLIC")
    conn.execute("REVOKE ALL ON FUNCTION unicum_claim(TEXT) FROM PUBLIC")
    conn.execute("GRANT EXECUTE ON FUNCTION unicum_claim(TEXT) TO PUBLIC")


def open_to_all(conn: Any, scopes_sql: str) -> None:
    """Scopes written before their rows were limited stay open to every role (`public`) until
    their members are narrowed; a scope that already has members keeps only those."""
    conn.execute(
        f"INSERT INTO memory_members SELECT DISTINCT s.scope, 'public' FROM ({scopes_sql}) s "
        "WHERE NOT EXISTS (SELECT 1 FROM memory_members m WHERE m.scope = s.scope) "
        "ON CONFLICT DO NOTHING"
    )


def limit_rows(conn: Any, table: str, scope_sql: str) -> None:
    """Row-level security on `table`: a role sees and writes a row only as a member of the
    row's scope (`scope_sql`, an expression over the row's columns)."""
    conn.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
    conn.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
    conn.execute(f"CREATE POLICY members ON {table} {POLICY.format(scope=scope_sql)}")


def claim(conn: Any, scope: str) -> bool:
    """Hold `scope` when nobody does; whether this role may use it."""
    row = conn.execute("SELECT unicum_claim(%s)", (scope,)).fetchone()
    return bool(row and row[0])
