"""`/stats forget` forgets: after it, a model-based scan of every column of every table (from the
schema's own metadata, so a table or column added later is scanned too) finds neither her
Discord id nor her chosen name, and nothing answered from memory names her. Runs on SQLite, and
on PostgreSQL with TEST_DATABASE_URL (tests/conftest.py).

Seen to fail before db/forgetting.py: her name stayed in the sentence lines of old action rows,
her id in seasons.started_by, and the History of her finished GiftTRAP table still in memory named her.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select, update

from db.models import ActionRow, Base, Game
from tests.e2e import gifttrap_driver, zipzap_driver
from tests.e2e.simhelpers import buttons, message_text, reply_text

NAME = "Quixotica"  # her display name: a word no game, card or computer uses
BEGINS = {"kind": "table.begins", "seat": None, "data": {"players": 3}}


def found_in(value: Any, user_id: int) -> bool:
    """Her id or her name in one stored value (a number, a text, or a JSON document)."""
    if value is None:
        return False
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value == user_id
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return str(user_id) in text or NAME.lower() in text.lower()


def answer(env: Any, result: Any) -> str:
    """A private answer's words, a long one sent as a .txt file included."""
    files = [bytes(env.backend.cdn.get(a.url)).decode() for a in result.response.attachments]
    return "\n".join([reply_text(result), *files])


async def scan(bot: Any, user_id: int) -> list[str]:
    """Every place in the database that still holds her: "table.column = value"."""
    hits = []
    async with bot.database.engine.connect() as connection:
        for table in Base.metadata.sorted_tables:
            for row in (await connection.execute(select(table))).mappings():
                for column, value in row.items():
                    if found_in(value, user_id):
                        hits.append(f"{table.name}.{column} = {value!r}"[:300])
    return hits


async def play_zipzap(env: Any, guild: Any, her: Any, him: Any) -> Any:
    channel = guild.create_text_channel("zip-zap")
    await her.slash(channel, "zipzap new", seats=3, speed="relaxed", rounds=1)
    lobby = channel.last_message
    await him.click(lobby, label="Join")
    await her.click(lobby, label="Add computer: casual")
    await her.click(lobby, label="Start")
    players = [zipzap_driver.Player(her, channel, lobby), zipzap_driver.Player(him, channel, lobby)]
    await zipzap_driver.play_to_end(env, players, channel)
    return channel


async def play_gifttrap(env: Any, bot: Any, guild: Any, her: Any, him: Any) -> Any:
    channel = guild.create_text_channel("gift-trap")
    bot.referee.new_seed = lambda: 5
    await her.slash(channel, "gifttrap new", seats=4, track_length=6, speed="fast")
    lobby = channel.last_message
    await him.click(lobby, label="Join")
    for level in ("casual", "thoughtful"):
        await her.click(lobby, label=f"Add computer: {level}")
    await her.click(lobby, label="Start")
    table = bot.referee.tables[max(bot.referee.tables)]
    people = [
        gifttrap_driver.Person(env, actor, seat, channel, lobby) for seat, actor in enumerate((her, him))
    ]
    await gifttrap_driver.play_to_end(env, people, table, channel)
    return channel


@pytest.mark.simcord(settle_timeout=30)
async def test_after_forget_no_row_and_no_answer_holds_her(simcord_env: Any, simcord_bot: Any) -> None:
    env, bot = simcord_env, simcord_bot
    bot.referee.computer_speed = 0.2
    guild = env.create_guild()
    her = guild.add_member(env.create_user(NAME))
    him = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))

    await play_zipzap(env, guild, her, him)
    gifts = await play_gifttrap(env, bot, guild, her, him)
    assert gifttrap_driver.is_over(gifts)
    await bot.standings.new_season(guild.id, ["zipzap"], her.id, datetime.now(UTC))
    # A game stored by an older version kept its Latest lines as sentences, naming people.
    async with bot.database.sessions() as session, session.begin():
        first = await session.scalar(select(Game.id).order_by(Game.id).limit(1))
        await session.execute(
            update(Game).where(Game.id == first).values(log=[f"**{NAME}** played the wild 6.", BEGINS])
        )
        action = await session.scalar(select(ActionRow.id).where(ActionRow.game_id == first).limit(1))
        await session.execute(
            update(ActionRow)
            .where(ActionRow.id == action)
            .values(log={"lines": [f"**{NAME}** played the red 4."], "fresh": True})
        )
    before = await scan(bot, her.id)
    tables = {hit.split(".")[0] for hit in before}
    assert {"seats", "results", "player_stats", "seasons", "actions", "games"} <= tables, before
    # The finished table's message keeps its History button (GameUI.final_items).
    final = next(m for m in gifts.history() if any(b.get("label") == "History" for b in buttons(m)))
    assert NAME in answer(env, await carol.click(final, label="History"))  # before: it names her

    asked = await her.slash(gifts, "stats forget")
    done = await her.click(asked.response, label="Forget me")
    assert "Done: your standings in this server are deleted" in message_text(done.response)

    assert await scan(bot, her.id) == []
    history = answer(env, await carol.click(final, label="History"))
    assert NAME not in history and "former player" in history
    status = answer(env, await carol.slash(gifts, "table status"))
    assert NAME not in status
    for number in range(1, 3):  # the replays of both games
        shown = message_text((await carol.slash(gifts, "replay", number=number)).response)
        assert NAME not in shown and "former player" in shown
    export = await bot.standings.export(guild.id)
    assert export and all(NAME not in row.name and row.user_id != her.id for row in export)
    # Her old sentence line went; the lines stored as data stayed, worded with the seats as now.
    async with bot.database.sessions() as session:
        kept = await session.scalar(select(Game.log).where(Game.id == first))
    assert kept == [BEGINS]


