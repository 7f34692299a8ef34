"""`python bot.py --offline`: the real bot on SimCord with its Preview page on loopback.

The page is driven here through its own protocol (tests/e2e/preview_client.py), to hit the moments
a browser cannot be made to hit on purpose: a click while the clock is being advanced, a read whose
answer the page abandoned, a click on a button that changed under it. tests/browser plays a whole
game in a real browser.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import simcord

from bot import RefereeBot
from cogs.offline import BOT_NAME, FRIENDS, offline_world, preview_installed, retire_leftover_tables
from cogs.offline_page import CHANGED
from db.engine import Database
from db.store import SeatSpec, Store
from rules.zipzap.cards import is_card_code
from tests.e2e.preview_client import PageClient, refused
from tests.e2e.simhelpers import message_text, title
from tests.e2e.zipzap_driver import Player, is_over, play_to_end

pytestmark = pytest.mark.skipif(
    not preview_installed(), reason="the offline extra (simcord[preview]) is missing"
)
ROOT = Path(__file__).resolve().parents[2]


async def test_offline_table_plays_a_game_and_guards_its_page(make_bot: Any) -> None:
    bot: RefereeBot = make_bot()
    async with offline_world(bot) as world:
        assert [f.name for f in world.friends] == list(FRIENDS)
        assert "zipzap" in world.channels
        channel = world.channels["zipzap"]
        welcome = channel.last_message
        assert "/zipzap new" in (welcome.content or "")  # a welcome says what to type
        assert bot.user is not None and bot.user.name == BOT_NAME  # not SimCord's "TestBot"
        assert welcome.author.name == BOT_NAME
        alice = world.friends[0]
        opened = await alice.slash(channel, "zipzap new", seats=3, rounds=1)
        assert opened.ephemeral
        lobby = channel.last_message
        await alice.click(lobby, label="Add computer: casual")
        await alice.click(lobby, label="Add computer: sharp")
        await alice.click(lobby, label="Start")
        await play_to_end(world.env, [Player(alice, channel, lobby)], channel)
        assert is_over(channel)

        page = world.preview
        base = page.url.split("#")[0].rstrip("/")
        assert base.startswith("http://127.0.0.1:")
        async with aiohttp.ClientSession() as http:
            async with http.get(base + "/") as response:
                assert response.status == 200  # the page itself (the capability is in its #fragment)
            async with http.get(base + "/api/commands") as response:
                assert response.status in (401, 403)  # no capability, no access
            headers = {"X-Simcord-Capability": page.capability}
            async with http.post(base + "/api/pages", headers=headers, json={}) as response:
                assert response.status not in (401, 403)


async def test_the_offline_mode_keeps_one_clock(make_bot: Any) -> None:
    """Issue 33: /history said "in 47 weeks" on every row and a replay "played Nov 28, 2026" on a
    page dated 1/1/26: SimCord's clock started on 1 January 2026, the database's was the wall
    clock. Now the simulated Discord is at today's date and the database keeps its time, even
    after the simulated clock has run ahead (a game with computers advances it by minutes)."""
    bot: RefereeBot = make_bot()
    async with offline_world(bot, preview=False) as world:
        assert abs((world.env.now() - datetime.now(UTC)).total_seconds()) < 60  # today, not 1/1/26
        channel, alice = world.channels["zipzap"], world.friends[0]
        await alice.slash(channel, "zipzap new", seats=2, rounds=1)
        lobby = channel.last_message
        await alice.click(lobby, label="Add computer: casual")
        await alice.click(lobby, label="Start")
        await play_to_end(world.env, [Player(alice, channel, lobby)], channel)
        await world.env.advance_time(3600)  # the simulated hour the page shows, the database keeps too
        history = message_text((await alice.slash(channel, "history")).response)
        (stamp,) = re.findall(r"<t:(\d+):R>", history)
        ago = world.env.now().timestamp() - int(stamp)
        assert 3599 <= ago <= 3600 + 1800  # "an hour ago", not "in 47 weeks"


async def test_the_offline_table_opens_though_discord_refuses_the_rename(
    make_bot: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Naming the simulated bot is a Discord call (PATCH /users/@me), and Discord can refuse it:
    the offline table opens anyway, under SimCord's name, and the terminal says so once.

    Seen to fail without the guard around ``bot.user.edit``: ``offline_world`` raised
    ``discord.Forbidden`` and the offline mode never started."""
    start = simcord.Env.start

    async def start_refusing_the_rename(env: Any) -> None:
        await start(env)
        env.inject_error("PATCH", "/users/@me", status=403, code=50013, message="Missing Permissions")

    monkeypatch.setattr(simcord.Env, "start", start_refusing_the_rename)
    bot: RefereeBot = make_bot()
    async with offline_world(bot) as world:
        channel = world.channels["zipzap"]
        assert "/zipzap new" in (channel.last_message.content or "")
        assert channel.last_message.author.name == "TestBot"
        opened = await world.friends[0].slash(channel, "zipzap new", seats=2)
        assert opened.ephemeral
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [
        "could not name the offline bot 'Game-night referee': 403 Forbidden (error code: 50013): "
        "Missing Permissions"
    ]


