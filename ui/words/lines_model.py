"""Core's English lines from the model client and local servers, as catalog templates.

{x} matches any text, {x:tr} is translated in turn, {x:trlist} is a "; " list of
reasons, and {_x} may be left out of a translation (see ui.words.lines)."""

from __future__ import annotations

from ui.words.catalog import N_

LINES_MODEL: tuple[str, ...] = (
    # the model and local servers (core.model: errors, retries, the window probe)
    N_(
        "max_output_tokens must be a positive whole number (got {raw}): fix {env} or "
        "'max_output_tokens' in config.json"
    ),
    N_("cannot reach {provider} at {url} ({reason:tr}): check the network and {name}"),
    N_(
        "cannot reach {provider} at {url} after {n} retries ({reason:tr}): check the "
        "network and {name}"
    ),
    N_("{provider} did not answer within {seconds}s: try again, or raise UNICUM_TIMEOUT"),
    N_(
        "{provider} did not answer within {seconds}s after {n} retries: try again, or "
        "raise UNICUM_TIMEOUT"
    ),
    N_("{provider} is rate-limiting requests (HTTP 429): wait a minute and ask again"),
    N_(
        "{provider} is rate-limiting requests after {n} retries (HTTP 429): wait a minute "
        "and ask again"
    ),
    N_(
        "{provider} is overloaded or failing ({reason:tr}): try again shortly, or switch "
        "with --provider"
    ),
    N_(
        "{provider} is overloaded or failing after {n} retries ({reason:tr}): try again "
        "shortly, or switch with --provider"
    ),
    N_("{provider} rejected the API key (HTTP {status}): check {name}"),
    N_("{provider} refused access (HTTP {status}): check {name}"),
    N_(
        "the conversation is too long for {model} on {provider}: run /compact (or /new to "
        "start over)"
    ),
    N_(
        "{provider} does not know model '{model}' (HTTP {status}): pick another with "
        "--model or /model"
    ),
    N_(
        "{provider} says the account has no credit or quota left (HTTP {status}, quota): "
        "top it up, or switch with --provider"
    ),
    N_(
        "{provider} says the account has no credit or quota left (HTTP {status}, credit): "
        "top it up, or switch with --provider"
    ),
    N_(
        "{provider} says the account has no credit or quota left (HTTP {status} {code}, "
        "quota): top it up, or switch with --provider"
    ),
    N_(
        "{provider} says the account has no credit or quota left (HTTP {status} {code}, "
        "credit): top it up, or switch with --provider"
    ),
    N_("nothing is listening at {url}: is the server running? (or fix {name})"),
    N_("cannot find the host of {url}: check {name} and the network"),
    N_(
        "the conversation is still too long for {model} on {provider} after compacting "
        "(window {window} tokens): give the server a larger context {_rest}"
    ),
    N_(
        "the server at {url} did not say its context window within {seconds} s; using the "
        "context_window setting, {window} tokens {_rest}"
    ),
    N_(
        "warning: the server at {url} did not say its context window within {seconds} s; "
        "using the context_window setting, {window} tokens {_rest}"
    ),
    N_(
        "the server at {url} did not say its context window within {seconds} s; using the "
        "default, {window} tokens {_rest}"
    ),
    N_(
        "warning: the server at {url} did not say its context window within {seconds} s; "
        "using the default, {window} tokens {_rest}"
    ),
    N_(
        "the reply from {provider} broke off midway ({reason:tr}); the partial reply was "
        "discarded - ask again to continue"
    ),
    N_("the request to {provider} failed ({reason:tr})"),
    N_("the request to {provider} failed ({reason:tr}): {detail}"),
    N_("{provider} rejected the request ({reason:tr})"),
    N_("{provider} rejected the request ({reason:tr}): {detail}"),
)
