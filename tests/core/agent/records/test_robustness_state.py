"""Damaged state on disk (transcripts, ledger, home) costs one warning line, never a session."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import provider_env, run_cli
from tests.helpers.fake_llm import HttpError


def _run(llm, workspace: Path, *args: str, task: str = "hi"):
    return run_cli(
        "--dir",
        str(workspace),
        "--provider",
        "openai",
        *args,
        "-p",
        task,
        env=provider_env(llm, "openai"),
    )


def _session_file(home: Path) -> Path:
    (path,) = (home / "sessions").glob("*/*.jsonl")
    return path


def _texts(body: dict) -> list[str]:
    return [
        m["content"] if isinstance(m["content"], str) else json.dumps(m["content"])
        for m in body["messages"]
        if m["role"] != "system"
    ]


# --- transcripts ----------------------------------------------------------------------------
def test_record_after_a_torn_line_is_kept(llm, workspace, isolated_home):
    llm.reply("one")
    assert _run(llm, workspace, task="first task").returncode == 0
    with _session_file(isolated_home).open("a", encoding="utf-8") as fh:
        fh.write('{"type": "message", "message": {"role": "assistant", "bl')  # killed mid-write
    llm.reply("two")
    assert _run(llm, workspace, "--continue", task="second task").returncode == 0
    llm.reply("three")
    proc = _run(llm, workspace, "--continue", task="third task")
    assert proc.returncode == 0, proc.stderr
    sent = _texts(llm.requests[-1].body)
    assert sent[:5] == ["first task", "one", "second task", "two", "third task"], sent


def test_garbage_lines_are_skipped_with_one_warning(llm, workspace, isolated_home):
    llm.reply("one")
    assert _run(llm, workspace, task="first task").returncode == 0
    with _session_file(isolated_home).open("ab") as fh:
        fh.write(
            b'\n\xff\xfe garbage\n[1, 2]\n{"type": "message"}\n'
            b'{"type": "message", "message": {"role": "tool"}}\n"text"\n'
        )
    llm.reply("two")
    proc = _run(llm, workspace, "--continue", task="second task")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    assert "skipped 5 unreadable lines" in proc.stderr
    assert _texts(llm.requests[-1].body) == ["first task", "one", "second task"]


def test_continue_skips_a_session_file_it_cannot_read(llm, workspace, isolated_home):
    llm.reply("one")
    assert _run(llm, workspace, task="first task").returncode == 0
    (_session_file(isolated_home).parent / "99999999-999999-ffffff.jsonl").mkdir()
    llm.reply("two")
    proc = _run(llm, workspace, "--continue", task="second task")
    assert proc.returncode == 0, proc.stderr
    assert _texts(llm.requests[-1].body)[0] == "first task"


@pytest.mark.parametrize("session_id", ["*", "2026*", "[0-9]*", "a?c"])
def test_resume_never_treats_its_argument_as_a_pattern(llm, workspace, tmp_path, session_id):
    other = tmp_path / "other-project"
    other.mkdir()
    llm.reply("secret plans")
    assert _run(llm, other, task="other project's task").returncode == 0
    proc = _run(llm, workspace, "--resume", session_id)
    assert proc.returncode == 2, proc.stdout
    assert "session id" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert len(llm.requests) == 1


# --- the ledger -------------------------------------------------------------------------------
def _usage_json(*args: str) -> dict:
    proc = run_cli("usage", "--json", *args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_usage_sets_a_damaged_ledger_aside(isolated_home):
    (isolated_home / "ledger.db").write_text("not sqlite at all" * 100)
    proc = run_cli("usage")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "damaged" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    (kept,) = isolated_home.glob("ledger.db.corrupt-*")
    assert kept.read_text() == "not sqlite at all" * 100
    assert "No model requests" in proc.stdout
    (isolated_home / "ledger.db").write_text("still not sqlite" * 100)
    zh = run_cli("usage", env={"LANG": "zh_CN.UTF-8", "LC_ALL": ""})
    assert zh.returncode == 0 and zh.stderr.count("\n") == 1, zh.stderr
    assert f"令牌账本 {isolated_home / 'ledger.db'} 已损坏" in zh.stderr
    assert "损坏的文件另存为" in zh.stderr and "ledger.db.corrupt-" in zh.stderr


def test_unreadable_ledger_in_usage_is_one_line(isolated_home):
    db = sqlite3.connect(isolated_home / "ledger.db")
    db.execute("CREATE TABLE requests (x)")
    db.execute("CREATE TABLE rollup (x)")
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    proc = run_cli("usage")
    assert proc.returncode == 1
    assert proc.stderr.startswith("unicum: cannot read the token ledger")
    assert len(proc.stderr.strip().splitlines()) == 1


def test_day_budget_with_a_damaged_ledger_runs_and_records(llm, workspace, isolated_home):
    (isolated_home / "ledger.db").write_bytes(b"garbage")
    llm.reply("ok")
    proc = _run(llm, workspace, "--budget-usd", "5", "--budget-scope", "day")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
    assert "internal error" not in proc.stderr and "damaged" in proc.stderr
    assert list(isolated_home.glob("ledger.db.corrupt-*"))
    report = _usage_json()
    assert report["totals"]["requests"] == 1, report


# --- the home -----------------------------------------------------------------------------------
@pytest.mark.parametrize("spoil", ["home_is_file", "sessions_is_file", "ledger_is_folder"])
def test_unusable_home_is_one_line_exit_2(llm, workspace, tmp_path, spoil):
    env = provider_env(llm, "openai")
    home = tmp_path / "unicum-home"
    if spoil == "home_is_file":
        home = tmp_path / "home-file"
        home.write_text("x")
        env["UNICUM_HOME"] = str(home)
    elif spoil == "sessions_is_file":
        (home / "sessions").write_text("x")
    else:
        (home / "ledger.db").mkdir()
    proc = run_cli("--dir", str(workspace), "--provider", "openai", "-p", "hi", env=env)
    assert proc.returncode == 2, proc.stderr
    line = proc.stderr.strip()
    assert len(line.splitlines()) == 1 and "internal error" not in line
    assert "move it away" in line
    if spoil == "home_is_file":
        assert f"Unicum home {home} is not a folder" in line


# --- --output-format json always prints one object -----------------------------------------------
def test_json_output_on_a_failed_request(llm, workspace):
    llm.add(HttpError(401, "bad key"))
    proc = _run(llm, workspace, "--output-format", "json")
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert out["is_error"] is True and out["result"] is None
    assert "rejected the API key" in out["error"]
    assert out["session_id"] and out["turns"] == 1 and isinstance(out["duration_ms"], int)


def test_json_output_on_a_config_error(workspace):
    proc = run_cli(
        "--dir", str(workspace), "--provider", "openai", "-p", "hi", "--output-format", "json"
    )
    assert proc.returncode == 2
    out = json.loads(proc.stdout)
    assert out["is_error"] is True and "OPENAI_API_KEY" in out["error"]
    assert out["usage"] is None and out["turns"] == 0


@pytest.mark.parametrize("damage", ["whole_file", "table_pages"])
def test_ledger_writer_sets_a_damaged_file_aside_and_keeps_recording(tmp_path, damage):
    from core.ledger import Ledger, connect
    from tests.core.ledger.test_ledger import sample_rows

    path = tmp_path / "ledger.db"
    first = Ledger(path, flush_interval=3600)
    for row in sample_rows(50):
        first.record(row)
    first.close()
    data = bytearray(path.read_bytes())
    start = 0 if damage == "whole_file" else 4096  # page 1 (header, schema) intact or not
    data[start:] = b"\xa5" * (len(data) - start)
    path.write_bytes(bytes(data))

    warnings: list[str] = []
    ledger = Ledger(path, flush_interval=3600, warn=warnings.append)
    for row in sample_rows(2):
        ledger.record(row)
    assert ledger.flush() == 2
    ledger.close()
    assert len(warnings) == 1 and "damaged" in warnings[0], warnings
    (kept,) = tmp_path.glob("ledger.db.corrupt-*")
    assert kept.read_bytes() == bytes(data)
    assert connect(path).execute("SELECT COUNT(*) FROM requests").fetchone()[0] == 2


def test_only_sqlite_corruption_codes_set_a_ledger_aside(tmp_path):
    import sqlite3

    from core.ledger.writer import is_corruption

    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (x UNIQUE)")
    db.execute("INSERT INTO t VALUES (1)")
    try:
        db.execute("INSERT INTO t VALUES (1)")
    except sqlite3.IntegrityError as exc:
        assert not is_corruption(exc)  # a constraint is not a damaged file
    else:
        raise AssertionError("expected an IntegrityError")
    bad = tmp_path / "ledger.db"
    bad.write_bytes(b"this is not a database at all" * 64)
    try:
        sqlite3.connect(bad).execute("SELECT * FROM sqlite_master")
    except sqlite3.DatabaseError as exc:
        assert is_corruption(exc)
    else:
        raise AssertionError("expected a DatabaseError")


def test_a_damaged_ledger_line_reads_in_chinese_when_the_home_has_a_space(tmp_path):
    home = tmp_path / "My Home"
    home.mkdir()
    (home / "ledger.db").write_text("not sqlite at all" * 100)
    zh = run_cli("usage", env={"UNICUM_HOME": str(home), "LANG": "zh_CN.UTF-8", "LC_ALL": ""})
    assert zh.returncode == 0, zh.stderr
    (kept,) = home.glob("ledger.db.corrupt-*")
    assert f"令牌账本 {home / 'ledger.db'} 已损坏" in zh.stderr
    assert zh.stderr.rstrip().endswith(f"，损坏的文件另存为 {kept}")
