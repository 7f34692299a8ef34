"""Slow computer players think in worker processes: the same move as on the loop, a thought about
a table that has moved on is dropped, and the workers stop with the referee."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cogs.table.thinking import Thinker, decide
from rules.trap import Trap
from tests.e2e.trap_driver import open_table

GAME = Trap()


def positions(seed: int, count: int) -> list[tuple[dict[str, Any], list[str], int]]:
    """Positions of a quick-setup game played by two medium players: (view, legal, seat to move),
    taken once main play is under way, where the hard player's search decides."""
    state = GAME.new_game(2, GAME.parse_options({"quick_setup": True}), seed)
    medium = GAME.computer_player("medium", speed=1.0)
    rng = random.Random(seed)
    found = []
    while not state.is_over() and len(found) < count:
        seat = state.view(None)["to_move"]
        legal = state.legal_actions(seat)
        view = state.view(seat)
        if view["phase"] == "main" and len(legal) > 2:
            found.append((view, legal, seat))
        state.apply(seat, medium.choose(view, legal, rng))
    return found


async def test_a_worker_makes_the_same_move_as_the_loop_for_a_seed() -> None:
    """The hard player deciding in a worker process gives exactly what it gives on the loop with
    the generator seeded the same way: the action and the reaction time.

    Seen to fail when ``decide`` seeded its generator with ``seed + "w"``: the first move
    already differed (d3>e3 for e2>e3), and its reaction time."""
    thinker = Thinker(workers=1)
    try:
        for view, legal, _seat in positions(seed=5, count=3):
            seed = f"5:{view['ply']}:{view['seat']}"
            hard = GAME.computer_player("hard", speed=1.0)
            rng = random.Random(seed)
            on_loop = hard.choose(view, legal, rng)
            expected = (on_loop, hard.reaction_time(view, on_loop, rng))
            assert await thinker.decide("trap", "hard", {"speed": 1.0}, view, legal, seed) == expected
            assert decide("trap", "hard", {"speed": 1.0}, view, legal, seed) == expected
    finally:
        thinker.shutdown()
    assert thinker.closed and not thinker.started


async def _hard_table(env: Any, bot: Any) -> tuple[Any, Any]:
    bot.referee.new_seed = lambda: 3
    # Slow reactions: a booked move waits far longer than the table's 90-second move timer.
    bot.referee.computer_speed = 1000.0
    t = await open_table(env, cpu="hard")
    await t["host"].click(t["lobby"], label="Start")
    return t, bot.referee.tables[1]


@pytest.mark.simcord(settle_timeout=30)
async def test_a_thought_about_a_table_that_moved_on_is_dropped(simcord_env, simcord_bot):
    """The hard computer thinks in a worker and books its move for the version it thought about.
    When the table moves on first (the move timer plays for it), the booking is dropped; a new
    thought is made for the new state; and the old move, if its job still fired, changes nothing
    even though it would still be legal.

    Seen to fail when ``_on_computer`` ignored the version of a slow computer's move: the stale
    drop was played at the new version (an extra action row and a version bump)."""
    env, referee = simcord_env, simcord_bot.referee
    t, table = await _hard_table(env, simcord_bot)
    alice = t["host"]
    key = f"t{table.id}:cpu1"
    started = table.version

    async def alice_plays() -> None:
        # Typed, so the change and the thought it starts run as the bot's own work (settled).
        await alice.slash(t["channel"], "trap move", move=sorted(table.state.legal_actions(0))[0])

    if table.state.view(None)["to_move"] == 0:
        await alice_plays()
    assert table.state.view(None)["to_move"] == 1
    # The thought ran in a worker process (settle waits for it) and booked the move.
    assert referee.thinker.started
    thought_at = table.version
    assert referee.computers.thought_for[(table.id, 1)] == thought_at
    assert referee.scheduler.when(key) is not None
    stale = table.planned[1]

    # Nobody moves for 90 s: the table's move timer plays for the computer instead.
    for _ in range(19):
        await env.advance_time(5)
    assert table.version == thought_at + 1
    assert referee.scheduler.when(key) is None, "the move thought out for an older table is dropped"

    # Alice plays; the computer thinks afresh about the new table.
    await alice_plays()
    now = table.version
    assert table.state.view(None)["to_move"] == 1
    assert referee.computers.thought_for[(table.id, 1)] == now
    assert referee.scheduler.when(key) is not None
    fresh = table.planned[1]

    # The stale move, if its job had survived, is refused by version even where still legal.
    assert stale in table.state.legal_actions(1)
    await referee.computers.play(table.id, 1, stale, thought_at)
    await env.settle()
    assert table.version == now
    assert referee.scheduler.when(key) is not None and table.planned[1] == fresh
    rows = await simcord_bot.store.actions(table.id)
    assert [r.seq for r in rows] == list(range(started + 1, now + 1)), "one action per version, no extra"

    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_the_workers_stop_with_the_referee(simcord_env, simcord_bot):
    """Shutting the referee down stops its worker processes and drops thoughts under way.

    Seen to fail when Referee.shutdown did not call stop_thinking: the worker stayed alive."""
    env, referee = simcord_env, simcord_bot.referee
    t, table = await _hard_table(env, simcord_bot)
    if table.state.view(None)["to_move"] == 0:
        await t["host"].slash(t["channel"], "trap move", move=sorted(table.state.legal_actions(0))[0])
    assert referee.thinker.started
    workers = list(referee.thinker._pool._processes.values())  # type: ignore[union-attr]
    assert workers and all(w.is_alive() for w in workers)
    await referee.shutdown(timeout=5)
    for worker in workers:
        worker.join(timeout=10)
    assert not any(w.is_alive() for w in workers)
    assert referee.thinker.closed and not referee.thinker.started
    assert not referee.computers.thinking
