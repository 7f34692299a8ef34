"""The table options: where GIFTED is on both tracks, and whether the strategy cards are in play."""

from __future__ import annotations

from dataclasses import dataclass

from rules.base import JSON, OptionError

GO = 0  # where both markers start
DEFAULT_TRACK_LENGTH = 20  # [H] RULINGS §4


@dataclass(frozen=True)
class GiftTrapOptions:
    track_length: int = DEFAULT_TRACK_LENGTH  # the GIFTED space
    strategy_cards: bool = True  # Give More, Get More and GiftTRAP

    def __post_init__(self) -> None:
        length = self.track_length
        if isinstance(length, bool) or not isinstance(length, int) or not 5 <= length <= 60:
            raise OptionError(
                "out_of_range",
                "The track length must be a whole number from 5 to 60.",
                option="track_length",
                low=5,
                high=60,
            )
        if not isinstance(self.strategy_cards, bool):
            raise OptionError("not_a_flag", "strategy_cards must be true or false.", option="strategy_cards")


def parse_options(data: JSON) -> GiftTrapOptions:
    """Validated options from their JSON (defaults filled in); ValueError with a reason."""
    unknown = set(data) - {"track_length", "strategy_cards"}
    if unknown:
        raise OptionError(
            "unknown", f"Unknown GiftTRAP option(s): {', '.join(sorted(unknown))}.", options=sorted(unknown)
        )
    return GiftTrapOptions(
        track_length=data.get("track_length", DEFAULT_TRACK_LENGTH),
        strategy_cards=data.get("strategy_cards", True),
    )


def options_to_json(options: GiftTrapOptions) -> JSON:
    return {"track_length": options.track_length, "strategy_cards": options.strategy_cards}
