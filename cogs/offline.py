"""`python bot.py --offline`: the real bot against SimCord's simulated Discord, in a browser.

Nothing here is a second implementation: the same bot, cogs, database code and rules run; only
Discord itself is simulated. SimCord's Preview serves one channel of the simulated server on
127.0.0.1 behind a capability URL, with a "Viewing as" switch between the simulated friends.
Time is virtual in SimCord, so a pump advances it in step with the wall clock: timers, stalls
and computer players then act as they would on Discord. How the page is kept in step so that a
person's clicks are taken is ``cogs/offline_page.py``.

The terminal shows what a person needs: the address, then a line per table event (opened, started,
finished, stopped; ``cogs/table/journal.py``) and any warning. ``LOG_LEVEL=DEBUG`` shows everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
from sqlalchemy import update

from cogs.offline_page import PageSync, PageUnsupported
from cogs.table.journal import TABLE_EVENTS
from cogs.texts import LANGUAGES, Texts, speaking
from db.engine import Database, migrate
from db.models import LIVE_STATUSES, Game, use_clock, utcnow

log = logging.getLogger(__name__)
T = Texts(__name__)

ROOT = Path(__file__).resolve().parent.parent
OFFLINE_DATABASE_URL = f"sqlite+aiosqlite:///{ROOT / 'data' / 'offline.sqlite3'}"
FRIENDS = ("alice", "bob", "carol", "dave")
# The simulated bot account's name, shown on every message the page draws (SimCord's is "TestBot").
BOT_NAME = "Game-night referee"  # text: the bot's account name, a name like the real bot's
PUMP_SECONDS = 0.25
# How many simulated seconds pass per wall-clock second: 1 for a person. tests/browser plays whole
# games at a phone's width (test_phone_panels.py) and sets OFFLINE_CLOCK_RATE higher, so that
# computers' turns and timers take a CI run's seconds, not a game night's minutes.
CLOCK_RATE_VARIABLE = "OFFLINE_CLOCK_RATE"


def clock_rate() -> float:
    """The simulated clock's rate (``OFFLINE_CLOCK_RATE``; 1 when unset or not a number >= 1)."""
    try:
        rate = float(os.environ.get(CLOCK_RATE_VARIABLE, "1"))
    except ValueError:
        return 1.0
    return rate if rate >= 1.0 else 1.0


# How long stopping waits for what is under way (the real bot's close() allows the same).
SHUTDOWN_SECONDS = 8.0

# text: for the operator, at start-up
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
    # The clock pump and the page's actions take turns on this (SimCord runs one at a time).
    turn: asyncio.Lock = field(default_factory=asyncio.Lock)
    # The page kept in step with the world (None without a page): turns, publishing, refusals.
    page: PageSync | None = None
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
    bot: Any,
    *,
    game: str | None = None,
    port: int | None = None,
    preview: bool = True,
    language: str | None = None,
) -> AsyncIterator[OfflineWorld]:
    """Run ``bot`` in SimCord with the simulated server built, and (optionally) its Preview.
    ``language``: the simulated server's (its tables', and the welcome's), for this run only."""
    import simcord

    runner = simcord.run(bot, check_errors=False, settle_timeout=30)
    start_today(getattr(runner, "_env", None))
    async with runner as env, one_clock():
        # The bot renames its simulated account the way it would rename a real one (PATCH
        # /users/@me), before the server exists, so its member there carries the name too.
        try:
            await bot.user.edit(username=BOT_NAME)
        except discord.HTTPException as error:  # the page then says "TestBot"; nothing else changes
            log.warning("could not name the offline bot %r: %s", BOT_NAME, error)
        # text: the simulated server's own name, as a person names a server
        guild = env.create_guild(name="Game night (offline)")
        keys = game_keys(bot)
        channels = {key: guild.create_text_channel(key) for key in keys}
        friends = [guild.add_member(env.create_user(name)) for name in FRIENDS]
        world = OfflineWorld(env, guild, channels, friends)
        if language in LANGUAGES:
            # As `/settings language` would, without storing it: the next run may choose another.
            bot.referee.languages.guilds[guild.id] = language
        with speaking(language):  # the channel reads the welcome
            await welcome(bot, channels)
        try:
            if not preview:
                yield world
                return
            chosen = channels[game or keys[0]]
            async with env.preview(chosen, viewers=friends, layout="channel", port=port) as page:
                world.preview = page
                world.page = PageSync(env, page, turn=world.turn)
                world.page.attach()
                yield world
        finally:
            await stop_bot(bot)


def start_today(env: Any) -> None:
    """SimCord's clock starts on 1 January 2026; the database's times were the wall clock's, so
    /history said "in 47 weeks" and a replay "played Nov 28, 2026" on a page dated 1/1/26. Set it
    to today before the bot starts (the pump then advances it with the wall clock): set later, the
    bot's loops would wake 11 months late and catch up."""
    clock = getattr(getattr(env, "backend", None), "clock", None)
    if clock is not None and hasattr(clock, "_epoch"):  # SimCord has no public way to set it
        clock._epoch = datetime.now(UTC) - timedelta(seconds=clock.elapsed)
    else:
        log.warning("the simulated clock could not be set to today; dates on the page may differ")


@contextlib.asynccontextmanager
async def one_clock() -> AsyncIterator[None]:
    """The database reads the simulated Discord's clock (Discord's ``utcnow``, which SimCord
    drives) while the offline world runs, so the two never drift apart: not when a click takes
    long, nor when a test runs the simulated clock ahead."""
    use_clock(discord.utils.utcnow)
    try:
        yield
    finally:
        use_clock(None)


