"""Project memory: entries in a JSON-lines file per project, rules, ranking and injection."""

from core.memory.from_facts import combine, facts_to_entries, unmark_modified
from core.memory.inject import memory_section
from core.memory.ranking import rank
from core.memory.store import MemoryEntry, MemoryStore

__all__ = [
    "MemoryEntry",
    "MemoryStore",
    "combine",
    "facts_to_entries",
    "memory_section",
    "rank",
    "unmark_modified",
]
