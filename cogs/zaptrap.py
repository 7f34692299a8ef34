"""Zap or Trap on Discord: `/zaptrap new|rules`, the public table and each player's private panel.

Public (the table message, drawn from the spectator view): the four face-up cards, deck size,
dealer, scores, who has chosen a signal (never which), recent gestures and the gesture palette any
player may press. Private (the panel, drawn from the seat's own view and legal actions): the
hand with its best set, the secret signal choice, the signal the seat watches for, the swaps (one
select of "Give X · take Y"), ZAP, TRAP and the dealer's Deal;
drawn by cogs/drawings/zaptrap_panel.py.

Words (cogs/words/zaptrap.py): what happened, what the engine refused and how the game ended; the
UI's ``event_line`` and ``refusal`` hand them there.

Pictures (cogs/drawings/zaptrap_cards.py, drawn off the event loop by the shared table through
``table_sketches``/``panel_sketches``): the face-up cards on the table, from the spectator view;
on a panel the seat's hand, its swappable cards marked, and the face-up cards under it. Each
picture's alt text names every card it shows.

Secret signals are written out (emoji and name) only on the panels of the seats the engine's view
allows, and in the final summary once the game is over. Gestures on the public table are emoji.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from cogs.drawings import zaptrap_cards
from cogs.drawings.zaptrap_panel import RECENT_GESTURES, ZapTrapPanel, state_of
from cogs.drawings.zaptrap_words import card_label, set_text
from cogs.help import send_rules
from cogs.table.buttons import TableButton
from cogs.table.lifecycle import LANGUAGE_CHOICES, LANGUAGE_OPTION, open_table_command
from cogs.table.model import Table
from cogs.table.options import SPEED_CHOICES
from cogs.table.pictures import Sketch
from cogs.texts import N_, Texts, number
from cogs.words import zaptrap as words
from cogs.words.zaptrap import (
    between_text,
    gesture_name,
    result_summary,
    score_line,
    side_name,
    side_seats,
    signal_text,
)
from rules.base import Event, IllegalAction
from rules.zaptrap import GESTURES, ZapOrTrap, ZapTrapView
from rules.zaptrap.scoring import WRONG_TARGET_PENALTY
from rules.zaptrap.views import SetView

T = Texts(__name__)
GAME = ZapOrTrap()
# One gesture per player every few seconds: enough to signal and bluff, not enough to flood the table.
GESTURE_COOLDOWN = 3.0
SPEED_HELP = {
    "off": N_("no quick timers (signals close after 3 min, lull deal after 60 s)"),
    "relaxed": N_("signals 45 s, lull deal after 10 s of quiet"),
    "fast": N_("signals 25 s, lull deal after 6 s of quiet"),
}
# Translators: the table speeds, as /zaptrap new offers them.
SPEED_NAMES = {"off": N_("off"), "relaxed": N_("relaxed"), "fast": N_("fast")}
TABLE_FILE = "zaptrap-table.png"
HAND_FILE = "zaptrap-hand.png"
# The clock's words for this game's timers, short: the clock is a line of a phone's panel (issue
# 33). A swap restarts the lull's countdown, as the table's clock shows.
CLOCK_TEXT = {"lull": N_("new cards"), "lull_fallback": N_("new cards"), "signals": N_("signals close")}
# Whether a side has chosen its signal, in words as well as the mark (a screen reader says
# "check mark button", and the marks differ only a little to a colour-blind eye).
READY_MARK = {True: N_("✅ chosen: {side}"), False: N_("⏳ choosing: {side}")}


def table_sketch(view: ZapTrapView) -> Sketch | None:
    """The face-up cards as one picture, from whatever view is given (the spectator's on the
    table): a thumbnail beside the title for a single card, a gallery picture for several."""
    cards = tuple(view["table"])
    if not cards:
        return None
    preset, species = view["preset"], int(view["species"])
    # The words on the cards, in the reader's language: made here, as the drawing may be done in a
    # worker process; the key holds them, since the picture shows them.
    words = zaptrap_cards.captions(cards, preset, species)
    return Sketch(
        TABLE_FILE,
        ("zaptrap-table", preset, species, cards, tuple(sorted(words.items()))),
        partial(zaptrap_cards.face_up_png, cards, preset, species, words),
        zaptrap_cards.table_alt(view),
        small=len(cards) == 1,
    )


def hand_sketch(view: ZapTrapView, legal: set[str]) -> Sketch:
    """The seat's hand as one picture, the cards a legal swap can give raised and framed (and
    said so in the alt text); outside play nothing is marked, as nothing can be swapped."""
    cards = tuple(view["hand"])
    playable = _playable(view, legal)
    preset, species = view["preset"], int(view["species"])
    words = zaptrap_cards.captions(cards, preset, species)  # as in table_sketch
    return Sketch(
        HAND_FILE,
        ("zaptrap-hand", preset, species, cards, playable, tuple(sorted(words.items()))),
        partial(zaptrap_cards.hand_png, cards, playable, preset=preset, species=species, words=words),
        zaptrap_cards.hand_alt(cards, playable, preset=preset, species=species),
    )


def _playable(view: ZapTrapView, legal: set[str]) -> tuple[str, ...] | None:
    """The hand's cards a legal swap can give (raised on the picture); None outside play."""
    if view["phase"] != "play":
        return None
    givable = {a[1:].split("-", 1)[0] for a in legal if a.startswith("S")}
    return tuple(sorted(c for c in set(view["hand"]) if c in givable))


