"""Leaderboards and records: what people look at between games (the commands are in
``cogs/stats.py``, which stays thin).

- ``leaderboard.py``: ``/leaderboard``, paged, with the asker's own row; seasons' archives.
- ``record.py``: ``/stats show`` (a person's record per game), ``/stats forget``, ``/stats export``.
- ``history.py``: ``/history``, a person's finished games, paged, each linked to its table and
  offered as a replay.
- ``replay.py``: a finished game rebuilt from its action log by the engine and drawn as a
  spectator saw it, step by step; its recorded JSON for ``python -m rules replay``.
- ``seasons.py``: ``/season new`` for server managers.
- ``common.py``: escaping, plurals, answering a click in place, the Cancel button.

Every button here is a DynamicItem whose custom_id carries everything its answer needs (game,
season, page; a person; a game id and step), so nothing is kept per message, old messages keep
working after a restart, and the same button answers each person with their own view. Every
answer about one person is ephemeral; every message passes ``allowed_mentions`` that ping nobody;
every name a person chose is escaped. ``ITEMS`` is what bot.py registers.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.boards.common import Dismiss
from cogs.boards.history import HistoryPage, ReplayPick
from cogs.boards.leaderboard import BoardPage
from cogs.boards.record import ForgetConfirm
from cogs.boards.replay import ReplayDownload, ReplayStep
from cogs.boards.seasons import SeasonConfirm

ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    BoardPage,
    HistoryPage,
    ReplayPick,
    ReplayStep,
    ReplayDownload,
    SeasonConfirm,
    ForgetConfirm,
    Dismiss,
)


def is_ours(custom_id: str) -> bool:
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in ITEMS)


async def route_unlisted(interaction: discord.Interaction[Any], custom_id: str) -> None:
    """A click whose custom_id is ours but not on the message clicked (only a forged client sends
    one; discord.py drops it): answer it through the same checks as a real click."""
    for cls in ITEMS:
        match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            stand_in = discord.ui.Button[Any](custom_id=custom_id)
            item = await cls.from_custom_id(interaction, stand_in, match)
            await item.callback(interaction)
            return
