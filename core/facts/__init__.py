"""Facts: a rule table that turns each finished tool call into a one-line fact."""

from core.facts.extractor import extract, generic_fact
from core.facts.table import RULES, Rule

__all__ = ["RULES", "Rule", "extract", "generic_fact"]
