"""GiftTRAP on Discord: `/gifttrap new|rules`, the public table and each player's gift panel.

Public (the table message, drawn from the spectator view): the gifts on the table, who is ready
(never what they chose), both tracks per player, the reveal as it happens, the pack buttons for
the dealer and the GiftTRAP buttons, open to every player all round. Private (the panel, drawn from
the seat's own view): the gift for each other player, the four tokens, Give More and Get More, and
Ready. Every rule is in rules/gifttrap/; the engine refuses what is not allowed and says why, as
data (a code and its details), and its events are data too: cogs/words/gifttrap.py words them all, in
the reader's language, through the ``gifttrap`` catalog (locales/); this cog draws with those words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from cogs.drawings import gifttrap_cards
from cogs.drawings.gifttrap_panel import GiftTrapPanel, fit, gift_text, state_of, token_line
from cogs.help import send_rules
from cogs.table.buttons import TableButton
from cogs.table.common import escape
from cogs.table.drawing import Announcement
from cogs.table.lifecycle import LANGUAGE_CHOICES, LANGUAGE_OPTION, open_table_command
from cogs.table.model import Table
from cogs.table.options import SPEED_CHOICES, speed_name
from cogs.table.pictures import Sketch
from cogs.texts import N_, Texts, signed
from cogs.words import gifttrap as words
from rules.base import Event, IllegalAction, Result
from rules.gifttrap import PRICES, TOKENS, GiftTrap, Token
from rules.gifttrap.views import GiftTrapView, LaidOutGift, RevealedGift, TokenPlaces

T = Texts(__name__)
GAME = GiftTrap()
# A private choice depends only on the chooser's own earlier choices, so a click from a panel drawn
# before someone else's move still means the same; the engine refuses what no longer fits.
# The dealer's pick and Next round are refused by the engine once done, so they qualify too.
VERSION_FREE = ("give-", "givemore-", "rank-", "unrank-", "getmore-", "ready", "pack-", "next")
NAME_WIDTH = 24
SPEED_HELP = {
    "off": N_("no hurry: the pack after 5 min, choosing 15 min, a gift unwrapped every 5 s"),
    "relaxed": N_("pack 1 min, choosing 3 min, a gift unwrapped every 4 s"),
    "fast": N_("pack 20 s, choosing 90 s, a gift unwrapped every 2.5 s"),
}


def gifts_sketch(
    filename: str,
    layout: Sequence[LaidOutGift],
    price: str,
    tokens: Mapping[Token, int] | None,
    trapped: Sequence[Mapping[str, Any]],
) -> Sketch:
    """The gifts on their spaces, with ``tokens`` (a seat's own, on its panel) on them and the
    GiftTRAPped ones crossed out. The key is what the picture shows: each gift's space and name,
    the pack's price, the tokens' places and the trapped spaces."""
    placed = dict(tokens or {})
    crossed = tuple(sorted({t["space"] for t in trapped}))
    # The words drawn, in the reader's language: made here, as the drawing may be done elsewhere.
    words = gifttrap_cards.picture_words()
    laid = gifttrap_cards.named(layout)
    key = (
        "gifttrap-gifts",
        tuple((g["space"], g["name"]) for g in laid),
        price,
        tuple(sorted(placed.items())),
        crossed,
        words["no_gifts"] if not layout else "",
    )
    return Sketch(
        filename,
        key,
        partial(gifttrap_cards.gifts_png, laid, price, placed, crossed, words),
        gifttrap_cards.gifts_alt(layout, price, placed, crossed),
    )


def reveal_sketch(table: Table, revealed: Sequence[RevealedGift], price: str) -> Sketch:
    """The latest unwrapped gifts, each labelled with who gave it to whom by the names the table
    shows (seat numbers mean nothing outside the lobby); the key holds those names, since the
    picture shows them."""
    latest = gifttrap_cards.named_reveals(revealed[-gifttrap_cards.REVEALS_SHOWN :])
    names = [table.plain_name(s.seat) for s in table.seats]
    # The words drawn, in the reader's language: made here, as the drawing may be done elsewhere.
    words = gifttrap_cards.picture_words(names)
    key = (
        "gifttrap-reveal",
        tuple(
            (r["space"], r["name"], names[r["giver"]], names[r["receiver"]], r["token"], r["trapped"])
            for r in latest
        ),
        price,
        (tuple(words["from_names"]), tuple(words["to_names"]), words["nothing"]),
    )
    return Sketch(
        "reveal.png",
        key,
        partial(gifttrap_cards.reveal_png, latest, price, names, words),
        gifttrap_cards.reveal_alt(revealed, names),
    )


class GiftTrapUI:
    key = GAME.key
    hand_emoji = "🎁"

    @property
    def hand_label(self) -> str:
        """The name of the button that opens a player's own panel."""
        return T.pgettext("button", "My gifts")

    @staticmethod
    def version_free(action: str) -> bool:
        """Everyone chooses at once: without this, every other player's click (and each computer's)
        would turn a person's select into "too slow" while the gifts are being chosen."""
        return action.startswith(VERSION_FREE)

    @staticmethod
    def epoch(table: Table) -> Any:
        # Gift numbers name different gifts next round: a click never carries into another round.
        return state_of(table).view(None)["round"]

    def __init__(self) -> None:
        self.panels = GiftTrapPanel()  # each seat's private panel, and the page it is on

    def options_lines(self, table: Table) -> list[str]:
        options = table.options
        speed = T.gettext(SPEED_HELP[table.speed]) if table.speed in SPEED_HELP else ""
        # Translators: GO, GIFTED, Give More, Get More and GiftTRAP are the game's own terms.
        cards_on = T.gettext("Strategy cards (Give More, Get More, GiftTRAP): on")
        cards_off = T.gettext("Strategy cards (Give More, Get More, GiftTRAP): off")
        return [
            T.gettext("Track: GO → GIFTED at {length}", length=options.track_length),
            cards_on if options.strategy_cards else cards_off,
            T.gettext("Speed: {speed} — {help}", speed=speed_name(table.speed), help=speed),
        ]

    # --- public table --------------------------------------------------------------------------

    def table_embed(self, table: Table) -> discord.Embed:
        """Kept under ~1,500 characters with eight players, for phones: the gifts, one line per
        player and what to do now. The unwraps are already in the referee's Latest lines; the
        whole round's unwraps and tokens are behind History."""
        view = state_of(table).view(None)
        phase = view["phase"]
        if view["price"] and phase == "over":
            title = T.gettext(
                "GiftTRAP — round {round} · the {price} pack — game over",
                round=view["round"],
                price=view["price"],
            )
        elif view["price"]:
            title = T.gettext(
                "GiftTRAP — round {round} · the {price} pack", round=view["round"], price=view["price"]
            )
        elif phase == "over":
            title = T.gettext("GiftTRAP — round {round} — game over", round=view["round"])
        else:
            title = T.gettext("GiftTRAP — round {round}", round=view["round"])
        embed = discord.Embed(
            title=title,
            colour=discord.Colour.dark_grey() if phase == "over" else discord.Colour.magenta(),
        )
        embed.description = self._status(table, view)[:4096]
        if view["layout"]:
            trapped = {t["space"] for t in view["trapped"]}
            lines = []
            for gift in view["layout"]:
                line = gift_text(gift)
                if gift["space"] in trapped:
                    # By whom: the Latest lines and History say.
                    line = T.gettext("{gift} — 🪤 GiftTRAPped", gift=line)
                lines.append(line)
            embed.add_field(
                name=T.gettext("Gifts on the table"), value=fit(lines, newest_last=False), inline=False
            )
        embed.add_field(
            name=T.gettext("Tracks (GIFTED at {length})", length=view["track_length"]),
            value=fit(self._track_lines(table, view), newest_last=False),
            inline=False,
        )
        if view["strategy_cards"]:
            footer = T.gettext("🪤 = a GiftTRAP card still to play")
        else:
            footer = T.gettext("Strategy cards are off at this table.")
        embed.set_footer(text=footer)
        return embed

    def table_sketches(self, table: Table) -> list[Sketch]:
        """The table's pictures, from the spectator view only: the round's gifts on their spaces
        (no one's tokens), and once the reveal starts, the gifts unwrapped so far with the token
        each met (public from the moment it is unwrapped)."""
        view = state_of(table).view(None)
        price = view["price"] or ""
        sketches = []
        if view["layout"]:
            sketches.append(gifts_sketch("gifts.png", view["layout"], price, None, view["trapped"]))
        if view["revealed"]:
            sketches.append(reveal_sketch(table, view["revealed"], price))
        return sketches

    def panel_sketches(self, table: Table, seat: int, nav: str | None = None) -> list[Sketch]:
        """A seat's panel: the gifts with its own tokens on them, from its own view only (what
        it has placed so far is its secret until its tokens are turned up)."""
        view = state_of(table).view(seat)
        if not view["layout"]:
            return []  # the dealer is still picking the pack: nothing to show yet
        price = view["price"] or ""
        return [gifts_sketch("your-gifts.png", view["layout"], price, view["my"]["ranks"], view["trapped"])]

    def history(self, table: Table) -> str:
        """The History button, on the table while playing and on the final table: the whole game,
        round by round: every gift unwrapped and every token turned up (all public once the
        reveal has shown them; drawn from the spectator view, whose ``history`` keeps the rounds
        played). A long one is sent as a file."""
        view = state_of(table).view(None)
        over = view["phase"] == "over"
        lines = [
            T.gettext("**GiftTRAP — the whole game**")
            if over
            else T.gettext("**GiftTRAP — the game so far**")
        ]
        for past in view["history"]:
            gifts = {g["space"]: g for g in past["layout"]}
            unwrapped = [{**gifts[r["space"]], **r} for r in past["revealed"]]
            lines += self._round_history(table, past, unwrapped, list(past["rankings"]))
            markers = " · ".join(
                T.gettext(
                    "**{name}** GET {get}, GIVE {give}",
                    name=s.name,
                    get=past["get_track"][s.seat],
                    give=past["give_track"][s.seat],
                )
                for s in table.seats
            )
            lines.append(
                T.gettext("Markers after round {round}: {markers}", round=past["round"], markers=markers)
            )
        if not view["history"] or view["history"][-1]["round"] != view["round"]:  # still being played
            lines += self._round_history(table, view, view["revealed"], view["rankings"])
        return "\n".join(lines)

    def _round_history(
        self,
        table: Table,
        round_: Mapping[str, Any],
        unwrapped: Sequence[Mapping[str, Any]],
        rankings: Sequence[Any],
    ) -> list[str]:
        """One round of History: its pack, its GiftTRAP cards, its unwraps and the tokens turned up."""
        price = PRICES.get(round_["pack"] or 0)
        if price:
            head = T.gettext(
                "**Round {round}** — **{dealer}** dealt the {price} pack",
                round=round_["round"],
                dealer=table.name(round_["dealer"]),
                price=price,
            )
        else:
            head = T.gettext("**Round {round}**", round=round_["round"])
        lines = ["", head]
        gifts = {g["space"]: g for g in round_["layout"]}
        lines += [
            T.gettext(
                "🪤 **{name}** played GiftTRAP on {gift}",
                name=table.name(t["seat"]),
                gift=gift_text(gifts[t["space"]]),
            )
            for t in round_["trapped"]
            if t["space"] in gifts
        ]
        lines += [words.gift_line(table, r) for r in unwrapped] or [
            T.gettext("Nothing has been unwrapped yet.")
        ]
        shown = [
            self._ranking_line(table, round_, seat, ranks) for seat, ranks in enumerate(rankings) if ranks
        ]
        if shown:
            lines.append(T.gettext("Tokens turned up:"))
            lines += shown
        return lines

    def _status(self, table: Table, view: GiftTrapView) -> str:
        phase = view["phase"]
        dealer = table.name(view["dealer"])
        if phase == "pack":
            fallback = PRICES.get(view["default_pack"] or 0, "?")
            return T.gettext(
                "**{dealer}** deals this round and picks a pack with the buttons below: "
                "$ (cheap) to $$$$ (lavish). If time runs out the referee picks {fallback}.",
                dealer=dealer,
                fallback=fallback,
            )
        if phase == "choosing":
            waiting = [table.name(s) for s, ready in enumerate(view["ready"]) if not ready]
            if len(waiting) == len(table.seats):
                who = T.gettext("everyone")
            else:
                who = ", ".join(waiting) or T.gettext("nobody")
            # Translators: GREAT, GOOD, OK and NO WAY are the game's tokens; Ready is the panel's button.
            text = T.ngettext(
                "{n} gift is on the table. In **{hand}**, give each other player one gift (never the same "
                "gift twice) and place GREAT, GOOD, OK and NO WAY on four different gifts, "
                "then press **Ready**.",
                "{n} gifts are on the table. In **{hand}**, give each other player one gift (never the same "
                "gift twice) and place GREAT, GOOD, OK and NO WAY on four different gifts, "
                "then press **Ready**.",
                len(view["layout"]),
                hand=self.hand_label,
            )
            return text + "\n" + T.gettext("Waiting for: {who}", who=who)
        if phase == "reveal":
            total = len(view["reveal_order"])
            done = view["reveal_next"]
            text = T.ngettext(
                "🎁 The reveal: {done} of {n} gift unwrapped, the dealer's first.",
                "🎁 The reveal: {done} of {n} gifts unwrapped, the dealer's first.",
                total,
                done=done,
            )
            if done < total:
                receiver, giver = view["reveal_order"][done]
                text += "\n" + T.gettext(
                    "Next: **{receiver}** unwraps the gift from **{giver}**.",
                    receiver=table.name(receiver),
                    giver=table.name(giver),
                )
            return text
        if phase == "between_rounds":
            return T.gettext(
                "Round {round} is over and nobody has both markers on GIFTED yet. "
                "Press **Next round** (or wait) for the next deal.",
                round=view["round"],
            )
        winners = ", ".join(f"**{table.name(s)}**" for s in view["winners"]) or T.gettext("nobody")
        return T.gettext("The game is over: {winners} reached GIFTED on both tracks.", winners=winners)

    def _track_lines(self, table: Table, view: GiftTrapView) -> list[str]:
        """One line per player: both markers, and what they are doing now."""
        lines = []
        for s in table.seats:
            i = s.seat
            tags = []
            if i == view["dealer"] and view["phase"] != "over":
                tags.append(T.pgettext("player", "dealer"))
            if view["phase"] == "choosing" and view["ready"][i]:
                tags.append(T.pgettext("player", "ready"))  # who is still choosing: the status line says
            if view["filled"][i]:
                tags.append(T.pgettext("player", "filled in"))
            if i in view["winners"]:
                tags.append(T.pgettext("player", "GIFTED!"))
            # A screen reader says "mouse trap", which explains nothing: the footer's legend puts
            # the words to it once ("🪤 = a GiftTRAP card still to play"), as a word on each of eight
            # players' lines would push the table past what a phone shows (test_table_sizes).
            card = " 🪤" if view["strategy_cards"] and not view["gifttrap_used"][i] else ""
            robot = " 🤖" if s.is_computer else ""
            get, give = view["get_track"][i], view["give_track"][i]
            line = T.gettext(
                "**{name}**{marks} — GET {get} · GIVE {give}",
                name=escape(s.plain_name[:NAME_WIDTH]),
                marks=robot + card,
                get=get,
                give=give,
            )
            if tags:
                line = T.gettext("{line} ({tags})", line=line, tags=", ".join(tags))
            lines.append(line)
        return lines

    def _ranking_line(self, table: Table, view: Mapping[str, Any], seat: int, ranks: TokenPlaces) -> str:
        gifts = {g["space"]: g for g in view["layout"]}
        parts = [token_line(t, gifts.get(ranks[t]), short=True) for t in TOKENS if t in ranks]
        return T.gettext("**{name}**: {tokens}", name=table.name(seat), tokens=" · ".join(parts))

    def waiting_on(self, table: Table) -> list[int] | None:
        """`/table status`: the dealer picks the pack, then whoever is not ready yet."""
        assert table.state is not None
        view = table.state.view(None)
        if view["phase"] == "pack":
            return [view["dealer"]]
        if view["phase"] == "choosing":
            return [s for s, ready in enumerate(view["ready"]) if not ready]
        return None

    def waiting_text(self, table: Table) -> str | None:
        assert table.state is not None
        phase = table.state.view(None)["phase"]
        if phase == "reveal":  # nobody has to act: the reveal paces itself
            return T.gettext("nobody: the referee unwraps the gifts one by one")
        if phase == "between_rounds":
            return T.gettext("anyone may press **Next round**; otherwise it starts shortly")
        return None

    def final_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        """The final table keeps History: the whole game stays one press away."""
        return [TableButton(table.id, "history", label=T.pgettext("button", "History"), emoji="📜", row=0)]

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        view = state_of(table).view(None)
        phase = view["phase"]
        items: list[discord.ui.Item[Any]] = [
            TableButton(table.id, "history", label=T.pgettext("button", "History"), emoji="📜", row=0)
        ]
        if phase == "pack":
            # Public buttons act on the current state; the engine refuses anyone but the dealer.
            for pack, price in sorted(PRICES.items()):
                items.append(
                    TableButton(
                        table.id,
                        "act",
                        f"pack-{pack}",
                        label=T.pgettext("button", "{price} pack", price=price),
                        style=discord.ButtonStyle.primary,
                        row=1,
                    )
                )
        elif phase in ("choosing", "reveal") and view["strategy_cards"] and not all(view["gifttrap_used"]):
            # Open to every player all round, reveal included; the engine refuses a second card.
            trapped = {t["space"] for t in view["trapped"]}
            for i, gift in enumerate(view["layout"][:10]):
                items.append(
                    TableButton(
                        table.id,
                        "act",
                        f"gifttrap-{gift['space']}",
                        # Translators: a button: play the GiftTRAP card (the game's own term) on gift N.
                        label=T.pgettext("button", "GiftTRAP {space}", space=gift["space"]),
                        emoji="🪤",
                        style=discord.ButtonStyle.danger,
                        disabled=gift["space"] in trapped,
                        row=1 + i // 5,
                    )
                )
        elif phase == "between_rounds":
            items.append(
                TableButton(
                    table.id,
                    "act",
                    "next",
                    label=T.pgettext("button", "Next round"),
                    emoji="▶️",
                    style=discord.ButtonStyle.success,
                    row=1,
                )
            )
        return items

    # --- the words of what happened (events, refusals, the result, actions): cogs/words/gifttrap.py

    def event_line(self, table: Table, event: Event) -> str:
        return words.event_line(table, event)

    def result_text(self, result: Result) -> str:
        return words.result_text(result)

    def refusal(self, table: Table, error: IllegalAction) -> str:
        return words.refusal(table, error)

    def describe(self, table: Table, action: str) -> str:
        return words.describe(table, action)

    def announcements(self, table: Table, events: list[Event]) -> list[Announcement]:
        """Ping people when something is theirs to do: the dealer's pick, then everyone's choosing
        (computers' seats are not told: cogs/table/pings.py)."""
        out: list[Announcement] = []
        for event in events:
            if event.kind == "round_start":
                text = T.gettext(
                    "you deal round {round}: pick a pack with the buttons on the table.",
                    round=event.data["round"],
                )
                out.append(Announcement(text, (event.data["dealer"],)))
            elif event.kind == "pack":
                text = T.gettext(
                    "the gifts for round {round} are on the table: choose your gifts "
                    "and tokens in **{hand}** 🎁",
                    round=event.data["round"],
                    hand=self.hand_label,
                )
                out.append(Announcement(text, tuple(s.seat for s in table.seats)))
            elif event.kind == "filled":
                out.append(
                    Announcement(
                        T.gettext(
                            "⏰ Time is up for **{name}**: the referee filled in the rest of their choices.",
                            name=table.name(event.data["seat"]),
                        )
                    )
                )
        return out

    def round_embed(self, table: Table, event: Event) -> discord.Embed | None:
        view = state_of(table).view(None)
        if view["phase"] == "over":
            return None  # the final results follow at once
        moved_get = [0] * len(table.seats)
        moved_give = [0] * len(table.seats)
        for record in view["revealed"]:
            moved_get[record["receiver"]] += record["receiver_moved"]
            moved_give[record["giver"]] += record["giver_moved"]
        lines = []
        for s in table.seats:
            i = s.seat
            lines.append(
                T.gettext(
                    "**{name}** — GET {get} ({got}) · GIVE {give} ({gave})",
                    name=s.name,
                    get=view["get_track"][i],
                    got=signed(moved_get[i]),
                    give=view["give_track"][i],
                    gave=signed(moved_give[i]),
                )
            )
        embed = discord.Embed(
            title=T.gettext("GiftTRAP — round {round} over", round=event.data.get("round", view["round"])),
            description=fit(lines, 4096, newest_last=False),
            colour=discord.Colour.orange(),
        )
        embed.set_footer(
            text=T.gettext(
                "Both markers on GIFTED ({length}) at a round's end wins.", length=view["track_length"]
            )
        )
        return embed

    def final_embed(self, table: Table) -> discord.Embed:
        state = state_of(table)
        view = state.view(None)
        result = state.result()
        assert result is not None
        self.panels.forget(table.id)
        winners = [table.name(s) for s in result.winners]
        title = T.ngettext(
            "GiftTRAP — {winners} wins",
            "GiftTRAP — {winners} share the win",
            len(winners),
            winners=", ".join(winners),
        )
        embed = discord.Embed(title=title[:256], colour=discord.Colour.gold())
        lines = []
        for p in sorted(result.placements, key=lambda p: (p.place, p.seat)):
            # The place as a number too: "trophy" or "second place medal" is all a screen reader says.
            medal = {1: "🏆 1.", 2: "🥈 2.", 3: "🥉 3."}.get(p.place, f"{p.place}.")
            lines.append(
                T.gettext(
                    "{medal} **{name}** — GET {get} · GIVE {give}",
                    medal=medal,
                    name=table.name(p.seat),
                    get=view["get_track"][p.seat],
                    give=view["give_track"][p.seat],
                )
            )
        embed.description = self.result_text(result) + "\n\n" + "\n".join(lines)
        embed.set_footer(
            text=T.ngettext(
                "{n} round played. Results are on /leaderboard. Rematch below.",
                "{n} rounds played. Results are on /leaderboard. Rematch below.",
                view["round"],
            )
        )
        return embed

    # --- private panel -------------------------------------------------------------------------

    def panel(
        self, table: Table, seat: int, note: str | None, nav: str | None = None
    ) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        return self.panels.panel(table, seat, note, nav)


class GiftTrapCog(commands.Cog):
    gifttrap = app_commands.Group(
        # Translators: the /gifttrap command's name (lowercase, no spaces).
        name=locale_str("gifttrap"),
        description=locale_str("GiftTRAP: secret giving and getting"),
        guild_only=True,
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        bot.referee.register(GiftTrapUI())

    @gifttrap.command(name=locale_str("new"), description=locale_str("Open a GiftTRAP table in this channel"))
    # Translators: a slash command option's name: lowercase letters, digits, - or _, no spaces.
    @app_commands.rename(
        seats=locale_str("seats"),
        track_length=locale_str("track_length"),
        strategy_cards=locale_str("strategy_cards"),
        speed=locale_str("speed"),
        thread=locale_str("thread"),
    )
    @app_commands.describe(
        seats=locale_str("How many seats (3–8)"),
        track_length=locale_str(
            "Where GIFTED is on both tracks (5–60, default 20; shorter is a quicker game)"
        ),
        strategy_cards=locale_str("Play with Give More, Get More and GiftTRAP (default on)"),
        speed=locale_str("Timers: relaxed, fast or off"),
        thread=locale_str("Play in a new thread"),
        language=LANGUAGE_OPTION,
    )
    @app_commands.choices(speed=SPEED_CHOICES, language=LANGUAGE_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 3, 8] = 4,
        track_length: app_commands.Range[int, 5, 60] = 20,
        strategy_cards: bool = True,
        speed: str = "relaxed",
        thread: bool = False,
        language: str | None = None,
    ) -> None:
        await open_table_command(
            interaction,
            GAME.key,
            seats=seats,
            speed=speed,
            rules={"track_length": track_length, "strategy_cards": strategy_cards},
            thread=thread,
            language=language,
        )

    @gifttrap.command(
        name=locale_str("rules"),
        description=locale_str("How to play GiftTRAP, and the house rulings in force"),
    )
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, GAME)


async def setup(bot: Any) -> None:
    await bot.add_cog(GiftTrapCog(bot))
