"""Model and local-server lines (core.model: errors, retries, broken streams, the window
probe) as the person reads them in Chinese; part of `ui.words.core_lines.PATTERNS`."""

from __future__ import annotations

import re

# Failure reasons inside error lines (core.retry) → 中文.
FAILURE_REASONS: dict[str, str] = {
    "connection dropped": "连接中断",
    "timed out": "超时",
    "overloaded": "服务器过载",
    "rate_limit": "请求过于频繁",
    "api": "服务器出错",
    "the stream ended without its final event": "流在结束事件之前就中断了",
    "connection refused": "连接被拒绝",
    "host not found": "找不到主机",
}


def _reason(text: str) -> str:
    return FAILURE_REASONS.get(text, text)


def _after(text: str) -> str:
    n = re.fullmatch(r" after (\d+) retries", text or "")
    return f"（已重试 {n.group(1)} 次）" if n else ""


# (pattern over the whole English line, function of the match → 中文)
MODEL_PATTERNS: list[tuple[re.Pattern[str], object]] = [
    # model errors (core.retry.error_line, broken_stream_line)
    (
        re.compile(
            r"cannot reach (?P<p>\S+) at (?P<u>\S+)(?P<a>( after \d+ retries)?) "
            r"\((?P<r>[^)]*)\): check the network and (?P<v>\S+)"
        ),
        lambda m: (
            f"无法连接 {m['p']}（{m['u']}）{_after(m['a'])}（{_reason(m['r'])}）："
            f"请检查网络和 {m['v']}"
        ),
    ),
    (
        re.compile(
            r"(?P<p>\S+) did not answer within (?P<t>\S+)s(?P<a>( after \d+ retries)?): "
            r"try again, or raise UNICUM_TIMEOUT"
        ),
        lambda m: (
            f"{m['p']} 在 {m['t']} 秒内没有响应{_after(m['a'])}：请重试，或调大 UNICUM_TIMEOUT"
        ),
    ),
    (
        re.compile(
            r"(?P<p>\S+) is rate-limiting requests(?P<a>( after \d+ retries)?) \(HTTP 429\): "
            r"wait a minute and ask again"
        ),
        lambda m: f"{m['p']} 正在限流{_after(m['a'])}（HTTP 429）：请等一分钟再问",
    ),
    (
        re.compile(
            r"(?P<p>\S+) is overloaded or failing(?P<a>( after \d+ retries)?) "
            r"\((?P<r>[^)]*)\): try again shortly, or switch with --provider"
        ),
        lambda m: (
            f"{m['p']} 过载或出错{_after(m['a'])}（{_reason(m['r'])}）："
            "请稍后重试，或用 --provider 切换"
        ),
    ),
    (
        re.compile(
            r"(?P<p>\S+) (rejected the API key|refused access) \(HTTP (?P<s>\d+)\): "
            r"check (?P<v>.+)"
        ),
        lambda m: (
            f"{m['p']} {'拒绝了 API 密钥' if m['s'] == '401' else '拒绝访问'}"
            f"（HTTP {m['s']}）：请检查 {m['v']}"
        ),
    ),
    (
        re.compile(
            r"the conversation is too long for (?P<m>.+) on (?P<p>\S+): "
            r"run /compact \(or /new to start over\)"
        ),
        lambda m: f"对话对 {m['p']} 上的 {m['m']} 来说太长了：请运行 /compact（或 /new 重新开始）",
    ),
    (
        re.compile(
            r"(?P<p>\S+) does not know model '(?P<m>.+)' \(HTTP (?P<s>\d+)\): "
            r"pick another with --model or /model"
        ),
        lambda m: f"{m['p']} 没有模型 '{m['m']}'（HTTP {m['s']}）：请用 --model 或 /model 换一个",
    ),
    (
        re.compile(
            r"(?P<p>\S+) says the account has no credit or quota left \((?P<s>HTTP \d+)"
            r"(?P<c>[^,)]*), (?P<k>quota|credit)\): top it up, or switch with --provider"
        ),
        lambda m: (
            f"{m['p']} 提示账户{'额度' if m['k'] == 'quota' else '余额'}不足"
            f"（{m['s']}{m['c']}）：请充值，或用 --provider 切换"
        ),
    ),
    (
        re.compile(
            r"nothing is listening at (?P<u>\S+): is the server running\? \(or fix (?P<v>\S+)\)"
        ),
        lambda m: f"{m['u']} 上没有服务在监听：服务器启动了吗？（或修改 {m['v']}）",
    ),
    (
        re.compile(r"cannot find the host of (?P<u>\S+): check (?P<v>\S+) and the network"),
        lambda m: f"找不到 {m['u']} 的主机：请检查 {m['v']} 和网络",
    ),
    (
        re.compile(
            r"the conversation is still too long for (?P<m>.+) on (?P<p>\S+) after compacting "
            r"\(window (?P<w>[\d,]+) tokens\): give the server a larger context .*",
            re.S,
        ),
        lambda m: (
            f"压缩后对话对 {m['p']} 上的 {m['m']} 仍然太长（窗口 {m['w']} 令牌）：请给服务器更大的"
            "上下文（llama.cpp -c、Ollama num_ctx、LM Studio 上下文长度）并设置 context_window，"
            "或用 /new 重新开始"
        ),
    ),
    (
        re.compile(
            r"(?P<warn>warning: )?the server at (?P<u>\S+) did not say its context window within (?P<s>\S+) s; "
            r"using (?P<src>the context_window setting|the default), (?P<w>[\d,]+) tokens .*",
            re.S,
        ),
        lambda m: (
            f"{'警告：' if m['warn'] else ''}{m['u']} 的服务器没有在 {m['s']} 秒内告知上下文窗口；使用"
            f"{' context_window 设置' if 'setting' in m['src'] else '默认值'}，{m['w']} 令牌"
            "（请在 config.json 的 context_window 或 UNICUM_CONTEXT_WINDOW 中设为服务器的窗口）"
        ),
    ),
    # a broken or failed request (core.model.client)
    (
        re.compile(
            r"the reply from (?P<p>\S+) broke off midway \((?P<r>[^)]*)\); "
            r"the partial reply was discarded - ask again to continue"
        ),
        lambda m: (
            f"{m['p']} 的回复中途断开（{_reason(m['r'])}）；不完整的回复已丢弃，请再问一次以继续"
        ),
    ),
    (
        re.compile(r"the request to (?P<p>\S+) failed \((?P<r>[^)]*)\)(?P<d>.*)", re.S),
        lambda m: f"向 {m['p']} 的请求失败（{_reason(m['r'])}）{m['d'].replace(': ', '：', 1)}",
    ),
    (
        re.compile(r"(?P<p>\S+) rejected the request \((?P<r>[^)]*)\)(?P<d>.*)", re.S),
        lambda m: f"{m['p']} 拒绝了请求（{_reason(m['r'])}）{m['d'].replace(': ', '：', 1)}",
    ),
]
