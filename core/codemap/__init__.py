"""Code map: a tree-sitter index of the project (symbols, references, imports) in SQLite."""

from core.codemap.dependents import SECONDS as IMPACT_SECONDS
from core.codemap.dependents import Impact, impact
from core.codemap.index import CodeIndex
from core.codemap.overview import render_overview
from core.codemap.query import definitions, references
from core.codemap.service import OVERVIEW_TOKENS, CodeMap
from core.codemap.walk import walk_sources

__all__ = [
    "OVERVIEW_TOKENS",
    "IMPACT_SECONDS",
    "CodeIndex",
    "CodeMap",
    "Impact",
    "definitions",
    "impact",
    "references",
    "render_overview",
    "walk_sources",
]
