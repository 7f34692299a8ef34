"""Leaderboards, records, seasons and replays when something fails: the database mid-write, a
read, Discord refusing an answer, a restart. For each: what the person sees, what the database
holds, and that trying again works.
"""

from __future__ import annotations

from datetime import UTC
from typing import Any

import discord
import pytest
from sqlalchemy import select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession

from cogs.table.common import NOT_SAVED
from cogs.table.results import UNREAD
from db.models import ActionRow, Game, PlayerStats, ResultRow, Season, SeasonStanding, Seat
from tests.e2e.boards_helpers import Sitter, finish_quickly, record_game
from tests.e2e.simhelpers import buttons, message_text, reply_text
from tests.e2e.zipzap_driver import Player, open_lobby, play_to_end

LOCKED = OperationalError("UPDATE", {}, Exception("database is locked"))


def fail_statement(monkeypatch: pytest.MonkeyPatch, table: Any, verb: type) -> list[str]:
    """The next ``verb`` (update/insert/delete) statement on ``table`` raises "database is
    locked", once, inside whatever transaction runs it: the statements before it in the same
    transaction must not survive."""
    failed: list[str] = []
    real = AsyncSession.execute

    async def execute(self: AsyncSession, statement: Any, *args: Any, **kwargs: Any) -> Any:
        target = getattr(getattr(statement, "table", None), "name", None)
        if not failed and isinstance(statement, verb) and target == table.name:
            failed.append(str(statement).split()[0])
            raise LOCKED
        return await real(self, statement, *args, **kwargs)

    monkeypatch.setattr(AsyncSession, "execute", execute)
    return failed


def forward(message: Any) -> str:
    """The ▶ button's custom_id."""
    return str(next(b for b in buttons(message) if "▶" in str(b["emoji"]))["custom_id"])


