"""Skills: SKILL.md files with YAML front matter. Only names and descriptions enter the prompt."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.instructions import project_root
from core.prompts import PromptSection

MAX_DESCRIPTION = 300


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    path: Path  # the SKILL.md file


def skill_dirs(workspace: Path, home: Path) -> list[Path]:
    """User skills first; project skills later, so a project skill overrides a user skill."""
    root = project_root(workspace)
    return [home / "skills", root / ".unicum" / "skills", root / ".claude" / "skills"]


def split_front_matter(text: str) -> tuple[dict, str]:
    """(front matter mapping, body). Text without a `---` block has empty front matter."""
    text = text.lstrip("\ufeff")
    if not text.startswith("---"):
        return {}, text
    end = text.find("\n---", 3)
    if end < 0:
        return {}, text
    import yaml  # only when a skill exists

    try:
        data = yaml.safe_load(text[3:end])
    except yaml.YAMLError:
        data = None
    body = text[end + 4:].split("\n", 1)[1] if "\n" in text[end + 4:] else ""
    return (data if isinstance(data, dict) else {}), body


def read_skill(path: Path) -> Skill | None:
    try:
        meta, _ = split_front_matter(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None
    name = str(meta.get("name") or path.parent.name).strip()
    description = " ".join(str(meta.get("description") or "").split())[:MAX_DESCRIPTION]
    return Skill(name, description, path) if name and description else None


def discover_skills(workspace: Path, home: Path | None = None) -> dict[str, Skill]:
    if home is None:
        from my_agent.config import unicum_home

        home = unicum_home()
    found: dict[str, Skill] = {}
    for folder in skill_dirs(workspace, home):
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*/SKILL.md")):
            skill = read_skill(path)
            if skill:
                found[skill.name] = skill
    return dict(sorted(found.items()))


def skill_body(skill: Skill) -> str:
    _, body = split_front_matter(skill.path.read_text(encoding="utf-8", errors="replace"))
    return body.strip()


def skills_section(workspace: Path, home: Path | None = None) -> PromptSection:
    skills = discover_skills(workspace, home)
    if not skills:
        return PromptSection("skills", "")
    lines = ["Load a skill's full instructions with skill(name) when the task calls for it:"]
    lines += [f"- {s.name}: {s.description}" for s in skills.values()]
    return PromptSection("skills", "\n".join(lines))
