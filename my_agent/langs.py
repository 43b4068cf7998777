"""The one table of file extensions → language names: facts, memory and the code map read it."""

from __future__ import annotations

from pathlib import PurePosixPath

LANGUAGES: dict[str, str] = {
    ".py": "Python",
    ".pyi": "Python",
    ".cjs": "JavaScript",
    ".js": "JavaScript",
    ".jsx": "JavaScript",
    ".mjs": "JavaScript",
    ".cts": "TypeScript",
    ".mts": "TypeScript",
    ".ts": "TypeScript",
    ".tsx": "TypeScript",
    ".go": "Go",
    ".rs": "Rust",
    ".java": "Java",
    ".kt": "Kotlin",
    ".scala": "Scala",
    ".swift": "Swift",
    ".dart": "Dart",
    ".c": "C",
    ".h": "C",
    ".cc": "C++",
    ".cpp": "C++",
    ".cxx": "C++",
    ".hh": "C++",
    ".hpp": "C++",
    ".hxx": "C++",
    ".cs": "C#",
    ".rb": "Ruby",
    ".php": "PHP",
    ".ex": "Elixir",
    ".exs": "Elixir",
    ".heex": "HEEx",
    ".lua": "Lua",
    ".r": "R",
    ".jl": "Julia",
    ".sh": "Shell",
    ".sql": "SQL",
    ".html": "HTML",
    ".css": "CSS",
    ".scss": "SCSS",
    ".vue": "Vue",
    ".svelte": "Svelte",
    ".md": "Markdown",
    ".rst": "reST",
    ".json": "JSON",
    ".toml": "TOML",
    ".yaml": "YAML",
    ".yml": "YAML",
    ".txt": "text",
    ".cfg": "config",
    ".ini": "config",
}
NAMED_FILES = frozenset({"Makefile", "Dockerfile"})  # files whose name is their language


def language_of(path: str) -> str:
    """The language of a path as a person names it ("Python", "C++"), or "" when unknown;
    quotes around the path (as a shell command holds it) are ignored."""
    name = PurePosixPath(path.strip().strip("'\"")).name
    if name in NAMED_FILES:
        return name
    return LANGUAGES.get(PurePosixPath(name).suffix.lower(), "")