async def test_the_page_is_republished_when_it_reads_and_only_if_something_changed(make_bot: Any) -> None:
    """Seen to fail with the page republished on every clock beat (``PageSync.advance`` calling
    ``preview.refresh()``, as ``pump()`` did before): the read after two beats came back at a
    newer revision although nothing on the page had changed, so a click made on the copy the page
    held would have been refused."""
    bot: RefereeBot = make_bot()
    async with offline_world(bot) as world, aiohttp.ClientSession() as http:
        alice, channel = world.friends[0], world.channels["zipzap"]
        page = PageClient(http, world.preview)
        await page.open(alice)
        first = page.revision
        assert (await page.read())["publishedRevision"] == first  # nothing changed: the same copy
        assert world.page is not None
        for _ in range(2):  # two beats of the clock pump
            async with world.turn:
                await world.page.advance(0.25)
        assert (await page.read())["publishedRevision"] == first
        await alice.slash(channel, "zipzap new", seats=2)  # the bot posts a lobby
        await page.read()
        assert page.revision == first + 1
        assert page.button("Add computer: casual")  # the copy shows it


async def _started_game(world: Any) -> tuple[Any, Any, Any]:
    """alice and a casual computer at a Zip Zap table in #zipzap: (alice, channel, table message)."""
    alice, channel = world.friends[0], world.channels["zipzap"]
    await alice.slash(channel, "zipzap new", seats=2, rounds=1)
    lobby = channel.last_message
    await alice.click(lobby, label="Add computer: casual")
    await alice.click(lobby, label="Start")
    return alice, channel, lobby


