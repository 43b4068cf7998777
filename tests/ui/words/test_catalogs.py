"""The catalogs: every message the code marks has a translation in every language, with the
same placeholders; the compiled catalogs are the `.po` files; no Chinese is written in code."""

from __future__ import annotations

import ast
import gettext
import re

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from tests.conftest import ROOT
from ui.words import Strings
from ui.words.catalog import DOMAIN, LOCALE_DIR, languages
from ui.words.lines import FIELD, LINE_TEMPLATES, fields

KEYWORDS = {"t": None, "tn": (1, 2), "N_": None}  # as ui/words/babel.cfg's command says
OTHER_LANGS = [lang for lang in languages() if lang != "en"]
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def extracted() -> set[str | tuple[str, str]]:
    found = extract_from_dir(str(ROOT / "ui"), method_map=[("**.py", "python")], keywords=KEYWORDS)
    return {message for _, _, message, _, _ in found}


def called() -> set[str | tuple[str, str]]:
    """Every message a `t`, `tn` or `N_` call names with literals, f-strings' insides included."""
    found: set[str | tuple[str, str]] = set()
    for path in (ROOT / "ui").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if name in ("t", "N_") and args and isinstance(args[0], str):
                found.add(args[0])
            elif name == "tn" and len(args) >= 2 and all(isinstance(a, str) for a in args[:2]):
                found.add((args[0], args[1]))
    return found


def test_the_extractor_sees_every_message():
    """A call Babel cannot see (inside an f-string) would never be translated."""
    assert sorted(map(str, called() - extracted())) == []


def catalog(lang: str):
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def test_zh_is_a_catalog():
    assert "zh" in OTHER_LANGS


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_every_marked_message_has_a_translation(lang):
    po = catalog(lang)
    translated = {
        m.id
        for m in po
        if m.id and all(m.string if isinstance(m.string, tuple) else [m.string]) and not m.fuzzy
    }
    missing = sorted(map(str, extracted() - translated))
    assert missing == []
    assert not po.fuzzy and not [m.id for m in po if m.id and m.fuzzy]


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_translations_keep_the_placeholders(lang):
    """`{x:tr}` counts as x; `{_x}` (matched, may be dropped) need not appear."""
    wrong = []
    for message in catalog(lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        need = {f for f in fields(ids[-1]) if not f.startswith("_")}
        for text in strings:
            if not need <= fields(text) <= fields(ids[-1]):
                wrong.append((ids[0], text))
    assert wrong == []


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_the_compiled_catalog_is_the_po_file(lang):
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as f:
        compiled = gettext.GNUTranslations(f)
    for message in catalog(lang):
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            assert compiled.ngettext(*message.id, 2) == message.string[0], message.id
        else:
            assert compiled.gettext(message.id) == message.string, message.id


def test_no_words_of_another_language_are_written_in_the_code():
    """Chinese lives in the catalogs only: a literal in ui/ or cli.py is a missed message."""
    sources = [ROOT / "cli.py", *(ROOT / "ui").rglob("*.py")]
    written = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in sources
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if CJK.search(line)
    ]
    assert written == []


def test_the_checks_can_fail():
    """A message with a placeholder its translation lost is caught by `fields`."""
    assert fields("{n} files restored ({paths})") - fields("恢复 {n} 个文件") == {"paths"}
    assert FIELD.findall("{q:tr} and {_rest}") == [("q", "tr"), ("_rest", "")]


def test_core_lines_follow_the_catalog_and_english_is_untouched():
    zh, en = Strings("zh"), Strings("en")
    line = "Run `rm -rf build`? It is destructive (rm -rf: deletes files for good)."
    assert en.line(line) == line
    assert zh.line(line) == "运行 `rm -rf build`？这是危险操作（rm -rf：会永久删除文件）。"
    said = "the request to zhipu failed (connection dropped): boom [server: try later]"
    assert zh.line(said) == "向 zhipu 的请求失败（连接中断）：boom［服务器：try later］"
    assert zh.line("a line no catalog knows") == "a line no catalog knows"
    assert all(zh.catalog.gettext(t) != t for t in LINE_TEMPLATES)


def test_a_count_is_said_as_the_language_counts():
    en, zh = Strings("en"), Strings("zh")
    one, many = "{n} file restored ({paths})", "{n} files restored ({paths})"
    assert en.tn(one, many, 1, n=1, paths="a") == "1 file restored (a)"
    assert en.tn(one, many, 2, n=2, paths="a, b") == "2 files restored (a, b)"
    assert zh.tn(one, many, 1, n=1, paths="a") == "恢复 1 个文件（a）"