def hand_and_table_sketch(view: ZapTrapView, legal: set[str]) -> Sketch:
    """In play, the panel's one picture: the hand (as ``hand_sketch``) above the face-up cards
    (the seat's own view holds them as the spectator's does)."""
    cards, table = tuple(view["hand"]), tuple(view["table"])
    playable = _playable(view, legal)
    preset, species = view["preset"], int(view["species"])
    words = zaptrap_cards.captions(cards + table, preset, species)  # as in table_sketch
    return Sketch(
        HAND_FILE,
        ("zaptrap-hand-table", preset, species, cards, playable, table, tuple(sorted(words.items()))),
        partial(
            zaptrap_cards.hand_and_table_png,
            cards,
            playable,
            table,
            preset=preset,
            species=species,
            words=words,
        ),
        zaptrap_cards.hand_and_table_alt(cards, playable, view),
    )


def _set_text(found: SetView | None, view: ZapTrapView) -> str:
    return set_text(found, view["preset"])


class ZapTrapUI:
    key = GAME.key

    @property
    def hand_label(self) -> str:
        return T.pgettext("button", "My hand & signal")

    @staticmethod
    def clock_text(table: Table, timer: str | None) -> str | None:
        """The running timer in a few words ("New cards in 5 seconds"), or None: the shared one."""
        return T.gettext(CLOCK_TEXT[timer]) if timer in CLOCK_TEXT else None

    @staticmethod
    def version_free(action: str) -> bool:
        """A swap names both cards and a call names its target, so a click from a panel drawn
        before someone's gesture still means the same; the engine refuses a card that is gone.
        A secret signal names the gesture: another side's choice changes nothing about it (it
        was refused as "Too slow" whenever someone chose first, and the notice took a phone's
        lines: issue 33). The epoch keeps each to its own round and phase."""
        return action.startswith(("S", "ZAP-", "TRAP-", "signal-"))

    @staticmethod
    def epoch(table: Table) -> Any:
        # A new round reshuffles: the same card codes come back, so old clicks must not carry over.
        view = state_of(table).view(None)
        return (view["round"], view["phase"])

    def __init__(self) -> None:
        self.panels = ZapTrapPanel()  # each seat's private panel

    # --- lobby and options ----------------------------------------------------------------------

    def options_lines(self, table: Table) -> list[str]:
        options = table.options
        if options.preset == "zaptrap":
            preset = T.gettext("Zap or Trap (aliens)")
        else:
            preset = T.gettext("classic Kemps (52 cards)")
        lull = table.timer_seconds("lull" if options.lull == "auto" else "lull_fallback")
        if lull is not None:
            lull_text = T.gettext("{seconds} s of quiet", seconds=number(lull))
        else:
            lull_text = T.gettext("a long quiet time")
        if options.refuse_wrong_targets:
            wrong = T.gettext("refused")
        else:
            wrong = T.gettext("penalised (+{points} to everyone else)", points=WRONG_TARGET_PENALTY)
        speed = T.gettext(SPEED_NAMES[table.speed]) if table.speed in SPEED_NAMES else table.speed
        speed_help = T.gettext(SPEED_HELP[table.speed]) if table.speed in SPEED_HELP else ""
        return [
            T.gettext("Deck: {preset}, hands of {size}", preset=preset, size=options.hand_size),
            T.ngettext("Target: first to {n} point", "Target: first to {n} points", options.target),
            T.gettext("Lull: the referee deals four new cards after {quiet}", quiet=lull_text),
            T.gettext("Wrong targets with 3 or 5 players: {how}", how=wrong),
            T.gettext("Speed: {speed} — {help}", speed=speed, help=speed_help),
        ]

    def lobby_lines(self, table: Table) -> list[str]:
        """How the seats pair up if the game starts with every seat filled."""
        seats = table.max_seats
        names = [s.name for s in table.seats] + [T.gettext("*open seat*")] * (seats - len(table.seats))
        if seats in (4, 6):
            half = seats // 2
            lines = [
                T.gettext(
                    "Team {number}: **{first}** & **{second}**",
                    number=u + 1,
                    first=names[u],
                    second=names[u + half],
                )
                for u in range(half)
            ]
            lines.append(
                T.gettext("Partners sit opposite; the host can rearrange them with **Arrange seats**.")
            )
            return lines
        ring = " → ".join(names + names[:1])
        return [T.gettext("Everyone for themselves; each player signals to the next: {ring}", ring=ring)]

    # --- the public table -----------------------------------------------------------------------

    def table_embed(self, table: Table) -> discord.Embed:
        state = state_of(table)
        view = state.view(None)
        phase = view["phase"]
        if phase == "over":
            title = T.gettext("Zap or Trap — round {round} — game over", round=view["round"])
        else:
            title = T.gettext("Zap or Trap — round {round}", round=view["round"])
        embed = discord.Embed(
            title=title, colour=discord.Colour.dark_grey() if phase == "over" else discord.Colour.teal()
        )
        dealer = table.name(view["dealer"])
        if phase == "signals":
            ready = [
                T.gettext(READY_MARK[bool(done)], side=side_name(table, view, u))
                for u, done in enumerate(view["signals_ready"])
            ]
            if view["team_game"]:
                who = T.gettext(
                    "Each team is choosing a secret signal — press **{button}**. **{dealer}** deals.",
                    button=self.hand_label,
                    dealer=dealer,
                )
            else:
                who = T.gettext(
                    "Each player is choosing a secret signal — press **{button}**. **{dealer}** deals.",
                    button=self.hand_label,
                    dealer=dealer,
                )
            embed.description = who + "\n" + "\n".join(ready)
        elif phase == "play":
            cards = " · ".join(f"**{card_label(c, view)}**" for c in view["table"])
            embed.description = (
                T.gettext("On the table: {cards}", cards=cards)
                + "\n"
                + T.gettext(
                    "Dealer: **{dealer}** · swap from your panel; gestures below are public.", dealer=dealer
                )
            )
        elif phase == "between":
            embed.description = between_text(table, view) + "\n" + T.gettext("The next round starts shortly.")
        else:
            result = state.result()
            if result is not None:
                embed.description = T.gettext(
                    "The game is over. {summary}", summary=result_summary(table, result)
                )
            else:
                embed.description = T.gettext("The game is over.")
        scores = "\n".join(
            f"**{side_name(table, view, u)}** — {score}" for u, score in enumerate(view["scores"])
        )
        embed.add_field(
            name=T.gettext("Scores (first to {target})", target=view["target"]),
            value=scores[:1024],
            inline=False,
        )
        if view["gestures"]:
            recent = " · ".join(
                f"{table.name(g['seat'])} {view['palette'][g['gesture']]}"
                for g in view["gestures"][-RECENT_GESTURES:]
            )
            embed.add_field(name=T.gettext("Recent gestures"), value=recent[:1024], inline=False)
        embed.set_footer(
            text=T.gettext(
                "Deck {deck} · discards {discards}", deck=view["deck_count"], discards=view["discard_count"]
            )
        )
        return embed

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        phase = state_of(table).view(None)["phase"]
        if phase == "play":
            # The palette: anyone seated may gesture at any time; the referee never says which is real.
            # Each button has its word beside the emoji: a screen reader reads an emoji by its
            # Unicode name ("face with hand over mouth"), not by the gesture it stands for.
            return [
                TableButton(
                    table.id, "act", f"gesture-{gid}", label=gesture_name(gid), emoji=emoji, row=1 + i // 5
                )
                for i, (gid, emoji) in enumerate(GESTURES.items())
            ]
        if phase == "between":
            return [
                TableButton(
                    table.id, "act", "next", label=T.pgettext("button", "Next round"), emoji="▶️", row=1
                )
            ]
        return []

    def table_sketches(self, table: Table) -> list[Sketch]:
        """The face-up cards, from the spectator view: nothing on the table is anyone's secret."""
        sketch = table_sketch(state_of(table).view(None))
        return [sketch] if sketch is not None else []

    def panel_sketches(self, table: Table, seat: int, nav: str | None = None) -> list[Sketch]:
        """The seat's hand (its own view, its own legal swaps) and, while cards are face up, the
        table under it in the same picture, so both halves of a swap are in one glance."""
        state = state_of(table)
        view = state.view(seat)
        if view["phase"] == "over":
            return []
        # Before the deal (signals are chosen first) there is no hand: no empty picture either.
        if not view["hand"]:
            return []
        legal = set(state.legal_actions(seat))
        if view["phase"] == "play" and view["table"]:
            return [hand_and_table_sketch(view, legal)]
        return [hand_sketch(view, legal)]

    def waiting_on(self, table: Table) -> list[int] | None:
        """`/table status`: while signals are chosen, the sides that have not chosen yet;
        otherwise anyone may swap or call."""
        view = state_of(table).view(None)
        if view["phase"] != "signals":
            return None
        sides = side_seats(view)
        return [s for u, done in enumerate(view["signals_ready"]) if not done for s in sides[u]]

    def waiting_text(self, table: Table) -> str | None:
        if state_of(table).view(None)["phase"] == "between":
            return T.gettext(
                "anyone may press **{button}**; otherwise it starts shortly",
                button=T.pgettext("button", "Next round"),
            )
        return None

    def public_cooldown(self, action: str) -> float | None:
        return GESTURE_COOLDOWN if action.startswith("gesture-") else None

    # --- the private panel (cogs/drawings/zaptrap_panel.py) -----------------------------------

    def panel(
        self, table: Table, seat: int, note: str | None, nav: str | None = None
    ) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        return self.panels.draw(table, seat, note, nav)

    # --- events and summaries -------------------------------------------------------------------

    def event_line(self, table: Table, event: Event) -> str:
        return words.event_line(table, event)

    def refusal(self, table: Table, error: IllegalAction) -> str:
        return words.refusal(table, error)

    def round_embed(self, table: Table, event: Event) -> discord.Embed | None:
        view = state_of(table).view(None)
        call = view["call"]
        if call is None:
            return None
        caller, target = table.name(call["caller"]), table.name(call["target"])
        number = event.data.get("round", view["round"])
        embed = discord.Embed(
            title=T.gettext(
                "Round {round}: {caller} calls {call} on {target}!",
                round=number,
                caller=caller,
                call=call["call"],
                target=target,
            )[:256],
            colour=discord.Colour.red() if call["call"] == "ZAP" else discord.Colour.blue(),
        )
        hand = " · ".join(card_label(c, view) for c in call["hand"])
        lines = [
            T.gettext("**{name}** shows: {cards}", name=target, cards=hand),
            T.gettext("That is {set}.", set=_set_text(call["set"], view)),
            "",
        ]
        lines += [f"• {score_line(line, call['call'])}" for line in call["lines"]]
        to = ", ".join(f"**{side_name(table, view, u)}**" for u in call["scorers"])
        if len(call["scorers"]) > 1:
            lines.append(
                T.ngettext(
                    "= **{n} point** each to {sides}",
                    "= **{n} points** each to {sides}",
                    call["value"],
                    sides=to,
                )
            )
        else:
            lines.append(
                T.ngettext(
                    "= **{n} point** to {sides}", "= **{n} points** to {sides}", call["value"], sides=to
                )
            )
        embed.description = "\n".join(lines)[:4096]
        scores = "\n".join(
            f"{side_name(table, view, u)}: +{points} → {view['scores'][u]}"
            for u, points in enumerate(call["points"])
        )
        embed.add_field(name=T.gettext("Scores"), value=scores[:1024], inline=False)
        return embed

    def final_embed(self, table: Table) -> discord.Embed:
        state = state_of(table)
        view = state.view(None)
        result = state.result()
        assert result is not None
        embed = discord.Embed(title=T.gettext("Zap or Trap — final results"), colour=discord.Colour.gold())
        lines = []
        for p in sorted(result.placements, key=lambda p: (p.place, p.seat)):
            medal = {1: "🏆", 2: "🥈", 3: "🥉"}.get(p.place, f"{p.place}.")
            lines.append(
                T.ngettext(
                    "{medal} **{name}** — {n} point", "{medal} **{name}** — {n} points", p.points,
                    medal=medal, name=table.name(p.seat),
                )
            )  # fmt: skip
        lines += ["", result_summary(table, result)]
        embed.description = "\n".join(lines)
        reveal = []
        for entry in view.get("signal_history", []):
            sides = " · ".join(
                f"{side_name(table, view, u)} {signal_text(g) if g else '—'}"
                for u, g in enumerate(entry["signals"])
            )
            reveal.append(T.gettext("Round {round}: {sides}", round=entry["round"], sides=sides))
        if reveal:
            text = "\n".join(reveal)
            if len(text) > 1024:
                text = "…\n" + text[-1000:]
            embed.add_field(name=T.gettext("The secret signals, revealed"), value=text, inline=False)
        winners = ", ".join(table.plain_name(s) for s in result.winners)
        embed.set_footer(
            text=T.gettext("Winner: {names}. Results are on /leaderboard. Rematch below.", names=winners)
        )
        return embed

    def signal_rows(self, table: Table) -> list[dict[str, Any]]:
        """Every round's real signals, stored with the finished game."""
        view = state_of(table).view(None)
        rows = []
        for entry in view.get("signal_history", []):
            for unit, gesture in enumerate(entry["signals"]):
                if gesture is None:
                    continue
                team = unit if view["team_game"] else None
                seat = None if view["team_game"] else unit
                rows.append({"round": entry["round"], "team": team, "seat": seat, "gesture": gesture})
        return rows


