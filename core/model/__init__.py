"""The model: provider profiles, one client with retries, and the two wire adapters."""

from core.model.client import ModelClient
from core.model.providers import ProviderProfile, ResolvedProvider, resolve_provider
from core.model.window import discover_window, local_host, own_host, price_mode

__all__ = [
    "ModelClient",
    "ProviderProfile",
    "ResolvedProvider",
    "discover_window",
    "local_host",
    "own_host",
    "price_mode",
    "resolve_provider",
]
