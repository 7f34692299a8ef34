"""How strong Trap's computer levels are against each other (a measurement, not a test).

python -m bench.trap_strength --games 40 [--out trap_strength.json] [--pairs hard:random,hard:medium]

Levels are the game's computer levels plus "random" (uniformly random legal moves).

Each pairing plays N games, half with each level as player A, on the basic 5 × 5 game; prints a table
(wins, draws, losses from the first level's side, and the first level's thinking time per main-play
move) and writes the same as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from rules.trap import Trap

GAME = Trap()


class RandomPlay:
    """Uniformly random legal moves: the baseline the issue measures the strongest level against
    (the "easy" level is random-ish but grabs captures it sees, so it is not quite random)."""

    level = "random"

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str | None:
        return rng.choice(legal) if legal else None


def player(level: str) -> Any:
    return RandomPlay() if level == "random" else GAME.computer_player(level)


def play(levels: tuple[str, str], seed: int, options: dict[str, Any]) -> tuple[list[int], str, list[float]]:
    """One game, seat 0 and seat 1 at the given levels; returns winners, reason and seat 0's move times."""
    state = GAME.new_game(2, options, seed)
    bots = [player(level) for level in levels]
    rngs = [random.Random(f"bench:{seed}:{seat}") for seat in (0, 1)]
    times: list[list[float]] = [[], []]
    while not state.is_over():
        seat = state.to_move
        assert seat is not None
        started = time.perf_counter()
        action = bots[seat].choose(state.view(seat), state.legal_actions(seat), rngs[seat])
        if state.phase == "main":
            times[seat].append(time.perf_counter() - started)
        assert action is not None
        state.apply(seat, action)
    assert state.outcome is not None
    return state.outcome["winners"], state.outcome["reason"], times


def run_pair(first: str, second: str, games: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    wins = draws = losses = 0
    move_times: list[float] = []
    reasons: dict[str, int] = {}
    for index in range(games):
        swap = index % 2 == 1
        levels = (second, first) if swap else (first, second)
        me = 1 if swap else 0
        winners, reason, times = play(levels, seed + index, options)
        reasons[reason] = reasons.get(reason, 0) + 1
        move_times += times[me]
        if len(winners) == 2:
            draws += 1
        elif winners == [me]:
            wins += 1
        else:
            losses += 1
    return {
        "first": first,
        "second": second,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": wins / games if games else 0.0,
        "reasons": reasons,
        "first_move_seconds_mean": sum(move_times) / len(move_times) if move_times else 0.0,
        "first_move_seconds_max": max(move_times, default=0.0),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.trap_strength", description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="games per pairing (half each way)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", default="hard:random,hard:easy,hard:medium,medium:easy")
    parser.add_argument("--options", default="", help='Trap options as JSON, e.g. \'{"variant": "king"}\'')
    parser.add_argument("--out", default="trap_strength.json", help="where to write the JSON results")
    args = parser.parse_args(argv)
    options = json.loads(args.options) if args.options else {}
    GAME.parse_options(options)
    rows = []
    print(
        f"{'pairing':<16}{'games':>6}{'wins':>6}{'draws':>6}{'losses':>7}"
        f"{'win %':>7}{'s/move':>8}{'max s':>7}"
    )
    for pair in args.pairs.split(","):
        first, second = pair.split(":")
        row = run_pair(first, second, args.games, args.seed, options)
        rows.append(row)
        print(
            f"{first + ' v ' + second:<16}{row['games']:>6}{row['wins']:>6}"
            f"{row['draws']:>6}{row['losses']:>7}"
            f"{100 * row['win_rate']:>6.0f}%{row['first_move_seconds_mean']:>8.2f}"
            f"{row['first_move_seconds_max']:>7.2f}",
            flush=True,
        )
    with open(args.out, "w", encoding="utf-8") as file:
        json.dump({"game": "trap", "options": options, "seed": args.seed, "pairings": rows}, file, indent=1)
        file.write("\n")
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
