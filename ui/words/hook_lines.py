"""Lines about the user's hooks (core.agent.extensions.user_hooks, the Stop cap in core.agent.loop.agent) in
Chinese, for `ui.words.core_lines`."""

from __future__ import annotations

import re

HOOK_PATTERNS: list[tuple[re.Pattern[str], object]] = [
    (
        re.compile(r"(?:warning: )?(?P<e>\w+) hook `(?P<c>.*)` timed out after (?P<n>\S+)s", re.S),
        lambda m: f"警告：{m['e']} 钩子 `{m['c']}` 超时（{m['n']} 秒），已跳过",
    ),
    (
        re.compile(r"(?:warning: )?(?P<e>\w+) hook `(?P<c>.*)` failed(?P<d>.*)", re.S),
        lambda m: f"警告：{m['e']} 钩子 `{m['c']}` 运行失败{m['d']}",
    ),
    (
        re.compile(r"(?:warning: )?PreToolUse hook blocked (?P<t>\S+): (?P<r>.*)", re.S),
        lambda m: f"警告：PreToolUse 钩子拦截了 {m['t']}：{m['r']}",
    ),
    (
        re.compile(r"prompt blocked by a UserPromptSubmit hook: (?P<r>.*)", re.S),
        lambda m: f"提示被 UserPromptSubmit 钩子拦截：{m['r']}",
    ),
    (
        re.compile(
            r"a Stop hook asked to go on again; stopped after (?P<n>\d+) continuations "
            r"\(its reason: (?P<r>.*)\)",
            re.S,
        ),
        lambda m: f"Stop 钩子再次要求继续；已在继续 {m['n']} 次后停止（它的理由：{m['r']}）",
    ),
    (
        re.compile(
            r"a Stop hook asked to go on, but no turns are left \(--max-turns (?P<n>\d+); "
            r"its reason: (?P<r>.*)\)",
            re.S,
        ),
        lambda m: (
            f"Stop 钩子要求继续，但已没有剩余轮次（--max-turns {m['n']}；它的理由：{m['r']}）"
        ),
    ),
]
