"""Finished games written through the real store, for the leaderboard, history and replay tests.

A game here is a real one: computer players (rules/selfplay.py) play it to the end, and every
action is committed through ``Store.commit_action`` exactly as a live table commits it (the last
one with the results, standings and ratings). Only who sits where is chosen: seats given a user
id are people, and the action log, results and ratings are theirs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from db.store import SeatResult, SeatSpec, Store
from rules import get_game
from rules.selfplay import play_game


@dataclass(frozen=True)
class Sitter:
    user_id: int | None
    name: str
    level: str | None = None  # a computer seat's level


async def record_game(
    store: Store,
    *,
    guild_id: int,
    channel_id: int,
    key: str,
    sitters: list[Sitter],
    seed: int = 1,
    options: dict[str, Any] | None = None,
    message_id: int | None = None,
) -> int:
    """Play a whole game between computer players and commit it as a table of ``sitters``."""
    game = get_game(key)
    parsed = game.parse_options(options or {})
    record = play_game(game, len(sitters), parsed, seed, list(game.computer_levels))
    seats = [SeatSpec(i, s.user_id, s.name, computer_level=s.level) for i, s in enumerate(sitters)]
    host = next((s.user_id for s in sitters if s.user_id is not None), 0)
    gid = await store.create_table(
        guild_id=guild_id,
        channel_id=channel_id,
        game=key,
        host_id=host,
        options={"seats": len(sitters), "rules": game.options_to_json(parsed)},
        speed="relaxed",
        seed=seed,
        seats=seats,
    )
    state = game.new_game(len(sitters), parsed, seed)
    await store.start_game(
        gid, version=1, seats=seats, state=state.to_json(), log=[], deadline_at=None, deadline_action=None
    )
    if message_id is not None:
        await store.set_table_message(gid, message_id)
    for version, (seat, action) in enumerate(record.actions, start=2):
        state.apply(seat, action)
        last = version == len(record.actions) + 1
        result = state.result() if last else None
        await store.commit_action(
            gid,
            seq=version,
            seat=seat,
            action=action,
            actor_id=sitters[seat].user_id if seat is not None else None,
            state=state.to_json(),
            version=version,
            log=[],
            deadline_at=None,
            deadline_action=None,
            seats=seats if last else None,
            results=[SeatResult(p.seat, p.place, p.points) for p in result.placements] if result else None,
            guild_id=guild_id,
            game=key,
        )
    assert state.is_over()
    return gid


async def finish_quickly(
    store: Store, *, guild_id: int, channel_id: int, key: str, places: dict[int, int], names: dict[int, str]
) -> int:
    """A finished table whose last commit carries these places (user id -> place), without
    playing it: standings and ratings exactly as a real finish writes them, for boards that need
    many people. Nothing to replay."""
    seats = [SeatSpec(i, uid, names[uid]) for i, uid in enumerate(places)]
    gid = await store.create_table(
        guild_id=guild_id,
        channel_id=channel_id,
        game=key,
        host_id=seats[0].user_id or 0,
        options={"seats": len(seats), "rules": {}},
        speed="relaxed",
        seed=channel_id,
        seats=seats,
    )
    await store.commit_action(
        gid,
        seq=1,
        seat=0,
        action="end",
        actor_id=None,
        state={},
        version=1,
        log=[],
        deadline_at=None,
        deadline_action=None,
        seats=seats,
        results=[SeatResult(s.seat, places[s.user_id], 10 - places[s.user_id]) for s in seats if s.user_id],
        guild_id=guild_id,
        game=key,
    )
    return gid
