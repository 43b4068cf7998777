"""UI strings in English and Chinese. `--lang` wins; otherwise the locale decides."""

from __future__ import annotations

import os
import re

from ui.words.reports import REPORT_STRINGS
from ui.words.workflow import WORKFLOW_CORE_LINES, WORKFLOW_STRINGS

# key: (English, 中文)
STRINGS: dict[str, tuple[str, str]] = {
    **WORKFLOW_STRINGS,
    **REPORT_STRINGS,  # --time lines, /usage tasks
    "welcome": (
        "Unicum · {provider} · {model} · {folder}",
        "Unicum · {provider} · {model} · {folder}",
    ),
    "hint": (
        "/help for commands · Esc+Enter for a new line · Ctrl-D to exit",
        "/help 查看命令 · Esc+Enter 换行 · Ctrl-D 退出",
    ),
    "debug_log": ("debug log: {path}", "调试日志：{path}"),
    "resumed": ("resumed session {id} ({n} messages)", "已恢复会话 {id}（{n} 条消息）"),
    "session": ("session {id}", "会话 {id}"),
    "waiting": ("thinking…", "思考中…"),
    "waiting_long": (
        "thinking… {secs}s · {tokens} tokens so far · Ctrl-C to stop",
        "思考中… {secs} 秒 · 已用 {tokens} 令牌 · Ctrl-C 停止",
    ),
    "preparing_tool": ("preparing {name}…", "准备调用 {name}…"),
    "retry": ("{reason}: retry {attempt} in {wait}s", "{reason}：{wait} 秒后第 {attempt} 次重试"),
    "retry_wait": ("retrying in {wait}s…", "{wait} 秒后重试…"),
    "diff_more": ("… {n} more diff lines", "… 还有 {n} 行差异"),
    "interrupted": ("⏹ {detail}", "⏹ {detail}"),
    "exit_hint": ("press Ctrl-C again or Ctrl-D to exit", "再按一次 Ctrl-C 或按 Ctrl-D 退出"),
    "bye": ("bye", "再见"),
    "bye_resume": (
        "bye · resume this session with: unicum --resume {id}",
        "再见 · 继续本会话：unicum --resume {id}",
    ),
    "resume_how": (
        "resume one with: unicum --resume ID (in the REPL: /resume)",
        "继续其中一个：unicum --resume 编号（在 REPL 中：/resume）",
    ),
    "error": ("error: {detail}", "错误：{detail}"),
    "internal_error": (
        "internal error: {detail} (run with --debug for the traceback)",
        "内部错误：{detail}（加 --debug 查看回溯）",
    ),
    "stopped": ("stopped ({reason}): {detail}", "已停止（{reason}）：{detail}"),
    "last_stop": ("the last task ended: {reason}", "上个任务的结束原因：{reason}"),
    "stop_done": ("done", "完成"),
    "stop_max_turns": ("max_turns", "达到轮数上限"),
    "stop_repeated": ("repeated", "重复调用"),
    "stop_budget": ("budget", "预算"),
    "stop_interrupted": ("interrupted", "已中断"),
    "stop_error": ("error", "出错"),
    "unknown_command": ("unknown command {name}", "未知命令 {name}"),
    "did_you_mean": (
        "unknown command {name}: did you mean {guess}?",
        "未知命令 {name}：你是想输入 {guess} 吗？",
    ),
    "help_title": ("Commands", "命令"),
    "help_keys": (
        "Esc+Enter or Alt+Enter: new line · Tab: complete · Ctrl-V: paste a clipboard "
        "image (or text) · Ctrl-C: stop the current work · Ctrl-D: exit",
        "Esc+Enter 或 Alt+Enter：换行 · Tab：补全 · Ctrl-V：粘贴剪贴板图片（或文字） · "
        "Ctrl-C：中止当前工作 · Ctrl-D：退出",
    ),
    "cmd_help": ("show this help", "显示本帮助"),
    "cmd_new": (
        "fresh session: clear the conversation, reload memory",
        "新会话：清空对话并重新载入记忆",
    ),
    "cmd_cd": (
        "work in another folder (a new session with its memory)",
        "切换到另一个项目目录（新会话，载入该项目记忆）",
    ),
    "cmd_tools": ("each tool, available or why not", "列出工具及其是否可用"),
    "cmd_mcp": ("MCP servers: status and tools", "MCP 服务器：状态与工具"),
    "cmd_usage": (
        "tokens and cost of this session (tasks: one row per task)",
        "本会话的令牌用量与费用（tasks：按任务列出）",
    ),
    "cmd_model": ("show or switch the model", "查看或切换模型"),
    "cmd_compact": ("compress the conversation now", "立即压缩对话上下文"),
    "cmd_context": ("what the next request holds, in tokens", "下一次请求包含的内容及令牌数"),
    "cmd_memory": ("this project's memories", "本项目的记忆"),
    "cmd_resume": (
        "pick a saved session of this folder and continue it",
        "选择本目录的已保存会话并继续",
    ),
    "cmd_quit": ("exit", "退出"),
    "new_session": ("new session {id}", "新会话 {id}"),
    "cd_usage": ("usage: /cd DIR", "用法：/cd 目录"),
    "cd_missing": ("error: {path}: not a folder", "错误：{path} 不是文件夹"),
    "cd_done": ("now working in {path} (new session)", "现在的工作目录：{path}（新会话）"),
    "tools_title": ("Tools", "工具"),
    "mcp_none": (
        "No MCP servers configured (.mcp.json in the project, mcpServers in config.json; "
        "`unicum mcp add`).",
        "未配置 MCP 服务器（项目中的 .mcp.json，config.json 中的 mcpServers；`unicum mcp add`）。",
    ),
    "model_now": ("model: {model} ({provider})", "模型：{model}（{provider}）"),
    "model_set": ("model set to {model}", "模型已切换为 {model}"),
    "usage_title": ("This session", "本会话"),
    "usage_requests": ("requests", "请求数"),
    "usage_input": ("fresh input tokens", "新输入令牌"),
    "usage_cache_read": ("cache-read tokens", "缓存读取令牌"),
    "usage_cache_write": ("cache-write tokens", "缓存写入令牌"),
    "usage_output": ("output tokens", "输出令牌"),
    "usage_cost": ("estimated cost", "估计费用"),
    "usage_no_price": ("unknown (no price for this model)", "未知（无该模型价格）"),
    "usage_local": ("local ($0: a server of your own)", "本地（$0：你自己的服务器）"),
    "usage_other_host": (
        "unknown (not the provider's own service: its prices do not apply)",
        "未知（不是该提供商自己的服务，不按其价格计）",
    ),
    "usage_context": ("context now", "当前上下文"),
    "usage_hit_rate": ("cache hit rate", "缓存命中率"),
    "usage_not_reported": ("not reported by {provider}", "{provider} 不报告此项"),
    "usage_unpriced": (" + {n} unpriced", " + {n} 次无价格"),
    "usage_estimated": (
        "{n} interrupted request(s) counted by a local estimate",
        "{n} 次被中断的请求按本地估算计入",
    ),
    "context_title": ("Next request", "下一次请求"),
    # /context rows: named as core.context_report.breakdown names them
    "system prompt": ("system prompt", "系统提示词"),
    "memory": ("memory", "记忆"),
    "instructions": ("instructions", "项目说明"),
    "skills": ("skills", "技能"),
    "environment": ("environment", "环境"),
    "code map": ("code map", "代码地图"),
    "L0 progress": ("L0 progress", "L0 进度"),
    "summary": ("summary", "摘要"),
    "messages": ("messages", "消息"),
    "tool schemas": ("tool schemas", "工具定义"),
    "ctx_total": ("total", "合计"),
    "ctx_window": ("model window", "模型窗口"),
    "ctx_phase": ("phase", "阶段"),
    "ctx_compactions": ("compactions so far", "已压缩次数"),
    "ctx_archived": ("archived outputs (recall)", "已归档输出（可 recall）"),
    "ctx_archive_problem": (
        "archived outputs are kept in memory only: {detail}",
        "归档输出仅保存在内存中：{detail}",
    ),
    "compacting": ("compacting the conversation…", "正在压缩对话…"),
    "compact_nothing": ("nothing to compact yet", "暂时没有可压缩的内容"),
    "compact_done": ("context: {before} → {after} tokens", "上下文：{before} → {after} 令牌"),
    "budget_extend": (
        "Extend the {scope} budget by how much? (e.g. {example}; Enter = stop) ",
        "{scope}预算增加多少？（例如 {example}；回车 = 停止）",
    ),
    "budget_not_amount": (
        "not an amount: {answer!r} (try {example})",
        "不是有效数额：{answer!r}（例如 {example}）",
    ),
    "budget_declined": (
        "stopped at the budget; no further model call was made",
        "已按预算停止，没有再调用模型",
    ),
    "budget_raised": (
        "{scope} budget raised by {amount}; continuing",
        "{scope}预算已增加 {amount}，继续",
    ),
    "scope_task": ("task", "任务"),
    "scope_session": ("session", "会话"),
    "scope_day": ("day", "今日"),
    "resume_none": ("no saved session in this folder", "本目录没有已保存的会话"),
    "resume_pick": ("session number (Enter to cancel): ", "会话编号（回车取消）："),
    "resume_bad": ("no session {n}", "没有第 {n} 个会话"),
    "approve_keys": (
        "[y] yes once · [s] this session · [a] always · [n] no · [e] no, and say why ",
        "[y] 仅此一次 · [s] 本会话 · [a] 总是 · [n] 否 · [e] 否，并说明原因 ",
    ),
    "approve_y": ("→ yes, this once", "→ 是，仅此一次"),
    "approve_s": ("→ yes, for the rest of this session", "→ 是，本会话内不再询问"),
    "approve_a": ("→ yes, always in this project (saved)", "→ 是，本项目总是允许（已保存）"),
    "approve_n": ("→ no", "→ 否"),
    "approve_e": ("→ no; tell the model why", "→ 否，并告诉模型原因"),
    "todo_title": ("Todo", "待办"),
    "plan_on": (
        "plan mode on: read-only tools until you approve the plan (Shift-Tab or /plan: off)",
        "计划模式已开启：批准计划前只运行只读工具（Shift-Tab 或 /plan 关闭）",
    ),
    "plan_off": ("plan mode off", "计划模式已关闭"),
    "plan_run": (
        "Run this plan? [y] yes · [n] no, keep planning ",
        "执行这个计划？[y] 是 · [n] 否，继续计划 ",
    ),
    "plan_approved": ("→ plan approved; running it", "→ 计划已批准，开始执行"),
    "plan_kept": (
        "→ not run; still in plan mode: say what to change",
        "→ 未执行，仍在计划模式：请说明要修改什么",
    ),
    "cmd_plan": (
        "plan mode on/off (with a task: plan it); Shift-Tab toggles",
        "开启/关闭计划模式（带任务：为其制定计划）；Shift-Tab 切换",
    ),
    "cmd_agents": ("sub-agents the task tool can start", "task 工具可启动的子代理"),
    "agents_title": ("Sub-agents", "子代理"),
    "agents_all_tools": ("all tools", "全部工具"),
    "agents_builtin": ("built in", "内置"),
    "agents_inherit": ("same model", "同一模型"),
    "approve_why": ("why (sent to the model): ", "原因（将发给模型）："),
    "trust_ask": (
        "Do you trust the files in {folder}? Trusting it loads its .env, instruction "
        "@imports and skills. [y/n] ",
        "是否信任 {folder} 中的文件？信任后会加载其 .env、指令 @导入 和技能。[y/n] ",
    ),
    "trust_yes": ("trusted: {folder} (remembered)", "已信任：{folder}（已记住）"),
    "trust_no": (
        "not trusted: its .env, @imports and skills are not loaded (--trust to trust it)",
        "未信任：不加载其 .env、@导入 和技能（用 --trust 信任）",
    ),
    "trust_untrusted": (
        "{folder} is not a trusted folder: its .env, @imports and skills are not loaded "
        "(--trust to trust it)",
        "{folder} 不是受信任的文件夹：不加载其 .env、@导入 和技能（用 --trust 信任）",
    ),
    "trust_save_failed": ("cannot remember the trust: {detail}", "无法记住信任设置：{detail}"),
    "dotenv_skipped": (
        ".env: ignored {names} (provider keys, base URLs and variables that run code are "
        "taken only from the environment and the Unicum home)",
        ".env：已忽略 {names}（服务商密钥、base URL 和会执行代码的变量只从环境变量和 Unicum "
        "主目录读取）",
    ),
    "confirm_choices": ("[y]es / [n]o / [a]lways: ", "[y] 是 / [n] 否 / [a] 总是: "),
    "ask_choice": ("number or answer: ", "编号或回答："),
    "max_turns": ("{text}", "{text}"),
    "indexing": ("indexing the code map…", "正在建立代码地图索引…"),
    "budget_line": ("budget: {text}", "预算：{text}"),
    "cmd_init": (
        "draft AGENTS.md from the code map and memory (shown as a diff first)",
        "根据代码地图和记忆生成 AGENTS.md（先显示差异）",
    ),
    "init_drafting": ("drafting AGENTS.md…", "正在生成 AGENTS.md…"),
    "init_same": ("AGENTS.md is already up to date", "AGENTS.md 已是最新"),
    "init_confirm": ("write AGENTS.md? [y/N] ", "写入 AGENTS.md？[y/N] "),
    "init_kept": ("AGENTS.md left as it was", "AGENTS.md 保持不变"),
    "init_written": ("wrote {path}", "已写入 {path}"),
    "custom_command": ("custom command", "自定义命令"),
    "custom_skill": ("skill", "技能"),
    "custom_running": ("{name} ({path})", "{name}（{path}）"),
    "custom_skipped": ("warning: {detail}", "警告：{detail}"),
    "mention_attached": ("attached {path} ({n} lines)", "已附加 {path}（{n} 行）"),
    "mention_private": (
        "{path} not attached: it is a private file",
        "未附加 {path}：这是私密文件",
    ),
    "mention_binary": ("{path} not attached: not a text file", "未附加 {path}：不是文本文件"),
    "bang_usage": ("usage: !COMMAND (runs it in the shell)", "用法：!命令（在 shell 中运行）"),
    "bang_failed": (
        "the command failed; its output goes to the model with your next message",
        "命令失败；其输出会随你的下一条消息发给模型",
    ),
    "notify_done": ("Unicum: task finished ({seconds}s)", "Unicum：任务完成（{seconds} 秒）"),
    "notify_approval": ("Unicum: waiting for your approval", "Unicum：等待你的批准"),
    "mem_none": ("no memory entries for {folder}", "{folder} 还没有记忆条目"),
    "mem_count_one": ("{n} entry (files: {files})", "共 {n} 条（文件：{files}）"),
    "mem_count": ("{n} entries (files: {files})", "共 {n} 条（文件：{files}）"),
    "mem_instructions": ("instruction files: {names}", "项目说明文件：{names}"),
    "mem_no_files": ("none", "无"),
    "phase_planning": ("planning", "规划"),
    "phase_executing": ("executing", "执行"),
    "phase_verifying": ("verifying", "验证"),
    "refused_line": (
        "refused: the model was told not to retry it",
        "已拒绝：已告知模型不要重试",
    ),
    "model_unknown_guess": (
        "{provider} has no model '{model}': did you mean {guess}? (/model lists them)",
        "{provider} 没有模型 '{model}'：你是想用 {guess} 吗？（/model 可列出全部）",
    ),
    "model_unknown": (
        "{provider} has no model '{model}' (/model lists them)",
        "{provider} 没有模型 '{model}'（/model 可列出全部）",
    ),
    "model_no_list": (
        "this provider lists no models: /model NAME switches to NAME as typed",
        "该服务商不提供模型列表：/model 名称 会直接切换到该名称",
    ),
    "model_more": ("… {n} more: /model NAME", "… 还有 {n} 个：/model 名称"),
    "model_pick": ("model number or name (Enter keeps it): ", "模型编号或名称（回车保持不变）："),
    "image_attached": ("📎 image {what}", "📎 图片 {what}"),
    "image_text_only": (
        "{what} not sent: {model} does not accept images (UNICUM_IMAGES=1 if it does)",
        "{what} 未发送：{model} 不支持图片（若支持，请设置 UNICUM_IMAGES=1）",
    ),
    "image_bad": ("image not sent: {what}", "图片未发送：{what}"),
}


