"""Core and tool lines (English, as the model sees them) as the person reads them in Chinese.

Core never changes what it says; the UI maps its known lines by stable patterns. A line no
pattern knows is shown as it is.
"""

from __future__ import annotations

import re
from pathlib import Path

from ui.words.hook_lines import HOOK_PATTERNS
from ui.words.model_lines import MODEL_PATTERNS
from ui.words.store_lines import STORE_PATTERNS

# Why a command is destructive (tools.permissions.RULES and its other reasons) → 中文.
REASONS: dict[str, str] = {
    "deletes files for good": "会永久删除文件",
    "discards uncommitted changes": "会丢弃未提交的修改",
    "deletes untracked files": "会删除未跟踪的文件",
    "overwrites history on the remote": "会覆盖远程仓库的历史",
    "a +refspec force-pushes over history on the remote": "+refspec 会强制覆盖远程仓库的历史",
    "deletes files at the destination": "会删除目标位置的文件",
    "changes permissions of a whole tree": "会修改整个目录树的权限",
    "changes owners of a whole tree": "会修改整个目录树的所有者",
    "writes raw bytes over files or devices": "会直接覆写文件或设备",
    "formats a file system": "会格式化文件系统",
    "runs as another user": "以其他用户身份运行",
    "deletes every file found": "会删除找到的每个文件",
    "stops the machine": "会关闭机器",
    "writes outside the workspace": "会写到工作区之外",
    "runs code downloaded from the network": "会运行从网络下载的代码",
    "deletes a branch on the remote": "会删除远程仓库的分支",
    "deletes a branch with unmerged work": "会删除含未合并提交的分支",
    "deletes stashed changes": "会删除暂存（stash）的修改",
    "deletes the record of earlier commits": "会删除早先提交的记录",
    "deletes unreachable commits for good": "会永久删除不可达的提交",
    "deletes a branch or tag": "会删除分支或标签",
    "rewrites the whole history": "会改写全部历史",
    "destroys remote infrastructure": "会销毁远程基础设施",
    "deletes cluster resources": "会删除集群资源",
    "deletes a repository on GitHub": "会删除 GitHub 上的仓库",
    "deletes the workspace or its .git, which snapshots cannot bring back": (
        "会删除工作区或其 .git，快照无法恢复"
    ),
}

SCOPE_WHAT = {"this task": "本任务", "this session": "本会话", "today": "今日"}
SCOPE_NAME = {"task": "任务", "session": "会话", "day": "今日"}


def _reasons(text: str) -> str:
    parts = []
    for part in text.split("; "):
        label, sep, why = part.partition(": ")
        parts.append(f"{label}：{REASONS.get(why, why)}" if sep else REASONS.get(part, part))
    return "；".join(parts)


def _tokens(amount: str) -> str:
    return amount.replace(" tokens", " 令牌")


