"""UI strings of the reports in English and Chinese: the `--time` lines and `/usage tasks`
(merged into `ui.words.strings.STRINGS`)."""

from __future__ import annotations

# key: (English, 中文)
REPORT_STRINGS: dict[str, tuple[str, str]] = {
    "time_request": (
        "request {n}: first token {ttft}, total {total}s, context built in {ctx} ms",
        "请求 {n}：首字 {ttft}，总计 {total} 秒，构建上下文 {ctx} 毫秒",
    ),
    "time_side_request": ("summary request: total {total}s", "摘要请求：总计 {total} 秒"),
    "time_summary": (
        "{requests} request{rs} · {tools} tool call{ts} · {total}s = model {model}s "
        "+ tools {tool_s}s + Unicum {own}s (start {setup}s{sdk}, end {end}s, context {ctx} ms)",
        "{requests} 次请求 · {tools} 次工具调用 · 共 {total} 秒 = 模型 {model} 秒 + "
        "工具 {tool_s} 秒 + Unicum {own} 秒（启动 {setup} 秒{sdk}，收尾 {end} 秒，"
        "上下文 {ctx} 毫秒）",
    ),
    "time_sdk": (
        "sdk import {total}s (the first request waited for it; not model time)",
        "SDK 导入 {total} 秒（首个请求等待了它；不计入模型时间）",
    ),
    "time_sdk_part": (", sdk import {total}s", "，SDK 导入 {total} 秒"),
    "time_waiting": (" + waiting for you {wait}s", " + 等待你 {wait} 秒"),
    "ut_title": ("Tasks in this session", "本会话的任务"),
    "ut_none": ("No model requests in this session yet.", "本会话还没有模型请求。"),
    "ut_task": ("task", "任务"),
    "ut_requests": ("req", "请求"),
    "ut_input": ("input", "输入"),
    "ut_cache_read": ("cached", "缓存读"),
    "ut_cache_write": ("cache wr", "缓存写"),
    "ut_output": ("output", "输出"),
    "ut_cost": ("cost", "费用"),
    "ut_notes": ("notes", "备注"),
    "ut_stop": ("stop", "结束"),
    "ut_estimated": ("{n} estimated", "{n} 次估算"),
    "ut_unpriced": ("{n} unpriced", "{n} 次无价格"),
}
