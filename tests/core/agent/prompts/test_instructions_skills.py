"""Instruction-file hierarchy and @imports; skills listed by name and loaded on demand."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.agent import loaded_instruction_files
from core.agent.extensions.skills import discover_skills, skills_section
from core.agent.prompts.instructions import instructions_section, load_instructions
from core.agent.session.services import tool_services
from tools.base import ToolContext
from tools.registry import Registry


def put(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def tree(tmp_path: Path, isolated_home: Path) -> dict[str, Path]:
    """outer/ (not in git) > repo/ (.git) > repo/sub > repo/sub/pkg (the --dir)."""
    user = tmp_path / "user"
    repo = tmp_path / "outer" / "repo"
    (repo / ".git").mkdir(parents=True)
    put(tmp_path / "outer" / "AGENTS.md", "OUTSIDE-GIT must not load")
    put(isolated_home / "UNICUM.md", "HOME-UNICUM")
    put(user / ".claude" / "CLAUDE.md", "USER-CLAUDE")
    put(
        repo / "AGENTS.md",
        "ROOT-AGENTS\nSee @docs/style.md for style. Mail me@example.com.\n"
        "Not `@docs/secret.md` in a code span.\n```\n@docs/fenced.md\n```\n",
    )
    put(repo / "CLAUDE.local.md", "ROOT-LOCAL")
    put(repo / "docs" / "style.md", "STYLE-GUIDE\n@chain/1.md\n@../AGENTS.md\n")
    for i in range(1, 8):
        put(repo / "docs" / "chain" / f"{i}.md", f"CHAIN-{i}\n@{i + 1}.md\n")
    put(repo / "docs" / "secret.md", "SECRET-SPAN")
    put(repo / "docs" / "fenced.md", "SECRET-FENCE")
    put(repo / "sub" / "CLAUDE.md", "SUB-CLAUDE")
    pkg = repo / "sub" / "pkg"
    put(pkg / "UNICUM.md", "PKG-UNICUM")
    put(pkg / "AGENTS.md", "PKG-AGENTS 中文说明")
    return {"home": isolated_home, "user": user, "repo": repo, "pkg": pkg}


def test_hierarchy_from_user_level_to_dir(tree):
    files = load_instructions(tree["pkg"], tree["home"], tree["user"])
    tags = [f.text.split()[0] for f in files]
    assert tags == [
        "HOME-UNICUM",
        "USER-CLAUDE",
        "ROOT-AGENTS",
        "ROOT-LOCAL",
        "SUB-CLAUDE",
        "PKG-AGENTS",
        "PKG-UNICUM",
    ]


def test_imports_expand_outside_code_with_depth_limit_and_no_cycles(tree):
    root = load_instructions(tree["pkg"], tree["home"], tree["user"])[2]
    text = root.text
    assert text.index("See @docs/style.md") < text.index("STYLE-GUIDE")
    assert "SECRET-SPAN" not in text and "SECRET-FENCE" not in text
    # style.md is depth 1, chain/1.md depth 2 ... chain/4.md depth 5; chain/5.md is not expanded
    assert all(f"CHAIN-{i}" in text for i in range(1, 5))
    assert "CHAIN-5" not in text
    assert text.count("ROOT-AGENTS") == 1  # the import back to AGENTS.md is a cycle
    assert [p.name for p in root.imported] == ["style.md", "1.md", "2.md", "3.md", "4.md"]


def test_section_and_loaded_list(tree):
    section = instructions_section(tree["pkg"], tree["home"], tree["user"])
    assert section.name == "instructions"
    assert "OUTSIDE-GIT" not in section.text
    assert "### sub/pkg/AGENTS.md\nPKG-AGENTS 中文说明" in section.text
    names = loaded_instruction_files(tree["pkg"], tree["home"], tree["user"])
    assert "AGENTS.md" in names and "docs/style.md (imported)" in names
    assert "sub/pkg/UNICUM.md" in names and str(tree["home"] / "UNICUM.md") in names


def test_gbk_instruction_file_is_read(tmp_path: Path, isolated_home: Path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "AGENTS.md").write_bytes("请用中文回答".encode("gbk"))
    section = instructions_section(ws, isolated_home, tmp_path / "nobody")
    assert "请用中文回答" in section.text


def skill(folder: Path, name: str, description: str, body: str) -> None:
    put(folder / name / "SKILL.md", f"---\nname: {name}\ndescription: {description}\n---\n{body}\n")


def test_skills_listed_by_name_and_loaded_by_the_tool(tmp_path: Path, isolated_home: Path):
    ws = tmp_path / "ws"
    skill(isolated_home / "skills", "deploy", "Ship to production", "USER DEPLOY BODY")
    skill(isolated_home / "skills", "release", "Cut a release", "RELEASE BODY")
    skill(ws / ".unicum" / "skills", "migrate", "Write a DB migration", "MIGRATE BODY")
    skill(ws / ".claude" / "skills", "deploy", "Deploy this project", "PROJECT DEPLOY BODY")
    put(ws / ".claude" / "skills" / "broken" / "SKILL.md", "---\nname: [unclosed\n---\nx\n")
    assert sorted(discover_skills(ws, isolated_home)) == ["deploy", "migrate", "release"]
    text = skills_section(ws, isolated_home).text
    assert "- deploy: Deploy this project" in text and "- migrate: Write a DB migration" in text
    assert "BODY" not in text and "skill(name)" in text
    ctx = ToolContext(workspace=ws, home=isolated_home, services=tool_services(ws, isolated_home))
    out = Registry.default().execute("skill", {"name": "deploy"}, ctx)
    assert not out.is_error and "PROJECT DEPLOY BODY" in out.content
    assert "---" not in out.content
    out = Registry.default().execute("skill", {"name": "nope"}, ctx)
    assert out.is_error and "deploy, migrate, release" in out.content


def test_no_skills_no_section(tmp_path: Path, isolated_home: Path):
    assert skills_section(tmp_path, isolated_home).text == ""
