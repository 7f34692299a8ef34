"""1. Game engines alone: self-play speed and computer-player decision time, one game at a time.

Every game in ``rules.GAMES`` is measured, so a new engine shows up here as soon as it is
registered. Only ``rules`` is imported (no Discord, no database), so this part also runs on an
older commit for ``--compare``.
"""

from __future__ import annotations

import random
import time
import traceback
from collections import defaultdict
from collections.abc import Callable
from typing import Any, cast

from bench.common import Table, summary_ms

# The party games are mostly played four-handed; a game for fewer seats plays its maximum.
COMMON_PLAYERS = 4


def default_players(game: Any) -> int:
    """A game may declare ``default_players``; otherwise the most common table size it allows."""
    declared = getattr(game, "default_players", None)
    if isinstance(declared, int) and game.min_players <= declared <= game.max_players:
        return declared
    return max(game.min_players, min(COMMON_PLAYERS, game.max_players))


def seat_levels(game: Any, index: int) -> list[str]:
    """Rotate the levels round the table from game to game, so every level plays every seat
    (a two-seat game with three levels still times all three)."""
    levels = list(game.computer_levels)
    shift = index % len(levels)
    return levels[shift:] + levels[:shift]


class _TimedPlayer:
    """Delegates to a real computer player and records how long each ``choose`` takes."""

    def __init__(self, inner: Any, sink: list[float], acting: list[float]) -> None:
        self._inner = inner
        self._sink = sink
        self._acting = acting
        self.level = inner.level

    def choose(self, view: Any, legal: list[str], rng: random.Random) -> str | None:
        started = time.perf_counter()
        choice = cast("str | None", self._inner.choose(view, legal, rng))
        took = time.perf_counter() - started
        self._sink.append(took)
        # Calls that pick an action apart: in turn-based games most calls are the seats not
        # on move answering None at once, which would hide the real thinking time in p50.
        if choice is not None:
            self._acting.append(took)
        return choice

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _TimedGame:
    """The game as play_game sees it, except that its computer players are timed.

    A proxy rather than a patch on the shared ``GAMES`` instance, so nothing else is affected."""

    def __init__(self, inner: Any, samples: dict[str, list[float]], acting: dict[str, list[float]]) -> None:
        self._inner = inner
        self._samples = samples
        self._acting = acting

    def computer_player(self, level: str, **settings: Any) -> _TimedPlayer:
        inner = self._inner.computer_player(level, **settings)
        return _TimedPlayer(inner, self._samples[level], self._acting[level])

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def _play_for(
    play: Callable[[int], Any], seconds: float, min_games: int, max_games: int, seed: int
) -> tuple[int, int, float, float, float]:
    """Play seeded games until both the time budget and the minimum are met.

    Returns games, actions, wall seconds, CPU seconds and virtual (game-clock) seconds."""
    games = actions = 0
    virtual = 0.0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while games < max_games and (games < min_games or time.perf_counter() - wall0 < seconds):
        record = play(seed + games)
        games += 1
        actions += len(record.actions)
        virtual += record.elapsed
    return games, actions, time.perf_counter() - wall0, time.process_time() - cpu0, virtual


def bench_game(
    key: str, game: Any, *, seconds: float, min_games: int, max_games: int, seed: int
) -> dict[str, Any]:
    from rules.selfplay import play_game

    players = default_players(game)
    counter = iter(range(10**9))

    def plain(s: int) -> Any:
        return play_game(game, players, {}, s, seat_levels(game, next(counter)))

    plain(seed - 1)  # warm-up: imports, caches, first-call costs stay out of the figures
    # One pass gives both figures: timing choose() costs two clock reads per call (well under a
    # microsecond), about 1% of an action even for the fastest engine, and halves the run time.
    samples: dict[str, list[float]] = defaultdict(list)
    acting: dict[str, list[float]] = defaultdict(list)
    timed = cast(Any, _TimedGame(game, samples, acting))
    # With fewer seats than levels, enough games that the rotation seats every level once.
    min_games = max(min_games, len(game.computer_levels) - players + 1)

    def timed_play(s: int) -> Any:
        return play_game(timed, players, {}, s, seat_levels(game, next(counter)))

    games, actions, wall, cpu, virtual = _play_for(timed_play, seconds, min_games, max_games, seed)
    return {
        "players": players,
        "levels": list(game.computer_levels),
        "games": games,
        "actions": actions,
        "wall_s": round(wall, 4),
        "cpu_s": round(cpu, 4),
        "actions_per_s": round(actions / wall, 2) if wall else None,
        "games_per_s": round(games / wall, 3) if wall else None,
        # CPU time is what the process itself used: steadier than wall time on a shared machine.
        "actions_per_cpu_s": round(actions / cpu, 2) if cpu else None,
        "games_per_cpu_s": round(games / cpu, 3) if cpu else None,
        "actions_per_game": round(actions / games, 1) if games else None,
        "virtual_s_per_game": round(virtual / games, 1) if games else None,
        "decision": {level: summary_ms(samples.get(level, []), digits=4) for level in game.computer_levels},
        "decision_acting": {
            level: summary_ms(acting.get(level, []), digits=4) for level in game.computer_levels
        },
    }


def run(
    *, seconds: float, min_games: int, max_games: int, seed: int, only: list[str] | None = None
) -> dict[str, Any]:
    import rules

    out: dict[str, Any] = {}
    for key, game in rules.GAMES.items():
        if only and key not in only:
            continue
        try:
            out[key] = bench_game(
                key, game, seconds=seconds, min_games=min_games, max_games=max_games, seed=seed
            )
        except Exception as error:  # one broken engine must not hide the others' numbers
            out[key] = {"error": f"{type(error).__name__}: {error}", "trace": traceback.format_exc(limit=5)}
    return {
        "games": out,
        "rules_path": str(getattr(rules, "__file__", "")),
        "config": {"seconds": seconds, "min_games": min_games, "max_games": max_games, "seed": seed},
    }


def tables(result: dict[str, Any]) -> list[Table]:
    speed = Table(
        "Engines: self-play on one core (all-computer seats)",
        ["game", "players", "games", "actions/s", "games/s", "actions/cpu-s", "games/cpu-s", "actions/game"],
    )
    decisions = Table(
        "Engines: computer-player decision time (player.choose during the same self-play)",
        ["game", "level", "calls", "p50 µs", "p99 µs", "max µs", "acting", "acting p50 µs", "acting p99 µs"],
    )
    for key, r in result["games"].items():
        if "error" in r:
            speed.add(key, "error", r["error"], "", "", "", "", "")
            continue
        speed.add(
            key,
            r["players"],
            r["games"],
            r["actions_per_s"],
            r["games_per_s"],
            r["actions_per_cpu_s"],
            r["games_per_cpu_s"],
            r["actions_per_game"],
        )
        for level, d in r["decision"].items():
            a = r["decision_acting"][level]
            decisions.add(
                key,
                level,
                d["n"],
                *(_us(d[k]) for k in ("p50_ms", "p99_ms", "max_ms")),
                a["n"],
                _us(a["p50_ms"]),
                _us(a["p99_ms"]),
            )
    cfg = result["config"]
    speed.notes.append(
        f"each game: ≥{cfg['seconds']} s and ≥{cfg['min_games']} games from seed {cfg['seed']};"
        " levels rotate round the table; /s = wall clock, /cpu-s = this process's CPU time"
    )
    decisions.notes.append("acting = the calls that returned an action (not None: wait)")
    return [speed, decisions]


def _us(ms: float | None) -> float | None:
    return None if ms is None else ms * 1000
