"""Model prices as data (`core/ledger/pricing.json`, overridable per user) and the cost of one request."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from my_agent.capped import CONFIG, NotRead, read_capped_text
from my_agent.errors import ConfigError
from my_agent.messages import Usage

BUILTIN = Path(__file__).with_name("pricing.json")
PER_TOKENS = 1_000_000
DATE_SUFFIX = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{8})$")  # gpt-4o-2024-08-06, claude-x-20250514
FIELDS = ("input", "cache_read", "cache_write", "output")


@dataclass(frozen=True)
class Price:
    """USD per million tokens of each kind; `output` covers reasoning tokens too."""

    input: float
    cache_read: float
    cache_write: float
    output: float
    source: str = ""
    date: str = ""
    user: bool = False  # from the user's own pricing.json (applies to any server)

    def cost(self, usage: Usage) -> float:
        return (
            usage.input * self.input
            + usage.cache_read * self.cache_read
            + usage.cache_write * self.cache_write
            + usage.output * self.output
        ) / PER_TOKENS


class PriceTable:
    def __init__(self, prices: dict[str, Price]) -> None:
        self.prices = prices

    def find(self, *models: str, builtin: bool = True) -> Price | None:
        """The first of `models` with a price: the exact name, else the name without a date
        suffix (`gpt-4o-2024-08-06` is priced as `gpt-4o`). No other guessing: `gpt-4o-mini`
        is not `gpt-4o`, so an unlisted sibling's cost is unknown rather than wrong."""
        for model in models:
            if not model:
                continue
            for name in (model, DATE_SUFFIX.sub("", model)):
                price = self.prices.get(name)
                if price is not None and (builtin or price.user):
                    return price
        return None

    def cost(self, usage: Usage, *models: str, builtin: bool = True) -> float | None:
        """USD for one request, or None when no model is priced (shown as "unknown");
        `builtin=False`: only the user's own prices count (a server that is not the
        provider's own service)."""
        price = self.find(*models, builtin=builtin)
        return None if price is None else price.cost(usage)


def _parse_models(data: object, origin: Path, user: bool = False) -> dict[str, Price]:
    models = data.get("models") if isinstance(data, dict) else None
    if not isinstance(models, dict):
        raise ConfigError(f'{origin}: expected an object with a "models" object')
    prices: dict[str, Price] = {}
    for name, entry in models.items():
        try:
            values = {f: float(entry[f]) for f in ("input", "output")}
            values["cache_read"] = float(entry.get("cache_read", values["input"]))
            values["cache_write"] = float(entry.get("cache_write", values["input"]))
        except (TypeError, KeyError, ValueError, AttributeError):
            raise ConfigError(
                f'{origin}: model "{name}" needs numeric "input" and '
                '"output" prices (USD per million tokens)'
            ) from None
        if any(v < 0 for v in values.values()):
            raise ConfigError(f'{origin}: model "{name}" has a negative price')
        prices[str(name)] = Price(
            **values,
            source=str(entry.get("source", "")),
            date=str(entry.get("date", "")),
            user=user,
        )
    return prices


def _read(path: Path, user: bool = False) -> dict[str, Price]:
    try:
        data = json.loads(read_capped_text(path, CONFIG))
    except NotRead as exc:
        raise ConfigError(str(exc)) from exc
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    return _parse_models(data, path, user)


def load_prices(home: Path | None = None) -> PriceTable:
    """Built-in prices, with `<home>/pricing.json` entries replacing or adding models."""
    prices = _read(BUILTIN)
    override = home / "pricing.json" if home else None
    if override and override.is_file():
        prices.update(_read(override, user=True))
    return PriceTable(prices)
