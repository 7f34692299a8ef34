"""`python bot.py --offline`: the real bot against SimCord's simulated Discord, in a browser.

Nothing here is a second implementation: the same bot, cogs, database code and rules run; only
Discord itself is simulated. SimCord's Preview serves one channel of the simulated server on
127.0.0.1 behind a capability URL, with a "Viewing as" switch between the simulated friends.
Time is virtual in SimCord, so a pump advances it in step with the wall clock: timers, stalls
and computer players then act as they would on Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import update

from db.engine import Database, migrate
from db.models import LIVE_STATUSES, Game, utcnow

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent
OFFLINE_DATABASE_URL = f"sqlite+aiosqlite:///{ROOT / 'data' / 'offline.sqlite3'}"
FRIENDS = ("alice", "bob", "carol", "dave")
PUMP_SECONDS = 0.25

MISSING = """\
The offline table needs SimCord's preview extra, which the normal bot does not install.
Install it with:  .venv/bin/pip install -e ".[offline]"   (or simply: make offline)"""


@dataclass
class OfflineWorld:
    """The simulated server: a channel per game and a few friends to act as."""

    env: Any
    guild: Any
    channels: dict[str, Any]
    friends: list[Any]
    preview: Any = None
    pump_errors: list[BaseException] = field(default_factory=list)


def game_keys(bot: Any) -> list[str]:
    """The games this bot can seat (a cog registered a UI for them), in menu order."""
    return list(bot.referee.uis)


async def retire_leftover_tables(url: str) -> int:
    """Tables left live by an earlier offline session have lost their simulated messages;
    retire them so each channel starts free (finished games and standings stay)."""
    database = Database(url)
    try:
        async with database.sessions() as session:
            result = await session.execute(
                update(Game)
                .where(Game.status.in_(LIVE_STATUSES))
                .values(status="cancelled", finished_at=utcnow(), deadline_at=None)
            )
            await session.commit()
            return int(getattr(result, "rowcount", 0) or 0)
    finally:
        await database.dispose()


@contextlib.asynccontextmanager
async def offline_world(
    bot: Any, *, game: str | None = None, port: int | None = None, preview: bool = True
) -> AsyncIterator[OfflineWorld]:
    """Run ``bot`` in SimCord with the simulated server built, and (optionally) its Preview."""
    import simcord

    async with simcord.run(bot, check_errors=False, settle_timeout=30) as env:
        guild = env.create_guild(name="Game night (offline)")
        keys = game_keys(bot)
        channels = {key: guild.create_text_channel(key) for key in keys}
        friends = [guild.add_member(env.create_user(name)) for name in FRIENDS]
        world = OfflineWorld(env, guild, channels, friends)
        await welcome(bot, channels)
        try:
            if not preview:
                yield world
                return
            chosen = channels[game or keys[0]]
            async with env.preview(chosen, viewers=friends, layout="channel", port=port) as page:
                world.preview = page
                yield world
        finally:
            await bot.database.dispose()


async def welcome(bot: Any, channels: dict[str, Any]) -> None:
    """An empty channel says nothing; tell a first-time visitor what to type."""
    from cogs.table.common import NOBODY
    from rules import get_game

    for key, channel in channels.items():
        title = get_game(key).title
        text = (
            f"👋 This is the offline **{title}** table. Type `/{key} new` in the box below to open a "
            f"lobby, add computer players to fill the seats and press **Start**. Act as another friend "
            f"with **Viewing as** at the top; `/{key} rules` explains the game."
        )
        await bot.get_partial_messageable(channel.id).send(text, allowed_mentions=NOBODY)


async def pump(world: OfflineWorld, stop: asyncio.Event) -> None:
    """Advance SimCord's clock with the wall clock, and let the page see what happened."""
    loop = asyncio.get_running_loop()
    last = loop.time()
    while not stop.is_set():
        await asyncio.sleep(PUMP_SECONDS)
        now = loop.time()
        try:
            await world.env.advance_time(now - last)
            if world.preview is not None:
                await world.preview.refresh()
        except Exception as error:  # a page action was running: try again on the next beat
            if "overlaps" not in str(error):
                world.pump_errors.append(error)
                log.warning("offline clock pump: %s", error)
            continue
        last = now


async def serve(bot: Any, *, game: str | None, port: int | None) -> int:
    async with offline_world(bot, game=game, port=port) as world:
        page = world.preview
        names = ", ".join(f.name for f in world.friends)
        channel_list = ", ".join(f"#{k}" for k in world.channels)
        print(
            "\nOffline table ready: open this address in your browser "
            "(it works like a password, keep it to yourself):\n\n"
            f"    {page.url}\n\n"
            f"Simulated server channels: {channel_list} (showing #{page.channel.name}; pick another with "
            f"--game).\nAct as {names} with the page's 'Viewing as' switch; type /{page.channel.name} new "
            f"in the composer to open a table, add computer players to fill the seats.\n"
            f"Press Ctrl-C here to stop.\n",
            flush=True,
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            # add_signal_handler is missing on some platforms (Windows: it raises a RuntimeError
            # subclass); Ctrl-C still stops asyncio.run there.
            with contextlib.suppress(RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        pumping = asyncio.create_task(pump(world, stop))
        closed = asyncio.create_task(page.wait_closed())
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({closed, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stop.set()
        for task in (pumping, closed, stopping):
            task.cancel()
        await asyncio.gather(pumping, closed, stopping, return_exceptions=True)
    print("Offline table stopped. Finished games are kept in data/offline.sqlite3.", flush=True)
    return 0


def run_offline(argv: list[str], settings_factory: Any, bot_factory: Any) -> int:
    """Entry point behind `python bot.py --offline [--game KEY] [--port N]`."""
    import argparse

    parser = argparse.ArgumentParser(prog="python bot.py --offline", description="Play offline in a browser.")
    parser.add_argument("--offline", action="store_true")
    parser.add_argument("--game", help="which game's channel the page shows (default: the first)")
    parser.add_argument("--port", type=int, default=None, help="loopback port (default: any free port)")
    args = parser.parse_args(argv)
    if not preview_installed():
        print(MISSING)
        return 2
    if args.game is not None and args.game not in _known_games():
        print(f"Unknown game {args.game!r}; the games are: {', '.join(_known_games())}.")
        return 2
    settings = settings_factory(OFFLINE_DATABASE_URL)
    migrate(settings.database_url)
    asyncio.run(retire_leftover_tables(settings.database_url))
    bot = bot_factory(settings)
    try:
        return asyncio.run(serve(bot, game=args.game, port=args.port))
    except KeyboardInterrupt:
        return 0


def preview_installed() -> bool:
    """SimCord's preview runtime (aiohttp, Pillow, PyAV, markdown…) is an optional extra."""
    try:
        from simcord.preview import _PREVIEW_RUNTIME_MODULES
    except ImportError:
        return False
    import importlib.util

    return all(importlib.util.find_spec(module) is not None for module in _PREVIEW_RUNTIME_MODULES)


def _known_games() -> list[str]:
    from rules import GAMES

    return list(GAMES)