async def people(env: Any, *names: str) -> tuple[Any, Any, list[Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("faults")
    actors = [guild.add_member(env.create_user(name)) for name in names]
    await actors[0].slash(channel, "help")  # the bot is up
    return guild, channel, actors


@pytest.mark.simcord(settle_timeout=20)
async def test_the_results_post_even_when_the_new_ratings_cannot_be_read(
    simcord_env: Any, simcord_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game's final commit stands (results, standings, ratings); only reading the ratings
    back for the results message fails. The results are posted anyway, with a line saying where
    the ratings are, and /stats shows them. Seen to fail without the guard in add_ratings: the
    results message was never posted (the error ended the task that posts it)."""
    env, bot = simcord_env, simcord_bot

    async def unreadable(_game_id: int) -> list[Any]:
        raise LOCKED

    monkeypatch.setattr(bot.store, "rating_changes", unreadable)
    t = await open_lobby(env, seats=2, cpu=None, rounds=1)
    channel, (alice, bob) = t["channel"], t["actors"]
    await alice.click(t["lobby"], label="Start")
    await play_to_end(env, [Player(alice, channel, t["lobby"]), Player(bob, channel, t["lobby"])], channel)
    results = channel.last_message
    assert "Rematch" in message_text(results)
    assert next(f.value for f in results.embeds[0].fields if f.name == "Ratings") == UNREAD
    assert "Zip Zap — 1" in message_text((await alice.slash(channel, "stats show")).response)
    assert env.errors == []


@pytest.mark.simcord(settle_timeout=20)
async def test_a_forget_that_fails_to_commit_forgets_nothing(
    simcord_env: Any, simcord_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database refuses the third statement of the forget (taking her id off the results),
    after her standings were deleted and her seats renamed in the same transaction. alice is
    told nothing changed, and nothing did: standings, seats and results are hers as before.
    Pressing again works. Seen to fail with the forget committing each statement on its own
    (her standings were gone while the results still named her)."""
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = await people(env, "alice", "bob")
    sitters = [Sitter(alice.id, "alice"), Sitter(bob.id, "bob")]
    gid = await record_game(bot.store, guild_id=guild.id, channel_id=channel.id, key="trap", sitters=sitters)
    asked = await alice.slash(channel, "stats forget")
    failed = fail_statement(monkeypatch, ResultRow.__table__, type(update(ResultRow)))
    said = await alice.click(asked.response, label="Forget me")
    assert failed and NOT_SAVED in message_text(said.response)
    assert len(await bot.standings.record(guild.id, alice.id)) == 1
    async with bot.database.sessions() as session:
        seat = (await session.scalars(select(Seat).where(Seat.game_id == gid, Seat.seat == 0))).one()
        assert (seat.user_id, seat.name) == (alice.id, "alice")
        assert alice.id in set(
            await session.scalars(select(ResultRow.user_id).where(ResultRow.game_id == gid))
        )
    again = await alice.slash(channel, "stats forget")
    done = await alice.click(again.response, label="Forget me")
    assert "Done" in message_text(done.response) and await bot.standings.record(guild.id, alice.id) == []
    assert env.errors == []


@pytest.mark.simcord(settle_timeout=20)
async def test_a_season_that_fails_to_commit_starts_nothing(
    simcord_env: Any, simcord_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The soft reset's first update fails after the archive rows were written in the same
    transaction: the manager is told nothing changed; no archive, no new season, the standings
    as they were; confirming again (a fresh question) works. Seen to fail with the archive
    committed before the reset (season 1 archived while season 1 went on)."""
    env, bot = simcord_env, simcord_bot
    mods_guild, channel, (alice, bob) = await people(env, "alice", "bob")
    mods = mods_guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = mods_guild.add_member(env.create_user("mod"), roles=[mods])
    names = {alice.id: "alice", bob.id: "bob"}
    await finish_quickly(
        bot.store,
        guild_id=mods_guild.id,
        channel_id=1,
        key="zipzap",
        places={alice.id: 1, bob.id: 2},
        names=names,
    )
    async with bot.database.sessions() as session:
        before = sorted((r.user_id, r.games, r.sigma) for r in await session.scalars(select(PlayerStats)))
    asked = await mod.slash(channel, "season new", game="zipzap")
    failed = fail_statement(monkeypatch, PlayerStats.__table__, type(update(PlayerStats)))
    said = await mod.click(asked.response, custom_id=buttons(asked.response)[0]["custom_id"])
    assert failed and NOT_SAVED in message_text(said.response)
    async with bot.database.sessions() as session:
        assert list(await session.scalars(select(SeasonStanding))) == []
        assert list(await session.scalars(select(Season))) == []
        after = sorted((r.user_id, r.games, r.sigma) for r in await session.scalars(select(PlayerStats)))
    assert after == before
    assert not any("began" in (m.content or "") for m in channel.history())  # nothing announced
    again = await mod.slash(channel, "season new", game="zipzap")
    done = await mod.click(again.response, custom_id=buttons(again.response)[0]["custom_id"])
    assert "Season 2 of Zip Zap" in message_text(done.response)
    assert env.errors == []


@pytest.mark.simcord(settle_timeout=20)
async def test_refused_answers_change_nothing_and_the_next_press_works(
    simcord_env: Any, simcord_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord refuses an answer, one kind at a time: "Unknown interaction" (too late) for
    /leaderboard, a 500 for a page turn and for a replay step, "Unknown interaction" for the
    acknowledgement of "Forget me" (so nothing is deleted), a refused announcement of a new
    season (the season stands, the manager was told), and the standings failing to load (the
    person is told privately). No error escapes; each next try works. Seen to fail with the
    forget acknowledged after the delete instead of before (the refused click still deleted
    her record, unannounced)."""
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = await people(env, "alice", "bob")
    sitters = [Sitter(alice.id, "alice"), Sitter(bob.id, "bob")]
    gid = await record_game(
        bot.store, guild_id=guild.id, channel_id=channel.id, key="zipzap", sitters=sitters
    )
    names = {uid: f"p{uid}" for uid in range(100, 125)}
    for uid in range(100, 125):
        await finish_quickly(
            bot.store, guild_id=guild.id, channel_id=uid, key="zipzap", places={uid: 1}, names=names
        )

    env.inject_error("POST", "/interactions/*/callback", status=404, code=10062, times=1)
    await alice.slash(channel, "leaderboard", game="zipzap")
    assert channel.history() == []
    board = (await alice.slash(channel, "leaderboard", game="zipzap")).response
    env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    await bob.click(board, custom_id=forward(board))
    page = await bob.click(board, custom_id=forward(board))
    assert page.ephemeral and "Page 2 of" in message_text(page.response)

    replay = (await alice.slash(channel, "replay", number=gid)).response
    env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    await alice.click(replay, custom_id=forward(replay))
    stepped = await alice.click(replay, custom_id=forward(replay))
    assert "step 1 of" in stepped.response.content

    asked = await alice.slash(channel, "stats forget")
    env.inject_error("POST", "/interactions/*/callback", status=404, code=10062, times=1)
    await alice.click(asked.response, label="Forget me")
    assert len(await bot.standings.record(guild.id, alice.id)) == 1, "a refused click deletes nothing"

    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    asked = await mod.slash(channel, "season new", game="zipzap")
    env.inject_error("POST", "/webhooks/*", status=403, code=50013, times=1)
    done = await mod.click(asked.response, custom_id=buttons(asked.response)[0]["custom_id"])
    assert "Season 2 of Zip Zap** began" in message_text(done.response)
    assert await bot.standings.seasons(guild.id, "zipzap") == 2

    async def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise LOCKED

    monkeypatch.setattr(bot.standings, "board", broken)
    failed = await bob.slash(channel, "leaderboard", game="zipzap")
    assert failed.ephemeral and "couldn't read the standings" in reply_text(failed)
    assert env.errors == []


@pytest.mark.simcord(settle_timeout=20)
async def test_board_buttons_keep_working_after_a_restart(
    simcord_env: Any, simcord_bot: Any, make_bot: Any
) -> None:
    """Nothing is kept per message: after a restart, a leaderboard's ▶, a history's ▶ and a
    replay's ▶ all answer as before. Seen to fail with the board buttons left out of
    bot.add_dynamic_items: every press went unanswered after the restart ("This interaction
    failed")."""
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = await people(env, "alice", "bob")
    sitters = [Sitter(alice.id, "alice"), Sitter(bob.id, "bob")]
    for seed in range(6):
        await record_game(
            bot.store, guild_id=guild.id, channel_id=channel.id, key="trap", sitters=sitters, seed=seed
        )
    names = {uid: f"p{uid}" for uid in range(100, 112)}
    for uid in range(100, 112):
        await finish_quickly(
            bot.store, guild_id=guild.id, channel_id=uid, key="trap", places={uid: 1}, names=names
        )
    board = (await alice.slash(channel, "leaderboard", game="trap")).response
    history = (await alice.slash(channel, "history")).response
    replay = (await alice.slash(channel, "replay", number=1)).response

    await env.restart_bot(make_bot())

    page = await bob.click(board, custom_id=forward(board))
    assert page.acknowledged and "Page 2 of 2" in message_text(page.response)
    older = await alice.click(history, custom_id=forward(history))
    assert "Page 2 of 2" in message_text(older.response)
    step = await alice.click(replay, custom_id=forward(replay))
    assert "step 1 of" in step.response.content


@pytest.mark.simcord(settle_timeout=20)
async def test_a_recorded_game_that_no_longer_replays_is_explained(
    simcord_env: Any, simcord_bot: Any
) -> None:
    """A game whose log no longer replays (here its 5th action altered in the database, as a
    change of the rules could make it) is refused with the action and the reason; one whose
    options are no longer valid likewise. Nothing crashes. Seen to fail with ``rebuild`` letting
    the engine's IllegalAction out: "Something went wrong on my side" and an error in the log."""
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = await people(env, "alice", "bob")
    sitters = [Sitter(alice.id, "alice"), Sitter(bob.id, "bob")]
    gid = await record_game(
        bot.store, guild_id=guild.id, channel_id=channel.id, key="zipzap", sitters=sitters
    )
    broken = await record_game(
        bot.store, guild_id=guild.id, channel_id=channel.id, key="trap", sitters=sitters
    )
    async with bot.database.sessions() as session, session.begin():
        fifth = (
            await session.scalars(select(ActionRow).where(ActionRow.game_id == gid).order_by(ActionRow.seq))
        ).all()[4]
        fifth.action = "W11"
        await session.execute(update(Game).where(Game.id == broken).values(options={"rules": {"size": 99}}))
    said = await alice.slash(channel, "replay", number=gid)
    assert (
        said.ephemeral
        and f"Game #{gid} can't be replayed with this version of its rules (action 5" in reply_text(said)
    )
    said = await alice.slash(channel, "replay", number=broken)
    assert f"Game #{broken} can't be replayed" in reply_text(said) and "options" in reply_text(said)
    assert env.errors == []


@pytest.mark.simcord(settle_timeout=20)
async def test_a_forged_season_confirmation_is_refused(simcord_env: Any, simcord_bot: Any) -> None:
    """A manager's modified client sends the season confirm button with a time of its own: a year
    ahead (which would date the season a year ahead, and make every later `/season new` answer
    "already begun"), and past the year 9999 (which no date can hold). Each is refused with a
    clear private answer and starts nothing; the real confirmation still works, and the season it
    starts is not dated later than now. Seen failing with ``confirmation_age`` never answering
    "forged" (as the code was before): the year-ahead button started a season dated next year (and
    the far one raises in the handler, never answered)."""
    import time

    from tests.e2e.simhelpers import answer_text, emit_click

    env, bot = simcord_env, simcord_bot
    mods_guild, channel, _people = await people(env, "alice")
    mods = mods_guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = mods_guild.add_member(env.create_user("mod"), roles=[mods])
    asked = await mod.slash(channel, "season new", game="zipzap")
    prompt = asked.response
    real = buttons(prompt)[0]["custom_id"]
    year_ahead = int(time.time()) + 365 * 24 * 3600
    for forged in (f"sn:zipzap:{year_ahead}", "sn:zipzap:999999999999"):
        flight = emit_click(mod, prompt, forged)
        await env.settle()
        assert "isn't one I sent, so nothing changed" in answer_text(env, flight), forged
    assert await bot.standings.seasons(mods_guild.id, "zipzap") == 1
    async with bot.database.sessions() as session:
        assert list(await session.scalars(select(Season))) == []
    done = emit_click(mod, prompt, real)  # the answers above took the prompt's buttons away
    await env.settle()
    assert "Season 2 of Zip Zap" in answer_text(env, done)
    async with bot.database.sessions() as session:
        (season,) = list(await session.scalars(select(Season)))
    started = season.started_at if season.started_at.tzinfo else season.started_at.replace(tzinfo=UTC)
    assert started.timestamp() <= time.time() + 1
    assert env.errors == []
