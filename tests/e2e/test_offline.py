"""`python bot.py --offline`: the real bot on SimCord with its Preview page on loopback."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from bot import RefereeBot
from cogs.offline import FRIENDS, offline_world, preview_installed, pump, retire_leftover_tables
from db.engine import Database
from db.store import SeatSpec, Store
from tests.e2e.zipzap_driver import Player, is_over, play_to_end

pytestmark = pytest.mark.skipif(
    not preview_installed(), reason="the offline extra (simcord[preview]) is missing"
)
ROOT = Path(__file__).resolve().parents[2]


async def test_offline_table_plays_a_game_and_guards_its_page(make_bot, tmp_path: Path) -> None:
    bot: RefereeBot = make_bot()
    async with offline_world(bot) as world:
        assert [f.name for f in world.friends] == list(FRIENDS)
        assert "zipzap" in world.channels
        channel = world.channels["zipzap"]
        assert "/zipzap new" in (channel.last_message.content or "")  # a welcome says what to type
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

        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if chromium is None:
            pytest.skip("headless Chromium is not installed (apt-get install chromium), so no screenshot")
        shot = tmp_path / "offline.png"
        stop = asyncio.Event()
        clock = asyncio.create_task(pump(world, stop))
        browser = await asyncio.create_subprocess_exec(
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1200,900",
            "--virtual-time-budget=4000",
            f"--screenshot={shot}",
            page.url,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            await asyncio.wait_for(browser.wait(), timeout=60)
        finally:
            stop.set()
            await clock
        assert shot.exists() and shot.stat().st_size > 10_000
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


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


def test_the_command_line_explains_itself_without_a_token(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "bot.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and "Traceback" not in done.stderr
    wrong = subprocess.run(
        [sys.executable, "bot.py", "--frobnicate"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert wrong.returncode == 2 and "Unknown arguments" in wrong.stderr
