"""YAML a project supplies (SKILL.md front matter): size-capped before parsing, aliases
refused (a 400-byte alias bomb would grow to gigabytes), nesting depth bounded (100k nested
brackets would raise RecursionError); every refusal is one ValueError."""

from __future__ import annotations

from typing import Any

MAX_YAML_BYTES = 64 * 1024
MAX_DEPTH = 32


class UnsafeYaml(ValueError):
    """YAML refused before or while parsing: too large, an alias, or nested too deeply."""


def _loader_class():
    import yaml

    class BoundedLoader(yaml.SafeLoader):
        """The safe loader with aliases refused and the nesting depth bounded."""

        depth = 0

        def compose_node(self, parent, index):  # type: ignore[no-untyped-def]
            if self.check_event(yaml.AliasEvent):
                raise UnsafeYaml("YAML aliases (*name) are not allowed")
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise UnsafeYaml(f"YAML nested deeper than {MAX_DEPTH} levels")
            try:
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    return BoundedLoader


def load_yaml(text: str) -> Any:
    """The YAML document in `text`; UnsafeYaml when refused, yaml.YAMLError when invalid."""
    if len(text.encode("utf-8", errors="replace")) > MAX_YAML_BYTES:
        raise UnsafeYaml(f"YAML larger than {MAX_YAML_BYTES // 1024} KB")
    loader = _loader_class()(text)
    try:
        return loader.get_single_data()
    except RecursionError:
        raise UnsafeYaml("YAML nested too deeply") from None
    finally:
        loader.dispose()
