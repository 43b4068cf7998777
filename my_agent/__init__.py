"""Unicum's settings layer: constants, provider profiles, configuration and logging."""
