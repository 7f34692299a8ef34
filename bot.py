"""Entry point: settings from .env, migrate the database, build the bot, load the cogs, run.

python bot.py            # run the bot (needs DISCORD_TOKEN in .env)
python bot.py --check    # health check: settings valid, database reachable, schema at head
python bot.py --migrate  # create or upgrade the database schema, then exit
python bot.py --offline  # play in a browser on a simulated Discord
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib.util
import logging
import os
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.boards import ITEMS as BOARD_ITEMS
from cogs.help import FullRulesButton
from cogs.table.budget import DEFAULT_LIMIT, LIMIT_RANGE, GlobalBudget, install
from cogs.table.buttons import ActionButton, ActionSelect, LobbySelect, TableButton, parse_only_listed
from cogs.table.common import NOBODY, escape
from cogs.table.failures import invite_url
from cogs.table.heap import Collector
from cogs.table.languages import RELOAD_EVERY
from cogs.table.referee import Referee
from cogs.table.scheduler import Scheduler
from cogs.table.tree import RefereeTree
from cogs.texts import Texts
from cogs.texts.commands import CatalogTranslator
from db.engine import Database, DatabaseUnavailable, check, prepare
from db.ownership import HEARTBEAT, WATCH, ChangeFeed, Ownership, ShardLost, ShardsRefused
from db.standings import Standings
from db.store import Store

ROOT = Path(__file__).resolve().parent
DEFAULT_DATABASE_URL = f"sqlite+aiosqlite:///{ROOT / 'data' / 'referee.sqlite3'}"
# The shared cogs, then one per game. A game cog still being written is simply absent.
EXTENSIONS = (
    "cogs.tables",
    "cogs.stats",
    "cogs.settings",
    "cogs.help",
    "cogs.zipzap",
    "cogs.zaptrap",
    "cogs.spytrap",
    "cogs.gifttrap",
    "cogs.trap",
)

log = logging.getLogger("referee")
T = Texts(__name__)
# A host gives a stopping service about 10 s before it kills it; finish well inside that.
SHUTDOWN_SECONDS = 8.0
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

# text: for the operator, at start-up
NO_TOKEN = """\
The bot needs a Discord bot token to log in, and DISCORD_TOKEN is not set. Create an application
at https://discord.com/developers/applications, add a Bot to it and copy its token, then copy
.env.example to .env in this folder and put the token after DISCORD_TOKEN= (or export
DISCORD_TOKEN in your shell). Invite the bot with the "bot" and "applications.commands" scopes.
Optional: DEV_GUILD_ID (a server id, for instant slash-command updates while developing) and
DATABASE_URL (default: a SQLite file in ./data/, created on first start)."""


@dataclass(frozen=True)
class Settings:
    token: str | None
    database_url: str
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    # Multiplies computer players' reaction times: 2.0 = twice as slow, 0.5 = twice as quick.
    computer_speed: float = 1.0
    # Discord shards: how many in all, and which this process runs (all of them by default).
    shard_count: int = 1
    shard_ids: tuple[int, ...] = (0,)
    # Who this process is when it claims shards (shown to a second process that is refused).
    instance: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}")
    # Requests per second Discord allows this bot's token across every route: 50 unless Discord
    # granted more (DISCORD_GLOBAL_LIMIT); the processes of the token share it by their shards.
    global_limit: float = DEFAULT_LIMIT

    @classmethod
    def from_env(cls) -> Settings:
        try:
            from dotenv import load_dotenv

            load_dotenv(ROOT / ".env")
        except ImportError:  # python-dotenv is a dependency; this only guards odd installs
            pass
        guild = os.environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SystemExit(f"DEV_GUILD_ID must be a server id (digits only), not {guild!r}.")
        log_level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if log_level not in LOG_LEVELS:
            raise SystemExit(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}.")
        shard_count, shard_ids = _shards(os.environ.get("SHARD_COUNT", ""), os.environ.get("SHARD_IDS", ""))
        return cls(
            shard_count=shard_count,
            shard_ids=shard_ids,
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            database_url=os.environ.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
            dev_guild_id=int(guild) if guild else None,
            log_level=log_level,
            computer_speed=_positive_float("COMPUTER_REACTION", os.environ.get("COMPUTER_REACTION", "1.0")),
            global_limit=_global_limit(os.environ.get("DISCORD_GLOBAL_LIMIT", "")),
        )


def _shards(count_text: str, ids_text: str) -> tuple[int, tuple[int, ...]]:
    count_text = count_text.strip() or "1"
    if not count_text.isdigit() or int(count_text) < 1:
        raise SystemExit(f"SHARD_COUNT must be a whole number of at least 1, not {count_text!r}.")
    count = int(count_text)
    parts = [p.strip() for p in ids_text.split(",") if p.strip()]
    if not parts:
        return count, tuple(range(count))
    if not all(p.isdigit() and int(p) < count for p in parts) or len(set(parts)) != len(parts):
        raise SystemExit(
            f"SHARD_IDS must list different shard numbers from 0 to {count - 1}, like 0,2; not {ids_text!r}."
        )
    return count, tuple(sorted(int(p) for p in parts))


def _global_limit(raw: str) -> float:
    raw = raw.strip()
    try:
        value = float(raw) if raw else DEFAULT_LIMIT
    except ValueError:
        raise SystemExit(f"DISCORD_GLOBAL_LIMIT must be requests per second, like 50, not {raw!r}.") from None
    low, high = LIMIT_RANGE
    if not low <= value <= high:
        raise SystemExit(f"DISCORD_GLOBAL_LIMIT must be between {low:g} and {high:g}, not {value:g}.")
    return value


def _positive_float(name: str, raw: str) -> float:
    try:
        value = float(raw or "1.0")
    except ValueError:
        raise SystemExit(f"{name} must be a number such as 1.0, not {raw!r}.") from None
    if not 0.05 <= value <= 20:
        raise SystemExit(f"{name} must be between 0.05 and 20, not {value}.")
    return value


BUDGET_LINE = 60.0  # seconds between the global budget's log lines
BUDGET_KEY = "budget line"  # text: a scheduler key


class RefereeBot(commands.Bot):
    def __init__(self, settings: Settings, *, sync_commands: bool = True, **shards: Any) -> None:
        # No privileged intents: everything happens through slash commands and buttons.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            tree_cls=RefereeTree,
            # Nobody is pinged unless a message names whom it pings (cogs/table/common.py): a
            # name is input, and "<@id>" or "@everyone" in one must stay a word.
            allowed_mentions=NOBODY,
            # No message cache: the referee reads no message it did not get with a click, and
            # discord.py's default 1,000 parsed messages (their components, embeds, authors) were
            # live objects for the collector to walk, re-parsed twice at every edit (issue 35).
            max_messages=None,
            **shards,
        )
        self.settings = settings
        self.sync_commands = sync_commands
        self.database = Database(settings.database_url)
        self.store = Store(self.database)
        self.standings = Standings(self.database)
        self.scheduler = Scheduler()
        self.referee = Referee(self, self.store, self.scheduler)
        self.referee.computer_speed = settings.computer_speed
        self.ownership = Ownership(
            self.database, settings.shard_ids, settings.shard_count, settings.instance, self.scheduler.now
        )
        self.changes = ChangeFeed(self.database)
        # Every bot-token call takes a token from this first (cogs/table/budget.py).
        self.global_budget = GlobalBudget.for_shards(
            settings.global_limit, settings.shard_ids, settings.shard_count
        )
        self.referee.owns = self.ownership.owns
        self.referee.announce_change = self.changes.announce
        # A lost database connection is acted on at once, not at the next beat: the shard locks
        # are claimed again, and the change feed reopens and catches up.
        self.ownership.on_lost = lambda: self.scheduler.at("ownership", self.scheduler.now(), self._heartbeat)
        self.changes.wake = lambda: self.scheduler.at("changes", self.scheduler.now(), self._watch_changes)
        # The garbage collector's quiet moments: no click being handled, no scheduled job running.
        # Asked at every scheduler tick, and as soon as the last click in flight is answered.
        # A whole-heap collection waits for a moment with no game in play here, too.
        self.collector = Collector(
            busy=lambda: bool(self.referee.handling or self.scheduler.running()),
            at_rest=lambda: not any(t.status == "playing" for t in self.referee.tables.values()),
        )
        self.scheduler.before_tick = self.collector.tick
        self.referee.on_idle = self._on_idle

    async def setup_hook(self) -> None:
        install(self.http, self.global_budget)  # after login, which made discord.py's session
        self.scheduler.after(BUDGET_KEY, BUDGET_LINE, self._budget_line)
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        # Slash commands' names and descriptions in every language the catalogs hold. While English
        # is the only one there is nothing to add, and Discord gets the commands as before (a
        # translator makes discord.py send empty localizations).
        if CatalogTranslator.needed():
            await self.tree.set_translator(CatalogTranslator())
        self.add_dynamic_items(
            TableButton, ActionButton, ActionSelect, LobbySelect, FullRulesButton, *BOARD_ITEMS
        )
        parse_only_listed(self)
        for name in EXTENSIONS:
            if importlib.util.find_spec(name) is None:
                continue
            await self.load_extension(name)
        # Claim this process's shards before touching a table: a second process for the same
        # shards, or one under another SHARD_COUNT, stops here (ShardsRefused) instead of
        # double-playing every game.
        await self.ownership.claim()
        self.scheduler.after("ownership", HEARTBEAT.total_seconds(), self._heartbeat)
        await self.changes.start(self.referee.on_table_changed, self._owned_versions)
        if self.changes.enabled:
            self.scheduler.after("changes", WATCH.total_seconds(), self._watch_changes)
            # Several processes may share this database: a language chosen through another one.
            self.scheduler.after("languages", RELOAD_EVERY, self._reload_languages)
        # Everything loaded so far (modules, classes, the games) lives as long as the process:
        # frozen, the collector stops walking it again and again, while resuming grows the heap
        # and on every click after that. Once per process: a process that builds many bots (the
        # tests) would otherwise freeze the cyclic garbage of the earlier ones for good.
        first_start = gc.get_freeze_count() == 0
        if first_start:
            gc.freeze()
        # Each server's and person's chosen language, before anything is drawn for them.
        await self.referee.languages.load()
        resumed = await self.referee.resume()
        if resumed:
            log.info("resumed %d live tables", resumed)
        if first_start:
            # The resumed tables, likewise, until their games end; from here the collector runs
            # at quiet moments and freezes what survives (cogs/table/heap.py).
            self.collector.start()
        self.scheduler.start()
        if self.sync_commands:
            await self._sync()

    def _on_idle(self) -> None:
        # Soon, not now: the click's handler finishes first (its views are taken apart after it).
        asyncio.get_running_loop().call_soon(self.collector.tick)

    async def _heartbeat(self) -> None:
        """Keep this process's shards. A database hiccup raises and the scheduler retries; a shard
        taken over by another process (this one was paused too long) stops this one cleanly."""
        try:
            await self.ownership.renew()
        except ShardLost:
            log.error("another process took over this process's shards; stopping")
            self.referee.draining = True
            self.referee.messages.spawn(self.close())
            return
        self.scheduler.after("ownership", HEARTBEAT.total_seconds(), self._heartbeat)

    async def _reload_languages(self) -> None:
        """Each server's and person's chosen language as the database has them now. A database
        hiccup raises, and the scheduler tries again."""
        await self.referee.languages.load()
        self.scheduler.after("languages", RELOAD_EVERY, self._reload_languages)

    async def _budget_line(self) -> None:
        """The global budget's figures in the log once a minute: requests, waits, global 429s
        and the invalid answers that count towards Discord's ban."""
        log.info("%s", self.global_budget.line())
        self.scheduler.after(BUDGET_KEY, BUDGET_LINE, self._budget_line)

    async def _watch_changes(self) -> None:
        """Keep the change feed listening (it reopens itself with backoff and catches up)."""
        delay = await self.changes.watch()
        self.scheduler.after("changes", delay, self._watch_changes)

    def _owned_versions(self) -> dict[int, int]:
        """The tables this process plays, at the version each has in memory (the change feed's
        catch-up compares them with the database)."""
        return {tid: table.version for tid, table in self.referee.tables.items()}

    async def release(self) -> None:
        """Give up the shards and stop listening (closing, or a test's clean-up)."""
        try:
            await self.changes.stop()
            await self.ownership.release()
        except Exception:
            log.warning("could not release this process's shards; they expire on their own", exc_info=True)

    async def _sync(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (they can take a while to appear)", len(synced))

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """One answer for every slash command that could not run: a forged or out-of-range option,
        a command used outside a server, or a bug (logged, and the person told it failed)."""
        if isinstance(error, app_commands.TransformerError):
            value = escape(repr(error.value)[:100])
            text = T.gettext("The value {value} isn't valid there, so nothing happened.", value=value)
        elif isinstance(error, app_commands.NoPrivateMessage):
            text = T.gettext("That command only works in a server channel.")
        elif isinstance(error, app_commands.CheckFailure | app_commands.CommandNotFound):
            text = T.gettext("You can't use that command here.")
        else:
            log.error("slash command failed", exc_info=error)
            text = T.gettext("Something went wrong on my side and nothing changed. Please try again.")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True, allowed_mentions=NOBODY)
            else:
                await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NOBODY)
        except discord.HTTPException:
            log.info("could not answer a failed command")

    async def on_ready(self) -> None:
        log.info("logged in as %s; serving %d guilds", self.user, len(self.guilds))
        if self.user is not None:
            log.info("invite link (every permission a table needs): %s", invite_url(self.user.id))

    async def close(self) -> None:
        """Every way of stopping is a clean one: stop taking clicks, let in-flight commits
        finish, draw pending table edits, then log out and close the database."""
        if not self.is_closed():
            await self.referee.shutdown(timeout=SHUTDOWN_SECONDS)
        self.scheduler.stop()
        self.collector.stop()
        await super().close()
        await self.release()
        await self.database.dispose()


