"""Code map: a tree-sitter index of the project (symbols, references, imports) in SQLite."""
