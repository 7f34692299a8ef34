"""Card pictures (cogs/drawings/*_cards.py): drawing time and bytes per picture, and the content
cache's hit rate over self-played games.

Two measurements:
- **draw**: each game's largest pictures (the biggest hand it deals, its table) drawn ``runs`` times
  ``repeat`` times each, cold (no cache): p50/p99 draw time and the PNG's bytes.
- **cache**: one self-played game per title (4 computer seats, seed ``seed``); after every action
  each seat's hand picture and the table picture are asked of one ``PictureCache``, by content key,
  as a cog would after each change. Hit rate = asks answered without drawing; the draw times of
  the misses give p50/p99 over realistic pictures, and bytes the mean and largest picture.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Hashable
from typing import Any, cast

import rules
from bench.common import Table, percentile
from cogs.drawings import gifttrap_cards, spytrap_cards, zaptrap_cards, zipzap_cards
from cogs.drawings.cache import PictureCache
from rules.gifttrap.gifts import PACK_GIFTS, PRICES
from rules.selfplay import play_game
from rules.zipzap.views import ZipZapView

GAMES = ("zipzap", "zaptrap", "spytrap", "gifttrap")
Ask = tuple[Hashable, Callable[[], bytes]]


def _largest() -> dict[str, Callable[[], bytes]]:
    zipzap_hand = ["R7", "R8", "R9", "R10", "G8", "G9", "G10", "W7", "W8", "W9", "W10", "B10", "Z0"]
    zaptrap_hand = ["D10a", "D9b", "D8a", "D7b", "XZZa", "XBFb", "XDMa"]
    spy_hand = ["FAM1", "FFR2", "FGE3", "FIT4", "FRU5", "FSP6", "EA1", "TR2", "FAM9"]
    layout = [g.on_space(i + 1) for i, g in enumerate(PACK_GIFTS[4][-9:])]
    return {
        "zipzap hand 13": lambda: zipzap_cards.hand_png(zipzap_hand, {"R7", "W7", "Z"}),
        "zipzap table": lambda: zipzap_cards.table_png(
            cast(ZipZapView, {"played": zipzap_hand[:4], "top": "R10"})
        ),
        "zaptrap hand 7": lambda: zaptrap_cards.hand_png(zaptrap_hand, {"D10a"}, species=13),
        "spytrap hand 9": lambda: spytrap_cards.hand_png(spy_hand, {"FAM1"}),
        "spytrap identity": lambda: spytrap_cards.identity_png("French", immunity=True),
        "gifttrap gifts 9": lambda: gifttrap_cards.gifts_png(
            layout, PRICES[4], {"great": 1, "good": 2, "ok": 3, "noway": 4}
        ),
    }


def _timed(draw: Callable[[], bytes], times: list[float], sizes: list[int]) -> Callable[[], bytes]:
    def run() -> bytes:
        start = time.perf_counter()
        data = draw()
        times.append(time.perf_counter() - start)
        sizes.append(len(data))
        return data

    return run


def _cards_in(actions: list[str], prefix: str = "") -> set[str]:
    """The card codes named by legal actions ("R4+Z", "S1a-10c", "pile-FAM1-FAM3-EA1")."""
    out: set[str] = set()
    for action in actions:
        for part in re.split(r"[-+]", action):
            out.add(part.removeprefix(prefix) if prefix else part)
    return out


def _asks(key: str, state: Any, times: list[float], sizes: list[int]) -> list[Ask]:
    """What a cog would ask for after one action: each seat's hand (or panel) and the table."""
    asks: list[Ask] = []
    players = state.view(None)["players"]
    for seat in range(players):
        view = state.view(seat)
        legal = state.legal_actions(seat)
        if key == "zipzap":
            hand = tuple(view.get("hand", []))
            marks = tuple(sorted(_cards_in(legal) & set(hand) | ({"Z"} if "Z" in legal else set())))
            asks.append((("zipzap-hand", hand, marks), lambda h=hand, m=marks: zipzap_cards.hand_png(h, m)))
        elif key == "zaptrap":
            hand = tuple(view.get("hand", []))
            marks = tuple(sorted(_cards_in(legal, "S") & set(hand)))
            preset, species = view["preset"], view["species"]
            asks.append(
                (
                    ("zaptrap-hand", preset, species, hand, marks),
                    lambda h=hand, m=marks, p=preset, s=species: zaptrap_cards.hand_png(
                        h, m, preset=p, species=s
                    ),
                )
            )
        elif key == "spytrap":
            hand = tuple(view.get("hand", []))
            marks = tuple(sorted(_cards_in(legal) & set(hand)))
            asks.append((("spytrap-hand", hand, marks), lambda h=hand, m=marks: spytrap_cards.hand_png(h, m)))
        else:
            layout, price = view["layout"], view["price"] or ""
            ranks = tuple(sorted(view["my"]["ranks"].items())) if "my" in view else ()
            content = ("gifttrap-gifts", tuple(g["gift"] for g in layout), price, ranks)
            asks.append((content, lambda v=view: gifttrap_cards.panel_picture(v).png))
    table = state.view(None)
    if key == "zipzap":
        pile = tuple(table["played"][-zipzap_cards.PILE_SHOWN :])
        asks.append((("zipzap-table", pile), lambda v=table: zipzap_cards.table_png(v)))
    elif key == "zaptrap":
        asks.append(
            (
                ("zaptrap-table", table["preset"], tuple(table["table"])),
                lambda v=table: zaptrap_cards.table_png(v),
            )
        )
    elif key == "spytrap":
        drawn = tuple((d["pile"], d["card"]) for d in table["drawn"])
        asks.append((("spytrap-table", drawn), lambda v=table: spytrap_cards.table_png(v)))
    else:
        content = ("gifttrap-gifts", tuple(g["gift"] for g in table["layout"]), table["price"] or "", ())
        asks.append((content, lambda v=table: gifttrap_cards.table_picture(v).png))
    return [(k, _timed(draw, times, sizes)) for k, draw in asks]


