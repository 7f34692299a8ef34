"""Zip Zap's table options and their JSON form (stored with every table and recorded game)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.base import JSON, OptionError

Scoring = Literal["cards", "first_out"]
SCORINGS: tuple[Scoring, ...] = ("cards", "first_out")


@dataclass(frozen=True)
class ZipZapOptions:
    scoring: Scoring = "cards"  # "cards": lowest total wins; "first_out": a point for going out, most wins
    rounds: int | None = None  # None: one per player, doubled with 2 or 3 players

    def __post_init__(self) -> None:
        if self.scoring not in SCORINGS:
            raise OptionError(
                "not_a_choice",
                f"Scoring must be one of {', '.join(SCORINGS)}, not {self.scoring!r}.",
                option="scoring",
                value=self.scoring,
                choices=list(SCORINGS),
            )
        if self.rounds is not None and (
            isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or not 1 <= self.rounds <= 50
        ):
            raise OptionError(
                "out_of_range",
                "Rounds must be a whole number from 1 to 50, or left unset.",
                option="rounds",
                low=1,
                high=50,
                unset=True,
            )

    def total_rounds(self, players: int) -> int:
        if self.rounds is not None:
            return self.rounds
        return players * 2 if players <= 3 else players


def parse_options(data: JSON) -> ZipZapOptions:
    """Validated options from JSON, defaults filled in; ValueError with a reason."""
    unknown = set(data) - {"scoring", "rounds"}
    if unknown:
        raise OptionError(
            "unknown", f"Unknown Zip Zap option(s): {', '.join(sorted(unknown))}.", options=sorted(unknown)
        )
    return ZipZapOptions(scoring=data.get("scoring", "cards"), rounds=data.get("rounds"))


def options_to_json(options: ZipZapOptions) -> JSON:
    return {"scoring": options.scoring, "rounds": options.rounds}
