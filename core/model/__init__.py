"""The model: provider profiles, one client with retries, and the two wire adapters."""

from core.model.catalog import available_models, closest_model
from core.model.client import ModelClient
from core.model.providers import ProviderProfile, ResolvedProvider, resolve_provider

__all__ = [
    "ModelClient",
    "ProviderProfile",
    "ResolvedProvider",
    "available_models",
    "closest_model",
    "resolve_provider",
]
