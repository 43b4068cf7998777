"""Code map: a tree-sitter index of the project (symbols, references, imports) in SQLite."""

from core.codemap import facts as _facts  # noqa: F401  registers the code_map fact extractor
