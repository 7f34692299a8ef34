"""`/history [user] [game]`: a person's recent finished games here, a few at a time.

Each entry says when, which game, their place, who else played and what it did to their rating,
links to the game's final table message while that message exists, and the page's select offers
each game as a replay. ◀ ▶ carry the person, the game filter and the page, and turn the private
page in place.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from cogs.boards import replay
from cogs.boards.common import READ_FAILED, answer, escaped, game_title, is_ephemeral, say
from cogs.table.buttons import payload, view_of
from cogs.table.languages import Spoken
from cogs.table.model import shown_name
from cogs.texts import Texts, ordinal
from db.ratings import change_text
from db.standings import HistoryEntry, Opponent
from rules import GAMES

log = logging.getLogger(__name__)
T = Texts(__name__)

PER_PAGE = 5
PAGE_ID = re.compile(r"hi:(?P<uid>\d{1,20}):(?P<game>[a-z0-9]{1,16}):(?P<page>\d{1,6}):(?P<dir>[pn])")
PICK_ID = re.compile(r"hr:(?P<uid>\d{1,20})")
ALL = "all"
SHOWN_OPPONENTS = 5


def opponent(o: Opponent) -> str:
    given = shown_name(o.name, o.user_id, o.computer_level)  # a computer's, or a forgotten seat's
    name = escaped(given) if given is not None else escaped(o.name)
    if o.computer_level is None:
        return name
    if o.user_id is None:
        return f"{name} 🤖"  # a computer seat, named by the lobby ("Robo 1 (casual)")
    return T.gettext("{name} (left)", name=escaped(o.name))  # a computer took over when this person left


def entry_lines(entry: HistoryEntry, guild_id: int) -> list[str]:
    title = f"**#{entry.game_id} {game_title(entry.game)}** · <t:{int(entry.finished_at.timestamp())}:R>"
    place = T.gettext("left the game (rated last)") if entry.left else finish(entry)
    parts = [place]
    if entry.before is not None and entry.after is not None:
        parts.append(f"{entry.after} ({change_text(entry.before, entry.after)})")
    others = [opponent(o) for o in entry.others[:SHOWN_OPPONENTS]]
    if len(entry.others) > SHOWN_OPPONENTS:
        others.append(T.ngettext("{n} more", "{n} more", len(entry.others) - SHOWN_OPPONENTS))
    if others:
        parts.append(T.gettext("with {names}", names=", ".join(others)))
    lines = [title, " · ".join(parts)]
    if entry.message_id is not None:
        link = f"https://discord.com/channels/{guild_id}/{entry.channel_id}/{entry.message_id}"
        lines.append(T.gettext("[Final table]({link})", link=link))
    return lines


def finish(entry: HistoryEntry) -> str:
    """ "2nd of 4", "shared 1st of 3", "a draw"."""
    if entry.draw:
        return T.gettext("a draw")
    if entry.shared:
        return T.gettext("shared {place} of {players}", place=ordinal(entry.place), players=entry.players)
    return T.gettext("{place} of {players}", place=ordinal(entry.place), players=entry.players)


def draw(
    who: str,
    own: bool,
    entries: list[HistoryEntry],
    page: int,
    pages: int,
    user_id: int,
    game: str,
    guild_id: int,
) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
    if game == ALL:
        title = T.gettext("Your recent games") if own else T.gettext("{name}'s recent games", name=who)
    elif own:
        title = T.gettext("Your recent {game} games", game=game_title(game))
    else:
        title = T.gettext("{name}'s recent {game} games", name=who, game=game_title(game))
    embed = discord.Embed(title=title[:256], colour=discord.Colour.blurple())
    if not entries:
        embed.description = (
            T.gettext("No finished games here yet. Play one and it shows up here.")
            if own
            else T.gettext("No finished games here yet.")
        )
    else:
        embed.description = "\n\n".join("\n".join(entry_lines(e, guild_id)) for e in entries)
        embed.set_footer(
            text=T.gettext(
                "Page {page} of {pages} · pick a game below to watch it again", page=page, pages=pages
            )
        )
    items: list[discord.ui.Item[Any]] = []
    if entries:
        items.append(ReplayPick(user_id, entries))
    if pages > 1:
        items += [
            HistoryPage(user_id, game, page - 1, "p", disabled=page <= 1),
            HistoryPage(user_id, game, page + 1, "n", disabled=page >= pages),
        ]
    return embed, items


async def send_page(
    interaction: discord.Interaction[Any],
    user_id: int,
    name: str | None,
    game: str,
    page: int,
    *,
    edit: bool,
) -> None:
    guild_id = interaction.guild_id
    if guild_id is None:
        await say(
            interaction,
            T.gettext("Match history belongs to a server: ask in one of its channels."),
            edit=edit,
        )
        return
    try:
        entries, page, pages = await interaction.client.standings.history(
            guild_id, user_id, None if game == ALL else game, page, PER_PAGE
        )
    except Exception:
        log.exception("could not read a history")
        await say(interaction, T.gettext(READ_FAILED), edit=edit)
        return
    own = user_id == interaction.user.id
    if name is None:  # a page button: the name the server shows, else the one they played under
        member = interaction.guild.get_member(user_id) if interaction.guild is not None else None
        if member is not None:
            name = member.display_name
        else:
            try:
                name = await interaction.client.standings.name_of(guild_id, user_id)
            except Exception:
                log.warning("could not read a player's name", exc_info=True)
            name = name or T.gettext("A player")
    embed, items = draw(escaped(name), own, entries, page, pages, user_id, game, guild_id)
    await answer(interaction, edit=edit, embed=embed, view=view_of(items))


class HistoryPage(Spoken, discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE_ID.pattern):
    """◀ or ▶ under a history: whose, which game (or all), and the page it leads to."""

    def __init__(self, user_id: int, game: str, page: int, direction: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                emoji="◀️" if direction == "p" else "▶️",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                row=1,
                custom_id=f"hi:{user_id}:{game}:{max(page, 1)}:{direction}",
            )
        )
        self.user_id, self.game, self.page = user_id, game, max(page, 1)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HistoryPage:
        return cls(int(match["uid"]), match["game"], int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        edit = is_ephemeral(interaction)
        if self.game != ALL and self.game not in GAMES:  # only a forged button names one
            await say(
                interaction, T.gettext("That history doesn't exist, so there's nothing to show."), edit=edit
            )
            return
        await send_page(interaction, self.user_id, None, self.game, self.page, edit=edit)


class ReplayPick(Spoken, discord.ui.DynamicItem[discord.ui.Select[Any]], template=PICK_ID.pattern):
    """ "Watch a replay…": one option per game on the page; the value is the game's number."""

    def __init__(self, user_id: int, entries: list[HistoryEntry] | None = None) -> None:
        options = [
            discord.SelectOption(
                label=f"#{e.game_id} {game_title(e.game)}"[:100],
                description=T.pgettext("history", "left") if e.left else finish(e),
                value=str(e.game_id),
                emoji="📼",
            )
            for e in entries or []
        ] or [discord.SelectOption(label="—", value="0")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"hr:{user_id}",
                placeholder=T.gettext("Watch a replay…"),
                options=options[:25],
                row=0,
            )
        )
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayPick:
        return cls(int(match["uid"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = payload(interaction).get("values") or [""]
        chosen = str(values[0])
        if not chosen.isdigit() or len(chosen) > 18:
            await say(interaction, T.gettext("That isn't a game I can replay, so nothing happened."))
            return
        # A new private message: the history page stays where it was.
        await replay.show(interaction, int(chosen), 0, edit=False)
