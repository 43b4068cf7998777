"""Memory and ledger lines about damaged files (core.memory.file, core.ledger.writer) in
Chinese, for ui.words.core_lines."""

from __future__ import annotations

import re

_WHAT = {"memory file": "记忆文件", "memory journal": "记忆日志"}
_UNIT = {"entry": "条记录", "entries": "条记录", "line": "行", "lines": "行"}

STORE_PATTERNS = [
    (
        re.compile(
            r"(?P<w>memory file|memory journal) (?P<p>.+?): (?P<n>\d+) unreadable "
            r"(?P<u>entry|entries|line|lines) kept as (?P<k>\S+)"
        ),
        lambda m: f"{_WHAT[m['w']]} {m['p']}：{m['n']} {_UNIT[m['u']]}无法读取，已另存为 {m['k']}",
    ),
    (
        re.compile(
            r"(?P<w>memory file|memory journal) (?P<p>.+?) has unreadable (?P<u>entries|lines) "
            r"that could not be kept aside \((?P<e>.+)\); memory is off for it this session",
            re.S,
        ),
        lambda m: (
            f"{_WHAT[m['w']]} {m['p']} 有无法读取的{_UNIT[m['u']]}，且无法另存（{m['e']}）；"
            "本次会话不再使用该记忆"
        ),
    ),
    (
        re.compile(
            r"memory file (?P<p>.+?) was unreadable \((?P<e>.+)\); kept as (?P<k>\S+); "
            r"starting with empty memory",
            re.S,
        ),
        lambda m: f"记忆文件 {m['p']} 无法读取（{m['e']}）；已另存为 {m['k']}，从空记忆开始",
    ),
    (
        re.compile(
            r"memory file (?P<p>.+?) is unreadable \((?P<e>.+)\) and could not be moved aside "
            r"\((?P<x>.+)\); memory is off for it this session",
            re.S,
        ),
        lambda m: (
            f"记忆文件 {m['p']} 无法读取（{m['e']}），也无法移开（{m['x']}）；本次会话不再使用该记忆"
        ),
    ),
    (
        re.compile(
            r"the token ledger (?P<p>.+?) was damaged \((?P<e>.+?)\); started a new one"
            r"(?:; the damaged file is kept as (?P<k>.+))?",
            re.S,
        ),
        lambda m: (
            f"令牌账本 {m['p']} 已损坏（{m['e']}）；已新建一个"
            + (f"，损坏的文件另存为 {m['k']}" if m["k"] else "")
        ),
    ),
]
