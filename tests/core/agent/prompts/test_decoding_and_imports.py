"""Instruction-file imports stay inside the project and user folders; one text decoder for
files, instruction files, skills and command output."""

from __future__ import annotations

import os
from pathlib import Path

from core.agent.extensions.skills import discover_skills, skills_section
from core.agent.prompts.instructions import instructions_section, load_instructions
from tests.conftest import provider_env, run_cli
from tests.helpers.tool_helpers import make_ctx, run

KEY = "fake-imported-key"


def test_imports_cannot_reach_keys_or_system_files(
    tmp_path: Path, isolated_home: Path, monkeypatch
):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (isolated_home / ".env").write_text(f"OPENAI_API_KEY={KEY}\n")
    (tmp_path / "outside.md").write_text("OUTSIDE-TEXT\n")
    (repo / "link.md").symlink_to(tmp_path / "outside.md")
    (repo / ".env.local").write_text("LOCAL-ENV-TEXT\n")
    (repo / "docs.md").write_text("DOCS-TEXT\n")
    (repo / "AGENTS.md").write_text(
        f"Rules.\n@/proc/self/environ\n@{isolated_home}/.env\n@~/.unicum-agent/.env\n"
        f"@../outside.md\n@link.md\n@.env.local\n@/etc/hostname\n@docs.md\nkey {KEY}\n"
    )
    text = instructions_section(repo, isolated_home, tmp_path / "user").text
    assert "DOCS-TEXT" in text  # imports inside the project still work
    for leaked in ("OUTSIDE-TEXT", "LOCAL-ENV-TEXT", "PATH=", "OPENAI_API_KEY=", KEY):
        assert leaked not in text, leaked
    assert "[redacted]" in text
    # the user-level folders may import their own files
    (isolated_home / "style.md").write_text("HOME-STYLE\n")
    (isolated_home / "UNICUM.md").write_text("@style.md\n")
    assert "HOME-STYLE" in load_instructions(repo, isolated_home, tmp_path / "user")[0].text


def test_utf8_file_with_one_stray_byte_reads_edits_and_round_trips(workspace, isolated_home):
    raw = "# 说明：中文注释\nname = '数据'\n".encode() + b"bad \xff byte\nend = 1\n"
    (workspace / "m.py").write_bytes(raw)
    ctx = make_ctx(workspace, isolated_home)
    out = run(ctx, "read_file", path="m.py")
    assert "中文注释" in out.content and "数据" in out.content and "\ufffd" in out.content
    assert out.data["encoding"] == "utf-8" and "invalid" in out.content
    edit = run(ctx, "edit_file", path="m.py", old_string="数据", new_string="资料")
    assert not edit.is_error, edit.content
    assert (workspace / "m.py").read_bytes() == raw.replace("数据".encode(), "资料".encode())
    run(ctx, "write_file", path="m.py", content="tail = 2\n", append=True)
    assert (workspace / "m.py").read_bytes().endswith(b"bad \xff byte\nend = 1\ntail = 2\n")


def test_gbk_skill_description_and_terminal_share_the_decoder(tmp_path: Path, isolated_home):
    folder = isolated_home / "skills" / "deploy"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_bytes(
        "---\nname: deploy\ndescription: 发布到生产环境\n---\n步骤\n".encode("gbk")
    )
    assert "发布到生产环境" in skills_section(tmp_path, isolated_home).text
    ctx = make_ctx(tmp_path, isolated_home)
    out = run(ctx, "terminal", command=r"printf '\xb7\xa2\xb2\xbc\n'")  # 发布 in GBK
    assert "发布" in out.content


def test_malformed_skill_front_matter_warns(tmp_path: Path, isolated_home: Path, llm):
    for name, text in (
        ("broken", "---\nname: [unclosed\n---\nx\n"),
        ("open", "---\nname: open\ndescription: never closed\n"),
        ("empty", "---\nname: empty\n---\nbody\n"),
    ):
        (isolated_home / "skills" / name).mkdir(parents=True)
        (isolated_home / "skills" / name / "SKILL.md").write_text(text)
    warnings: list[str] = []
    assert discover_skills(tmp_path, isolated_home, warnings) == {}
    assert len(warnings) == 3 and all("skipped" in w for w in warnings)
    llm.reply("ok")
    env = {**provider_env(llm, "openai"), "UNICUM_HOME": os.environ["UNICUM_HOME"]}
    proc = run_cli("--dir", str(tmp_path), "-p", "hi", "--provider", "openai", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "broken/SKILL.md skipped" in proc.stderr and "not valid YAML" in proc.stderr
