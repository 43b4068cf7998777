"""The replay tables: per section (tune half, report half, holdout) and per source."""

from __future__ import annotations

from bench.replay_metrics import FAMILIES, Tally

HEADER = (
    f"{'policy':<11}{'raw input':>13}{'%':>5}"
    + "".join(f"{'billed ' + f.name[:4]:>14}{'%':>5}" for f in FAMILIES)
    + f"{'retention':>11}{'recalls':>9}{'compact':>9}{'peak':>9}"
)


def row(name: str, t: Tally, naive: Tally) -> str:
    cells = f"{name:<11}{t.raw:>13,.0f}{100 * t.raw / naive.raw:>4.0f}%"
    for f in FAMILIES:
        cells += f"{t.billed[f.name]:>14,.0f}{100 * t.billed[f.name] / naive.billed[f.name]:>4.0f}%"
    return cells + f"{100 * t.retention:>10.1f}%{t.recalls:>9}{t.compactions:>9}{t.peak:>9,}"


def render_table(table: dict[str, dict[str, Tally]]) -> list[str]:
    rows = []
    for source in sorted(table, key=lambda name: (name == "total", name)):
        by_policy = table[source]
        naive = by_policy["naive"]
        rows += [f"\n{source} ({naive.requests} requests)", HEADER]
        rows += [row(name, t, naive) for name, t in by_policy.items()]
    return rows


def render(sections: dict[str, dict[str, dict[str, Tally]]]) -> str:
    rows: list[str] = []
    for section, table in sections.items():
        rows += [f"\n=== {section} ===", *render_table(table)]
    return "\n".join(rows)
