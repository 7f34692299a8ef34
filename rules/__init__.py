"""The games the referee knows. Add a game by adding one line to GAME_CLASSES."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from rules.base import Game

# key -> "module:Class". Kept as strings so a game module is imported once, here, in order.
GAME_CLASSES: dict[str, str] = {
    "zipzap": "rules.zipzap:ZipZap",
    "zaptrap": "rules.zaptrap:ZapOrTrap",
    "spytrap": "rules.spytrap:SpyTrap",
    "gifttrap": "rules.gifttrap:GiftTrap",
    "trap": "rules.trap:Trap",
}


def _load() -> dict[str, Game[Any]]:
    games: dict[str, Game[Any]] = {}
    for key, target in GAME_CLASSES.items():
        module_name, class_name = target.split(":")
        try:
            module = import_module(module_name)
        except ModuleNotFoundError as error:
            # A game still being written is simply absent; any other import error is a bug.
            if error.name == module_name:
                continue
            raise
        game = getattr(module, class_name)()
        assert game.key == key, f"{target} declares key {game.key!r}, registered as {key!r}"
        games[key] = game
    return games


GAMES: dict[str, Game[Any]] = _load()


def get_game(key: str) -> Game[Any]:
    try:
        return GAMES[key]
    except KeyError:
        known = ", ".join(sorted(GAMES)) or "none"
        raise KeyError(f"No game called {key!r}; the games are: {known}.") from None
