"""Zap or Trap's table options: the deck preset and its sizes, lull handling, wrong targets, the target
score. The JSON form is every field by name (see FORMATS.md)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from rules.base import JSON, OptionError
from rules.zaptrap.cards import COPY_LETTERS, SET_SIZE, SPECIALS, copy_codes

PRESETS: dict[str, dict[str, int]] = {
    "zaptrap": {"species": 10, "copies": 4, "doubles": 1, "specials": 1, "hand_size": 5},
    "kemps": {"species": 13, "copies": 4, "doubles": 0, "specials": 0, "hand_size": 4},
}
LULL_MODES = ("auto", "dealer")


@dataclass(frozen=True)
class ZapTrapOptions:
    """Table options; deck fields left as None take the preset's value."""

    preset: str = "zaptrap"
    species: int | None = None  # alien species (ranks in kemps), 4–13
    copies: int | None = None  # single cards per species, 1–8
    doubles: int | None = None  # copies of each double card in the ring, 0–2
    specials: int | None = None  # copies of each of the three special cards, 0–2
    hand_size: int | None = None  # 4–7
    lull: str = "auto"  # "auto": the referee deals after the lull timer; "dealer": only the dealer
    refuse_wrong_targets: bool = False
    target: int = 7

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise OptionError(
                "not_a_choice",
                f"Preset must be one of {', '.join(PRESETS)}, not {self.preset!r}.",
                option="preset",
                value=self.preset,
                choices=list(PRESETS),
            )
        for name, value in PRESETS[self.preset].items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, value)
        limits = {"species": (4, 13), "copies": (1, 8), "doubles": (0, 2), "specials": (0, 2)}
        limits |= {"hand_size": (4, 7), "target": (1, 50)}
        for name, (low, high) in limits.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise OptionError(
                    "out_of_range",
                    f"The {name.replace('_', ' ')} must be a whole number from {low} to {high}.",
                    option=name,
                    low=low,
                    high=high,
                )
        if self.lull not in LULL_MODES:
            raise OptionError(
                "not_a_choice",
                f"Lull handling must be one of {', '.join(LULL_MODES)}, not {self.lull!r}.",
                option="lull",
                value=self.lull,
                choices=list(LULL_MODES),
            )
        if not isinstance(self.refuse_wrong_targets, bool):
            raise OptionError(
                "not_a_flag", "refuse_wrong_targets must be true or false.", option="refuse_wrong_targets"
            )
        if self.copies_per_species < SET_SIZE:
            raise OptionError(
                "no_sets", "With so few cards per species nobody could ever hold a set of four."
            )

    @property
    def copies_per_species(self) -> int:
        return int(self.copies or 0) + 2 * int(self.doubles or 0)

    def deck(self) -> list[str]:
        species, copies = int(self.species or 0), int(self.copies or 0)
        doubles, specials = int(self.doubles or 0), int(self.specials or 0)
        cards = [f"{s}{COPY_LETTERS[c]}" for s in range(1, species + 1) for c in range(copies)]
        for s in range(1, species + 1):
            cards += copy_codes(f"D{s}", doubles) if doubles else []
        for kind in SPECIALS:
            cards += copy_codes(kind, specials) if specials else []
        return cards


def parse_options(data: JSON) -> ZapTrapOptions:
    """Validated options from JSON (defaults filled in); ValueError with a reason."""
    names = {f.name for f in fields(ZapTrapOptions)}
    unknown = set(data) - names
    if unknown:
        raise OptionError(
            "unknown",
            f"Unknown Zap or Trap option(s): {', '.join(sorted(unknown))}.",
            options=sorted(unknown),
        )
    return ZapTrapOptions(**{k: v for k, v in data.items() if k in names})


def options_to_json(options: ZapTrapOptions) -> JSON:
    return {f.name: getattr(options, f.name) for f in fields(ZapTrapOptions)}
