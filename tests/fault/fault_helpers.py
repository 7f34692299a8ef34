"""Shared pieces of the fault, race and hostile-input tests (tests/fault/).

Everything here drives the real bot through SimCord's public verbs, or through
tests/e2e/simhelpers.py for clicks in flight; the one raw payload built here is a forged slash
command (SimCord's own ``slash`` validates options the way the real client does, so a wrong type
or an out-of-range value can only be sent by hand, as a modified client would).
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from simcord import interactions as _interactions
from simcord.enums import AppCommandType, InteractionType, OptionType
from simcord.results import InteractionResult
from sqlalchemy import func, select

from cogs.table import workers
from db.models import ActionRow, Game
from rules import GAMES, get_game
from rules.base import State
from tests.e2e.simhelpers import InFlight


@dataclass(frozen=True)
class Setup:
    """How to open a small, quick table of one game: the `/… new` options (timers off, so nothing
    happens on its own) and how many people sit down."""

    key: str
    players: int
    slash: dict[str, Any] = field(default_factory=dict)


# Small games: Zip Zap one round, Zap or Trap to one point, Spy Trap five rounds, GiftTRAP on a
# five-space track, Trap with the quick setup. All seats are people; timers are off.
SETUPS: dict[str, Setup] = {
    "zipzap": Setup("zipzap", 2, {"seats": 2, "rounds": 1, "speed": "off"}),
    "zaptrap": Setup("zaptrap", 3, {"seats": 3, "target": 1, "speed": "off"}),
    "spytrap": Setup("spytrap", 2, {"seats": 2, "max_rounds": 5, "speed": "off"}),
    "gifttrap": Setup("gifttrap", 3, {"seats": 3, "track_length": 5, "speed": "off"}),
    "trap": Setup("trap", 2, {"quick_setup": True, "speed": "off"}),
}
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "gina", "hank")


async def open_people_table(env: Any, bot: Any, key: str, seed: int) -> dict[str, Any]:
    """A started table of ``key`` with only people seated: the host opens it with `/… new`,
    everyone else presses Join, the host presses Start. The shuffle seed is pinned."""
    setup = SETUPS[key]
    bot.referee.new_seed = lambda: seed
    guild = env.create_guild()
    channel = guild.create_text_channel(f"{key}-table")
    actors = [guild.add_member(env.create_user(name)) for name in NAMES[: setup.players]]
    host = actors[0]
    opened = await host.slash(channel, f"{key} new", **setup.slash)
    assert opened.ephemeral, f"/{key} new did not open a table"
    lobby = channel.last_message
    for other in actors[1:]:
        await other.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    table_id = bot.referee.by_channel[channel.id]
    table = bot.referee.tables[table_id]
    assert table.status == "playing"
    return {"guild": guild, "channel": channel, "actors": actors, "lobby": lobby, "table_id": table_id}


def replay(key: str, players: int, options: Any, seed: int, actions: list[tuple[int | None, str]]) -> State:
    """The engine on its own: a new game with this seed, then every action in order."""
    state = get_game(key).new_game(players, options, seed)
    for seat, action in actions:
        state.apply(seat, action)
    return state


async def stored_actions(bot: Any, table_id: int) -> list[tuple[int, int | None, str]]:
    """(seq, seat, action) of every action the database holds for the table, in order."""
    return [(row.seq, row.seat, row.action) for row in await bot.store.actions(table_id)]


async def counts(bot: Any) -> tuple[int, int]:
    """(games rows, action rows) in the bot's database."""
    async with bot.database.sessions() as session:
        games = await session.scalar(select(func.count()).select_from(Game))
        actions = await session.scalar(select(func.count()).select_from(ActionRow))
        return int(games or 0), int(actions or 0)


def loaded_games(bot: Any) -> list[str]:
    """The games whose engine is registered and whose cog the bot loaded."""
    return [key for key in GAMES if key in bot.referee.uis]


def emit_slash(actor: Any, channel: Any, name: str, options: list[dict[str, Any]]) -> InFlight:
    """Send a raw `/name sub …` interaction whose options are given as they go on the wire
    (``{"name", "type", "value"}``), with no checking at all: wrong types, values out of range,
    options that do not exist. ``name`` is "group sub" or "command"."""
    env = actor._env
    backend = env.backend
    parts = name.split()
    root = backend.find_command(parts[0], actor.guild.id, type=AppCommandType.CHAT_INPUT)
    assert root is not None, f"no synced command {parts[0]!r}"
    nested = options
    for sub in reversed(parts[1:]):
        nested = [{"name": sub, "type": OptionType.SUBCOMMAND, "options": nested}]
    data: dict[str, Any] = {
        "id": root["id"],
        "name": root["name"],
        "type": AppCommandType.CHAT_INPUT,
        "options": nested,
    }
    record, payload = _interactions.base_payload(
        backend,
        type=InteractionType.APPLICATION_COMMAND,
        channel_id=channel.id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data=data,
    )
    backend.emit("INTERACTION_CREATE", payload)
    return InFlight(env, record)


def answered_privately(flight: InFlight) -> bool:
    """The interaction was answered, and what its clicker saw was only theirs (ephemeral)."""
    result: InteractionResult = flight.result
    if not result.acknowledged:
        return False
    messages = [result.response, *result.followups] if result.response is not None else result.followups
    return bool(messages) and all(m.ephemeral for m in messages)


def count_pool_starts(
    monkeypatch: pytest.MonkeyPatch, pool: Literal["thinking", "pictures"], fail_first: bool = False
) -> list[int]:
    """Count the starts of one healing worker pool (cogs/table/workers.py: the thinking pool or
    the pictures', told apart by the art modules only the pictures' workers preload): each
    start's worker count is appended; the other pool starts as usual, uncounted (a Trap table
    starts both: its board is a picture). With ``fail_first``, the first counted start fails as
    ``fork`` does when the system is out of processes."""
    from cogs.table.pictures import ART_MODULES

    starts: list[int] = []
    real = workers._started_pool

    def counted(count: int, preload: tuple[str, ...] = ()) -> Any:
        if (tuple(preload) == ART_MODULES) != (pool == "pictures"):
            return real(count, preload)
        starts.append(count)
        if fail_first and len(starts) == 1:
            raise OSError(errno.EAGAIN, os.strerror(errno.EAGAIN))
        return real(count, preload)

    monkeypatch.setattr(workers, "_started_pool", counted)
    return starts