# Core's own lines (English, no screen knowledge) as the person reads them: exact text → pair.
CORE_LINES: dict[str, tuple[str, str]] = {
    **WORKFLOW_CORE_LINES,
    "interrupted; the reply so far was discarded": (
        "interrupted — the unfinished reply was discarded",
        "已中断，未完成的回复已丢弃",
    ),
    "interrupted; tool calls were stopped": (
        "interrupted — the running tool was stopped",
        "已中断，正在运行的工具已停止",
    ),
    "compaction interrupted; nothing was changed": (
        "compaction interrupted — nothing was changed",
        "压缩已中断，内容未改变",
    ),
    "Ctrl-C": ("interrupted (Ctrl-C)", "已中断（Ctrl-C）"),
    "interrupted while the code map was being built": (
        "interrupted while the code map was being built",
        "建立代码地图索引时被中断",
    ),
}

# Retry reasons from core.retry (and SDK exception names) → friendly words; `{}` is the reason.
RETRY_REASONS: list[tuple[re.Pattern[str], tuple[str, str]]] = [
    (re.compile(r"HTTP 429|rate.?limit", re.I), ("rate limited ({})", "请求过于频繁（{}）")),
    (re.compile(r"HTTP 529|overloaded", re.I), ("the server is overloaded", "服务器过载")),
    (re.compile(r"HTTP 5\d\d|^api$|server", re.I), ("server error ({})", "服务器出错（{}）")),
    (re.compile(r"HTTP 408|time(d)? ?out", re.I), ("the request timed out", "请求超时")),
    (
        re.compile(r"connection|APIConnectionError|Protocol|Read", re.I),
        ("the connection dropped", "网络连接中断"),
    ),
]


