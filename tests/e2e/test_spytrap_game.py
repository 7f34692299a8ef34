"""Spy Trap through the real bot: a whole game, refused prompts, identity privacy, restart."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import func, select

from db.models import ActionRow, Game
from rules.spytrap import COUNTRIES
from tests.e2e.secrecy import Audit
from tests.e2e.simhelpers import answer_text, emit_click, message_text, reply_text
from tests.e2e.spytrap_driver import Spy, is_over, play_to_end


async def open_spytrap(env: Any, bot: Any, *, seed: int = 11, cpu: str = "sharp", max_rounds: int = 6):
    bot.referee.new_seed = lambda: seed
    guild = env.create_guild()
    channel = guild.create_text_channel("spies")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "spytrap new", seats=3, max_rounds=max_rounds)
    lobby = channel.last_message
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label=f"Add computer: {cpu}")
    await alice.click(lobby, label="Start")
    table = bot.referee.tables[1]
    spies = [Spy(alice, 0, channel, lobby), Spy(bob, 1, channel, lobby)]
    return guild, channel, lobby, table, spies


class IdentityAudit(Audit):
    """Hidden in Spy Trap: each spy's identity (until the game is over). The panel shows it as
    "You are the <country> spy"; anything naming a seat's identity must reach only that seat."""

    def hook(self, table: Any, _events: Any) -> None:
        state = table.state
        self.seat_users = {s.seat: (None if s.is_computer else s.user_id) for s in table.seats}
        over = state.is_over()
        hidden: dict[int, set[str]] = (
            {} if over else {seat: {state.view(seat)["identity"]} for seat in range(state.players)}
        )
        from tests.e2e.secrecy import Snapshot

        self.snapshots.append(Snapshot(len(self.env.http_requests), hidden))


def identity_patterns(country: str) -> list[re.Pattern[str]]:
    return [re.compile(rf"\b(?:the )?{country} spy\b")]


@pytest.mark.simcord(settle_timeout=30)
async def test_a_three_player_game_to_the_end_through_clicks(simcord_env, simcord_bot, monkeypatch):
    env = simcord_env
    audit = IdentityAudit(env)
    audit.attach(simcord_bot)
    monkeypatch.setattr("tests.e2e.secrecy.card_patterns", identity_patterns)
    _guild, channel, _lobby, table, spies = await open_spytrap(env, simcord_bot)
    await play_to_end(env, spies, table, channel)
    assert is_over(channel)
    final = message_text(channel.last_message)
    assert all(f"{c} spy" in final for c in [table.state.view(None)["identities"][0]])
    async with simcord_bot.database.sessions() as s:
        assert (await s.scalars(select(Game.status))).one() == "finished"
        assert await s.scalar(select(func.count()).select_from(ActionRow)) > 10
    # Identity privacy across every message, edit and DM while the game ran.
    assert len(audit.snapshots) > 10
    assert audit.leaks() == []


@pytest.mark.simcord(settle_timeout=30)
async def test_the_audit_catches_identities_on_the_table(simcord_env, simcord_bot, monkeypatch):
    """The identity audit must be able to fail: a table that prints everyone's identity."""
    ui_class = type(simcord_bot.referee.uis["spytrap"])
    original = ui_class.table_embed

    def leaky(self: Any, table: Any) -> Any:
        embed = original(self, table)
        ids = ", ".join(f"the {table.state.view(i)['identity']} spy" for i in range(table.state.players))
        embed.add_field(name="debug", value=ids)
        return embed

    monkeypatch.setattr(ui_class, "table_embed", leaky)
    monkeypatch.setattr("tests.e2e.secrecy.card_patterns", identity_patterns)
    env = simcord_env
    audit = IdentityAudit(env)
    audit.attach(simcord_bot)
    _guild, _channel, _lobby, table, spies = await open_spytrap(env, simcord_bot)
    for _ in range(6):
        for spy in spies:
            await spy.step(table)
        await env.advance_time(1)
    assert audit.leaks()


