"""A person's click is answered with their panel's new pictures, drawn while the commit is under
way (``Spine.act`` foresees them from the draft), not started after it lands.

The check is on the model, not on timing: while the database write of each clicked action runs,
the pictures the clicker's panel shows once it is committed must already be drawn or under way in
the content cache. (A draft that fails to commit leaves its drawing in the cache and nothing
else: the cache is keyed by content, and every message is drawn from committed state.)
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from tests.e2e.simhelpers import alt_texts, playable, reply_text
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


async def _waits_for_its_turn_unlocked(env: Any, bot: Any, table: Any, job: Any) -> None:
    """Run ``job`` (a background redraw of ``table``) with every turn at the picture workers
    taken: it must wait for its pictures without holding the table's lock, then finish once the
    turns come free."""
    art = bot.referee.drawing.art
    art.cache.clear()  # what the table shows must be drawn again
    turns = art.turns
    taken = turns.size - turns.busy
    turns.busy = turns.size  # as if clicks' drawings held every worker
    task = asyncio.ensure_future(job())
    try:
        for _ in range(200):
            await asyncio.sleep(0)
            if turns.waiting:
                break
        assert turns.waiting, "the redraw never asked for a drawing"
        assert not table.lock.locked(), "it waits for its turn holding the table's lock"
    finally:
        for _ in range(taken):
            turns._pass_on()
    async with asyncio.timeout(10):
        await task


@pytest.mark.simcord(settle_timeout=20)
async def test_a_background_redraw_waits_for_its_pictures_without_the_tables_lock(simcord_env, simcord_bot):
    """Drawings a click waits for go to the workers first (cogs/table/pictures.py Turns), so a
    table redraw or another seat's panel refresh may wait for its pictures: it must not hold the
    table's lock meanwhile, or a click on that table waits behind a drawing that waits behind
    clicks. Seen to fail ("it waits for its turn holding the table's lock") with the pictures
    made under the lock in ``TableMessages._render`` (the ``prepare`` call removed), and the
    same for ``Panels._refresh``."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 11
    t = await open_lobby(env, seats=2, rounds=1, cpu=None)
    channel, (alice, _bob) = t["channel"], t["actors"]
    await alice.click(t["lobby"], label="Start")
    referee = bot.referee
    table = referee.tables[max(referee.tables)]
    player = Player(alice, channel, t["lobby"])
    await player.open_hand()
    await env.advance_time(2)

    await _waits_for_its_turn_unlocked(
        env, bot, table, lambda: referee.messages._render(table.id, force=True)
    )
    panel = referee.panels.get(table.id, 0)
    assert panel is not None, "alice's panel is open"
    panel.current = -1  # it shows an older version: a refresh redraws it
    await _waits_for_its_turn_unlocked(env, bot, table, lambda: referee.panels._refresh(table.id, 0))
    assert referee.drawing.art.drawn_on_loop == 0
    assert not env.errors


@pytest.mark.simcord(settle_timeout=20)
async def test_a_card_whose_commit_fails_is_not_shown_and_the_next_click_counts(simcord_env, simcord_bot):
    """The write of a clicked card fails ("database is locked"): its pictures were foreseen from
    the draft, yet the person is told nothing was saved, the table's version is unchanged, a
    Refresh shows the hand as committed (the foreseen drawing is shown nowhere), and the same
    card played again counts. Seen to fail with ``Spine.save`` adopting the draft before the
    write (the live table had moved on to the unsaved version: 4, not 3)."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 11
    t = await open_lobby(env, seats=2, rounds=1, cpu=None)
    channel, (alice, bob) = t["channel"], t["actors"]
    await alice.click(t["lobby"], label="Start")
    table = bot.referee.tables[max(bot.referee.tables)]
    player, other = Player(alice, channel, t["lobby"]), Player(bob, channel, t["lobby"])
    await player.open_hand()
    for _ in range(40):
        if playable(player.panel):
            break
        await other.step()  # bob plays on until alice has a card to play
        await env.advance_time(1.0)
        await player.open_hand()
    offered = playable(player.panel)
    assert offered, "alice never had a card to play"
    shown = alt_texts(player.panel)
    version = table.version
    store = bot.store
    real = store.write

    async def locked(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("action") is not None:
            raise OperationalError("UPDATE games", {}, Exception("database is locked"))
        return await real(*args, **kwargs)

    store.write = locked
    said = await alice.click(player.panel, custom_id=offered[0]["custom_id"])
    store.write = real
    assert "couldn't save" in reply_text(said)
    assert table.version == version
    refreshed = await alice.click(player.panel, label="Refresh")
    assert alt_texts(refreshed.response) == shown, "the panel shows the committed hand"
    again = await alice.click(refreshed.response, custom_id=offered[0]["custom_id"])
    assert table.version == version + 1, "the same card counts once it is saved"
    assert alt_texts(again.response) != shown
    assert bot.referee.drawing.art.drawn_on_loop == 0
    assert not env.errors
