"""Provider profiles as data, and provider/model selection from flags, env and config.json."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from my_agent.errors import ConfigError
from my_agent.home import read_user_config
from my_agent.images import ImageLimits


class WireFormat(StrEnum):
    ANTHROPIC = "anthropic-messages"
    OPENAI = "openai-chat"


@dataclass(frozen=True)
class ProviderProfile:
    name: str
    wire: WireFormat
    key_var: str | None
    base_url_var: str
    default_base_url: str | None
    default_model: str | None
    context_window: int = 128_000
    max_output: int = 8192
    max_completion_tokens: bool = False  # send `max_completion_tokens` instead of `max_tokens`
    reasoning_roundtrip: bool = False  # reasoning must be sent back with tool-call turns
    usage_fields: tuple[str, ...] = field(default_factory=tuple)
    images: bool = False  # its default model accepts images (UNICUM_IMAGES / config override)
    image_max_px: int = 1568  # longest side sent; larger images are scaled down
    image_max_bytes: int = 5 * 1024 * 1024

    @property
    def reports_cache_reads(self) -> bool:
        """Whether the provider's usage says how much input came from its prompt cache."""
        return any("cache" in name for name in self.usage_fields)

    @property
    def reports_cache_writes(self) -> bool:
        return any("creation" in name or "write" in name for name in self.usage_fields)

    key_required: bool = True  # False: a local server may run without a key


PROFILES: dict[str, ProviderProfile] = {
    p.name: p
    for p in (
        ProviderProfile(
            "zhipu",
            WireFormat.ANTHROPIC,
            "ZHIPUAI_API_KEY",
            "ZHIPUAI_ANTHROPIC_BASE_URL",
            "https://open.bigmodel.cn/api/anthropic",
            "glm-5.1",
            context_window=200_000,
            max_output=32_768,
            reasoning_roundtrip=True,
            usage_fields=("input_tokens", "output_tokens", "cache_read_input_tokens"),
        ),
        ProviderProfile(
            "openai",
            WireFormat.OPENAI,
            "OPENAI_API_KEY",
            "OPENAI_BASE_URL",
            "https://api.openai.com/v1",
            "gpt-4o",
            context_window=128_000,
            max_output=16_384,
            max_completion_tokens=True,
            images=True,
            image_max_px=2048,
            image_max_bytes=20 * 1024 * 1024,
            usage_fields=(
                "prompt_tokens",
                "completion_tokens",
                "prompt_tokens_details.cached_tokens",
            ),
        ),
        ProviderProfile(
            "anthropic",
            WireFormat.ANTHROPIC,
            "ANTHROPIC_API_KEY",
            "ANTHROPIC_BASE_URL",
            "https://api.anthropic.com",
            "claude-sonnet-4-6",
            context_window=200_000,
            max_output=16_000,
            images=True,
            usage_fields=(
                "input_tokens",
                "output_tokens",
                "cache_read_input_tokens",
                "cache_creation_input_tokens",
            ),
        ),
        ProviderProfile(
            "openrouter",
            WireFormat.OPENAI,
            "OPENROUTER_API_KEY",
            "OPENROUTER_BASE_URL",
            "https://openrouter.ai/api/v1",
            "anthropic/claude-sonnet-4",
            context_window=200_000,
            max_output=16_000,
            images=True,
            usage_fields=(
                "prompt_tokens",
                "completion_tokens",
                "prompt_tokens_details.cached_tokens",
                "prompt_tokens_details.cache_write_tokens",
            ),
        ),
        ProviderProfile(
            "deepseek",
            WireFormat.OPENAI,
            "DEEPSEEK_API_KEY",
            "DEEPSEEK_BASE_URL",
            "https://api.deepseek.com",
            "deepseek-chat",
            context_window=128_000,
            max_output=8192,
            reasoning_roundtrip=True,
            usage_fields=(
                "prompt_tokens",
                "completion_tokens",
                "prompt_cache_hit_tokens",
                "prompt_cache_miss_tokens",
            ),
        ),
        ProviderProfile(
            "ollama",
            WireFormat.OPENAI,
            None,
            "OLLAMA_BASE_URL",
            "http://localhost:11434/v1",
            "qwen2.5-coder",
            context_window=32_768,
            max_output=8192,
            usage_fields=("prompt_tokens", "completion_tokens"),
        ),
        ProviderProfile(
            "openai-compatible",
            WireFormat.OPENAI,
            "UNICUM_API_KEY",
            "UNICUM_BASE_URL",
            None,
            None,
            key_required=False,
            usage_fields=("prompt_tokens", "completion_tokens"),
        ),
    )
}


# Auto-detection order when nothing names a provider.
AUTO_ORDER = ("zhipu", "openai", "anthropic", "openrouter", "deepseek")


DEFAULT_TIMEOUT = 600.0  # seconds of silence tolerated while waiting for the model


TIMEOUT_ENV = "UNICUM_TIMEOUT"


@dataclass(frozen=True)
class ResolvedProvider:
    profile: ProviderProfile
    model: str
    base_url: str | None
    api_key: str | None = field(repr=False)
    note: str = ""  # e.g. which provider was auto-picked among several keys
    timeout: float = DEFAULT_TIMEOUT
    images: bool = False  # the model accepts image content blocks

    @property
    def image_limits(self) -> ImageLimits | None:
        """How large an image may be sent, or None for a text-only model."""
        if not self.images:
            return None
        return ImageLimits(self.profile.image_max_px, self.profile.image_max_bytes)

    window_source: str = "profile"  # profile | setting | llama.cpp | ollama | vllm


def _key_set(profile: ProviderProfile) -> bool:
    return bool(profile.key_var and os.environ.get(profile.key_var))


