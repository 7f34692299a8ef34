"""Restart between every pair of consecutive actions of a recorded game, for every game.

A short game is recorded by the engine's own self-play (rules.selfplay.play_game). The same game
is then played at a real table (people in every seat, the same seed): each recorded action goes
through ``Referee.act`` under the table lock, exactly where a click goes once it holds the lock,
and after every single action the bot is restarted on the same database. The resumed table must
hold exactly the state an engine replay reaches, and the database exactly the actions so far.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules import get_game
from rules.selfplay import play_game
from tests.fault.fault_helpers import SETUPS, loaded_games, open_people_table, replay, stored_actions

# The default run plays each game to its end at this seed (about 140 restarts in all); the soak
# run adds more seeds.
SEED = 1
SOAK_SEEDS = (2, 3, 4, 5, 6)


async def restart_after_every_action(
    env: Any, bot: Any, make_bot: Any, key: str, seed: int
) -> list[tuple[int | None, str]]:
    """Play the recorded game at ``seed`` action by action, restarting the bot after each one."""
    game = get_game(key)
    setup = SETUPS[key]
    t = await open_people_table(env, bot, key, seed)
    tid = t["table_id"]
    table = bot.referee.tables[tid]
    options = table.options
    record = play_game(game, setup.players, options, seed, list(game.computer_levels))
    assert record.state.is_over(), "the recorded game did not finish"
    assert table.state.to_json() == game.new_game(setup.players, options, seed).to_json()
    start_version = table.version
    done: list[tuple[int | None, str]] = []
    current = bot
    for seat, action in record.actions:
        table = current.referee.tables[tid]
        actor = table.seats[seat].user_id if seat is not None else None
        async with table.lock:
            await current.referee.act(table, seat, action, actor)
        done.append((seat, action))
        acknowledged = table.state.to_json()

        fresh = make_bot()
        await env.restart_bot(fresh)
        current.scheduler.stop()
        await current.database.dispose()
        current = fresh

        expected = replay(key, setup.players, options, seed, done)
        assert acknowledged == expected.to_json(), f"the live table went astray at action {len(done)}"
        stored = await stored_actions(current, tid)
        assert stored == [(start_version + i + 1, s, a) for i, (s, a) in enumerate(done)], (
            f"after action {len(done)} ({seat}, {action}) the database holds {stored[-3:]}"
        )
        row = await current.store.get_table(tid)
        assert row is not None and row.version == start_version + len(done)
        assert row.state == expected.to_json()
        if expected.is_over():
            assert row.status == "finished"
            assert tid not in current.referee.tables, "a finished table came back to life"
        else:
            resumed = current.referee.tables[tid]
            assert resumed.version == start_version + len(done)
            assert resumed.state.to_json() == expected.to_json(), f"resumed astray at action {len(done)}"
    row = await current.store.get_table(tid)
    assert row is not None and row.status == "finished"
    assert row.state == record.state.to_json(), "the final state differs from the recorded game's"
    return done


def _games(bot: Any) -> list[str]:
    return [key for key in SETUPS if key in loaded_games(bot)]


@pytest.mark.simcord(settle_timeout=30)
@pytest.mark.parametrize("key", list(SETUPS))
async def test_restart_after_every_action_of_a_recorded_game(
    simcord_env: Any, simcord_bot: Any, make_bot: Any, key: str
) -> None:
    """A whole recorded game, a restart after every action; the end state is the recording's.

    Seen failing (a throwaway run) against a Store.commit_action that wrote the action row with
    the previous snapshot instead of the new one: the database state differed from the replay at
    action 1; and against a resume() that loaded no tables: KeyError for the table after the
    first restart. (SimCord's restart drains the old bot first, so an answer sent before a
    commit still in flight is test_sigkill.py's to catch, not this test's.)"""
    if key not in _games(simcord_bot):
        pytest.skip(f"the {key} cog is not loaded")
    done = await restart_after_every_action(simcord_env, simcord_bot, make_bot, key, SEED)
    assert len(done) > 10


@pytest.mark.soak
@pytest.mark.simcord(settle_timeout=60)
@pytest.mark.parametrize("seed", SOAK_SEEDS)
@pytest.mark.parametrize("key", list(SETUPS))
async def test_restart_after_every_action_more_seeds(
    simcord_env: Any, simcord_bot: Any, make_bot: Any, key: str, seed: int
) -> None:
    if key not in _games(simcord_bot):
        pytest.skip(f"the {key} cog is not loaded")
    await restart_after_every_action(simcord_env, simcord_bot, make_bot, key, seed)
