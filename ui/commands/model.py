"""`/model`: without a name, the provider's models to pick from; with one, the name checked
against the provider's list (when it has one), with the closest listed name suggested."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from core.model import available_models, closest_model
from ui.views import PICK_KEYS, pick_one
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
    """The current model, then the nine nearest to pick from with one key (any other:
    `/model NAME`)."""
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
    shown = _nearest_first(client.model, models)[: len(PICK_KEYS)]
    for key, name in zip(PICK_KEYS, shown, strict=False):
        mark = " *" if name == client.model else ""
        repl.say(f"  [{key}] {name}{mark}")
    if len(models) > len(shown):
        repl.say(repl.s.t("… {n} more: /model NAME", n=len(models) - len(shown)), style="dim")
    number = pick_one(repl.s, repl.s.t("Switch to which model?"), len(shown), repl.say)
    return shown[number - 1] if number else ""


def _nearest_first(current: str, models: list[str]) -> list[str]:
    """Models sharing the current one's family (its name up to the first '-') first."""
    family = current.split("/")[-1].split("-")[0].lower()
    return sorted(models, key=lambda m: (family not in m.lower(), m))