def _cache_run(key: str, seed: int) -> dict[str, Any]:
    times: list[float] = []
    sizes: list[int] = []
    asks: list[Ask] = []

    def on_action(state: Any, seat: int | None, action: str, events: list[Any]) -> None:
        asks.extend(_asks(key, state, times, sizes))

    game = rules.GAMES[key]
    record = play_game(game, 4, {}, seed, list(game.computer_levels), on_action=on_action)
    cache = PictureCache()

    async def replay() -> None:
        for content, draw in asks:
            await cache.get(content, draw)

    asyncio.run(replay())
    return {
        "actions": len(record.actions),
        "asks": cache.hits + cache.misses,
        "drawn": cache.misses,
        "hit_rate": round(cache.hit_rate, 3),
        "draw_p50_ms": _ms(percentile(times, 50)),
        "draw_p99_ms": _ms(percentile(times, 99)),
        "bytes_mean": round(sum(sizes) / len(sizes)) if sizes else None,
        "bytes_max": max(sizes) if sizes else None,
        "cache_bytes": cache.size,
    }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


def run(
    *,
    runs: int = 3,
    repeat: int = 20,
    seed: int = 1,
    games: tuple[str, ...] = GAMES,
    progress: Callable[[str], None] = print,
) -> dict[str, Any]:
    draw: dict[str, Any] = {}
    for name, make in _largest().items():
        per_run: list[dict[str, Any]] = []
        for _ in range(runs):
            times: list[float] = []
            sizes: list[int] = []
            timed = _timed(make, times, sizes)
            for _ in range(repeat):
                timed()
            per_run.append({"p50_ms": _ms(percentile(times, 50)), "p99_ms": _ms(percentile(times, 99))})
        draw[name] = {"runs": per_run, "bytes": sizes[-1]}
    progress("cards: drawing timed; self-play through the cache")
    cache = {key: _cache_run(key, seed) for key in games}
    return {"runs": runs, "repeat": repeat, "seed": seed, "draw": draw, "cache": cache}


def tables(result: dict[str, Any]) -> list[Table]:
    draw = Table(
        f"Card pictures: largest per game, cold, {result['repeat']} draws × {result['runs']} runs",
        ["picture", "p50 ms per run", "p99 ms per run", "PNG bytes"],
    )
    for name, r in result["draw"].items():
        draw.add(
            name,
            " / ".join(str(x["p50_ms"]) for x in r["runs"]),
            " / ".join(str(x["p99_ms"]) for x in r["runs"]),
            r["bytes"],
        )
    cache = Table(
        "Card pictures through the content cache: one self-played game per title, 4 seats",
        [
            "game",
            "actions",
            "asks",
            "drawn",
            "hit rate",
            "draw p50 ms",
            "draw p99 ms",
            "bytes mean",
            "bytes max",
        ],
    )
    for key, r in result["cache"].items():
        cache.add(
            key,
            r["actions"],
            r["asks"],
            r["drawn"],
            r["hit_rate"],
            r["draw_p50_ms"],
            r["draw_p99_ms"],
            r["bytes_mean"],
            r["bytes_max"],
        )
    return [draw, cache]
