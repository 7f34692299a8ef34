"""The games the referee knows. Add a game by adding one line to GAMES."""

from __future__ import annotations

from typing import Any

from rules.base import Game
from rules.zipzap import ZipZap

GAMES: dict[str, Game[Any]] = {
    ZipZap.key: ZipZap(),
}


def get_game(key: str) -> Game[Any]:
    try:
        return GAMES[key]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise KeyError(f"No game called {key!r}; the games are: {known}.") from None
