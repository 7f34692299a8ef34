"""Trap's table options: the variant, the board size and quick setup."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.base import JSON, OptionError

Variant = Literal["basic", "king"]

SIZES = (5, 6)
VARIANTS: tuple[Variant, ...] = ("basic", "king")
PAWNS_PER_PLAYER = {5: 8, 6: 12}  # 6 × 6: two thirds of the points filled, as 16 of 25 on 5 × 5


@dataclass(frozen=True)
class TrapOptions:
    variant: Variant = "basic"
    size: int = 5
    quick_setup: bool = False

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise OptionError(
                "not_a_choice",
                f"The variant must be one of {', '.join(VARIANTS)}, not {self.variant!r}.",
                option="variant",
                value=self.variant,
                choices=list(VARIANTS),
            )
        if isinstance(self.size, bool) or self.size not in SIZES:
            raise OptionError(
                "not_a_choice",
                f"The board size must be 5 or 6 (points per side), not {self.size!r}.",
                option="size",
                value=self.size,
                choices=list(SIZES),
            )
        if not isinstance(self.quick_setup, bool):
            raise OptionError("not_a_flag", "Quick setup is true or false.", option="quick_setup")

    @property
    def pawns(self) -> int:
        return PAWNS_PER_PLAYER[self.size]


def parse_options(data: JSON) -> TrapOptions:
    """Options from their JSON (missing keys take their defaults); ValueError with a reason."""
    unknown = set(data) - {"variant", "size", "quick_setup"}
    if unknown:
        raise OptionError(
            "unknown", f"Unknown Trap option(s): {', '.join(sorted(unknown))}.", options=sorted(unknown)
        )
    return TrapOptions(
        variant=data.get("variant", "basic"),
        size=data.get("size", 5),
        quick_setup=data.get("quick_setup", False),
    )


def options_to_json(options: TrapOptions) -> JSON:
    return {"variant": options.variant, "size": options.size, "quick_setup": options.quick_setup}
