"""Core's English lines from the loop, hooks, budgets and stores, as catalog templates.

{x} matches any text, {x:tr} is translated in turn, {x:trlist} is a "; " list of
reasons, and {_x} may be left out of a translation (see ui.words.lines)."""

from __future__ import annotations

from ui.words.catalog import N_

LINES_AGENT: tuple[str, ...] = (
    # budgets (core.ledger.budget)
    N_(
        "budget reached: {what:tr} used {used:tr} of {limit:tr}; the next model call was "
        "not made (raise it with {option})"
    ),
    N_(
        "budget reached: {what:tr} used {used:tr} of {limit:tr} and the next model call "
        "(~{next:tr}) would pass it, so it was not made (raise it with {option})"
    ),
    N_("{share} of the {scope:tr} budget used: {used:tr} of {limit:tr}"),
    N_(
        "{share} of the {scope:tr} budget used: {used:tr} of {limit:tr} (the next model "
        "call would make it ~{next:tr})"
    ),
    # the tools a session offers (core.agent.session.toolset)
    N_(
        "tools: the lean set for a local server or a small window ({window} tokens): "
        "{names}; recall joins when an output is archived (tool_set in config.json or "
        "--tools changes it)"
    ),
    N_("tools: the full set: {names} (tool_set in config.json or --tools changes it)"),
    N_("tools: as --tools asks: {names}"),
    N_("tools: all, as --tools asks: {names}"),
    # memory (core.memory.consolidation)
    N_("memory: merged {keys} into {key} (near-duplicates)"),
    # the loop's stops and notices (core.agent.loop)
    N_("Stopped: the model made the same {tool} call with the same result {n} times {_rest}"),
    N_(
        "Stopped: the model made the same {tool} call with the same result {n} times (the "
        "advice to {advice} did not change it; ask again with more detail, or try another model)."
    ),
    N_(
        "the server at {url} returned tool calls as text: it does not parse tool calls; "
        "Unicum ran them anyway (fix: {fix})"
    ),
    N_(
        "the server at {url} returned tool calls as text: its chat template does not parse the "
        "calls this model writes; Unicum ran them anyway (fix: give llama-server a chat "
        "template that parses them, --chat-template-file)"
    ),
    N_("Stopped after {n} turns without a final answer{_rest}"),
    N_(
        "Stopped after {n} turns without a final answer (sub-agents' turns included) (raise "
        "--max-turns or ask me to continue)."
    ),
    N_(
        "{provider} answered without a stream (an HTTP 200 with no events) at {url}: "
        "check {name} points at the provider's API"
    ),
    # the user's hooks (core.agent.extensions.user_hooks)
    N_("{event} hook `{command}` timed out after {seconds}s"),
    N_("warning: {event} hook `{command}` timed out after {seconds}s"),
    N_("{event} hook `{command}` failed"),
    N_("{event} hook `{command}` failed{detail}"),
    N_("warning: {event} hook `{command}` failed"),
    N_("warning: {event} hook `{command}` failed{detail}"),
    N_("blocked by {source:tr}; the call did not run: {reason}"),
    N_("{source:tr} asks before {tool} runs ({reason}). Run it?"),
    N_("a PreToolUse hook"),
    # what an untrusted folder's files would load (core.agent.extensions.gate.GATED)
    N_("hooks and permission rules"),
    N_("MCP servers"),
    N_("custom commands"),
    N_("agents"),
    N_("skills"),
    N_("a permission rule"),
    # MCP servers that do not start or stop (core.mcp.hub)
    N_("MCP server '{name}' did not start: {reason:tr}"),
    N_("warning: MCP server '{name}' did not start: {reason:tr}"),
    N_("MCP server '{name}' stopped: {reason:tr}"),
    N_("warning: MCP server '{name}' stopped: {reason:tr}"),
    N_(
        "no answer within {seconds} s (a slow first start, such as npx downloading the "
        "server, needs more: {setting}; its log: {log})"
    ),
    N_(
        "no answer within {seconds} s of its first output (a slow first start, such as npx "
        "downloading the server, needs more: {setting}; its log: {log})"
    ),
    # a project's .mcp.json servers in -p (core.agent.extensions.joined)
    N_(
        "project MCP servers not started, never approved for this project: {names} (approve "
        "them once in the REPL, list them in enabledMcpjsonServers or set "
        "enableAllProjectMcpServers in settings, or run with --trust-project)"
    ),
    N_(
        "warning: project MCP servers not started, never approved for this project: {names} "
        "(approve them once in the REPL, list them in enabledMcpjsonServers or set "
        "enableAllProjectMcpServers in settings, or run with --trust-project)"
    ),
    N_("{event} hook: {message}"),
    N_("warning: {event} hook: {message}"),
    N_("settings file {path} skipped: {reason}"),
    N_("warning: settings file {path} skipped: {reason}"),
    N_("{origin}: permission rule {rule} skipped: not a rule"),
    N_("warning: {origin}: permission rule {rule} skipped: not a rule"),
    N_("{path}: defaultMode bypassPermissions is taken only from your own settings"),
    N_("warning: {path}: defaultMode bypassPermissions is taken only from your own settings"),
    N_("prompt blocked by a UserPromptSubmit hook: {reason}"),
    N_("a Stop hook asked to go on again; stopped after {n} continuations (its reason: {reason})"),
    N_("a Stop hook asked to go on, but no turns are left (--max-turns {n}; its reason: {reason})"),
    # damaged stores (core.memory.file, core.ledger.writer)
    N_("memory file {path}: {n} unreadable {unit:tr} kept as {kept}"),
    N_("memory journal {path}: {n} unreadable {unit:tr} kept as {kept}"),
    N_(
        "memory file {path} has unreadable {unit:tr} that could not be kept aside ({error}); "
        "memory is off for it this session"
    ),
    N_(
        "memory journal {path} has unreadable {unit:tr} that could not be kept aside ({error}); "
        "memory is off for it this session"
    ),
    N_("memory file {path} was unreadable ({error}); kept as {kept}; starting with empty memory"),
    N_(
        "memory file {path} is unreadable ({error}) and could not be moved aside ({why}); "
        "memory is off for it this session"
    ),
    N_("the token ledger {path} was damaged ({error}); started a new one"),
    N_(
        "the team database {where} does not let this role write project {project}'s usage (it "
        "belongs to other roles; its members can add this one to memory_members): this "
        "session's usage of it goes to the local ledger {path}"
    ),
    N_(
        "the token ledger {path} was damaged ({error}); started a new one; the damaged "
        "file is kept as {kept}"
    ),
)
