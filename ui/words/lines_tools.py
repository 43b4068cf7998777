"""Core's English lines from the tools and the set-up, as templates the catalogs translate.

{x} matches any text, {x:tr} is translated in turn, {x:trlist} is a "; " list of
reasons, and {_x} may be left out of a translation (see ui.words.lines)."""

from __future__ import annotations

from ui.words.catalog import N_

LINES_TOOLS: tuple[str, ...] = (
    # the tools' questions and refusals (tools.permissions, tools.registry, tools.memory, tools.grep)
    N_("{tool} is not allowed in the plan mode: {_why}"),
    N_("task: no sub-agent {name}; known: {known}"),
    N_("refused by the user: {question:tr} The user says: {why}"),
    N_(
        "refused by the user: {question:tr} Do not retry it; take another approach or ask "
        "with clarify."
    ),
    N_('{line:tr} To write inside the project, use the relative path "{path}".'),
    N_("{path}: no such file; the project has {files}"),
    N_("Write {path}, outside the workspace {workspace}?"),
    N_("Read {path}, outside the workspace {workspace}?"),
    N_("Read {path}? It may hold API keys or Unicum's private data."),
    N_("Read {url}? It is a loopback or private network address."),
    N_("Run `{command}`? It touches the Unicum home, which holds API keys and private data."),
    N_("Run `{command}`? It is destructive ({reasons:trlist})."),
    N_("Run `{command}`? It reads your credential files (SSH keys, cloud credentials)."),
    N_(
        "Let `{command}` reach {host}? Sandboxed commands reach only the hosts you allow "
        "(s/a: {again} from now on)."
    ),
    N_(
        "sandbox: no python3 outside your home for the network bridge, so commands reach no "
        "host (install python3 for the system)"
    ),
    N_(
        "sandbox: the process limit is not enforced (root is exempt from ulimit -u and no "
        "cgroup is writable here)"
    ),
    N_("Write {path}? Git runs what its config and hooks name {_rest}"),
    N_("Write {path}?"),
    N_("Edit {path}?"),
    # snapshots (tools.snapshots) and the built-in sub-agent (core.agent.extensions.agent_defs)
    N_("no file changes since then"),
    N_("files back as before turn {n}: {what}"),
    N_("too large for the snapshots to keep ({why}), so /undo cannot bring it back"),
    N_("warning: not kept for /undo: {paths}"),
    N_("explores the code or runs a long search on its own and reports back (built in)"),
    N_("Save to global memory (shown in every project): {content}?"),
    N_("refused: the entry holds a secret {_rest}"),
    N_("refused: a process environment {_rest}"),
    N_("refused: reading a process environment {_rest}"),
    N_("search stopped: the regex {regex} hit the {seconds} s time limit {_rest}"),
    N_("{path}: {name} is read-only; nothing was written {_rest}"),
    N_("{path}: {name} is a symlink; nothing was written"),
    N_("{path}: {name} is a symlink or not a folder; nothing was written"),
    # set-up and session lines (core.model.providers, core.agent.options, core.agent.records)
    N_(
        "no API key found: set one of {names} (in the environment or a .env file), or "
        "pass --provider"
    ),
    N_(
        "no API key found: set one of {names} (in the environment or the Unicum home's "
        ".env), or pass --provider"
    ),
    N_("no API key for {provider}: set {name} in the environment or a .env file"),
    N_("no API key for {provider}: set {name} in the environment or the Unicum home's .env"),
    N_("--dir {folder}: not a folder"),
    N_("unknown provider '{provider}': choose one of {names}"),
    N_("provider {provider} needs a base URL: set {name}"),
    N_(
        "notifications.after_seconds must be a number of seconds, 0 or more (got "
        "{value}): fix it in config.json"
    ),
    N_(
        "context_window must be a whole number of tokens, at least {least} (got {value}): "
        "fix {name} or 'context_window' in config.json"
    ),
    N_("provider {provider} needs a model: pass --model or set UNICUM_MODEL"),
    N_("no saved session '{session}': {_rest}"),
    N_("no saved session '{session}' in any folder: {_rest}"),
    N_("no saved session for {folder}: start one without --continue"),
    N_(
        "session {session} is open in another Unicum process; close it there first, or "
        "start a new session"
    ),
    N_(
        "session {session} is open in another Unicum process (process {pid}); close it "
        "there first, or start a new session"
    ),
    N_(
        "cannot write the transcript {path}: {error}; the session goes on in memory and "
        "cannot be resumed"
    ),
    N_("the saved context state {path} could not be read ({why}); the session resumes uncompacted"),
    N_("cannot write the context state {path}: {error}"),
    # git (core.agent.session.git_work)
    N_("committed {id}: {subject}"),
    N_("not committed: {why}"),
    N_("took back commit {id} (this turn's auto-commit)"),
    N_("commit {id} kept: later commits follow it (use git revert)"),
    N_("commit {id} kept: {why}"),
    N_("skill {path} skipped: {why}"),
    # files Unicum reads itself, capped (my_agent.capped)
    N_("{path}: {size}, over the {cap} cap; not read"),
    N_("{path}: over the {cap} cap; not read"),
    N_("{path}: not a regular file; not read"),
    N_("warning: {path}: {size}, over the {cap} cap; not read"),
    N_("warning: {path}: not a regular file; not read"),
    N_(
        "warning: sandbox unavailable ({why}): commands run unsandboxed and the "
        "permission prompts guard them (see --sandbox)"
    ),
    N_("warning: snapshot skipped: {why}"),
)
