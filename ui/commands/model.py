"""`/model`: without a name, the provider's models to pick from; with one, the name checked
against the provider's list (when it has one), with the closest listed name suggested."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from core.model import available_models, closest_model
from ui.words import N_

if TYPE_CHECKING:
    from core.agent import Agent, SessionOptions
    from ui.words import Strings


class Repl(Protocol):
    """What `/model` uses of the REPL."""

    s: Strings
    opts: SessionOptions

    @property
    def agent(self) -> Agent: ...

    def say(self, line: str, style: str = "") -> None: ...

    def ask(self, message: str) -> str: ...


PICK_MAX = 30  # models shown in the picker (the nearest to the current one first)


def cmd_model(repl: Repl, arg: str) -> None:
    client = repl.agent.client
    models = available_models(client)
    if not arg:
        arg = _pick(repl, models)
        if not arg:
            return
    elif models is not None and arg not in models:
        guess = closest_model(arg, models)
        key = (
            N_("{provider} has no model '{model}': did you mean {guess}? (/model lists them)")
            if guess
            else N_("{provider} has no model '{model}' (/model lists them)")
        )
        provider = client.provider.profile.name
        repl.say(repl.s.t(key, model=arg, provider=provider, guess=guess), style="yellow")
        return
    client.set_model(arg)
    repl.opts.model = arg
    repl.say(repl.s.t("model set to {model}", model=client.model))


def _pick(repl: Repl, models: list[str] | None) -> str:
    """The current model, then a numbered list to choose from (a number or a name)."""
    client = repl.agent.client
    repl.say(
        repl.s.t(
            "model: {model} ({provider})", model=client.model, provider=client.provider.profile.name
        )
    )
    if not models:
        repl.say(
            repl.s.t("this provider lists no models: /model NAME switches to NAME as typed"),
            style="dim",
        )
        return ""
    shown = _nearest_first(client.model, models)[:PICK_MAX]
    for number, name in enumerate(shown, 1):
        mark = " *" if name == client.model else ""
        repl.say(f"{number:>3}. {name}{mark}")
    if len(models) > len(shown):
        repl.say(repl.s.t("… {n} more: /model NAME", n=len(models) - len(shown)), style="dim")
    answer = repl.ask(repl.s.t("model number or name (Enter keeps it): "))
    if answer.isdigit() and 1 <= int(answer) <= len(shown):
        return shown[int(answer) - 1]
    if answer and answer not in models:
        guess = closest_model(answer, models)
        key = (
            N_("{provider} has no model '{model}': did you mean {guess}? (/model lists them)")
            if guess
            else N_("{provider} has no model '{model}' (/model lists them)")
        )
        repl.say(repl.s.t(key, model=answer, provider=client.provider.profile.name, guess=guess))
        return ""
    return answer


def _nearest_first(current: str, models: list[str]) -> list[str]:
    """Models sharing the current one's family (its name up to the first '-') first."""
    family = current.split("/")[-1].split("-")[0].lower()
    return sorted(models, key=lambda m: (family not in m.lower(), m))
