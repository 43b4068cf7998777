"""/permissions: the permission rules the session checks (with the file each came from) and
the approvals answered 'this session' or 'always'; `allow|ask|deny RULE [project]` adds a rule
(your settings.json, or the project's .claude/settings.local.json) and `remove RULE` or
`forget APPROVAL` takes one out. Changes apply at once."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from core.agent import change_rule, rules_file
from tools.approvals import forget_approval, saved_approvals
from tools.claude_rules import parse_rule
from ui.words import N_

Repl = Any  # the REPL as commands see it (ui.commands.registry.Repl)
KINDS = ("deny", "ask", "allow")


def cmd_permissions(repl: Repl, arg: str) -> None:
    verb, _, rest = arg.strip().partition(" ")
    if verb in KINDS and rest.strip():
        _add(repl, verb, rest.strip())
    elif verb == "remove" and rest.strip():
        _remove(repl, rest.strip())
    elif verb == "forget" and rest.strip():
        found = forget_approval(repl.agent.tool_context, rest.strip())
        key = N_("approval forgotten: {key}") if found else N_("no approval {key}")
        repl.say(repl.s.t(key, key=rest.strip()))
    elif verb:
        repl.say(
            repl.s.t(
                "usage: /permissions [allow|ask|deny RULE [project] | remove RULE | forget APPROVAL]"
            )
        )
    else:
        _list(repl)


def _list(repl: Repl) -> None:
    rules = repl.session.rules
    shown = False
    for kind in KINDS:
        for rule in rules.rules[kind] if rules else []:
            line = Text.assemble((f"{kind:<6}", "bold"), f" {rule.text}  ")
            line.append(f"({rule.origin})", style="dim")
            repl.console.print(line)
            shown = True
    ctx = repl.agent.tool_context
    for key in sorted(ctx.approvals):
        repl.console.print(Text.assemble(("session", "bold"), f" {key}"))
        shown = True
    for key in sorted(saved_approvals(ctx)):
        repl.console.print(Text.assemble(("always ", "bold"), f" {key}"))
        shown = True
    if not shown:
        repl.say(repl.s.t("No permission rules and no saved approvals."))


def _add(repl: Repl, kind: str, text: str) -> None:
    scope = "user"
    if text.endswith(" project"):
        text, scope = text[: -len(" project")].strip(), "project"
    path = rules_file(repl.agent.tool_context.workspace, repl.home, scope)
    try:
        changed = change_rule(path, kind, text, add=True)
    except (OSError, ValueError) as exc:
        repl.say(repl.s.t("error: {detail}", detail=exc), style="red")
        return
    rule = parse_rule(text, str(path))
    if changed and rule is not None and repl.session.rules is not None:
        repl.session.rules.rules[kind].append(rule)
    repl.say(repl.s.t("{kind} {rule}: saved in {path}", kind=kind, rule=text, path=path))


def _remove(repl: Repl, text: str) -> None:
    removed = []
    for scope in ("user", "project"):
        path = rules_file(repl.agent.tool_context.workspace, repl.home, scope)
        for kind in KINDS:
            try:
                if change_rule(path, kind, text, add=False):
                    removed.append(str(path))
            except (OSError, ValueError):
                continue
    live = repl.session.rules
    for kind in KINDS:
        if live is not None:
            live.rules[kind] = [r for r in live.rules[kind] if r.text != text]
    key = N_("removed {rule} from {path}") if removed else N_("no rule {rule} in your settings")
    repl.say(repl.s.t(key, rule=text, path=", ".join(removed)))