# (pattern over the whole English line, function of the match → 中文)
PATTERNS: list[tuple[re.Pattern[str], object]] = [
    # the plan mode's refusal (tools.registry.PLAN_REFUSAL)
    (
        re.compile(r"(?P<t>\S+) is not allowed in the plan mode: .*", re.S),
        lambda m: f"计划模式下不能使用 {m['t']}：批准计划前只运行只读工具。",
    ),
    (
        re.compile(r"task: no sub-agent (?P<n>.+); known: (?P<k>.*)"),
        lambda m: f"task：没有名为 {m['n']} 的子代理；已有：{m['k']}",
    ),
    # a refused question with the user's reason (tools.permissions.refusal)
    (
        re.compile(r"refused by the user: (?P<q>.*?) The user says: (?P<why>.*)", re.S),
        lambda m: f"你已拒绝：{to_zh(m['q'])} 你的理由：{m['why']}",
    ),
    # set-up errors (core.model.providers, core.agent.options, core.agent.records.transcript)
    (
        re.compile(
            r"no API key found: set one of (?P<v>.+) \(in the environment or "
            r"(?:a \.env file|the Unicum home's \.env)\), "
            r"or pass --provider"
        ),
        lambda m: (
            f"没有找到 API 密钥：请在环境变量或 .env 文件中设置 {m['v']} 之一，或用 --provider 指定"
        ),
    ),
    (
        re.compile(
            r"no API key for (?P<p>\S+): set (?P<v>\S+) in the environment or "
            r"(?:a \.env file|the Unicum home's \.env)"
        ),
        lambda m: f"{m['p']} 没有 API 密钥：请在环境变量或 .env 文件中设置 {m['v']}",
    ),
    (
        re.compile(r"--dir (?P<d>.+): not a folder"),
        lambda m: f"--dir {m['d']}：不是文件夹",
    ),
    (
        re.compile(r"unknown provider '(?P<p>.+)': choose one of (?P<l>.+)"),
        lambda m: f"未知的服务商 '{m['p']}'：请从 {m['l']} 中选择",
    ),
    (
        re.compile(r"provider (?P<p>\S+) needs a base URL: set (?P<v>\S+)"),
        lambda m: f"服务商 {m['p']} 需要接口地址：请设置 {m['v']}",
    ),
    (
        re.compile(
            r"notifications\.after_seconds must be a number of seconds, 0 or more "
            r"\(got (?P<v>.*)\): fix it in config\.json"
        ),
        lambda m: (
            f"notifications.after_seconds 必须是秒数（0 或更大，当前为 {m['v']}）：请在 config.json 中修改"
        ),
    ),
    (
        re.compile(
            r"context_window must be a whole number of tokens, at least (?P<n>\d+) "
            r"\(got (?P<v>.*)\): fix (?P<e>\S+) or 'context_window' in config\.json"
        ),
        lambda m: (
            f"context_window 必须是整数令牌数，至少 {m['n']}（当前为 {m['v']}）："
            f"请修改 {m['e']} 或 config.json 中的 'context_window'"
        ),
    ),
    (
        re.compile(r"provider (?P<p>\S+) needs a model: pass --model or set UNICUM_MODEL"),
        lambda m: f"服务商 {m['p']} 需要指定模型：请用 --model 或设置 UNICUM_MODEL",
    ),
    (
        re.compile(r"no saved session '(?P<s>.+?)'(?: in any folder)?: .*"),
        lambda m: f"没有已保存的会话 '{m['s']}'：不带编号运行 `unicum --resume` 可列出本目录的会话",
    ),
    (
        re.compile(r"no saved session for (?P<d>.+): start one without --continue"),
        lambda m: f"{m['d']} 没有已保存的会话：请不带 --continue 开始一个新会话",
    ),
    # a refused question, as the tool's error line (tools.permissions._decide)
    (
        re.compile(
            r"refused by the user: (?P<q>.*) Do not retry it; take another approach or ask "
            r"with clarify\.",
            re.S,
        ),
        lambda m: f"你已拒绝：{to_zh(m['q'])}",
    ),
    (
        re.compile(
            r"(?P<line>refused.*) To write inside the project, use the relative path "
            r'"(?P<r>[^"]+)"\.',
            re.S,
        ),  # fmt: skip
        lambda m: f'{to_zh(m["line"])} 要写在项目里，请用相对路径 "{m["r"]}"。',
    ),
    # permission questions (tools.permissions, tools.web)
    (
        re.compile(r"Write (?P<p>.+?), outside the workspace (?P<w>.+)\?"),
        lambda m: f"写入 {m['p']}？它在工作区 {m['w']} 之外。",
    ),
    (
        re.compile(r"Read (?P<p>.+?), outside the workspace (?P<w>.+)\?"),
        lambda m: f"读取 {m['p']}？它在工作区 {m['w']} 之外。",
    ),
    (
        re.compile(r"Read (?P<p>.+)\? It may hold API keys or Unicum's private data\."),
        lambda m: f"读取 {m['p']}？其中可能有 API 密钥或 Unicum 的私有数据。",
    ),
    (
        re.compile(r"Read (?P<p>.+)\? It is a loopback or private network address\."),
        lambda m: f"读取 {m['p']}？这是本机或内网地址。",
    ),
    (
        re.compile(
            r"Run `(?P<c>.*)`\? It touches the Unicum home, which holds API keys and "
            r"private data\.",
            re.S,
        ),
        lambda m: f"运行 `{m['c']}`？它涉及 Unicum 主目录，其中保存着 API 密钥和私有数据。",
    ),
    (
        re.compile(r"Run `(?P<c>.*)`\? It is destructive \((?P<r>.*)\)\.", re.S),
        lambda m: f"运行 `{m['c']}`？这是危险操作（{_reasons(m['r'])}）。",
    ),
    (re.compile(r"Write (?P<p>.+)\?"), lambda m: f"写入 {m['p']}？"),
    (re.compile(r"Edit (?P<p>.+)\?"), lambda m: f"修改 {m['p']}？"),
    # budgets (core.budget)
    (
        re.compile(
            r"budget reached: (?P<what>this task|this session|today) used (?P<u>.+?) of "
            r"(?P<l>.+?); the next model call was not made \(raise it with (?P<o>.+)\)"
        ),
        lambda m: (
            f"已达预算：{SCOPE_WHAT[m['what']]}已用 {_tokens(m['u'])}（上限 {_tokens(m['l'])}）；"
            f"没有再调用模型（可用 {m['o']} 提高）"
        ),
    ),
    (
        re.compile(
            r"budget reached: (?P<what>this task|this session|today) used (?P<u>.+?) of "
            r"(?P<l>.+?) and the next model call \(~(?P<n>.+?)\) would pass it, so it was not "
            r"made \(raise it with (?P<o>.+)\)"
        ),
        lambda m: (
            f"已达预算：{SCOPE_WHAT[m['what']]}已用 {_tokens(m['u'])}（上限 {_tokens(m['l'])}），"
            f"下一次模型调用（约 {_tokens(m['n'])}）会超出，因此没有调用（可用 {m['o']} 提高）"
        ),
    ),
    (
        re.compile(
            r"(?P<pct>\d+)% of the (?P<s>task|session|day) budget used: (?P<u>.+?) of "
            r"(?P<l>.+?)(?: \(the next model call would make it ~(?P<n>.+)\))?"
        ),
        lambda m: (
            f"{SCOPE_NAME[m['s']]}预算已用 {m['pct']}%：{_tokens(m['u'])}（上限 {_tokens(m['l'])}）"
            + (f"，下一次模型调用后约 {_tokens(m['n'])}" if m["n"] else "")
        ),
    ),
    *MODEL_PATTERNS,  # model and local-server lines (ui.words.model_lines)
    # the agent's own stops and notices (core.agent.loop.guard, core.agent.loop.text_calls)
    (
        re.compile(
            r"Stopped: the model made the same (?P<t>\S+) call with the same result (?P<n>\d+) "
            r"times .*",
            re.S,
        ),
        lambda m: (
            f"已停止：模型以相同结果重复了 {m['n']} 次同一个 {m['t']} 调用"
            "（请把要求说得更具体，或换一个模型）"
        ),
    ),
    (
        re.compile(
            r"the server at (?P<u>\S*) returned tool calls as text: it does not parse tool "
            r"calls; Unicum ran them anyway \(fix: (?P<f>.+)\)",
            re.S,
        ),
        lambda m: (
            f"{m['u']} 上的服务器把工具调用作为文本返回：它不解析工具调用；Unicum 仍执行了它们"
            f"（解决：{m['f']}）"
        ),
    ),
    (
        re.compile(
            r"The reply looks like a call of (?P<n>.+?), which is not a tool here "
            r"\(tools: (?P<t>.*)\); it was not run\.",
            re.S,
        ),
        lambda m: f"回复看起来是对 {m['n']} 的调用，但这里没有这个工具（可用：{m['t']}）；未执行。",
    ),
    # the start-up line when commands cannot be sandboxed (core.agent.session.safety)
    (
        re.compile(
            r"warning: sandbox unavailable \((?P<why>.*)\): commands run unsandboxed and the "
            r"permission prompts guard them \(see --sandbox\)",
            re.S,
        ),
        lambda m: (
            f"警告：沙箱不可用（{m['why']}）：命令将不经沙箱运行，由权限确认把关（见 --sandbox）"
        ),
    ),
    (
        re.compile(r"warning: snapshot skipped: (?P<why>.*)", re.S),
        lambda m: f"警告：未能建立快照（{m['why']}），这一步无法撤销",
    ),
    (
        re.compile(
            r"(?P<p>\S+) answered without a stream \(an HTTP 200 with no events\) at (?P<u>\S+): "
            r"check (?P<v>\S+) points at the provider's API"
        ),
        lambda m: (
            f"{m['p']}（{m['u']}）返回了 HTTP 200 却没有流式事件：请检查 {m['v']} 是否指向服务商的 API"
        ),
    ),
    # trust, secrets and robust edges (core.agent.records.transcript, tools.guards, tools.memory, ...)
    (
        re.compile(
            r"session (?P<s>\S+) is open in another Unicum process(?P<w>( \(process \d+\))?); "
            r"close it there first, or start a new session"
        ),
        lambda m: (
            f"会话 {m['s']} 已在另一个 Unicum 进程中打开{m['w']}：请先在那里关闭，或开始新会话"
        ),
    ),
    (
        re.compile(
            r"cannot write the transcript (?P<p>\S+): (?P<e>.+); the session goes on in memory "
            r"and cannot be resumed"
        ),
        lambda m: f"无法写入会话记录 {m['p']}：{m['e']}；会话继续在内存中进行，之后无法恢复",
    ),
    (
        re.compile(r"skill (?P<p>\S+) skipped: (?P<w>.+)"),
        lambda m: f"已跳过技能 {m['p']}：{m['w']}",
    ),
    (
        re.compile(
            r"Run `(?P<c>.+)`\? It reads your credential files \(SSH keys, cloud credentials\)\.",
            re.S,
        ),
        lambda m: f"运行 `{m['c']}`？它会读取你的凭据文件（SSH 密钥、云服务凭据）。",
    ),
    (
        re.compile(r"Write (?P<p>\S+)\? Git runs what its config and hooks name .*", re.S),
        lambda m: (
            f"写入 {m['p']}？Git 会运行其配置和钩子中指定的程序：下一条 git 命令可能因此执行代码。"
        ),
    ),
    (
        re.compile(r"Save to global memory \(shown in every project\): (?P<c>.+)\?", re.S),
        lambda m: f"保存到全局记忆（每个项目都会看到）：{m['c']}？",
    ),
    (
        re.compile(r"refused: the entry holds a secret .*", re.S),
        lambda m: (
            "已拒绝：该条目包含密钥（API 密钥、令牌或密码）；记忆从不保存密钥，请改为记下它存放的位置。"
        ),
    ),
    (
        re.compile(r"refused: (reading )?a process environment .*", re.S),
        lambda m: "已拒绝：进程环境（/proc/*/environ）中有 Unicum 自己的 API 密钥。",
    ),
    (
        re.compile(r"search stopped: the regex (?P<r>.+) hit the (?P<t>\S+) s time limit .*", re.S),
        lambda m: (
            f"搜索已停止：正则 {m['r']} 超过了 {m['t']} 秒的时间限制（嵌套量词如 (a+)+ 会无限回溯）；请简化模式或缩小 path/file_glob"
        ),
    ),
    (
        re.compile(r"(?P<p>\S+): (?P<n>\S+) is read-only; nothing was written .*", re.S),
        lambda m: f"{m['p']}：{m['n']} 是只读文件；未写入任何内容（如需修改请先设为可写）",
    ),
    (
        re.compile(r"(?P<p>\S+): (?P<n>\S+) is a symlink( or not a folder)?; nothing was written"),
        lambda m: f"{m['p']}：{m['n']} 是符号链接（或不是文件夹）；未写入任何内容",
    ),
    # stops (core.agent)
    (
        re.compile(r"Stopped after (?P<n>\d+) turns without a final answer(?P<rest>.*)", re.S),
        lambda m: f"已运行 {m['n']} 轮仍没有最终答复，已停止（可调大 --max-turns，或让我继续）",
    ),
    *HOOK_PATTERNS,
    *STORE_PATTERNS,
]


_SAID = re.compile(r"(?P<line>.*?) \[server: (?P<said>.*)\]", re.S)


def to_zh(line: str) -> str:
    """`line` in Chinese when a pattern knows it; otherwise unchanged. The server's own words
    at the end of an error line (`[server: …]`) stay as the server said them."""
    said = _SAID.fullmatch(line.strip())
    if said:
        return f"{to_zh(said['line'])}［服务器：{said['said']}］"
    for pattern, render in PATTERNS:
        match = pattern.fullmatch(line.strip())
        if match:
            return render(match)  # type: ignore[operator]
    return line


def relative_paths(question: str, workspace: Path | None) -> str:
    """Absolute paths inside `workspace` shown relative to it ("Write calc.py?")."""
    if workspace is None:
        return question
    for root in dict.fromkeys((str(workspace), str(workspace.resolve()))):
        root = root.rstrip("/")
        question = re.sub(r"(?<![\w/.~-])" + re.escape(root) + r"/(?=[^\s/])", "", question)
    return question
