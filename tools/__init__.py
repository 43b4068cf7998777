"""Tools the model can call. Each module declares a module-level `TOOLS` list."""
