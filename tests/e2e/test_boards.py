"""Leaderboards worth coming back to (issue 22), end to end through the real bot on SimCord:
ratings under the results, /leaderboard pages, /stats, /history, replays, seasons, forgetting a
person and the CSV export.

Finished games come from a game played through the bot (the first test) or are played by the
computer players and committed through the real store (tests/e2e/boards_helpers.py).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest
from sqlalchemy import select

from cogs.boards.replay import draw, rebuild
from db.models import PlayerStats, SeasonStanding
from rules.__main__ import main as rules_main
from tests.e2e.boards_helpers import Sitter, finish_quickly, record_game
from tests.e2e.simhelpers import answer_text, buttons, emit_click, message_text, reply_text, texts
from tests.e2e.zipzap_driver import Player, open_lobby, play_to_end

RATING = re.compile(r"\*\*(?P<name>[^*]+)\*\* (?P<rating>\d{3,4}\??) \((?P<change>[+−±]\d+)\)")
EPHEMERAL = 64


def field(message: Any, name: str) -> str:
    return next(f.value for e in message.embeds for f in e.fields if f.name == name)


def button_ids(message: Any) -> list[str]:
    return [b["custom_id"] for b in buttons(message)]


def button(message: Any, emoji: str) -> dict[str, Any]:
    found = [b for b in buttons(message) if emoji in str(b.get("emoji"))]
    assert found, f"no {emoji} button on {button_ids(message)}"
    return found[0]


def board_payloads(env: Any, since: int = 0) -> list[dict[str, Any]]:
    """Every message the bot sent or edited with a JSON body (interaction answers included),
    from REST call ``since`` on."""
    return [
        r.json
        for r in env.http_requests[since:]
        if isinstance(r.json, dict) and r.method in ("POST", "PATCH")
    ]


def assert_pings_nobody(env: Any, since: int) -> int:
    """Every message the bot sent or edited since REST call ``since`` (answers, follow-ups,
    edits) says explicitly that it pings nobody. Returns how many were checked. Seen to fail in
    five of these tests with the boards' one answer helper sending no allowed_mentions."""
    sent = [p.get("data", p) if p.get("type") in (4, 7) else p for p in board_payloads(env, since)]
    sent = [body for body in sent if isinstance(body, dict) and ("content" in body or "embeds" in body)]
    for body in sent:
        assert body.get("allowed_mentions") == {"parse": []}, body
    return len(sent)


def embed_dict(message: Any) -> dict[str, Any]:
    data = message.embeds[0].to_dict()
    data.pop("author", None)
    return data