@pytest.mark.simcord(settle_timeout=30)
async def test_a_prompt_answered_by_the_wrong_player_is_refused(simcord_env, simcord_bot):
    env = simcord_env
    _guild, _channel, _lobby, table, spies = await open_spytrap(env, simcord_bot, max_rounds=40)
    # Play until somebody (a person) is prompted.
    for _ in range(400):
        prompt = table.state.view(None)["prompt"]
        if prompt is not None and prompt["seat"] in (0, 1):
            break
        for spy in spies:
            await spy.step(table)
            prompt = table.state.view(None)["prompt"]
            if prompt is not None and prompt["seat"] in (0, 1):
                break
        else:
            await env.advance_time(1)
    prompt = table.state.view(None)["prompt"]
    assert prompt is not None and prompt["seat"] in (0, 1), "no person was prompted"
    owner, other = spies[prompt["seat"]], spies[1 - prompt["seat"]]
    answer = table.state.legal_actions(prompt["seat"])[0]
    before, snapshot = table.version, table.state.to_json()
    if other.panel is None:
        await other.open_panel()
    flight = emit_click(other.actor, other.panel, f"ga:{table.id}:{table.version}:{answer}")
    await env.settle()
    assert flight.result.acknowledged
    said = answer_text(env, flight)
    assert "not" in said.lower() or "isn't" in said.lower() or "only" in said.lower(), said
    assert table.version == before and table.state.to_json() == snapshot
    # The prompted person can answer.
    if owner.panel is None:
        await owner.open_panel()
    flight = emit_click(owner.actor, owner.panel, f"ga:{table.id}:{table.version}:{answer}")
    await env.settle()
    assert table.version == before + 1


@pytest.mark.simcord(settle_timeout=30)
async def test_a_restart_mid_draw_resumes_the_draw(simcord_env, simcord_bot, make_bot):
    """Seen failing against a resume() that loaded no tables (the restarted bot had no table)."""
    env = simcord_env
    _guild, channel, _lobby, table, spies = await open_spytrap(env, simcord_bot, max_rounds=12)
    for _ in range(400):
        view = table.state.view(None)
        if (
            view["phase"] == "draw"
            and view["draws_left"]
            and view["prompt"] is None
            and view["drawer"] in (0, 1)
        ):
            break
        for spy in spies:
            await spy.step(table)
        await env.advance_time(1)
    view = table.state.view(None)
    assert view["phase"] == "draw" and view["drawer"] in (0, 1)
    saved = table.state.to_json()
    new_bot = make_bot()
    await env.restart_bot(new_bot)
    resumed = new_bot.referee.tables[1]
    assert resumed.state.to_json() == saved
    # The drawer's public buttons still work after the restart.
    drawer = spies[view["drawer"]]
    draw = [b for b in message_text_buttons(channel.history()[0]) if ":act:draw-" in b]
    assert draw
    await drawer.actor.click(channel.history()[0], custom_id=draw[0])
    assert resumed.version == table.version + 1
    for spy in spies:
        spy.panel = None
    await play_to_end(env, spies, resumed, channel)
    assert is_over(channel)


def message_text_buttons(message: Any) -> list[str]:
    from tests.e2e.simhelpers import buttons

    return [b.get("custom_id") or "" for b in buttons(message)]


@pytest.mark.simcord(settle_timeout=30)
async def test_rules_and_refusals(simcord_env, simcord_bot):
    env = simcord_env
    _guild, channel, _lobby, table, spies = await open_spytrap(env, simcord_bot)
    quick = await spies[0].actor.slash(channel, "spytrap rules")
    r = await spies[0].actor.click(quick.response, label="Full rules")
    text = reply_text(r)
    assert "House rulings" in text and "Immunity" in text
    # Bidding out of turn from the public buttons is refused and changes nothing.
    for _ in range(50):
        if table.state.view(None)["phase"] == "bid":
            break
        for spy in spies:
            await spy.step(table)
        await env.advance_time(1)
    view = table.state.view(None)
    assert view["phase"] == "bid"
    not_turn = next(s for s in spies if s.seat != view["to_bid"])
    before = table.version
    r = await not_turn.actor.click(
        channel.history()[0],
        label=[b for b in ("Pass", f"Bid {view['min_bid']}") if b in message_text(channel.history()[0])][-1],
    )
    assert r.ephemeral and table.version == before
    assert COUNTRIES[0]  # the countries are the engine's
