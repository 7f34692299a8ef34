"""A person's click is answered with their panel's new pictures, drawn while the commit is under
way (``Spine.act`` foresees them from the draft), not started after it lands.

The check is on the model, not on timing: while the database write of each clicked action runs,
the pictures the clicker's panel shows once it is committed must already be drawn or under way in
the content cache. (A draft that fails to commit leaves its drawing in the cache and nothing
else: the cache is keyed by content, and every message is drawn from committed state.)
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.simhelpers import alt_texts, playable
from tests.e2e.zipzap_driver import Player, open_lobby


@pytest.mark.simcord(settle_timeout=20)
async def test_the_clickers_new_pictures_are_drawn_while_the_commit_runs(simcord_env, simcord_bot):
    """Seen to fail (keys missing at write time on every click) with the ``foresee_panel`` call
    removed from ``Spine.act``."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 11
    t = await open_lobby(env, seats=2, rounds=1, cpu=None)
    channel, (alice, bob) = t["channel"], t["actors"]
    await alice.click(t["lobby"], label="Start")
    referee = simcord_bot.referee
    art = referee.drawing.art
    table = referee.tables[max(referee.tables)]
    store = simcord_bot.store
    original_write = store.write
    at_write: list[set[Any]] = []

    async def write(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("action") is not None:
            at_write.append(set(art.cache._items) | set(art.cache._drawing))
        return await original_write(*args, **kwargs)

    store.write = write
    players = {0: Player(alice, channel, t["lobby"]), 1: Player(bob, channel, t["lobby"])}
    checked = 0
    for _ in range(12):
        for seat, player in players.items():
            if table.status != "playing":
                break
            if player.panel is None:
                await player.open_hand()
            if not playable(player.panel):
                await player.step()
                continue
            before = len(at_write)
            await player.step()
            if len(at_write) == before or table.status != "playing":
                continue  # refused (too slow), or the game ended: no panel to foresee
            wanted = {s.key for s in referee.drawing._panel_sketches(table, seat)}
            assert wanted, "a playing seat's panel shows its hand"
            assert wanted <= at_write[-1], "the clicker's pictures were not under way during the commit"
            assert alt_texts(player.panel), "the answer shows the hand"
            checked += 1
        await env.advance_time(1.0)
    assert checked >= 4, checked
    assert art.drawn_on_loop == 0
    assert not env.errors