def _pick_name(flag: str | None, cfg: dict) -> tuple[str, str, str]:
    """(provider name, which layer named it: flag | env | config | auto, note)."""
    if flag:
        return flag, "flag", ""
    if os.environ.get("UNICUM_PROVIDER"):
        return os.environ["UNICUM_PROVIDER"], "env", ""
    if cfg.get("provider"):
        return str(cfg["provider"]), "config", ""
    with_keys = [n for n in AUTO_ORDER if _key_set(PROFILES[n])]
    if not with_keys:
        names = ", ".join(PROFILES[n].key_var or "" for n in AUTO_ORDER)
        raise ConfigError(
            f"no API key found: set one of {names} (in the environment or the Unicum home's .env), "
            "or pass --provider"
        )
    note = ""
    if len(with_keys) > 1:
        note = (
            f"several API keys set ({', '.join(with_keys)}); using {with_keys[0]} "
            "(choose with --provider or UNICUM_PROVIDER)"
        )
    return with_keys[0], "auto", note


_LAYER_RANK = {"flag": 0, "env": 1, "config": 2, "auto": 3}


def _pick_model(profile: ProviderProfile, source: str, flag: str | None, cfg: dict) -> str | None:
    """`--model`; else a layer's model, but only for the provider that layer meant: the one it
    names, or (naming none) a provider chosen by that layer or a lower one; else `models`
    keyed by provider in config.json; else the profile's default. A model meant for another
    provider is never sent to this one."""
    if flag:
        return flag
    name = profile.name
    layers = (
        ("env", os.environ.get("UNICUM_PROVIDER"), os.environ.get("UNICUM_MODEL")),
        ("config", cfg.get("provider"), cfg.get("model")),
    )
    keyed = cfg.get("models") if isinstance(cfg.get("models"), dict) else {}

    def fits(layer: str, layer_provider: object) -> bool:
        if layer_provider:
            return str(layer_provider) == name
        return _LAYER_RANK[source] >= _LAYER_RANK[layer]

    for layer, layer_provider, model in layers:
        if model and fits(layer, layer_provider):
            return str(model)
        if layer == "env" and keyed.get(name):
            return str(keyed[name])
    if profile.default_model:
        return profile.default_model
    # a provider with no default (openai-compatible) takes a model no layer keyed elsewhere
    return next((str(m) for _, p, m in layers if m and not p), None)


def resolve_provider(
    provider: str | None = None,
    model: str | None = None,
    more: Callable[[], Mapping[str, ProviderProfile]] | None = None,
) -> ResolvedProvider:
    """Choose provider and model: flags, then UNICUM_* variables, then config.json, then keys.
    `more` gives further profiles (plugins'), asked only for a name that is not built in."""
    cfg = read_user_config()
    name, source, note = _pick_name(provider, cfg)
    profile = PROFILES.get(name)
    extra = more() if profile is None and more is not None else {}
    profile = profile or extra.get(name)
    if profile is None:
        known = ", ".join([*PROFILES, *extra])
        raise ConfigError(f"unknown provider '{name}': choose one of {known}")
    api_key = os.environ.get(profile.key_var) if profile.key_var else None
    if profile.key_var and profile.key_required and not api_key:
        raise ConfigError(
            f"no API key for {name}: set {profile.key_var} in the environment or the Unicum home's .env"
        )
    base_url = os.environ.get(profile.base_url_var) or profile.default_base_url
    if not base_url:
        raise ConfigError(f"provider {name} needs a base URL: set {profile.base_url_var}")
    chosen = _pick_model(profile, source, model, cfg)
    if not chosen:
        raise ConfigError(f"provider {name} needs a model: pass --model or set UNICUM_MODEL")
    images = accepts_images(profile, cfg)
    profile = replace(profile, max_output=max_output(profile, cfg))
    return ResolvedProvider(profile, chosen, base_url, api_key, note, resolve_timeout(cfg), images)


MAX_OUTPUT_ENV = "UNICUM_MAX_OUTPUT_TOKENS"  # Claude Code's CLAUDE_CODE_MAX_OUTPUT_TOKENS


def max_output(profile: ProviderProfile, cfg: dict) -> int:
    """$UNICUM_MAX_OUTPUT_TOKENS, else `max_output_tokens` in config.json, else the profile's:
    the most tokens a reply may have (a small local model that rambles is cut there)."""
    raw = os.environ.get(MAX_OUTPUT_ENV) or cfg.get("max_output_tokens")
    if raw is None or raw == "":
        return profile.max_output
    try:
        value = int(str(raw).strip())
    except ValueError:
        value = 0
    if value <= 0:
        raise ConfigError(
            f"max_output_tokens must be a positive whole number (got {raw!r}): "
            f"fix {MAX_OUTPUT_ENV} or 'max_output_tokens' in config.json"
        )
    return value


IMAGES_ENV = "UNICUM_IMAGES"


def accepts_images(profile: ProviderProfile, cfg: dict) -> bool:
    """$UNICUM_IMAGES (1/0), else `images` in config.json, else the provider's default."""
    raw = os.environ.get(IMAGES_ENV, "").strip().lower() or cfg.get("images")
    if raw is None or raw == "":
        return profile.images
    return str(raw).lower() in ("1", "true", "yes", "on")


def resolve_timeout(cfg: dict) -> float:
    """$UNICUM_TIMEOUT, else `timeout` in config.json, else the default; seconds, positive."""
    raw = os.environ.get(TIMEOUT_ENV) or cfg.get("timeout")
    if raw is None or raw == "":
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except (TypeError, ValueError):
        value = 0.0
    if not value > 0:
        raise ConfigError(
            f"timeout must be a positive number of seconds (got {raw!r}): "
            f"fix {TIMEOUT_ENV} or 'timeout' in config.json"
        )
    return value