@pytest.mark.simcord(settle_timeout=30)
async def test_a_rematch_after_a_restart_asks_for_the_forgotten_seat(
    simcord_env: Any, simcord_bot: Any, make_bot: Any
) -> None:
    """alice is forgotten after a Zip Zap game; after a restart bob presses Rematch: the lobby
    seats bob and the computer and leaves her seat open for anyone (before, it seated a "former
    player" that nobody played, and the rematch could not go on)."""
    env = simcord_env
    t = await zipzap_driver.open_lobby(env, seats=3, rounds=1)
    channel, (alice, bob), lobby = t["channel"], t["actors"], t["lobby"]
    await alice.click(lobby, label="Start")
    await zipzap_driver.play_to_end(
        env, [zipzap_driver.Player(alice, channel, lobby), zipzap_driver.Player(bob, channel, lobby)], channel
    )
    results = channel.last_message
    asked = await alice.slash(channel, "stats forget")
    await alice.click(asked.response, label="Forget me")
    bot = make_bot()
    await env.restart_bot(bot)

    r = await bob.click(results, label="Rematch")
    assert "Rematch lobby is open" in reply_text(r)
    text = message_text(channel.last_message)
    assert "Seats (2/3)" in text and "bob" in text and "Robo 1" in text, text
    assert "alice" not in text and "former player" not in text
    carol = t["guild"].add_member(env.create_user("carol"))
    await carol.click(channel.last_message, label="Join")
    await bob.click(channel.last_message, label="Start")
    table = bot.referee.table_in(channel.id)
    assert table is not None and table.status == "playing"
    assert [s.user_id for s in table.seats if s.computer_level is None] == [bob.id, carol.id]


@pytest.mark.simcord(settle_timeout=30)
async def test_forgotten_during_a_game_she_is_forgotten_as_it_ends(
    simcord_env: Any, simcord_bot: Any
) -> None:
    """She asks in the middle of a GiftTRAP game: told she is forgotten when it ends; the game
    goes on with her; its end forgets her in the database and in the table kept in memory (its
    History names a "former player"), and no row holds her."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 5
    guild = env.create_guild()
    her = guild.add_member(env.create_user(NAME))
    him = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    channel = guild.create_text_channel("gift-trap")
    await her.slash(channel, "gifttrap new", seats=4, track_length=6, speed="fast")
    lobby = channel.last_message
    await him.click(lobby, label="Join")
    for level in ("casual", "thoughtful"):
        await her.click(lobby, label=f"Add computer: {level}")
    await her.click(lobby, label="Start")
    table = bot.referee.tables[max(bot.referee.tables)]
    people = [
        gifttrap_driver.Person(env, actor, seat, channel, lobby) for seat, actor in enumerate((her, him))
    ]

    asked = await her.slash(channel, "stats forget")
    noted = message_text((await her.click(asked.response, label="Forget me")).response)
    assert "You'll be forgotten the moment it ends" in noted
    assert table.seats[0].chosen_name == NAME  # still playing, under her name

    await gifttrap_driver.play_to_end(env, people, table, channel)
    assert await scan(bot, her.id) == []
    posted = channel.last_message  # the results: drawn after the end forgot her
    ratings = next(f.value for f in posted.embeds[0].fields if f.name == "Ratings")
    assert "bob" in ratings and NAME not in ratings
    history = answer(env, await carol.click(lobby, label="History"))
    assert NAME not in history and "former player" in history
    assert not await bot.standings.has_record(guild.id, her.id)
