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
    confirmation_age,
    escaped,
    game_title,
    is_ephemeral,
    say,
    settle,
    win_rate,
)
from cogs.table.buttons import view_of
from cogs.table.common import NOT_SAVED, is_manager
from cogs.table.languages import Spoken
from cogs.table.rendered import Upload
from cogs.texts import Texts, ordinal
from db.ratings import PROVISIONAL_GAMES
from db.standings import ExportRow, GameRecord, Streak

log = logging.getLogger(__name__)
T = Texts(__name__)

FORGET_ID = re.compile(r"fg:(?P<uid>\d{1,20}):(?P<at>\d{1,12})")


def streak_text(streak: Streak | None) -> str | None:
    if streak is None:
        return None
    if streak.won:
        if streak.length == 1:
            return T.gettext("won the last game")
        return T.ngettext("{n} win in a row", "{n} wins in a row", streak.length)
    if streak.length == 1:
        return T.gettext("no win in the last game")
    return T.ngettext("{n} game without a win", "{n} games without a win", streak.length)


def counts(games: int, wins: int) -> str:
    """ "6 games · 2 wins (33%)"; no rate for no games."""
    played = T.ngettext("{n} game", "{n} games", games)
    won = T.ngettext("{n} win", "{n} wins", wins)
    if not games:
        return T.gettext("{games} · {wins}", games=played, wins=won)
    return T.gettext("{games} · {wins} ({rate})", games=played, wins=won, rate=win_rate(wins, games))


def game_field(record: GameRecord) -> tuple[str, str]:
    name = T.gettext("{game} — {rating}", game=game_title(record.game), rating=record.rating)
    lines = [
        T.gettext("Season {season}: {counts}", season=record.season, counts=counts(record.games, record.wins))
    ]
    if record.season > 1 or record.total_games != record.games:
        lines.append(T.gettext("All time: {counts}", counts=counts(record.total_games, record.total_wins)))
    rest = []
    if record.best_place is not None:
        place = ordinal(record.best_place)
        if record.best_times > 1:
            rest.append(
                T.gettext("best finish {place} ({times} times)", place=place, times=record.best_times)
            )
        else:
            rest.append(T.gettext("best finish {place}", place=place))
    if (streak := streak_text(record.streak)) is not None:
        rest.append(streak)
    if rest:
        text = " · ".join(rest)
        lines.append(text[:1].upper() + text[1:])
    return name, "\n".join(lines)


