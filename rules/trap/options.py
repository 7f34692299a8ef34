"""Trap's table options: the variant, the board size and quick setup."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.base import JSON

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
            raise ValueError(f"The variant must be one of {', '.join(VARIANTS)}, not {self.variant!r}.")
        if isinstance(self.size, bool) or self.size not in SIZES:
            raise ValueError(f"The board size must be 5 or 6 (points per side), not {self.size!r}.")
        if not isinstance(self.quick_setup, bool):
            raise ValueError("Quick setup is true or false.")

    @property
    def pawns(self) -> int:
        return PAWNS_PER_PLAYER[self.size]


def parse_options(data: JSON) -> TrapOptions:
    """Options from their JSON (missing keys take their defaults); ValueError with a reason."""
    unknown = set(data) - {"variant", "size", "quick_setup"}
    if unknown:
        raise ValueError(f"Unknown Trap option(s): {', '.join(sorted(unknown))}.")
    return TrapOptions(
        variant=data.get("variant", "basic"),
        size=data.get("size", 5),
        quick_setup=data.get("quick_setup", False),
    )


def options_to_json(options: TrapOptions) -> JSON:
    return {"variant": options.variant, "size": options.size, "quick_setup": options.quick_setup}
