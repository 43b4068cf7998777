"""The model: provider profiles, one client with retries, and the two wire adapters."""

from core.model.client import ModelClient
from core.model.providers import ProviderProfile, ResolvedProvider, WireFormat, resolve_provider

__all__ = ["ModelClient", "ProviderProfile", "ResolvedProvider", "WireFormat", "resolve_provider"]
