"""`/stats show [user]`, `/stats forget` and `/stats export`: one person's record, a person's
right to have theirs deleted, and the server's standings as a spreadsheet for its managers.

All three answer privately. Forgetting asks first, with a button only the asker has (the prompt
is ephemeral, and the button names them, so a forged click by anyone else is refused).
"""

from __future__ import annotations

import csv
import io
import logging
import re
import time
from datetime import UTC, datetime
from typing import Any

import discord

from cogs.boards.common import (
    READ_FAILED,
    Dismiss,
    acknowledge,
    answer,
    escaped,
    game_title,
    is_ephemeral,
    ordinal,
    plural,
    say,
    settle,
    win_rate,
)
from cogs.table.buttons import view_of
from cogs.table.common import NOT_SAVED, is_manager
from db.ratings import PROVISIONAL_GAMES
from db.standings import FORGOTTEN_NAME, ExportRow, GameRecord, Streak

log = logging.getLogger(__name__)

FORGET_ID = re.compile(r"fg:(?P<uid>\d{1,20}):(?P<at>\d{1,12})")
# A confirmation older than this is pressed again rather than trusted.
CONFIRM_SECONDS = 15 * 60


def streak_text(streak: Streak | None) -> str | None:
    if streak is None:
        return None
    if streak.won:
        return "won the last game" if streak.length == 1 else f"{streak.length} wins in a row"
    return "no win in the last game" if streak.length == 1 else f"{streak.length} games without a win"


def counts(games: int, wins: int) -> str:
    """ "6 games · 2 wins (33%)"; no rate for no games."""
    rate = f" ({win_rate(wins, games)})" if games else ""
    return f"{plural(games, 'game')} · {plural(wins, 'win')}{rate}"


def game_field(record: GameRecord) -> tuple[str, str]:
    name = f"{game_title(record.game)} — {record.rating}"
    lines = [f"Season {record.season}: {counts(record.games, record.wins)}"]
    if record.season > 1 or record.total_games != record.games:
        lines.append(f"All time: {counts(record.total_games, record.total_wins)}")
    rest = []
    if record.best_place is not None:
        times = f" ({record.best_times} times)" if record.best_times > 1 else ""
        rest.append(f"best finish {ordinal(record.best_place)}{times}")
    if (streak := streak_text(record.streak)) is not None:
        rest.append(streak)
    if rest:
        text = " · ".join(rest)
        lines.append(text[:1].upper() + text[1:])
    return name, "\n".join(lines)


def record_embed(who: discord.abc.User, records: list[GameRecord], own: bool) -> discord.Embed:
    name = "Your" if own else f"{escaped(who.display_name)}'s"
    embed = discord.Embed(title=f"{name} record in this server"[:256], colour=discord.Colour.blurple())
    if not records:
        embed.description = (
            "No finished games here yet." if own else "They have no finished games in this server yet."
        )
    for record in records:
        title, value = game_field(record)
        embed.add_field(name=title, value=value, inline=False)
    if any(r.rating.provisional for r in records):
        embed.set_footer(
            text=f"? = provisional: a rating settles after {PROVISIONAL_GAMES} games, "
            "sooner with steady results."
        )
    return embed


async def show(interaction: discord.Interaction[Any], user: discord.abc.User | None) -> None:
    """`/stats show`: a person's record per game, privately."""
    who = user or interaction.user
    assert interaction.guild_id is not None  # the command is guild-only
    try:
        records = await interaction.client.standings.record(interaction.guild_id, who.id)
    except Exception:
        log.exception("could not read a record")
        await say(interaction, READ_FAILED)
        return
    await answer(interaction, edit=False, embed=record_embed(who, records, who.id == interaction.user.id))


# --- forgetting -------------------------------------------------------------------------------


