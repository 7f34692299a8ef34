"""`/leaderboard game:<game> [season:<n>]`: a season's standings, a page at a time.

The command answers in the channel with the first page, short enough for a phone, plus the
asker's own row when they are further down. Its ◀ ▶ buttons carry the game, the season and the
page to show; pressing one answers the presser privately (their own row included), and the
buttons on that private page turn it in place. So the public message never changes under anyone,
and browsing costs no message in the channel.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from cogs.boards.common import NO_PINGS, READ_FAILED, answer, escaped, game_title, is_ephemeral, say
from cogs.table.buttons import view_of
from cogs.table.languages import Spoken
from cogs.texts import Texts
from db.ratings import PROVISIONAL_GAMES
from db.standings import BoardPage as Page
from db.standings import SeasonInfo, Standing
from rules import GAMES

log = logging.getLogger(__name__)
T = Texts(__name__)

PER_PAGE = 10
PAGE_ID = re.compile(r"lb:(?P<game>[a-z0-9]{1,16}):(?P<season>\d{1,6}):(?P<page>\d{1,6}):(?P<dir>[pn])")


def _when(moment: Any) -> str:
    return f"<t:{int(moment.timestamp())}:D>"


def season_line(info: SeasonInfo) -> str:
    """ "**Season 2** · since 3 March 2026"; an archived one with its dates."""
    if info.archived:
        if info.started_at and info.ended_at:
            return T.gettext(
                "**Season {season}** (archived) · {start} – {end}",
                season=info.number,
                start=_when(info.started_at),
                end=_when(info.ended_at),
            )
        return T.gettext("**Season {season}** (archived)", season=info.number)
    if info.started_at:
        return T.gettext(
            "**Season {season}** · since {start}", season=info.number, start=_when(info.started_at)
        )
    return T.gettext("**Season {season}**", season=info.number)


def row_text(row: Standing) -> str:
    return T.gettext(
        "{place}. **{name}** {rating} · {games} · {wins}",
        place=row.place,
        name=escaped(row.name),
        rating=row.rating,
        games=T.ngettext("{n} game", "{n} games", row.games),
        wins=T.ngettext("{n} win", "{n} wins", row.wins),
    )


def draw(page: Page, *, private: bool) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
    """The page. The asker's own row, when it is not on the page, comes under it: after a "⋯"
    in the channel (where "You" would read as whoever looks), as "You:" on a private page."""
    title = game_title(page.game)
    embed = discord.Embed(title=T.gettext("{game} — leaderboard", game=title), colour=discord.Colour.gold())
    lines = [season_line(page.season), ""]
    if not page.rows:
        if page.season.archived:
            lines.append(T.gettext("Nobody finished a game in this season."))
        else:
            lines.append(
                T.gettext("No finished games this season yet. Start one with `/{game} new`.", game=page.game)
            )
    provisional_from = next((i for i, r in enumerate(page.rows) if r.rating.provisional), None)
    for i, row in enumerate(page.rows):
        if i == provisional_from:
            lines.append(
                T.ngettext(
                    "*Still provisional (under {n} game):*",
                    "*Still provisional (under {n} games):*",
                    PROVISIONAL_GAMES,
                )
            )
        lines.append(row_text(row))
    if page.rows and (page.mine is None or page.mine not in page.rows):
        if page.mine is not None:
            mine = row_text(page.mine)
            lines += [T.gettext("You: {row}", row=mine)] if private else ["⋯", mine]
        elif private:
            none = (
                T.gettext("You: no games in this season.")
                if page.season.archived
                else T.gettext("You: no games in this season yet.")
            )
            lines += ["", none]
    embed.description = "\n".join(lines)
    footer = [T.gettext("Page {page} of {pages}", page=page.page, pages=page.pages)] if page.pages > 1 else []
    footer.append(T.ngettext("{n} player", "{n} players", page.total))
    if any(r.rating.provisional for r in [*page.rows, *([page.mine] if page.mine else [])]):
        footer.append(T.gettext("? = provisional"))
    if page.season.current > 1:
        last = page.season.current - 1
        if last > 1:
            footer.append(T.gettext("Earlier seasons: season:1 to season:{last}", last=last))
        else:
            footer.append(T.gettext("Earlier seasons: season:1"))
    embed.set_footer(text=" · ".join(footer))
    items: list[discord.ui.Item[Any]] = []
    if page.pages > 1:
        key, season = page.game, page.season.number
        items = [
            BoardPage(key, season, page.page - 1, "p", disabled=page.page <= 1),
            BoardPage(key, season, page.page + 1, "n", disabled=page.page >= page.pages),
        ]
    return embed, items


async def read(interaction: discord.Interaction[Any], game: str, season: int | None, page: int) -> Page | str:
    """The page, or what to tell the person instead."""
    guild_id = interaction.guild_id
    if guild_id is None:
        return T.gettext("Leaderboards belong to a server: ask in one of its channels.")
    standings = interaction.client.standings
    try:
        try:
            found: Page = await standings.board(guild_id, game, season, page, PER_PAGE, interaction.user.id)
            return found
        except ValueError:
            current = await standings.seasons(guild_id, game)
            if current == 1:
                return T.gettext(
                    "{game} has had only season 1 in this server, so there's no season {season} to show.",
                    game=game_title(game),
                    season=season,
                )
            return T.gettext(
                "{game} has had seasons 1 to {current} in this server, "
                "so there's no season {season} to show.",
                game=game_title(game),
                current=current,
                season=season,
            )
    except Exception:
        log.exception("could not read the %s leaderboard", game)
        return T.gettext(READ_FAILED)


async def send_board(interaction: discord.Interaction[Any], game: str, season: int | None) -> None:
    """The slash command: the first page, in the channel (a refusal privately)."""
    found = await read(interaction, game, season, 1)
    if isinstance(found, str):
        await say(interaction, found)
        return
    embed, items = draw(found, private=False)
    try:
        await interaction.response.send_message(embed=embed, view=view_of(items), allowed_mentions=NO_PINGS)
    except (discord.HTTPException, OSError) as error:
        log.info("could not post the %s leaderboard: %s", game, error)


class BoardPage(Spoken, discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE_ID.pattern):
    """◀ or ▶ under a leaderboard: the page it leads to, for whoever presses it."""

    def __init__(self, game: str, season: int, page: int, direction: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                emoji="◀️" if direction == "p" else "▶️",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"lb:{game}:{season}:{max(page, 1)}:{direction}",
            )
        )
        self.game, self.season, self.page = game, season, max(page, 1)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BoardPage:
        return cls(match["game"], int(match["season"]), int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        edit = is_ephemeral(interaction)
        if self.game not in GAMES:  # only a forged button names a game we don't have
            await say(
                interaction,
                T.gettext("That leaderboard doesn't exist, so there's nothing to show."),
                edit=edit,
            )
            return
        found = await read(interaction, self.game, self.season, self.page)
        if isinstance(found, str):
            await say(interaction, found, edit=edit)
            return
        embed, items = draw(found, private=True)
        await answer(interaction, edit=edit, embed=embed, view=view_of(items))
