"""Core's English lines (as the model sees them) in the person's language.

Core never changes what it says. Each line it may show is a template in the catalogs
(`lines_*.py`): `{x}` matches any text, `{x:tr}` is translated in turn (a word of the catalogs or
another line), `{x:trlist}` is a "; " list of such reasons (`label: reason` items keep the label),
and `{_x}` is matched but may be left out of a translation. The most specific template (the most
literal text) is tried first; a line no template matches is shown as it is."""

from __future__ import annotations

import gettext
import re
import string
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ui.words.catalog import N_
from ui.words.lines_agent import LINES_AGENT
from ui.words.lines_memory import MEMORY_LINES
from ui.words.lines_model import LINES_MODEL
from ui.words.lines_tools import LINES_TOOLS
from ui.words.lines_words import VALUE_TEMPLATES
from ui.words.tables import LABELLED, LIST_SEPARATOR

FIELD = re.compile(r"\{(\w+)(?::(\w+))?\}")
SAID = N_("{line:tr} [server: {said}]")  # tried first: the server's words end many error lines


@dataclass(frozen=True)
class Template:
    message: str  # the English template, the catalog's msgid
    pattern: re.Pattern[str]
    literal: int  # characters of fixed text: more is more specific


def fields(message: str) -> set[str]:
    """The placeholders of a template or a translation (`{x:tr}` counts as x)."""
    return {m.group(1) for m in FIELD.finditer(message)}


def compile_template(message: str) -> Template:
    parts, pos, literal = [], 0, 0
    for m in FIELD.finditer(message):
        parts += [re.escape(message[pos : m.start()]), f"(?P<{m.group(1)}>.+?)"]
        literal += m.start() - pos
        pos = m.end()
    parts.append(re.escape(message[pos:]))
    literal += len(message) - pos
    return Template(message, re.compile("".join(parts), re.S), literal)


@lru_cache(maxsize=4)
def templates(messages: tuple[str, ...]) -> tuple[Template, ...]:
    compiled = [compile_template(m) for m in messages]
    return tuple(sorted(compiled, key=lambda t: -t.literal))


LINE_TEMPLATES = (SAID, *LINES_TOOLS, *LINES_AGENT, *LINES_MODEL)


class LineTranslator(string.Formatter):
    """Translates core lines with one catalog; `format_field` does the `:tr` fields."""

    def __init__(self, catalog: gettext.NullTranslations) -> None:
        self.catalog = catalog

    def line(self, text: str) -> str:
        stripped = text.strip()
        said = templates((SAID,))[0].pattern.fullmatch(stripped)
        if said:
            return self._render(SAID, said)
        return self._first(stripped, LINE_TEMPLATES) or text

    def entry(self, content: str) -> str:
        return self._first(content, MEMORY_LINES) or content

    def value(self, text: str) -> str:
        """A word or a part of a line: the catalog's own entry, a value template, or a line."""
        word = self.catalog.gettext(text)  # LINE_WORDS and every other entry of the catalog
        if word != text:
            return word
        return self._first(text, VALUE_TEMPLATES) or self._first(text, LINE_TEMPLATES) or text

    def format_field(self, value: object, format_spec: str) -> str:
        if format_spec == "tr":
            return self.value(str(value))
        if format_spec == "trlist":
            return self.catalog.gettext(LIST_SEPARATOR).join(
                self._labelled(part) for part in str(value).split("; ")
            )
        return super().format_field(value, format_spec)

    def _labelled(self, part: str) -> str:
        label, sep, reason = part.partition(": ")
        if not sep:
            return self.value(part)
        return self.catalog.gettext(LABELLED).format(label=label, reason=self.value(reason))

    def _first(self, text: str, messages: tuple[str, ...]) -> str | None:
        for template in templates(messages):
            match = template.pattern.fullmatch(text)
            if match:
                return self._render(template.message, match)
        return None

    def _render(self, message: str, match: re.Match[str]) -> str:
        translated = self.catalog.gettext(message)
        if translated == message:  # no translation: the line as core said it
            return match.string
        return self.format(translated, **match.groupdict())


def relative_paths(question: str, workspace: Path | None) -> str:
    """Absolute paths inside `workspace` shown relative to it ("Write calc.py?")."""
    if workspace is None:
        return question
    for root in dict.fromkeys((str(workspace), str(workspace.resolve()))):
        root = root.rstrip("/")
        question = re.sub(r"(?<![\w/.~-])" + re.escape(root) + r"/(?=[^\s/])", "", question)
    return question