@pytest.mark.simcord(settle_timeout=20)
async def test_a_game_played_here_shows_ratings_history_and_its_replay(
    simcord_env: Any, simcord_bot: Any
) -> None:
    """alice and bob play a one-round Zip Zap game with a computer, through the bot. The results
    show each person's new rating and its change, the numbers /stats and /history show; /history
    links the final table message until a moderator deletes it; the replay ends on exactly the
    final table message's drawing, and the results' Watch again opens it for anyone; Download
    gives the recorded game as JSON."""
    env, bot = simcord_env, simcord_bot
    t = await open_lobby(env, seats=3, rounds=1)
    channel, (alice, bob), lobby = t["channel"], t["actors"], t["lobby"]
    await alice.click(lobby, label="Start")
    await play_to_end(env, [Player(alice, channel, lobby), Player(bob, channel, lobby)], channel)
    await env.advance_time(3)  # the table message's last redraw

    results = channel.last_message
    shown = {m["name"]: m for m in RATING.finditer(field(results, "Ratings"))}
    assert set(shown) == {"alice", "bob"}
    # The "?" is explained where it is first seen (issue 33), in one line under the ratings.
    assert field(results, "Ratings").splitlines()[-1] == (
        "*? = provisional: a rating settles after 10 games, sooner with steady results.*"
    )
    for m in shown.values():  # a newcomer's first game: provisional, moved from 1500
        rating = int(m["rating"].rstrip("?"))
        assert (
            m["rating"].endswith("?")
            and m["change"] == f"{'+' if rating > 1500 else '−'}{abs(rating - 1500)}"
        )
    stats = await alice.slash(channel, "stats show")
    assert stats.ephemeral and f"Zip Zap — {shown['alice']['rating']}" in message_text(stats.response)

    final_table = next(m for m in channel.history() if m.id == lobby.id)
    final_drawing = "\n".join(texts(final_table))
    history = await alice.slash(channel, "history")
    text = message_text(history.response)
    assert history.ephemeral and f"{shown['alice']['rating']} ({shown['alice']['change']})" in text
    assert f"/channels/{t['guild'].id}/{channel.id}/{lobby.id})" in text
    assert "with bob, Robo 1 (casual) 🤖" in text

    # The replay: from the deal to the end, where it shows what the final table message shows.
    game_id = (await bot.standings.history(t["guild"].id, alice.id, None, 1, 5))[0][0].game_id
    opened = await alice.select(history.response, [str(game_id)])
    assert opened.ephemeral and "the deal" in opened.response.content
    replay = opened.response
    while not button(replay, "⏭")["disabled"]:
        replay = (await alice.click(replay, custom_id=button(replay, "⏭")["custom_id"])).response
    assert "the end" in replay.content
    frame = embed_dict(replay)  # the replay's frame is an embed; the final table a V2 layout
    shown = [frame["title"], frame.get("description") or ""]
    shown += [f"**{f['name']}**\n{f['value']}" for f in frame.get("fields", []) if f["name"] != "Latest"]
    latest = next((f["value"] for f in frame.get("fields", []) if f["name"] == "Latest"), None)
    assert all(part in final_drawing for part in shown + [f"**Latest**\n{latest}"] * bool(latest))

    # A moderator deletes the final table message: the history stops linking to it.
    mods = t["guild"].create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = t["guild"].add_member(env.create_user("mod"), roles=[mods])
    await mod.delete(lobby)
    again = message_text((await alice.slash(channel, "history")).response)
    assert "/channels/" not in again and f"#{game_id} Zip Zap" in again

    # Anyone can watch it again from the results' button, privately, from the deal.
    watched = await mod.click(results, label="Watch again")
    assert watched.ephemeral and f"Zip Zap #{game_id}" in watched.response.content
    assert "the deal" in watched.response.content

    downloaded = await alice.click(replay, label="Download")
    (attachment,) = downloaded.response.attachments
    data = json.loads(bytes(env.backend.cdn.get(attachment.url)))
    assert data["game"] == "zipzap" and data["players"] == 3 and len(data["actions"]) > 10
    assert "python -m rules replay zipzap-" in downloaded.response.content