async def test_a_click_while_the_clock_advances_waits_its_turn(make_bot: Any) -> None:
    """A click that arrives while the clock pump is advancing (here: while a timer's or computer's
    move is being saved, on a slow disk) waits for the advance to end and is taken.

    Seen to fail with ``take_action`` not taking the turn: the click was answered HTTP 400 at once
    ("operation overlaps active advance_time"), and the real page then stays on "Action outcome
    uncertain. It will not be retried." for good."""
    bot: RefereeBot = make_bot()
    async with offline_world(bot) as world, aiohttp.ClientSession() as http:
        alice, channel, _table = await _started_game(world)
        page = PageClient(http, world.preview)
        await page.open(alice)
        my_hand = page.button("My hand")
        sync = world.page
        assert sync is not None

        saving, release = asyncio.Event(), asyncio.Event()
        write = bot.store.write

        async def slow_write(*args: Any, **kwargs: Any) -> Any:
            if not saving.is_set():
                saving.set()
                await release.wait()
            return await write(*args, **kwargs)

        async def beat() -> None:  # what pump() does, with a move in it
            async with world.turn:
                bot.store.write = slow_write  # type: ignore[method-assign]
                # A computer or the idle timer moves within 40 s. Half-second steps, stopping after
                # the step with the first move: a single advance of 40 s let a casual computer that
                # led shed its whole hand now and then, and the game's end took "My hand" away (a
                # genuine race, refused as such; 1 run in 48 under load).
                for _ in range(80):
                    await sync.advance(0.5)
                    if saving.is_set():
                        break

        advancing = asyncio.create_task(beat())
        await asyncio.wait_for(saving.wait(), 30)  # a move is being saved: the advance is under way
        clicking = asyncio.create_task(page.click(my_hand))
        for _ in range(3000):  # until the click is at the server, waiting its turn or answered
            if sync.queued or clicking.done():
                break
            await asyncio.sleep(0.01)
        assert sync.queued or clicking.done(), "the click never reached the page server"
        release.set()
        await advancing
        status, receipt = await clicking
        bot.store.write = write  # type: ignore[method-assign]
        assert not refused(status, receipt), (status, receipt)
        assert sync.refusals == []
        panels = [m for m in channel.history(viewer=alice) if "Your hand" in title(m)]
        assert panels, "My hand answered with alice's panel"


async def test_a_click_on_the_copy_the_page_holds_is_taken_after_a_read_it_abandoned(make_bot: Any) -> None:
    """The page abandons a read that is on the wire when the person clicks. If that read brought a
    newer copy (the world had changed), the click names the copy the page holds, which is no
    longer the newest: the copy the page never received is withdrawn and the click is taken.

    Seen to fail without the withdrawal (``_align`` not calling ``_withdraw``): the click was
    refused ``stale-revision`` ("Action was not completed."). In the browser this was 1 to 3 of
    about 15 clicks in a Zip Zap game."""
    bot: RefereeBot = make_bot()
    async with offline_world(bot) as world, aiohttp.ClientSession() as http:
        alice, bob, channel = world.friends[0], world.friends[1], world.channels["zipzap"]
        await alice.slash(channel, "zipzap new", seats=3)
        lobby = channel.last_message
        page = PageClient(http, world.preview)
        await page.open(alice)
        add = page.button("Add computer: casual")
        await bob.click(lobby, label="Join")  # the world changes: the lobby is redrawn
        newer = await page.read(keep=False)  # published, but the page never got it
        assert newer["publishedRevision"] == page.revision + 1

        status, receipt = await page.click(add)
        assert not refused(status, receipt), receipt
        assert world.page is not None
        assert world.page.withdrawn == 1 and world.page.refusals == []
        now = next(m for m in channel.history() if m.id == lobby.id)
        assert "Robo 1 (casual)" in message_text(now)  # the computer sat down


async def test_a_click_on_a_button_that_changed_under_it_is_refused_never_pressed_elsewhere(
    make_bot: Any,
) -> None:
    """SimCord presses the button *at the position* the page clicked, in the live message. When the
    message changed since the page's copy (alice played a card from another device, so another
    control moved into its place), pressing that position would press a control alice never
    chose: the click is refused as stale instead, and the page's next read shows the new panel.

    Seen to fail without the check (``_align`` returning at once): SimCord pressed the green 10
    and the bot played it, so alice's hand shrank by two cards, not one."""
    bot: RefereeBot = make_bot()
    bot.referee.new_seed = lambda: 1  # a known deal: the G8 is up; alice holds G1 G3 G6 G9 G10 …
    async with offline_world(bot) as world, aiohttp.ClientSession() as http:
        alice, channel, table_message = await _started_game(world)
        opened = await alice.click(table_message, label="My hand")
        panel = opened.response
        page = PageClient(http, world.preview)
        await page.open(alice)
        cards = [c for c in page.controls(text="Your hand") if c.custom_id.startswith("ga:")]
        codes = [c.custom_id.rsplit(":", 1)[1] for c in cards]
        # A card the panel offers (its buttons are only the playable cards, each with its Play
        # and Zap beside it): once it is played, another control takes its position.
        chosen = next(
            c for c, code in zip(cards, codes, strict=True) if not c.disabled and is_card_code(code)
        )
        table = bot.referee.table_in(channel.id)
        assert table is not None and table.state is not None
        hand = len(table.state.view(0)["hand"])

        await alice.click(panel, custom_id=chosen.custom_id)  # from another device: the panel is redrawn
        assert len(table.state.view(0)["hand"]) == hand - 1
        status, receipt = await page.click(chosen)  # on the copy that still shows that card there
        assert refused(status, receipt)
        assert [d["code"] for d in receipt["diagnostics"]] == ["stale-revision"]
        assert len(table.state.view(0)["hand"]) == hand - 1, "no other card was played"
        assert world.page is not None
        assert [r.cause for r in world.page.refusals] == [CHANGED]
        await page.read()  # the page's next read shows the panel as it is now
        assert chosen.custom_id not in [c.custom_id for c in page.controls(text="Your hand")]