async def run_until_stopped(bot: RefereeBot, serve: Awaitable[None]) -> int:
    """Run ``serve`` (the bot's connection) until it ends or SIGTERM/SIGINT arrives, then close
    the bot cleanly. discord.py's own ``run`` only handles Ctrl-C, and SIGTERM is how systemd,
    Docker and every host stop a service."""
    stopping = asyncio.Event()
    restore = _on_stop_signals(asyncio.get_running_loop(), stopping.set)
    serving = asyncio.ensure_future(serve)
    waiting = asyncio.ensure_future(stopping.wait())
    try:
        await asyncio.wait({serving, waiting}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiting.cancel()
        if stopping.is_set():
            log.info("stopping: finishing what is under way")
        await bot.close()
        if not serving.done():
            serving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await serving  # a failed login raises here
        restore()
    return 0


def _on_stop_signals(loop: asyncio.AbstractEventLoop, stop: Callable[[], None]) -> Callable[[], None]:
    """Call ``stop`` on the loop when SIGTERM or SIGINT arrives; returns what undoes that.
    Windows' event loops have no ``add_signal_handler``: there a plain signal handler hands the
    stop to the loop from whichever thread the signal lands on."""
    signals = (signal.SIGTERM, signal.SIGINT)
    if sys.platform != "win32":
        for sig in signals:
            loop.add_signal_handler(sig, stop)

        def restore() -> None:
            for sig in signals:
                loop.remove_signal_handler(sig)

        return restore
    previous = {sig: signal.signal(sig, lambda *_: loop.call_soon_threadsafe(stop)) for sig in signals}

    def restore_windows() -> None:
        for sig, handler in previous.items():
            signal.signal(sig, handler)

    return restore_windows


class ShardedRefereeBot(RefereeBot, commands.AutoShardedBot):
    """The same bot running several shards in one process (discord.py's AutoShardedBot)."""


def create_bot(settings: Settings, **kwargs: Any) -> RefereeBot:
    if settings.shard_count == 1:
        return RefereeBot(settings, **kwargs)
    if len(settings.shard_ids) == 1:
        return RefereeBot(
            settings, **kwargs, shard_id=settings.shard_ids[0], shard_count=settings.shard_count
        )
    return ShardedRefereeBot(
        settings, **kwargs, shard_ids=list(settings.shard_ids), shard_count=settings.shard_count
    )


def health_check() -> tuple[bool, str]:
    """``python bot.py --check``: settings valid, database reachable, schema at Alembic head.
    Changes nothing (it never creates or migrates the database). Returns (ok, one line)."""
    try:
        settings = Settings.from_env()
    except SystemExit as error:
        return False, str(error)
    if settings.token is None:
        # text: for the operator (--check)
        return False, "DISCORD_TOKEN is not set, so the bot could not log in (see .env.example)."
    try:
        return True, check(settings.database_url)
    except DatabaseUnavailable as error:
        return False, str(error)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--check"]:
        ok, line = health_check()
        print(line, file=sys.stdout if ok else sys.stderr)
        return 0 if ok else 1
    settings = Settings.from_env()
    # The referee never joins a voice channel: discord.py's start-up notes that the voice libraries
    # (PyNaCl, davey) are missing say nothing about this bot.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    if "--offline" in argv:
        from cogs.offline import run_offline

        # The real bot on a simulated Discord: no token, no network, its own database file, and a
        # terminal that shows the page's address and the tables' events (it sets up logging).
        def offline_settings(url: str) -> Settings:
            return replace(settings, token=None, database_url=os.environ.get("OFFLINE_DATABASE_URL") or url)

        return run_offline(argv, offline_settings, lambda s: create_bot(s), log_level=settings.log_level)
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # Alembic narrates every plugin it loads; its warnings and errors are what matter here.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    if argv and argv != ["--migrate"]:
        print(
            f"Unknown arguments {' '.join(argv)!r}. Use no arguments to run the bot, or one of "
            "--check, --migrate, --offline.",
            file=sys.stderr,
        )
        return 2
    if settings.token is None and not argv:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    # Migrating before the event loop starts: Alembic runs its own loop for the async engine.
    try:
        prepare(settings.database_url)
    except DatabaseUnavailable as error:
        log.debug("database start-up failed", exc_info=error)
        print(error, file=sys.stderr)
        return 1
    if argv == ["--migrate"]:
        print(check(settings.database_url))
        return 0
    token = settings.token
    assert token is not None

    async def serve() -> int:
        bot = create_bot(settings)
        return await run_until_stopped(bot, bot.start(token))

    try:
        return asyncio.run(serve())
    except ShardsRefused as refused:
        print(refused, file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print(
            "Discord refused the token in DISCORD_TOKEN. Copy it again from the Developer Portal.",
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