@pytest.mark.simcord(settle_timeout=20)
async def test_the_leaderboard_pages_through_everyone_and_shows_the_askers_row(
    simcord_env: Any, simcord_bot: Any
) -> None:
    """25 people with finished games: the public answer is one short page with the asker's own
    row under it; ◀ ▶ answer whoever presses them with their own page and row, privately, and
    turn a private page in place, leaving the public message as it was. Settled people come
    before provisional ones; counts read "1 game", "2 wins"; a nickname full of markdown and a
    mention is shown as typed, and nothing pings anyone."""
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("boards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "help")  # the bot is up
    ids = [alice.id, bob.id, *range(1000, 1023)]
    names = {uid: f"p{i}" for i, uid in enumerate(ids)}
    names[alice.id], names[bob.id], names[1000] = "alice", "bob", f"**@everyone** <@{bob.id}>"
    # A veteran: ten games won against p1, so settled; everyone else plays one game.
    for n in range(10):
        await finish_quickly(
            bot.store,
            guild_id=guild.id,
            channel_id=10 + n,
            key="zipzap",
            places={1022: 1, 1021: 2},
            names=names,
        )
    for n, uid in enumerate(ids[:20]):
        place = {uid: 1 if uid in (1000, bob.id) else 2, 2000 + n: 3}
        await finish_quickly(
            bot.store,
            guild_id=guild.id,
            channel_id=100 + n,
            key="zipzap",
            places=place,
            names=names | {2000 + n: "x"},
        )
    before = len(env.http_requests)
    shown = await alice.slash(channel, "leaderboard", game="zipzap")
    assert not shown.ephemeral
    public = shown.response
    text = message_text(public)
    rows = re.findall(r"^\d+\. .*$", public.embeds[0].description, re.M)
    assert len(rows) == 11 and len(public.embeds[0].description) < 900  # a page and alice's row
    assert rows[0].startswith("1. **p24** ") and "10 games · 10 wins" in rows[0]  # the settled veteran
    assert (
        rows[1].startswith("2. **p23** 10")
        and "*Still provisional" in public.embeds[0].description.split(rows[1])[1]
    )
    assert "*Still provisional" in text and "1 game · 1 win" in text and "1 game · 0 wins" in text
    assert f"\\*\\*@\u200beveryone\\*\\* <@\u200b{bob.id}>" in text  # escaped: no bold, no mention
    you = re.search(r"⋯\n(\d+)\. \*\*alice\*\*", public.embeds[0].description)
    assert you is not None and int(you[1]) > 10  # the asker's own row, under the page
    assert "Page 1 of 5" in text and "42 players" in text  # 22 named, 20 one-game opponents

    page2 = await bob.click(public, custom_id=button(public, "▶")["custom_id"])
    assert page2.ephemeral and "Page 2 of 5" in message_text(page2.response)
    assert "**bob**" in message_text(page2.response)
    assert message_text(public) == text  # the public message did not move
    page3 = await bob.click(page2.response, custom_id=button(page2.response, "▶")["custom_id"])
    assert page3.response.id == page2.response.id and "Page 3 of 5" in message_text(page3.response)
    assert re.search(r"You: \d+\. \*\*bob\*\*", message_text(page3.response))  # privately, "You"
    assert assert_pings_nobody(env, before) >= 3

    none_yet = await alice.slash(channel, "leaderboard", game="trap")
    assert "No finished games this season yet" in message_text(none_yet.response)
    wrong = await alice.slash(channel, "leaderboard", game="zipzap", season=4)
    assert wrong.ephemeral and "no season 4" in reply_text(wrong)


@pytest.mark.simcord(settle_timeout=30)
async def test_stats_and_history_of_a_regular(
    simcord_env: Any, simcord_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """alice plays six Zip Zap games and a Trap game (real games, played by the computer
    players): /stats shows her rating, games, wins, win rate, best finish and streak per game;
    /history pages five at a time, filters by game, and anyone may look at hers, privately."""
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("regulars")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "help")
    people = [Sitter(alice.id, "alice"), Sitter(bob.id, "bob"), Sitter(None, "Robo 1 (sharp)", "sharp")]
    for seed in range(6):
        await record_game(
            bot.store,
            guild_id=guild.id,
            channel_id=channel.id,
            key="zipzap",
            sitters=people,
            seed=seed,
            options={"rounds": 1},
        )
    trap = [Sitter(alice.id, "alice"), Sitter(None, "Robo 1 (easy)", "easy")]
    await record_game(bot.store, guild_id=guild.id, channel_id=channel.id, key="trap", sitters=trap, seed=1)

    since = len(env.http_requests)
    (zipzap, trap_record) = sorted(
        await bot.standings.record(guild.id, alice.id), key=lambda r: r.game, reverse=True
    )
    stats = await alice.slash(channel, "stats show")
    text = message_text(stats.response)
    assert stats.ephemeral and "Your record in this server" in text
    assert f"Zip Zap — {zipzap.rating}" in text and f"Trap — {trap_record.rating}" in text
    rate = round(100 * zipzap.wins / 6)
    assert f"Season 1: 6 games · {zipzap.wins} win{'s' if zipzap.wins != 1 else ''} ({rate}%)" in text
    assert "Best finish" in text and ("in a row" in text or "last game" in text)
    theirs = await bob.slash(channel, "stats show", user=alice)
    assert theirs.ephemeral and "alice's record" in message_text(theirs.response)

    first = await bob.slash(channel, "history", user=alice)
    assert first.ephemeral and "alice's recent games" in message_text(first.response)
    assert message_text(first.response).count(" · <t:") == 5 and "Page 1 of 2" in message_text(first.response)
    assert "#7 Trap" in message_text(first.response)  # newest first
    second = await bob.click(first.response, custom_id=button(first.response, "▶")["custom_id"])
    assert message_text(second.response).count(" · <t:") == 2 and "#1 Zip Zap" in message_text(
        second.response
    )
    assert "alice's recent games" in message_text(second.response)
    # The bot has no members intent: a member it doesn't have cached is named as they played.
    monkeypatch.setattr(discord.Guild, "get_member", lambda _guild, _user_id: None)
    back = await bob.click(second.response, custom_id=button(second.response, "◀")["custom_id"])
    assert "alice's recent games" in message_text(back.response) and "Page 1 of 2" in message_text(
        back.response
    )
    monkeypatch.undo()
    only_trap = await alice.slash(channel, "history", game="trap")
    assert "Your recent Trap games" in message_text(only_trap.response)
    assert message_text(only_trap.response).count(" · <t:") == 1
    nobody = await bob.slash(channel, "history", game="gifttrap")
    assert "No finished games here yet" in message_text(nobody.response)
    assert assert_pings_nobody(env, since) >= 6


@pytest.mark.simcord(settle_timeout=20)
async def test_a_replay_steps_by_action_and_phase_and_downloads(
    simcord_env: Any, simcord_bot: Any, tmp_path: Path
) -> None:
    """A finished Trap game (board picture and all): ◀ ▶ move one action, ⏮ ⏭ to the start of a
    phase; every step shown is exactly the spectator drawing the replay audit renders (so what
    the audit checks is what is sent). Download's file replays with `python -m rules replay` to
    the recorded end. A game of another server, one still being played, and a number that was
    never a game are each refused with a reason."""
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("replays")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "help")
    sitters = [Sitter(alice.id, "alice"), Sitter(None, "Robo 1 (medium)", "medium")]
    gid = await record_game(
        bot.store, guild_id=guild.id, channel_id=channel.id, key="trap", sitters=sitters, seed=5
    )
    record = await bot.standings.recorded_game(gid)
    ui = bot.referee.uis["trap"]

    def expected(step: int) -> tuple[str, dict[str, Any]]:
        content, embed, _ = draw(rebuild(record, type(ui)(), step), type(ui)())
        data = embed.to_dict()
        data.pop("author", None)
        return content, data

    since = len(env.http_requests)
    opened = await alice.slash(channel, "replay", number=gid)
    replay = opened.response
    assert opened.ephemeral and (replay.content, embed_dict(replay)) == expected(0)
    assert [a.filename for a in replay.attachments] == ["board.png"]
    assert button(replay, "◀")["disabled"] and button(replay, "⏮")["disabled"]
    step = (await alice.click(replay, custom_id=button(replay, "▶")["custom_id"])).response
    assert (step.content, embed_dict(step)) == expected(1)
    ahead = (await alice.click(step, custom_id=button(step, "⏭")["custom_id"])).response
    mark = int(re.search(r"step (\d+) of", ahead.content)[1])  # type: ignore[index]
    phases = [rebuild(record, type(ui)(), s).table.state.view(None)["phase"] for s in (mark - 1, mark)]  # type: ignore[union-attr]
    assert phases[0] != phases[1], "⏭ stops where a phase begins"
    back = (await alice.click(ahead, custom_id=button(ahead, "◀")["custom_id"])).response
    assert (back.content, embed_dict(back)) == expected(mark - 1)
    start = (await alice.click(back, custom_id=button(back, "⏮")["custom_id"])).response
    assert (start.content, embed_dict(start)) == expected(0)

    got = await alice.click(start, label="Download")
    (attachment,) = got.response.attachments
    assert got.ephemeral and attachment.filename == f"trap-{gid}.json"
    file = tmp_path / attachment.filename
    file.write_bytes(bytes(env.backend.cdn.get(attachment.url)))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert rules_main(["replay", str(file)]) == 0
    final = rebuild(record, type(ui)(), len(record.actions))
    result = final.table.state.result()
    assert result is not None and "Seat 0: place" in out.getvalue()
    assert f"{result.how} " in out.getvalue()  # Trap's ending, as data: how and details
    assert assert_pings_nobody(env, since) >= 6

    other = env.create_guild()
    elsewhere = other.create_text_channel("elsewhere")
    mallory = other.add_member(env.create_user("mallory"))
    refused = await mallory.slash(elsewhere, "replay", number=gid)
    assert refused.ephemeral and f"no finished game #{gid} in this server" in reply_text(refused)
    live = await bot.store.create_table(
        guild_id=guild.id,
        channel_id=99,
        game="trap",
        host_id=alice.id,
        options={},
        speed="relaxed",
        seed=1,
        seats=[],
    )
    for number in (live, 10**12):
        refused = await alice.slash(channel, "replay", number=number)
        assert f"no finished game #{number} in this server" in reply_text(refused)


