"""Spy Trap's table options: a frozen dataclass with defaults and validation, and its JSON."""

from __future__ import annotations

from dataclasses import dataclass

from rules.base import JSON, OptionError

ROUND_LIMIT = 40


@dataclass(frozen=True)
class SpyTrapOptions:
    round_limit: int = ROUND_LIMIT  # a safety net: a game that has not ended after this many rounds stops

    def __post_init__(self) -> None:
        value = self.round_limit
        if isinstance(value, bool) or not isinstance(value, int) or not 5 <= value <= 200:
            raise OptionError(
                "out_of_range",
                "The round limit must be a whole number from 5 to 200.",
                option="round_limit",
                low=5,
                high=200,
            )


def parse_options(data: JSON) -> SpyTrapOptions:
    """Validated options from JSON (defaults filled in); ValueError with a reason."""
    unknown = set(data) - {"round_limit"}
    if unknown:
        raise OptionError(
            "unknown", f"Unknown Spy Trap option(s): {', '.join(sorted(unknown))}.", options=sorted(unknown)
        )
    return SpyTrapOptions(round_limit=data.get("round_limit", ROUND_LIMIT))


def options_to_json(options: SpyTrapOptions) -> JSON:
    return {"round_limit": options.round_limit}