def _command_text(text: str) -> locale_str:
    """A slash command's name or description, translated by the bot's Translator from this
    game's catalog."""
    return locale_str(text, domain=T.domain)


def _choice_text(option: str, text: str) -> locale_str:
    """A choice's name of ``option``, translated like ``_command_text``; the option is its
    context in the catalog (``pgettext``'s), as a choice's word may mean another thing elsewhere."""
    return locale_str(text, domain=T.domain, context=option)


class ZapTrapCog(commands.Cog):
    zaptrap = app_commands.Group(
        name=_command_text(N_("zaptrap")),
        description=_command_text(N_("Zap or Trap: sets, secret signals and calls")),
        guild_only=True,
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        bot.referee.register(ZapTrapUI())

    @zaptrap.command(
        name=_command_text(N_("new")),
        description=_command_text(N_("Open a Zap or Trap table in this channel")),
    )
    @app_commands.rename(
        seats=_command_text(N_("seats")),
        preset=_command_text(N_("preset")),
        lull=_command_text(N_("lull")),
        speed=_command_text(N_("speed")),
        thread=_command_text(N_("thread")),
        target=_command_text(N_("target")),
        wrong_targets=_command_text(N_("wrong_targets")),
        language=_command_text(N_("language")),
    )
    @app_commands.describe(
        seats=_command_text(N_("How many seats (3–6; with 4 or 6, partners sit opposite)")),
        preset=_command_text(N_("zaptrap: the alien deck; kemps: classic Kemps with 52 cards")),
        lull=_command_text(N_("Seconds of quiet before the referee deals four new cards (default by speed)")),
        speed=_command_text(N_("Timers: off, relaxed or fast")),
        thread=_command_text(N_("Play in a new thread")),
        target=_command_text(N_("Points to win (default 7)")),
        wrong_targets=_command_text(N_("3 or 5 players: penalise wrong ZAP/TRAP targets, or refuse them")),
        language=LANGUAGE_OPTION,
    )
    @app_commands.choices(
        preset=[
            # Translators: a choice of /zaptrap new's preset: the game's own alien deck (its title).
            app_commands.Choice(name=_choice_text("preset", N_("zaptrap")), value="zaptrap"),
            # Translators: a choice of /zaptrap new's preset: classic Kemps (a game's name).
            app_commands.Choice(name=_choice_text("preset", N_("kemps")), value="kemps"),
        ],
        speed=SPEED_CHOICES,
        wrong_targets=[
            # Translators: a choice of /zaptrap new's wrong_targets: a wrong target costs points.
            app_commands.Choice(name=_choice_text("wrong_targets", N_("penalise")), value="penalise"),
            # Translators: a choice of /zaptrap new's wrong_targets: a wrong target is refused.
            app_commands.Choice(name=_choice_text("wrong_targets", N_("refuse")), value="refuse"),
        ],
        language=LANGUAGE_CHOICES,
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 3, 6] = 4,
        preset: str = "zaptrap",
        lull: app_commands.Range[int, 2, 300] | None = None,
        speed: str = "relaxed",
        thread: bool = False,
        target: app_commands.Range[int, 1, 50] = 7,
        wrong_targets: str = "penalise",
        language: str | None = None,
    ) -> None:
        await open_table_command(
            interaction,
            GAME.key,
            seats=seats,
            speed=speed,
            rules={"preset": preset, "target": target, "refuse_wrong_targets": wrong_targets == "refuse"},
            thread=thread,
            timers={"lull": float(lull)} if lull is not None else None,
            language=language,
        )

    @zaptrap.command(
        name=_command_text(N_("rules")),
        description=_command_text(N_("How to play Zap or Trap, and the house rulings in force")),
    )
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, GAME)


async def setup(bot: Any) -> None:
    await bot.add_cog(ZapTrapCog(bot))