@pytest.mark.simcord(settle_timeout=20)
async def test_a_manager_starts_a_season_and_last_seasons_table_stays(
    simcord_env: Any, simcord_bot: Any
) -> None:
    """Only a server manager may start a season, and only through its confirm button (Cancel
    changes nothing, a second press starts nothing more). Season 1 is then on
    `/leaderboard season:1` as it stood, with its dates; season 2's board starts empty with its
    start date; the channel is told in one line that pings nobody."""
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("seasons")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    await alice.slash(channel, "help")
    names = {alice.id: "alice", bob.id: "bob"}
    for n in range(3):
        await finish_quickly(
            bot.store,
            guild_id=guild.id,
            channel_id=n,
            key="zipzap",
            places={alice.id: 1, bob.id: 2},
            names=names,
        )
    season1 = message_text((await alice.slash(channel, "leaderboard", game="zipzap")).response)

    since = len(env.http_requests)
    refused = await alice.slash(channel, "season new", game="zipzap")
    assert refused.ephemeral and "Only server managers" in reply_text(refused)
    asked = await mod.slash(channel, "season new", game="zipzap")
    assert asked.ephemeral and "Start Season 2 of Zip Zap?" in reply_text(asked)
    cancelled = await mod.click(asked.response, label="Cancel")
    assert "nothing changed" in reply_text(cancelled)
    assert await bot.standings.seasons(guild.id, "zipzap") == 1

    asked = await mod.slash(channel, "season new", game="zipzap")
    prompt = asked.response
    confirm = button_ids(prompt)[0]
    done = await mod.click(prompt, custom_id=confirm)
    assert "Done: **Season 2 of Zip Zap** began" in message_text(done.response)
    announced = channel.last_message
    assert "Season 2 of Zip Zap" in announced.content and not announced.flags.ephemeral
    again = emit_click(mod, channel.last_message, confirm)  # the same confirmation, pressed again
    await env.settle()
    assert "already begun" in answer_text(env, again)
    assert await bot.standings.seasons(guild.id, "zipzap") == 2

    now = message_text((await alice.slash(channel, "leaderboard", game="zipzap")).response)
    assert "**Season 2** · since <t:" in now and "No finished games this season yet" in now
    assert "Earlier seasons: season:1" in now
    archived = message_text((await alice.slash(channel, "leaderboard", game="zipzap", season=1)).response)
    assert "**Season 1** (archived) · <t:" in archived
    assert re.findall(r"^\d+\..*$", archived, re.M) == re.findall(r"^\d+\..*$", season1, re.M)
    stats = message_text((await alice.slash(channel, "stats show")).response)
    assert "Season 2: 0 games · 0 wins" in stats and "All time: 3 games · 3 wins (100%)" in stats
    async with bot.database.sessions() as session:
        assert len(list(await session.scalars(select(SeasonStanding)))) == 2

    everything = await mod.slash(channel, "season new")
    assert "every game" in reply_text(everything) and "Zip Zap → Season 3" in reply_text(everything)
    assert assert_pings_nobody(env, since) >= 8  # the announcement in the channel included


