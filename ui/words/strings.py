"""The screen's words in the person's language: `--lang` wins, else the locale decides.

English is the source (`s.t("resumed session {id} ({n} messages)", id=…, n=…)`); other languages
come from the gettext catalogs (ui/words/catalog.py). Core's English lines go through
`ui.words.lines`, with the same catalogs."""

from __future__ import annotations

import os

from ui.words.catalog import languages, translations
from ui.words.lines import LineTranslator
from ui.words.tables import CORE_STOPS, INTERRUPTED_OTHER, RETRY_REASONS


def detect_lang(environ: dict[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var, "")
        if value:
            code = value.split("_")[0].split(".")[0].lower()
            return code if code in languages() else "en"
    return "en"


class Strings:
    def __init__(self, lang: str | None = None) -> None:
        self.lang = lang or detect_lang()
        self.catalog = translations(self.lang)
        self._lines = LineTranslator(self.catalog)

    def t(self, message: str, **values: object) -> str:
        text = self.catalog.gettext(message)
        return text.format(**values) if values else text

    def tn(self, singular: str, plural: str, count: int, **values: object) -> str:
        """`singular` or `plural` by `count`, as the language counts."""
        return self.catalog.ngettext(singular, plural, count).format(**values)

    def core(self, line: str) -> str:
        """A known core stop line in this language; an unknown one as it is (marked in others)."""
        known = CORE_STOPS.get(line.strip())
        if known:
            return self.t(known)
        if self.lang != "en" and line.startswith("interrupted"):
            return self.t(INTERRUPTED_OTHER, line=line)
        return line

    def line(self, text: str) -> str:
        """A line from core or a tool (a question, a budget or error line) in this language."""
        return text if self.lang == "en" else self._lines.line(text)

    def entry(self, content: str) -> str:
        """An automatic memory entry's text (core.memory's rules) in this language."""
        return content if self.lang == "en" else self._lines.entry(content)

    def reason(self, reason: str) -> str:
        """A retry reason ("HTTP 429", "connection dropped", an SDK class name) in words."""
        for pattern, with_reason, alone in RETRY_REASONS:
            if pattern.search(reason):
                if reason.startswith("HTTP"):
                    return self.t(with_reason, reason=reason)
                return self.t(alone)
        return reason