async def test_leftover_live_tables_are_retired_at_start(database_url: str) -> None:
    store = Store(Database(database_url))
    try:
        await store.create_table(
            guild_id=1,
            channel_id=2,
            game="zipzap",
            host_id=3,
            options={},
            speed="relaxed",
            seed=1,
            seats=[SeatSpec(0, 3, "alice")],
        )
        assert await retire_leftover_tables(database_url) == 1
        assert await store.live_tables() == []
    finally:
        await store.db.dispose()


def _offline_session(database: Path) -> tuple[int, list[str], list[str]]:
    """Start `python bot.py --offline` as a person does, wait for its address, stop it as Ctrl-C
    does (SIGINT); returns (exit status, stdout lines, stderr lines)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(database.parent),
        "PYTHONUNBUFFERED": "1",
        "OFFLINE_DATABASE_URL": f"sqlite+aiosqlite:///{database}",
    }
    child = subprocess.Popen(
        [sys.executable, "bot.py", "--offline"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out: list[str] = []
    err: list[str] = []
    ready = threading.Event()

    def read(stream: Any, lines: list[str]) -> None:
        for line in stream:
            lines.append(line.rstrip("\n"))
            if "http://127.0.0.1:" in line:
                ready.set()
        ready.set()

    pairs = ((child.stdout, out), (child.stderr, err))
    readers = [threading.Thread(target=read, args=pair, daemon=True) for pair in pairs]
    for reader in readers:
        reader.start()
    try:
        assert ready.wait(60), "the offline bot printed no address"
        child.send_signal(signal.SIGINT)
        status = child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=10)
    for reader in readers:
        reader.join(timeout=10)
    return status, out, err


def test_the_terminal_shows_the_address_and_nothing_a_person_need_not_read(tmp_path: Path) -> None:
    """Two sessions on the same database, as a person starting `make offline` again.

    Seen to fail before issue 21: stderr had "Guilds intent seems to be disabled" (SimCord's
    import-time check with a client that has no intents), "PyNaCl is not installed", "davey is not
    installed", "logging in using static token", "owning shards [0] of 1", "synced 9 global
    commands" and "logged in as TestBot; serving 0 guilds"; and the second session began with
    "shard 0 was held by …, which is no longer running; taking it", because the first never gave
    its shard lease up."""
    database = tmp_path / "offline.sqlite3"
    for _ in range(2):
        status, out, err = _offline_session(database)
        assert status == 0
        assert err == [], "\n".join(err)
        text = "\n".join(out)
        assert "open this address in your browser" in text and "/#" in text
        assert out[-1] == f"Offline table stopped. Finished games are kept in {database}."


def test_the_command_line_explains_itself_without_a_token(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "bot.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == "" and "\n\n" not in done.stderr.strip()  # the one paragraph, nothing else
    wrong = subprocess.run(
        [sys.executable, "bot.py", "--frobnicate"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert wrong.returncode == 2 and "Unknown arguments" in wrong.stderr
