"""UI strings of the daily workflow (undo, rewind, diff, sub-agents, clipboard images), English
and Chinese;
ui/words/strings.py merges them into its table."""

from __future__ import annotations

# key: (English, 中文)
WORKFLOW_STRINGS: dict[str, tuple[str, str]] = {
    "cmd_undo": (
        "take back the last turn's file changes, all files at once (N: the last N turns)",
        "撤销上一轮的全部文件改动（N：最近 N 轮）",
    ),
    "cmd_rewind": (
        "go back to before an earlier turn: files, conversation or both",
        "回到较早某一轮之前：文件、对话或两者",
    ),
    "cmd_diff": ("what this session changed in the files", "本会话对文件做的改动"),
    "undo_none": (
        "nothing to undo: no turn of this session changed files",
        "没有可撤销的改动：本会话还没有哪一轮改过文件",
    ),
    "undo_fewer": (
        "only {n} turn(s) had file changes; all of them are undone",
        "只有 {n} 轮有文件改动，已全部撤销",
    ),
    "undo_bad": (
        "/undo: '{arg}' is not a number of turns (use /undo, /undo 2, /undo force)",
        "/undo：'{arg}' 不是轮数（用法：/undo、/undo 2、/undo force）",
    ),
    "undo_turn": ("Undid turn {n}: {what}", "已撤销第 {n} 轮：{what}"),
    "undo_restored": ("{n} files restored ({paths})", "恢复 {n} 个文件（{paths}）"),
    "undo_restored_one": ("1 file restored ({paths})", "恢复 1 个文件（{paths}）"),
    "undo_removed": ("{n} new files removed ({paths})", "删除 {n} 个新文件（{paths}）"),
    "undo_removed_one": ("1 new file removed ({paths})", "删除 1 个新文件（{paths}）"),
    "undo_nothing": ("no file changed", "没有文件改动"),
    "undo_clash": (
        "not undone: {paths} changed after turn {n}; /undo force overwrites those changes",
        "未撤销：{paths} 在第 {n} 轮之后又被改动；/undo force 会覆盖这些改动",
    ),
    "rewind_none": ("no turn to rewind to yet", "还没有可回退的轮次"),
    "rewind_pick": (
        "Rewind to before which turn? (number, Enter = cancel) ",
        "回到哪一轮之前？（编号，回车 = 取消）",
    ),
    "rewind_what": (
        "Restore [b]oth, [f]iles only or [c]onversation only? (Enter = both) ",
        "恢复 [b] 两者、[f] 仅文件、[c] 仅对话？（回车 = 两者）",
    ),
    "rewind_chat": ("conversation back to before turn {n}", "对话已回到第 {n} 轮之前"),
    "rewind_chat_gone": (
        "the conversation of turn {n} is no longer there (compacted or from an earlier run); "
        "files only",
        "第 {n} 轮的对话已不在（已压缩或属于之前的运行）；只恢复了文件",
    ),
    "diff_none": ("no file changed in this session", "本会话没有改动文件"),
    "clip_image": (
        "📎 clipboard image saved as {path}; it goes with this line",
        "📎 剪贴板图片已保存为 {path}，将随本行发送",
    ),
    "clip_no_tool": (
        "Ctrl-V: no clipboard tool found (install wl-clipboard on Wayland, xclip on X11, "
        "pngpaste on macOS)",
        "Ctrl-V：找不到剪贴板工具（Wayland 请安装 wl-clipboard，X11 请安装 xclip，macOS 请安装 "
        "pngpaste）",
    ),
    "clip_empty": (
        "Ctrl-V: the clipboard holds no image and no text",
        "Ctrl-V：剪贴板里没有图片，也没有文字",
    ),
    "clip_save_failed": (
        "Ctrl-V: the clipboard image could not be saved: {why}",
        "Ctrl-V：无法保存剪贴板图片：{why}",
    ),
}

# core's stop lines of the workflow (core.agent.extensions.subagent) as the person reads them
WORKFLOW_CORE_LINES: dict[str, tuple[str, str]] = {
    "interrupted; the sub-agent was stopped": (
        "interrupted — the sub-agent was stopped; its partial report went to the model",
        "已中断，子代理已停止；它的部分报告已交给模型",
    ),
}