def record_embed(who: discord.abc.User, records: list[GameRecord], own: bool) -> discord.Embed:
    if own:
        title = T.gettext("Your record in this server")
    else:
        title = T.gettext("{name}'s record in this server", name=escaped(who.display_name))
    embed = discord.Embed(title=title[:256], colour=discord.Colour.blurple())
    if not records:
        embed.description = (
            T.gettext("No finished games here yet.")
            if own
            else T.gettext("They have no finished games in this server yet.")
        )
    for record in records:
        title, value = game_field(record)
        embed.add_field(name=title, value=value, inline=False)
    if any(r.rating.provisional for r in records):
        embed.set_footer(
            text=T.ngettext(
                "? = provisional: a rating settles after {n} game, sooner with steady results.",
                "? = provisional: a rating settles after {n} games, sooner with steady results.",
                PROVISIONAL_GAMES,
            )
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
        await say(interaction, T.gettext(READ_FAILED))
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
        await say(interaction, T.gettext(READ_FAILED))
        return
    # Their own language (`/settings my-language`) is theirs to have forgotten too, record or not.
    chosen = interaction.client.referee.languages.people.get(interaction.user.id)
    if not known and chosen is None:
        await say(interaction, T.gettext("You have no record in this server, so there's nothing to forget."))
        return
    text = T.gettext(
        "**Forget your record in this server?**\n"
        "• Your standings in every game and every season, ratings included, are deleted.\n"
        "• The finished games you played keep your seat, named “{forgotten}”: your name and "
        "account are taken off them, and nobody else's results change.\n"
        "• A game you are playing now still counts when it ends, and you are forgotten then.\n"
        "• Messages already posted in the channels stay as they are.\n"
        "This can't be undone.",
        forgotten=T.gettext("former player"),
    )
    if chosen is not None:
        text += "\n" + T.gettext(
            "Your own language for the referee (`/settings my-language`) is forgotten too, in every server."
        )
    items: list[discord.ui.Item[Any]] = [
        ForgetConfirm(interaction.user.id, int(time.time())),
        Dismiss("keep", T.pgettext("button", "Keep my record")),
    ]
    await answer(interaction, edit=False, content=text, view=view_of(items))


class ForgetConfirm(Spoken, discord.ui.DynamicItem[discord.ui.Button[Any]], template=FORGET_ID.pattern):
    """**Forget me** under the question: the person it was asked of, and when."""

    def __init__(self, user_id: int, asked_at: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=T.pgettext("button", "Forget me"),
                style=discord.ButtonStyle.danger,
                custom_id=f"fg:{user_id}:{asked_at}",
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
                interaction,
                T.gettext("Only the person who asked can confirm this, so nothing changed."),
                edit=edit,
            )
            return
        age = confirmation_age(self.asked_at, time.time())
        if age == "forged":
            await say(
                interaction, T.gettext("That confirmation isn't one I sent, so nothing changed."), edit=edit
            )
            return
        if age == "old":
            await say(
                interaction,
                T.gettext("That question is old: use `/stats forget` again. Nothing changed."),
                edit=edit,
            )
            return
        if not await acknowledge(interaction, edit=edit):
            return
        try:
            done = await interaction.client.standings.forget(interaction.guild_id, self.user_id)
        except Exception:
            log.exception("could not forget a person")
            await settle(interaction, T.gettext(NOT_SAVED), edit=edit)
            return
        if done.waiting_for:
            log.info("a person in guild %s is forgotten when their game ends", interaction.guild_id)
            await settle(
                interaction,
                T.ngettext(
                    "Noted: you're playing a game here now, so it still counts your rating as it is. "
                    "You'll be forgotten the moment it ends; nothing else is needed from you.",
                    "Noted: you're playing {n} games here now, so they still count your rating as it "
                    "is. You'll be forgotten the moment the last of them ends; nothing else is needed "
                    "from you.",
                    done.waiting_for,
                ),
                edit=edit,
            )
            return
        # The ended tables this process still holds (History, Rematch) no longer name them.
        interaction.client.referee.spine.person_forgotten(interaction.guild_id, self.user_id)
        log.info("forgot a person's record in guild %s (%d finished games)", interaction.guild_id, done.games)
        await settle(
            interaction,
            T.ngettext(
                "Done: your standings in this server are deleted, and your name is off {n} finished game.",
                "Done: your standings in this server are deleted, and your name is off {n} finished games.",
                done.games,
            ),
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
                "yes" if r.rating.provisional else "no",  # text: a CSV value, read by programs
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
            interaction,
            T.gettext("Only server managers (Manage Server or Manage Channels) can export the standings."),
        )
        return
    try:
        rows = await interaction.client.standings.export(interaction.guild_id)
    except Exception:
        log.exception("could not read the standings to export")
        await say(interaction, T.gettext(READ_FAILED))
        return
    if not rows:
        await say(
            interaction, T.gettext("There are no standings in this server yet, so there's nothing to export.")
        )
        return
    day = datetime.now(UTC).strftime("%Y-%m-%d")
    data = export_csv(rows)
    games = len({r.game for r in rows})
    file = Upload(data, f"standings-{interaction.guild_id}-{day}.csv")
    text = T.gettext(
        "The standings of this server: {rows} across {games}, current seasons first, then each archived one.",
        rows=T.ngettext("{n} row", "{n} rows", len(rows)),
        games=T.ngettext("{n} game", "{n} games", games),
    )
    await answer(interaction, edit=False, content=text, file=file)
