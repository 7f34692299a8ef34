"""The gifts and the four price packs they come in, read once from gifts.json beside this file.

A round lays players + 1 gifts of one pack out on numbered spaces (space n holds ``layout[n - 1]``);
a gift is named by its id in the state, the JSON and scenario files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from rules.base import JSON
from rules.gifttrap.views import LaidOutGift

GIFTS_FILE = Path(__file__).resolve().parent / "gifts.json"
PACKS = (1, 2, 3, 4)


@dataclass(frozen=True)
class Gift:
    id: str
    name: str
    emoji: str
    tags: tuple[str, ...]
    pack: int

    def to_json(self) -> JSON:
        return {"gift": self.id, "name": self.name, "emoji": self.emoji, "tags": list(self.tags)}

    def on_space(self, space: int) -> LaidOutGift:
        """This gift as a view shows it, laid out on ``space``."""
        return {
            "space": space,
            "gift": self.id,
            "name": self.name,
            "emoji": self.emoji,
            "tags": list(self.tags),
        }

    @property
    def label(self) -> str:
        return f"{self.emoji} {self.name}"


def load_gifts(path: Path = GIFTS_FILE) -> tuple[dict[int, str], dict[int, list[Gift]]]:
    """The price of each pack and its gifts, from the project's own gift list."""
    data = json.loads(path.read_text(encoding="utf-8"))
    prices: dict[int, str] = {}
    packs: dict[int, list[Gift]] = {}
    for pack in data["packs"]:
        number = int(pack["pack"])
        prices[number] = str(pack["price"])
        packs[number] = [
            Gift(g["id"], g["name"], g["emoji"], tuple(g["tags"]), number) for g in pack["gifts"]
        ]
    return prices, packs


PRICES, PACK_GIFTS = load_gifts()
GIFTS: dict[str, Gift] = {g.id: g for gifts in PACK_GIFTS.values() for g in gifts}