@pytest.mark.simcord(settle_timeout=20)
async def test_a_person_can_have_their_record_forgotten(simcord_env: Any, simcord_bot: Any) -> None:
    """/stats forget says what goes and asks; "Forget me" deletes alice's standings and takes
    her name off her finished games (their replays show a "former player"); bob's record stays;
    a forged confirmation for alice sent by bob changes nothing."""
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("privacy")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "help")
    people = [Sitter(alice.id, "alice"), Sitter(bob.id, "bob")]
    gid = await record_game(
        bot.store, guild_id=guild.id, channel_id=channel.id, key="trap", sitters=people, seed=3
    )

    since = len(env.http_requests)
    board = (await bob.slash(channel, "leaderboard", game="trap")).response
    forged = emit_click(bob, board, f"fg:{alice.id}:9999999999")
    await env.settle()
    assert "Only the person who asked" in answer_text(env, forged)
    assert len(await bot.standings.record(guild.id, alice.id)) == 1

    asked = await alice.slash(channel, "stats forget")
    assert asked.ephemeral and "can't be undone" in reply_text(asked)
    done = await alice.click(asked.response, label="Forget me")
    assert "Done: your standings in this server are deleted" in message_text(done.response)
    assert "1 finished game" in message_text(done.response)
    assert await bot.standings.record(guild.id, alice.id) == []
    assert len(await bot.standings.record(guild.id, bob.id)) == 1
    empty = await alice.slash(channel, "stats show")
    assert "No finished games here yet" in message_text(empty.response)
    replay = await bob.slash(channel, "replay", number=gid)
    assert "former player" in message_text(replay.response) and "alice" not in message_text(replay.response)
    nothing = await alice.slash(channel, "stats forget")
    assert "nothing to forget" in reply_text(nothing)
    assert assert_pings_nobody(env, since) >= 6