def detect_lang(environ: dict[str, str] | None = None) -> str:
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(var, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


class Strings:
    def __init__(self, lang: str | None = None) -> None:
        self.lang = lang or detect_lang()
        self._col = 1 if self.lang == "zh" else 0

    def t(self, key: str, **values: object) -> str:
        pair = STRINGS.get(key)
        text = pair[self._col] if pair else key
        return text.format(**values) if values else text

    def core(self, line: str) -> str:
        """A known core line in this language; an unknown one as it is (zh: marked as such)."""
        pair = CORE_LINES.get(line.strip())
        if pair:
            return pair[self._col]
        return f"已中断（{line}）" if self._col and line.startswith("interrupted") else line

    def line(self, text: str) -> str:
        """A line from core or a tool (a question, a budget or error line) in this language."""
        if not self._col:
            return text
        from ui.words.core_lines import to_zh

        return to_zh(text)

    def reason(self, reason: str) -> str:
        """A retry reason ("HTTP 429", "connection dropped", an SDK class name) in words."""
        for pattern, pair in RETRY_REASONS:
            if pattern.search(reason):
                text = pair[self._col]
                return (
                    text.format(reason)
                    if reason.startswith("HTTP")
                    else re.sub(r" ?[(（]\{\}[)）]", "", text)
                )
        return reason
