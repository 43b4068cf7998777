"""Project memory: entries in a JSON-lines file per project (and its journal of recent changes),
rules, ranking and injection."""

from core.memory.consolidation import Consolidation, consolidate
from core.memory.entry import entry_rows
from core.memory.from_facts import combine, facts_to_entries, unmark_modified
from core.memory.inject import memory_section
from core.memory.search import rank
from core.memory.shared import open_team_memory
from core.memory.store import MemoryEntry, MemoryStore

__all__ = [
    "entry_rows",
    "Consolidation",
    "MemoryEntry",
    "MemoryStore",
    "combine",
    "consolidate",
    "facts_to_entries",
    "memory_section",
    "open_team_memory",
    "rank",
    "unmark_modified",
]
