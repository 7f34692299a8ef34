"""python -m rules: self-play and replays from the command line.

python -m rules selfplay zipzap --games 20 --players 4 --seed 1 --levels casual,sharp
python -m rules replay game.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence

from rules import GAMES, get_game
from rules.replay import event_line, replay
from rules.selfplay import play_game


def cmd_selfplay(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    levels = [level.strip() for level in args.levels.split(",") if level.strip()] or list(
        game.computer_levels
    )
    for level in levels:
        if level not in game.computer_levels:
            print(f"Unknown level {level!r}; {game.title} has: {', '.join(game.computer_levels)}.")
            return 2
    options = game.parse_options(json.loads(args.options) if args.options else {})
    wins: Counter[str] = Counter()
    seats_at: Counter[str] = Counter()
    for index in range(args.games):
        seed = args.seed + index
        record = play_game(game, args.players, options, seed, levels, timers=args.timers)
        state = record.state
        result = state.result()
        for level in record.levels:
            seats_at[level] += 1
        if result is None:
            print(f"game {index + 1} seed {seed}: unfinished after {len(record.actions)} actions")
        else:
            winners = result.winners
            for seat in winners:
                wins[record.levels[seat]] += 1
            names = ", ".join(f"seat {s} ({record.levels[s]})" for s in winners)
            rounds = state.view(None).get("round", "?")
            print(
                f"game {index + 1} seed {seed}: winner {names}; {rounds} rounds, "
                f"{len(record.actions)} actions, {record.elapsed / 60:.1f} virtual minutes"
            )
        if index == 0 and args.record:
            with open(args.record, "w", encoding="utf-8") as file:
                json.dump(record.to_json(), file, indent=1)
                file.write("\n")
    print("wins per level (shared wins count for each winner):")
    for level in sorted(seats_at):
        print(f"  {level}: {wins[level]} wins from {seats_at[level]} seats played")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    with open(args.file, encoding="utf-8") as file:
        data = json.load(file)
    try:
        outcome = replay(data)
    except (KeyError, ValueError) as exc:
        print(f"Cannot start the game: {exc}")
        return 2
    for event in outcome.events:
        print(event_line(event))
    if outcome.failed_at is not None:
        step = data["actions"][outcome.failed_at]
        where = f"Illegal action #{outcome.failed_at} (seat {step.get('seat')}: {step['action']!r})"
        print(f"{where}: {outcome.reason}")
        return 1
    state = outcome.state
    result = state.result()
    if result is not None:
        # An engine that speaks in data gives how the game ended as a code and its details.
        print(result.summary or f"{result.how} {json.dumps(result.details, sort_keys=True)}")
        for placement in result.placements:
            print(f"Seat {placement.seat}: place {placement.place}, {placement.points} points")
    else:
        view = state.view(None)
        keys = ("phase", "round", "top", "control", "hand_counts", "scores")
        summary = {k: view[k] for k in keys if k in view}
        print("Not over: " + json.dumps(summary))
    if outcome.mismatches:
        print("Expected values not met:")
        for key, (wanted, got) in outcome.mismatches.items():
            print(f"  {key}: expected {json.dumps(wanted)}, got {json.dumps(got)}")
        return 1
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m rules", description="Self-play and replays for the games."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("selfplay", help="computer players play whole games on a virtual clock")
    sp.add_argument("game", choices=sorted(GAMES))
    sp.add_argument("--games", type=int, default=10)
    sp.add_argument("--players", type=int, default=4)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument(
        "--levels",
        default="",
        help="comma-separated, repeated round the table (default: the game's own levels)",
    )
    sp.add_argument("--options", default="", help='game options as JSON, e.g. \'{"scoring": "first_out"}\'')
    sp.add_argument("--timers", default="relaxed", help="table speed whose timers apply")
    sp.add_argument("--record", help="write the first game as a recorded-game JSON file")
    sp.set_defaults(func=cmd_selfplay)
    rp = sub.add_parser("replay", help="replay a recorded game or a scenario file")
    rp.add_argument("file")
    rp.set_defaults(func=cmd_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
