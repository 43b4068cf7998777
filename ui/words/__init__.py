"""The words of the screen in English and Chinese: English source strings, gettext catalogs."""

from __future__ import annotations

from my_agent.lazy import TYPE_CHECKING, lazy_face

if TYPE_CHECKING:  # the same names for type checkers and the import-graph test
    from ui.words.catalog import N_, languages
    from ui.words.lines import relative_paths
    from ui.words.strings import Strings, detect_lang
    from ui.words.tables import APPROVE_WORDS, PHASE_WORDS, SCOPE_WORDS, STOP_WORDS

_WHERE = {
    "APPROVE_WORDS": "ui.words.tables",
    "N_": "ui.words.catalog",
    "PHASE_WORDS": "ui.words.tables",
    "SCOPE_WORDS": "ui.words.tables",
    "STOP_WORDS": "ui.words.tables",
    "Strings": "ui.words.strings",
    "detect_lang": "ui.words.strings",
    "languages": "ui.words.catalog",
    "relative_paths": "ui.words.lines",
}

__all__ = [
    "APPROVE_WORDS",
    "N_",
    "PHASE_WORDS",
    "SCOPE_WORDS",
    "STOP_WORDS",
    "Strings",
    "detect_lang",
    "languages",
    "relative_paths",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)