async def stop_bot(bot: Any) -> None:
    """SimCord never closes the bot, so do here what closing does, while the simulated Discord still
    answers: finish what is under way and draw pending table edits, give up the shard lease (or
    the next session would start by taking it over from this one), close the database."""
    await bot.referee.shutdown(timeout=SHUTDOWN_SECONDS)
    await bot.release()
    await bot.database.dispose()


async def welcome(bot: Any, channels: dict[str, Any]) -> None:
    """An empty channel says nothing; tell a first-time visitor what to type."""
    from rules import get_game

    for key, channel in channels.items():
        title = get_game(key).title
        text = T.gettext(
            "👋 This is the offline **{title}** table. Type `/{key} new` in the box below to open a "
            "lobby, add computer players to fill the seats and press **Start**. Act as another friend "
            "with **Viewing as** at the top; `/{key} rules` explains the game.",
            title=title,
            key=key,
        )
        nobody = discord.AllowedMentions.none()
        await bot.get_partial_messageable(channel.id).send(text, allowed_mentions=nobody)


async def pump(world: OfflineWorld, stop: asyncio.Event) -> None:
    """Advance SimCord's clock with the wall clock, in turn with the page's actions: SimCord runs
    one operation at a time, so a click that arrived mid-advance would be refused. The page is
    not republished here; it is when it reads (``PageSync``)."""
    loop = asyncio.get_running_loop()
    last = loop.time()
    rate = clock_rate()
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), PUMP_SECONDS)
        if stop.is_set():
            return
        async with world.turn:
            now = loop.time()  # after the turn: a long click's time is advanced too
            try:
                if world.page is not None:
                    await world.page.advance((now - last) * rate)
                else:
                    await world.env.advance_time((now - last) * rate)
            except Exception as error:
                # Partial progress is kept (SimCord commits what settled); the next beat goes on.
                world.pump_errors.append(error)
                log.warning("the simulated clock could not advance: %s", error)
            last = now


async def serve(
    bot: Any, *, game: str | None, port: int | None, database: str, language: str | None = None
) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        # Before anything starts, so a Ctrl-C at any moment stops cleanly. add_signal_handler is
        # missing on some platforms (Windows: it raises a RuntimeError subclass); Ctrl-C still
        # stops asyncio.run there.
        with contextlib.suppress(RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    async with offline_world(bot, game=game, port=port, language=language) as world:
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
        pumping = asyncio.create_task(pump(world, stop))
        closed = asyncio.create_task(page.wait_closed())
        stopping = asyncio.create_task(stop.wait())
        await asyncio.wait({closed, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stop.set()
        for task in (pumping, closed, stopping):
            task.cancel()
        await asyncio.gather(pumping, closed, stopping, return_exceptions=True)
    print(f"Offline table stopped. Finished games are kept in {database}.", flush=True)
    return 0


def run_offline(argv: list[str], settings_factory: Any, bot_factory: Any, *, log_level: str = "INFO") -> int:
    """Entry point behind `python bot.py --offline [--game KEY] [--port N]`."""
    import argparse

    parser = argparse.ArgumentParser(prog="python bot.py --offline", description="Play offline in a browser.")
    parser.add_argument("--offline", action="store_true")
    parser.add_argument("--game", help="which game's channel the page shows (default: the first)")
    parser.add_argument("--port", type=int, default=None, help="loopback port (default: any free port)")
    parser.add_argument(
        "--language",
        choices=sorted(LANGUAGES),
        default=None,
        help="the simulated server's language, for its tables (default: English)",
    )
    args = parser.parse_args(argv)
    terminal_logging(log_level)
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
        database = _shown(settings.database_url)
        return asyncio.run(
            serve(bot, game=args.game, port=args.port, database=database, language=args.language)
        )
    except KeyboardInterrupt:
        return 0
    except PageUnsupported as error:
        print(error)
        return 2


class TerminalLines(logging.Formatter):
    """A table event reads as a plain line with the time; anything else also says how serious it
    is and where it came from."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(message)s", datefmt="%H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        if record.name == TABLE_EVENTS and record.levelno == logging.INFO:
            return line
        time, _, message = line.partition(" ")
        return f"{time} {record.levelname} {record.name}: {message}"


def terminal_logging(level: str) -> None:
    """What `make offline` shows below the address: a line per table event, and warnings and
    errors from anything. ``LOG_LEVEL=DEBUG`` shows everything; a level above INFO hides the
    table events too."""
    handler = logging.StreamHandler()
    handler.setFormatter(TerminalLines())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    number = logging.getLevelName(level)
    root.setLevel(number if number == logging.DEBUG else max(number, logging.WARNING))
    logging.getLogger(TABLE_EVENTS).setLevel(number)


class _SimCordProbe(logging.Filter):
    """On import SimCord checks discord.py's internals with a throwaway client that has no intents,
    and discord.py warns that the guilds intent is off. The referee's own client has it on."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Guilds intent seems to be disabled")


def preview_installed() -> bool:
    """SimCord's preview runtime (aiohttp, Pillow, PyAV, markdown…) is an optional extra."""
    state = logging.getLogger("discord.state")
    probe = _SimCordProbe()
    state.addFilter(probe)
    try:
        from simcord.preview import _PREVIEW_RUNTIME_MODULES
    except ImportError:
        return False
    finally:
        state.removeFilter(probe)
    import importlib.util

    return all(importlib.util.find_spec(module) is not None for module in _PREVIEW_RUNTIME_MODULES)


def _shown(url: str) -> str:
    """Where the offline games are kept, for the goodbye line: the file, or the server."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database:
        path = Path(parsed.database)
        return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
    return parsed.render_as_string(hide_password=True)


def _known_games() -> list[str]:
    from rules import GAMES

    return list(GAMES)
