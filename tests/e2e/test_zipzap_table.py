"""The Zip Zap table under pressure: races, restarts, bad clicks and hidden hands."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select

from cogs.zipzap import ZipZapUI, card_label, card_text
from db.models import ActionRow, Game
from rules.zipzap import ZipZap
from tests.e2e.secrecy import Audit
from tests.e2e.simhelpers import answer_text, emit_click, message_text, playable, reply_text, title
from tests.e2e.zipzap_driver import Player, is_over, open_lobby, play_to_end

ENGINE = ZipZap()


def seed_where(players: int, wanted: Any) -> int:
    for seed in range(5000):
        state = ENGINE.new_game(players, ENGINE.parse_options({}), seed)
        if wanted(state):
            return seed
    raise AssertionError("no seed found")


def both_can_follow(state: Any) -> bool:
    return state.control is None and bool(state.legal_actions(0)) and bool(state.legal_actions(1))


async def counts(bot: Any) -> tuple[int, int]:
    async with bot.database.sessions() as s:
        actions = await s.scalar(select(func.count()).select_from(ActionRow))
        version = await s.scalar(select(Game.version))
        return int(actions or 0), int(version or 0)


async def started_table(env: Any, bot: Any, seed: int, **kw: Any) -> tuple[dict[str, Any], list[Player]]:
    bot.referee.new_seed = lambda: seed
    t = await open_lobby(env, **kw)
    await t["host"].click(t["lobby"], label="Start")
    players = [Player(a, t["channel"], t["lobby"]) for a in t["actors"]]
    for p in players:
        await p.open_hand()
    return t, players


@pytest.mark.simcord(settle_timeout=20)
async def test_racing_clicks_in_flight_exactly_one_card_is_played(simcord_env, simcord_bot):
    """Several clicks for the same spot on the pile are in flight together; the first processed
    wins, every other clicker is told why, and only one action is stored.

    Seen failing against a broken referee with the lock removed and a database read awaited
    before the version check: the later clicks passed the stale-version check and were not told
    they were too slow."""
    env = simcord_env
    seed = seed_where(3, both_can_follow)
    _t, (alice, bob) = await started_table(env, simcord_bot, seed, cpu="casual")
    before, version_before = await counts(simcord_bot)
    a_card = playable(alice.panel)[0]["custom_id"]
    b_card = playable(bob.panel)[0]["custom_id"]
    flights = [
        emit_click(alice.actor, alice.panel, a_card),
        emit_click(bob.actor, bob.panel, b_card),
        emit_click(alice.actor, alice.panel, a_card),  # an impatient double click
        emit_click(bob.actor, bob.panel, b_card),
    ]
    await env.settle()
    after, version_after = await counts(simcord_bot)
    assert after == before + 1
    assert version_after == version_before + 1
    answers = [answer_text(env, f) for f in flights]
    assert all(f.result.acknowledged for f in flights)
    too_slow = [a for a in answers if "Too slow" in a]
    assert len(too_slow) == 3, answers
    state = simcord_bot.referee.tables[1].state
    assert len(state.played) == 2  # the flipped card and exactly one play


@pytest.mark.simcord(settle_timeout=20)
async def test_restart_mid_game_resumes_and_finishes(simcord_env, simcord_bot, make_bot):
    """Seen failing against a resume() that loaded no tables (KeyError: the table was gone)."""
    env = simcord_env
    seed = seed_where(3, both_can_follow)
    t, players = await started_table(env, simcord_bot, seed, cpu="sharp")
    channel = t["channel"]
    for _ in range(12):
        for p in players:
            await p.step()
        await env.advance_time(1)
    assert not is_over(channel)
    live = simcord_bot.referee.tables[1]
    state_before = live.state.to_json()
    version_before = live.version

    new_bot = make_bot()
    await env.restart_bot(new_bot)
    resumed = new_bot.referee.tables[1]
    assert resumed.version == version_before
    assert resumed.state.to_json() == state_before
    assert resumed.deadline_at is not None, "the pending timer came back"

    # A panel from before the restart is stale: the click gets a fresh panel, not a move.
    stale = playable(players[0].panel)
    if stale:
        result = await players[0].actor.click(players[0].panel, custom_id=stale[0]["custom_id"])
        assert "Too slow" in reply_text(result) or resumed.version != version_before
    await play_to_end(env, players, channel)
    assert is_over(channel)
    async with new_bot.database.sessions() as s:
        assert (await s.scalars(select(Game.status))).one() == "finished"


@pytest.mark.simcord(settle_timeout=20)
async def test_bad_clicks_are_refused_with_a_reason_and_change_nothing(simcord_env, simcord_bot):
    env = simcord_env
    seed = seed_where(3, both_can_follow)
    t, (alice, _bob) = await started_table(env, simcord_bot, seed, cpu="casual")
    carol = t["guild"].add_member(env.create_user("carol"))
    table = simcord_bot.referee.tables[1]
    snapshot = table.state.to_json()
    before = await counts(simcord_bot)
    card = playable(alice.panel)[0]["custom_id"]

    async def refused(flight: Any, reason: str) -> None:
        await env.settle()
        result = flight.result
        assert result.acknowledged, reason
        assert reason in answer_text(env, flight), answer_text(env, flight)

    # A non-player: the table button and a copy of a player's panel button.
    r = await carol.click(t["lobby"], label="My hand")
    assert r.ephemeral and "not playing" in reply_text(r)
    await refused(emit_click(carol, alice.panel, card), "not playing")
    # A stale panel: the version in the button is older than the table's.
    stale = card.replace(f":{table.version}:", f":{table.version - 1}:")
    await refused(emit_click(alice.actor, alice.panel, stale), "Too slow")
    # Forged buttons: a card she doesn't hold, a table that doesn't exist, gibberish.
    not_hers = next(c for c in table.state.hands[1] if not c.startswith("Z"))
    await refused(emit_click(alice.actor, alice.panel, f"ga:1:{table.version}:{not_hers}"), "don't hold")
    await refused(emit_click(alice.actor, alice.panel, f"ga:1:{table.version}:R99"), "")
    # The table's Next round button while the round is still on (pressed late, or forged): the
    # engine's refusal, worded by the game.
    await refused(emit_click(alice.actor, t["lobby"], "gt:1:act:deal"), "The round is still being played;")
    await refused(emit_click(alice.actor, t["lobby"], "gt:999:hand"), "has ended")
    await refused(emit_click(alice.actor, t["lobby"], "totally:forged"), "isn't one I recognise")
    # Leaving and stopping are for players and the host.
    r = await carol.slash(t["channel"], "table stop")
    assert "Only the host" in reply_text(r)

    assert await counts(simcord_bot) == before
    assert table.state.to_json() == snapshot
    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_nobody_ever_sees_another_players_cards(simcord_env, simcord_bot):
    env = simcord_env
    audit = Audit(env)
    audit.attach(simcord_bot)
    seed = seed_where(3, both_can_follow)
    t, players = await started_table(env, simcord_bot, seed, cpu="casual")
    await players[1].actor.click(t["lobby"], label="Hand by DM")  # one player takes the DM route
    await play_to_end(env, players, t["channel"])
    assert len(audit.snapshots) > 30
    assert audit.leaks() == []
    # Hands are only ever drawn on ephemeral panels or in DMs, never on a public message.
    public = t["channel"].history()
    assert public and not any(title(m).startswith("Your hand") for m in public)
    # (It is "This hand moved to a newer panel." by the end if he pressed My hand after it: one live
    # panel per person.)
    assert any(
        "Your hand" in message_text(m) or "moved to a newer panel" in message_text(m)
        for m in players[1].actor.user.dm_channel.history()
    )


@pytest.mark.simcord(settle_timeout=30)
async def test_the_audit_catches_a_leaky_renderer(simcord_env, simcord_bot, monkeypatch):
    """The secrecy audit must be able to fail: a renderer that prints every hand on the table."""
    # discord.py loads extensions as fresh module objects, so patch the class the bot really uses.
    ui_class = type(simcord_bot.referee.uis["zipzap"])
    original = ui_class.table_embed

    def leaky(self: ZipZapUI, table: Any) -> Any:
        embed = original(self, table)
        hands = " / ".join(" ".join(card_label(c) for c in h) for h in table.state.hands)
        embed.add_field(name="debug", value=hands[:1024])
        return embed

    monkeypatch.setattr(ui_class, "table_embed", leaky)
    env = simcord_env
    audit = Audit(env)
    audit.attach(simcord_bot)
    seed = seed_where(3, both_can_follow)
    _t, players = await started_table(env, simcord_bot, seed, cpu="casual")
    for _ in range(3):
        for p in players:
            await p.step()
        await env.advance_time(1)
    assert audit.leaks(), "the audit did not notice hands printed on the public table"


@pytest.mark.simcord(settle_timeout=20)
async def test_an_open_panel_follows_the_table(simcord_env, simcord_bot):
    """Another player's card updates my open panel within a second, so my next click counts."""
    env = simcord_env
    seed = seed_where(3, both_can_follow)
    _t, (alice, bob) = await started_table(env, simcord_bot, seed, cpu="casual")
    table = simcord_bot.referee.tables[1]
    await bob.actor.click(bob.panel, custom_id=playable(bob.panel)[0]["custom_id"])
    await env.advance_time(1.25)
    top = card_text(table.state.top)
    assert f"**{top}**" in message_text(alice.panel)
    assert all(f":{table.version}:" in b["custom_id"] for b in playable(alice.panel))
    offered = playable(alice.panel)
    if offered:  # if she can follow, her first click plays
        before = table.version
        await alice.actor.click(alice.panel, custom_id=offered[0]["custom_id"])
        assert table.version == before + 1


@pytest.mark.simcord(settle_timeout=30)
async def test_the_audit_catches_a_panel_showing_a_neighbours_hand(simcord_env, simcord_bot, monkeypatch):
    ui_class = type(simcord_bot.referee.uis["zipzap"])
    original = ui_class.panel

    def leaky(self: ZipZapUI, table: Any, seat: int, note: Any, nav: Any = None) -> Any:
        embed, items = original(self, table, seat, note, nav)
        neighbour = table.state.hands[(seat + 1) % table.state.players]
        embed.add_field(name="psst", value=" ".join(card_label(c) for c in neighbour))
        return embed, items

    monkeypatch.setattr(ui_class, "panel", leaky)
    env = simcord_env
    audit = Audit(env)
    audit.attach(simcord_bot)
    seed = seed_where(3, both_can_follow)
    _t, players = await started_table(env, simcord_bot, seed, cpu="casual")
    for _ in range(3):
        for p in players:
            await p.step()
        await env.advance_time(1)
    leaks = audit.leaks()
    assert leaks and all("(user " in leak for leak in leaks), leaks[:3]
