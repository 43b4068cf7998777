"""Skills: SKILL.md files with YAML front matter. Only names and descriptions enter the prompt."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from core.agent.prompts.instructions import project_root
from my_agent.capped import NotRead, read_capped
from my_agent.messages import PromptSection
from my_agent.safe_yaml import UnsafeYaml, load_yaml
from my_agent.trust import changed_extensions, is_trusted
from tools.services import SkillInfo

MAX_DESCRIPTION = 300
MAX_SKILL_BYTES = 256 * 1024  # a larger SKILL.md is skipped before it is parsed


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    path: Path  # the SKILL.md file


def skill_dirs(workspace: Path, home: Path, trusted: bool | None = None) -> list[Path]:
    """User skills first; project skills later, so a project skill overrides a user skill.
    An untrusted folder's skills are not loaded (`trusted` None: as remembered)."""
    if not (is_trusted(workspace, home) if trusted is None else trusted) or changed_extensions(
        workspace, home
    ):
        return [home / "skills"]
    root = project_root(workspace)
    return [home / "skills", root / ".unicum" / "skills", root / ".claude" / "skills"]


class FrontMatterError(ValueError):
    """A SKILL.md whose `---` block is not a YAML mapping."""


def split_front_matter(text: str) -> tuple[dict, str]:
    """(front matter mapping, body). Text without a `---` block has empty front matter;
    a `---` block that is unclosed or not a YAML mapping raises FrontMatterError."""
    text = text.lstrip("\ufeff")
    if not text.startswith("---"):
        return {}, text
    end = text.find("\n---", 3)
    if end < 0:
        raise FrontMatterError("the front matter's closing --- is missing")
    import yaml  # only when a skill exists

    try:
        data = load_yaml(text[3:end])
    except UnsafeYaml as exc:
        raise FrontMatterError(f"its front matter is refused ({exc})") from None
    except yaml.YAMLError as exc:
        raise FrontMatterError(
            f"the front matter is not valid YAML ({str(exc).splitlines()[0]})"
        ) from None
    if data is not None and not isinstance(data, dict):
        raise FrontMatterError("the front matter is not a mapping of name/description")
    body = text[end + 4 :].split("\n", 1)[1] if "\n" in text[end + 4 :] else ""
    return data or {}, body


def _text(path: Path) -> str:
    from tools.textfile import decode_text  # the one decoding rule (GBK SKILL.md files too)

    try:
        return decode_text(read_capped(path, MAX_SKILL_BYTES))
    except NotRead as exc:
        raise FrontMatterError(exc.why) from exc


def read_skill(path: Path, warnings: list[str] | None = None) -> Skill | None:
    """The skill in `path`, or None; why a SKILL.md is skipped goes to `warnings`."""
    try:
        if not path.exists():
            return None
        meta, _ = split_front_matter(_text(path))
    except OSError:
        return None
    except FrontMatterError as exc:
        if warnings is not None:
            warnings.append(f"skill {path} skipped: {exc}")
        return None
    name = str(meta.get("name") or path.parent.name).strip()
    description = " ".join(str(meta.get("description") or "").split())[:MAX_DESCRIPTION]
    if not (name and description):
        if warnings is not None:
            warnings.append(f"skill {path} skipped: its front matter has no description")
        return None
    return Skill(name, description, path)


def discover_skills(
    workspace: Path,
    home: Path | None = None,
    warnings: list[str] | None = None,
    trusted: bool | None = None,
) -> dict[str, Skill]:
    if home is None:
        from my_agent.home import unicum_home

        home = unicum_home()
    found: dict[str, Skill] = {}
    for folder in skill_dirs(workspace, home, trusted):
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*/SKILL.md")):
            skill = read_skill(path, warnings)
            if skill:
                found[skill.name] = skill
    return dict(sorted(found.items()))


class SkillBook:
    """The skills a session can load, found afresh on each lookup (the `skill` tool's service)."""

    def __init__(self, workspace: Path, home: Path, trusted: bool | None = None) -> None:
        self.workspace, self.home, self.trusted = workspace, home, trusted

    def all(self) -> dict[str, Skill]:
        return discover_skills(self.workspace, self.home, trusted=self.trusted)

    def body(self, skill: SkillInfo) -> str:
        return skill_body(skill)


def skill_body(skill: SkillInfo) -> str:
    _, body = split_front_matter(_text(skill.path))
    return body.strip()


def skills_section(
    workspace: Path,
    home: Path | None = None,
    warnings: list[str] | None = None,
    trusted: bool | None = None,
) -> PromptSection:
    skills = discover_skills(workspace, home, warnings, trusted)
    if not skills:
        return PromptSection("skills", "")
    lines = ["Load a skill's full instructions with skill(name) when the task calls for it:"]
    lines += [f"- {s.name}: {s.description}" for s in skills.values()]
    return PromptSection("skills", "\n".join(lines))
