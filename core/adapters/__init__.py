"""Wire adapters: the only code that sees provider JSON."""
