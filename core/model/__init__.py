"""The model: provider profiles, one client with retries, and the two wire adapters."""

from core.model.catalog import available_models, closest_model
from core.model.client import ModelClient, wire_adapter
from core.model.providers import (
    PROFILES,
    ProviderProfile,
    ResolvedProvider,
    WireFormat,
    resolve_provider,
)
from core.model.window import discover_window, local_host, own_host, price_mode
from core.model.wire import Sender, WireAdapter, wire_stream

__all__ = [
    "PROFILES",
    "ModelClient",
    "ProviderProfile",
    "ResolvedProvider",
    "WireAdapter",
    "WireFormat",
    "available_models",
    "closest_model",
    "discover_window",
    "local_host",
    "own_host",
    "price_mode",
    "resolve_provider",
    "wire_adapter",
    "wire_stream",
    "Sender",
]
