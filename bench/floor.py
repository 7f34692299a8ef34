"""The floor: the least any discord.py bot can do for a click, measured on the same harness.

A minimal bot with one DynamicItem button per "table" message. Its callback does the one thing a
committed click must: one SQLite commit (the bot's own engine settings: WAL, synchronous=FULL,
SQLAlchemy Core over aiosqlite), then answer by editing the clicked message. Clicked like the
end-to-end part (people at N tables, bursts in flight together, virtual time advancing between
rounds), timed the same way (from discord.py parsing INTERACTION_CREATE to the end of the
callback), so our committed-click latency can be given as a ratio to it.
"""

from __future__ import annotations

import asyncio
import gc
import re
import time
from pathlib import Path
from typing import Any

import discord
from sqlalchemy import Column, Integer, MetaData, String, Table, insert

from bench.common import sqlite_url, summary_ms

metadata = MetaData()
clicks_table = Table(
    "clicks",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("message", Integer, nullable=False),
    Column("who", Integer, nullable=False),
    Column("what", String(64), nullable=False),
)


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"fl:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"fl:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: FloorBot = interaction.client  # type: ignore[assignment]
        async with bot.engine.begin() as connection:
            await connection.execute(
                insert(clicks_table).values(
                    message=interaction.message.id if interaction.message else 0,
                    who=interaction.user.id,
                    what=f"count {self.n}",
                )
            )
        bot.counts[self.n] = bot.counts.get(self.n, 0) + 1
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n))
        view.stop()
        await interaction.response.edit_message(content=f"Counted to {bot.counts[self.n]}", view=view)
        bot.handled.append((interaction.id, time.perf_counter()))


class FloorBot(discord.Client):
    def __init__(self, url: str) -> None:
        super().__init__(intents=discord.Intents.default())
        from db.engine import make_engine

        self.engine = make_engine(url)  # the referee's SQLite settings
        self.handled: list[tuple[int, float]] = []
        self.counts: dict[int, int] = {}
        self.received: dict[int, float] = {}

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        async with self.engine.begin() as connection:
            await connection.run_sync(metadata.create_all)


async def scenario(*, database: Path, tables: int, rounds: int, burst: int, step: float) -> dict[str, Any]:
    import simcord

    from bench.e2e import Probe, _advance, _burst, forget_transcript, release_ran_handles, settled_heap

    bot = FloorBot(sqlite_url(database))
    try:
        async with simcord.run(bot, settle_timeout=600, check_errors=False) as env:
            parsers = bot._connection.parsers
            parse_interaction = parsers["INTERACTION_CREATE"]

            def parse(data: Any) -> None:
                bot.received[int(data["id"])] = time.perf_counter()
                parse_interaction(data)

            parsers["INTERACTION_CREATE"] = parse
            guild = env.create_guild(name="Floor")
            people = []
            messages = []
            for i in range(tables):
                channel = guild.create_text_channel(f"floor-{i}")
                people.append([guild.add_member(env.create_user(f"f{i}x{j}")) for j in range(2)])
                view = discord.ui.View(timeout=None)
                view.add_item(Counter(i))
                view.stop()
                await bot.get_partial_messageable(channel.id).send("Counted to 0", view=view)
                messages.append(channel.last_message)
            await env.settle()
            probe = Probe(env)
            forget_transcript(env)
            settled_heap()  # as for the referee: the set-up's heap is not walked during play
            release = release_ran_handles()  # as for the referee: SimCord's cycles freed at once
            try:
                for _ in range(rounds):
                    clicks = [
                        (person, messages[i], f"fl:{i}", None) for i in range(tables) for person in people[i]
                    ]
                    await _burst(env, probe, clicks, burst)
                    await _advance(env, probe, 1.0, step)
                    forget_transcript(env)
                    del env.http_requests[:]  # never read here; as for the referee, it is not kept
            finally:
                release()
            took = [done - bot.received[i] for i, done in bot.handled if i in bot.received]
    finally:
        gc.unfreeze()
        await bot.engine.dispose()
    return {
        "tables": tables,
        "clicks": len(took),
        "click": summary_ms(took),
        "gc_thresholds": list(gc.get_threshold()),
    }


def run(*, database: Path, tables: int, rounds: int, burst: int, step: float) -> dict[str, Any]:
    return asyncio.run(scenario(database=database, tables=tables, rounds=rounds, burst=burst, step=step))