async def ask_to_forget(interaction: discord.Interaction[Any]) -> None:
    """`/stats forget`: say exactly what goes, then ask."""
    assert interaction.guild_id is not None
    try:
        known = await interaction.client.standings.has_record(interaction.guild_id, interaction.user.id)
    except Exception:
        log.exception("could not read a record to forget")
        await say(interaction, READ_FAILED)
        return
    if not known:
        await say(interaction, "You have no record in this server, so there's nothing to forget.")
        return
    text = (
        "**Forget your record in this server?**\n"
        "• Your standings in every game and every season, ratings included, are deleted.\n"
        f"• The finished games you played keep your seat, named “{FORGOTTEN_NAME}”: your name and "
        "account are taken off them, and nobody else's results change.\n"
        "• A game you are playing now still counts when it ends.\n"
        "• Messages already posted in the channels stay as they are.\n"
        "This can't be undone."
    )
    items: list[discord.ui.Item[Any]] = [
        ForgetConfirm(interaction.user.id, int(time.time())),
        Dismiss("keep", "Keep my record"),
    ]
    await answer(interaction, edit=False, content=text, view=view_of(items))


class ForgetConfirm(discord.ui.DynamicItem[discord.ui.Button[Any]], template=FORGET_ID.pattern):
    """**Forget me** under the question: the person it was asked of, and when."""

    def __init__(self, user_id: int, asked_at: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Forget me", style=discord.ButtonStyle.danger, custom_id=f"fg:{user_id}:{asked_at}"
            )
        )
        self.user_id, self.asked_at = user_id, asked_at

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ForgetConfirm:
        return cls(int(match["uid"]), int(match["at"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        edit = is_ephemeral(interaction)
        if interaction.user.id != self.user_id or interaction.guild_id is None:
            await say(
                interaction, "Only the person who asked can confirm this, so nothing changed.", edit=edit
            )
            return
        if time.time() - self.asked_at > CONFIRM_SECONDS:
            await say(
                interaction, "That question is old: use `/stats forget` again. Nothing changed.", edit=edit
            )
            return
        if not await acknowledge(interaction, edit=edit):
            return
        try:
            games = await interaction.client.standings.forget(interaction.guild_id, self.user_id)
        except Exception:
            log.exception("could not forget a person")
            await settle(interaction, NOT_SAVED, edit=edit)
            return
        log.info("forgot a person's record in guild %s (%d finished games)", interaction.guild_id, games)
        await settle(
            interaction,
            "Done: your standings in this server are deleted, and your name is off "
            f"{plural(games, 'finished game')}.",
            edit=edit,
        )


# --- export -----------------------------------------------------------------------------------

COLUMNS = (
    "game",
    "season",
    "place",
    "user_id",
    "name",
    "rating",
    "provisional",
    "season_games",
    "season_wins",
    "season_points",
    "all_time_games",
    "all_time_wins",
    "all_time_points",
    "mu",
    "sigma",
)


def cell(text: str) -> str:
    """A name as a spreadsheet cell that stays text: one starting with = + - @ (or a tab or
    carriage return) would run as a formula in Excel or LibreOffice, so it gets a leading '."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def export_csv(rows: list[ExportRow]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow(
            [
                r.game,
                r.season,
                "" if r.place is None else r.place,
                r.user_id,
                cell(r.name),
                r.rating.value,
                "yes" if r.rating.provisional else "no",
                r.games,
                r.wins,
                r.points,
                r.total_games,
                "" if r.total_wins is None else r.total_wins,
                "" if r.total_points is None else r.total_points,
                f"{r.mu:.4f}",
                f"{r.sigma:.4f}",
            ]
        )
    return out.getvalue().encode("utf-8-sig")  # the BOM makes Excel read the names as UTF-8


async def export(interaction: discord.Interaction[Any]) -> None:
    """`/stats export`: server managers get every standing here as a CSV file, privately."""
    assert interaction.guild_id is not None
    if not is_manager(interaction.user):
        await say(
            interaction, "Only server managers (Manage Server or Manage Channels) can export the standings."
        )
        return
    try:
        rows = await interaction.client.standings.export(interaction.guild_id)
    except Exception:
        log.exception("could not read the standings to export")
        await say(interaction, READ_FAILED)
        return
    if not rows:
        await say(interaction, "There are no standings in this server yet, so there's nothing to export.")
        return
    day = datetime.now(UTC).strftime("%Y-%m-%d")
    data = export_csv(rows)
    games = len({r.game for r in rows})
    file = discord.File(io.BytesIO(data), filename=f"standings-{interaction.guild_id}-{day}.csv")
    text = (
        f"The standings of this server: {plural(len(rows), 'row')} across {plural(games, 'game')}, "
        "current seasons first, then each archived one."
    )
    await answer(interaction, edit=False, content=text, file=file)