@pytest.mark.simcord(settle_timeout=20)
async def test_a_manager_exports_the_standings_as_csv(simcord_env: Any, simcord_bot: Any) -> None:
    """The CSV has every standing (current and archived seasons), names that could run as a
    spreadsheet formula made plain text; only managers get it."""
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("export")
    alice = guild.add_member(env.create_user("alice"))
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    await alice.slash(channel, "help")
    names = {alice.id: "alice", 5: "=HYPERLINK(1)"}
    await finish_quickly(
        bot.store, guild_id=guild.id, channel_id=1, key="zipzap", places={alice.id: 1, 5: 2}, names=names
    )
    await bot.standings.new_season(guild.id, ["zipzap"], mod.id, datetime.now(UTC))
    refused = await alice.slash(channel, "stats export")
    assert refused.ephemeral and "Only server managers" in reply_text(refused)
    got = await mod.slash(channel, "stats export")
    assert got.ephemeral
    (attachment,) = got.response.attachments
    rows = list(csv.DictReader(io.StringIO(bytes(env.backend.cdn.get(attachment.url)).decode("utf-8-sig"))))
    assert [(r["game"], r["season"], r["name"]) for r in rows] == [
        ("zipzap", "2", "alice"),
        ("zipzap", "2", "'=HYPERLINK(1)"),
        ("zipzap", "1", "alice"),
        ("zipzap", "1", "'=HYPERLINK(1)"),
    ]
    archived = rows[2]
    assert (archived["place"], archived["season_games"], archived["season_wins"]) == ("1", "1", "1")
    assert rows[0]["place"] == "" and rows[0]["all_time_games"] == "1"  # no game in season 2 yet
    async with bot.database.sessions() as session:
        mine = await session.get(PlayerStats, (guild.id, "zipzap", alice.id))
        assert mine is not None and rows[0]["rating"] == str(round(1500 + 40 * (mine.mu - 25)))


@pytest.mark.simcord(settle_timeout=20)
async def test_a_draw_is_a_draw_everywhere(simcord_env: Any, simcord_bot: Any) -> None:
    """A Trap game that ends drawn (both players first) is nobody's win: `/stats show` counts no
    win and no winning streak, `/history` says it was a draw, and the leaderboard counts 0 wins;
    a game that bob then wins counts as his win. Seen failing on the previous code, where a draw
    read "1 win (100%) · won the last game" (issue 33)."""
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("draws")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "help")
    names = {alice.id: "alice", bob.id: "bob"}
    await finish_quickly(
        bot.store, guild_id=guild.id, channel_id=1, key="trap", places={alice.id: 1, bob.id: 1}, names=names
    )
    stats = message_text((await alice.slash(channel, "stats show")).response)
    assert "1 game · 0 wins (0%)" in stats and "no win in the last game" in stats.lower(), stats
    history = message_text((await alice.slash(channel, "history")).response)
    assert "a draw" in history and "shared 1st" not in history, history
    board = message_text((await alice.slash(channel, "leaderboard", game="trap")).response)
    assert "1 game · 0 wins" in board, board
    await finish_quickly(
        bot.store, guild_id=guild.id, channel_id=2, key="trap", places={alice.id: 2, bob.id: 1}, names=names
    )
    stats = message_text((await bob.slash(channel, "stats show")).response)
    assert "2 games · 1 win (50%)" in stats and "won the last game" in stats.lower(), stats
