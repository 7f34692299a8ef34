"""GiftTRAP on Discord: `/gifttrap new|rules`, the public table and each player's gift panel.

Public (the table message, drawn from the spectator view): the gifts on the table, who is ready
(never what they chose), both tracks per player, the reveal as it happens, the pack buttons for
the dealer and the GiftTRAP buttons, open to every player all round. Private (the panel, drawn from
the seat's own view): the gift for each other player, the four tokens, Give More and Get More, and
Ready. Every rule is in rules/gifttrap/; the engine refuses what is not allowed and says why.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.help import send_rules
from cogs.table.buttons import ActionButton, ActionSelect, TableButton
from cogs.table.lifecycle import open_table_command
from cogs.table.model import Table
from rules.base import Event
from rules.gifttrap import NO_MATCH_LABEL, PRICES, TOKEN_LABELS, TOKENS, GiftTrap, GiftTrapState
from rules.gifttrap.views import GiftTrapView, TokenPlaces
from rules.words import plural, signed

GAME = GiftTrap()
SEAT_WORD = re.compile(r"\b[Ss]eat (\d+)\b")
TOKEN_EMOJI = {"great": "🤩", "good": "🙂", "ok": "😐", "noway": "🙅"}
# A private choice depends only on the chooser's own earlier choices, so a click from a panel drawn
# before someone else's move still means the same; the engine refuses what no longer fits.
# The dealer's pick and Next round are refused by the engine once done, so they qualify too.
VERSION_FREE = ("give-", "givemore-", "rank-", "unrank-", "getmore-", "ready", "pack-", "next")
# Each give/rank select takes a whole row; the fifth row holds the page tabs and Ready.
SELECTS_PER_PAGE = 4
NAME_WIDTH = 24
SPEED_HELP = {
    "off": "no hurry: the pack after 5 min, choosing 15 min, a gift unwrapped every 5 s",
    "relaxed": "pack 1 min, choosing 3 min, a gift unwrapped every 4 s",
    "fast": "pack 20 s, choosing 90 s, a gift unwrapped every 2.5 s",
}


def gift_text(gift: Mapping[str, Any]) -> str:
    """A gift as every message writes it: its space, emoji and name ("3. 🧸 Teddy bear")."""
    return f"{gift['space']}. {gift['emoji']} {gift['name']}"


def short_gift(gift: Mapping[str, Any]) -> str:
    return f"{gift['space']}. {gift['emoji']}"


def token_line(token: str, gift: Mapping[str, Any] | None, *, short: bool = False) -> str:
    """A token and the gift under it ("GREAT +3 → 3. 🧸 Teddy bear")."""
    if gift is None:
        return f"{TOKEN_LABELS[token]} → — not placed yet"
    return f"{TOKEN_LABELS[token]} → {short_gift(gift) if short else gift_text(gift)}"


def _state(table: Table) -> GiftTrapState:
    """The table's engine state, typed, so that its views are ``GiftTrapView``s."""
    assert isinstance(table.state, GiftTrapState)
    return table.state


def _names(table: Table, text: str) -> str:
    """Engine texts say "seat 3"; people want names."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1)) - 1
        return f"**{table.name(seat)}**" if 0 <= seat < len(table.seats) else match.group(0)

    return SEAT_WORD.sub(name, text)


def _fit(lines: list[str], limit: int = 1024, *, newest_last: bool = True) -> str:
    """As many lines as fit in a field, keeping the newest (the last) ones."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines) if newest_last else lines:
        if size + len(line) + 1 > limit:
            break
        kept.append(line)
        size += len(line) + 1
    if newest_last:
        kept.reverse()
    return "\n".join(kept) or "—"


class GiftTrapUI:
    key = GAME.key
    hand_label = "My gifts"
    hand_emoji = "🎁"

    @staticmethod
    def version_free(action: str) -> bool:
        """Everyone chooses at once: without this, every other player's click (and each computer's)
        would turn a person's select into "too slow" while the gifts are being chosen."""
        return action.startswith(VERSION_FREE)

    @staticmethod
    def epoch(table: Table) -> Any:
        # Gift numbers name different gifts next round: a click never carries into another round.
        return _state(table).view(None)["round"]

    def __init__(self) -> None:
        # (table id, seat) -> the panel page that person last looked at, so a live refresh or an
        # answer to a select keeps them on it. Panel-only state: losing it on restart is harmless.
        self._pages: dict[tuple[int, int], str] = {}

    def options_lines(self, table: Table) -> list[str]:
        options = table.options
        return [
            f"Track: GO → GIFTED at {options.track_length}",
            f"Strategy cards (Give More, Get More, GiftTRAP): {'on' if options.strategy_cards else 'off'}",
            f"Speed: {table.speed} — {SPEED_HELP.get(table.speed, '')}",
        ]

    # --- public table --------------------------------------------------------------------------

    def table_embed(self, table: Table) -> discord.Embed:
        """Kept under ~1,500 characters with eight players, for phones: the gifts, one line per
        player and what to do now. The unwraps are already in the referee's Latest lines; the
        whole round's unwraps and tokens are behind History."""
        view = _state(table).view(None)
        phase = view["phase"]
        title = f"GiftTRAP — round {view['round']}"
        if view["price"]:
            title += f" · the {view['price']} pack"
        if phase == "over":
            title += " — game over"
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
                    line += " — 🪤 GiftTRAPped"  # by whom: the Latest lines and History say
                lines.append(line)
            embed.add_field(name="Gifts on the table", value=_fit(lines, newest_last=False), inline=False)
        embed.add_field(
            name=f"Tracks (GIFTED at {view['track_length']})",
            value=_fit(self._track_lines(table, view), newest_last=False),
            inline=False,
        )
        if view["strategy_cards"]:
            footer = "🪤 = a GiftTRAP card still to play"
        else:
            footer = "Strategy cards are off at this table."
        embed.set_footer(text=footer)
        return embed

    def history(self, table: Table) -> str:
        """The History button, on the table while playing and on the final table: the whole game,
        round by round: every gift unwrapped and every token turned up (all public once the
        reveal has shown them; drawn from the spectator view, whose ``history`` keeps the rounds
        played). A long one is sent as a file."""
        view = _state(table).view(None)
        over = view["phase"] == "over"
        lines = [f"**GiftTRAP — {'the whole game' if over else 'the game so far'}**"]
        for past in view["history"]:
            gifts = {g["space"]: g for g in past["layout"]}
            unwrapped = [{**gifts[r["space"]], **r} for r in past["revealed"]]
            lines += self._round_history(table, past, unwrapped, list(past["rankings"]))
            markers = " · ".join(
                f"**{s.name}** GET {past['get_track'][s.seat]}, GIVE {past['give_track'][s.seat]}"
                for s in table.seats
            )
            lines.append(f"Markers after round {past['round']}: {markers}")
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
        pack = f" — **{table.name(round_['dealer'])}** dealt the {price} pack" if price else ""
        lines = ["", f"**Round {round_['round']}**{pack}"]
        gifts = {g["space"]: g for g in round_["layout"]}
        lines += [
            f"🪤 **{table.name(t['seat'])}** played GiftTRAP on {gift_text(gifts[t['space']])}"
            for t in round_["trapped"]
            if t["space"] in gifts
        ]
        lines += [self._gift_line(table, r) for r in unwrapped] or ["Nothing has been unwrapped yet."]
        shown = [
            self._ranking_line(table, round_, seat, ranks) for seat, ranks in enumerate(rankings) if ranks
        ]
        if shown:
            lines.append("Tokens turned up:")
            lines += shown
        return lines

    def _status(self, table: Table, view: GiftTrapView) -> str:
        phase = view["phase"]
        dealer = f"**{table.name(view['dealer'])}**"
        if phase == "pack":
            fallback = PRICES.get(view["default_pack"] or 0, "?")
            return (
                f"{dealer} deals this round and picks a pack with the buttons below: "
                f"$ (cheap) to $$$$ (lavish). If time runs out the referee picks {fallback}."
            )
        if phase == "choosing":
            waiting = [table.name(s) for s, ready in enumerate(view["ready"]) if not ready]
            who = "everyone" if len(waiting) == len(table.seats) else ", ".join(waiting) or "nobody"
            return (
                f"{len(view['layout'])} gifts are on the table. In **{self.hand_label}**, give each other "
                "player one gift (never the same gift twice) and place GREAT, GOOD, OK and NO WAY on four "
                f"different gifts, then press **Ready**.\nWaiting for: {who}"
            )
        if phase == "reveal":
            total = len(view["reveal_order"])
            done = view["reveal_next"]
            text = f"🎁 The reveal: {done} of {total} gifts unwrapped, the dealer's first."
            if done < total:
                receiver, giver = view["reveal_order"][done]
                text += f"\nNext: **{table.name(receiver)}** unwraps the gift from **{table.name(giver)}**."
            return text
        if phase == "between_rounds":
            return (
                f"Round {view['round']} is over and nobody has both markers on GIFTED yet. "
                "Press **Next round** (or wait) for the next deal."
            )
        winners = ", ".join(f"**{table.name(s)}**" for s in view["winners"]) or "nobody"
        return f"The game is over: {winners} reached GIFTED on both tracks."

    def _track_lines(self, table: Table, view: GiftTrapView) -> list[str]:
        """One line per player: both markers, and what they are doing now."""
        lines = []
        for s in table.seats:
            i = s.seat
            tags = []
            if i == view["dealer"] and view["phase"] != "over":
                tags.append("dealer")
            if view["phase"] == "choosing" and view["ready"][i]:
                tags.append("ready")  # who is still choosing: the status line says
            if view["filled"][i]:
                tags.append("filled in")
            if i in view["winners"]:
                tags.append("GIFTED!")
            card = " 🪤" if view["strategy_cards"] and not view["gifttrap_used"][i] else ""
            robot = " 🤖" if s.is_computer else ""
            get, give = view["get_track"][i], view["give_track"][i]
            line = f"**{s.name[:NAME_WIDTH]}**{robot}{card} — GET {get} · GIVE {give}"
            lines.append(line + (f" ({', '.join(tags)})" if tags else ""))
        return lines

    def _gift_line(self, table: Table, record: Mapping[str, Any]) -> str:
        """One unwrapped gift: who, what, the token, and both markers' moves."""
        gift = {"space": record["space"], "emoji": record["emoji"], "name": record["name"]}
        receiver, giver = table.name(record["receiver"]), table.name(record["giver"])
        token = NO_MATCH_LABEL if record["token"] is None else TOKEN_LABELS[record["token"]]
        head = f"**{receiver}** unwraps {gift_text(gift)} from **{giver}**: {token}"
        if record["trapped"]:
            return head + ", GiftTRAPped: nobody moves"
        # Short: up to five of these lines sit in the table's Latest field (phones).
        cards = [name for name, key in (("Give More", "give_more"), ("Get More", "get_more")) if record[key]]
        doubled = f" ({' and '.join(cards)} ×2)" if cards else ""
        get, give = signed(record["receiver_points"]), signed(record["giver_points"])
        return f"{head} — GET {get}, GIVE {give}{doubled}"

    def _ranking_line(self, table: Table, view: Mapping[str, Any], seat: int, ranks: TokenPlaces) -> str:
        gifts = {g["space"]: g for g in view["layout"]}
        parts = [token_line(t, gifts.get(ranks[t]), short=True) for t in TOKENS if t in ranks]
        return f"**{table.name(seat)}**: " + " · ".join(parts)

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
            return "nobody: the referee unwraps the gifts one by one"
        if phase == "between_rounds":
            return "anyone may press **Next round**; otherwise it starts shortly"
        return None

    def final_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        """The final table keeps History: the whole game stays one press away."""
        return [TableButton(table.id, "history", label="History", emoji="📜", row=0)]

    def table_items(self, table: Table) -> list[discord.ui.Item[Any]]:
        view = _state(table).view(None)
        phase = view["phase"]
        items: list[discord.ui.Item[Any]] = [
            TableButton(table.id, "history", label="History", emoji="📜", row=0)
        ]
        if phase == "pack":
            # Public buttons act on the current state; the engine refuses anyone but the dealer.
            for pack, price in sorted(PRICES.items()):
                items.append(
                    TableButton(
                        table.id,
                        "act",
                        f"pack-{pack}",
                        label=f"{price} pack",
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
                        label=f"GiftTRAP {gift['space']}",
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
                    label="Next round",
                    emoji="▶️",
                    style=discord.ButtonStyle.success,
                    row=1,
                )
            )
        return items

    def event_line(self, table: Table, event: Event) -> str:
        data = event.data
        who = f"**{table.name(event.seat)}**" if event.seat is not None else ""
        kind = event.kind
        if kind == "round_start":
            return f"Round {data['round']}: {who} deals and picks the pack."
        if kind == "pack":
            count = len(data["layout"])
            if data["by_referee"]:
                return f"⏰ Time is up: the referee picks the {data['price']} pack. {count} gifts are out."
            return f"{who} picks the {data['price']} pack: {count} gifts are on the table."
        if kind == "ready":
            return f"{who} is ready."
        if kind == "filled":
            return f"⏰ {who} ran out of time: the referee completed their choices."
        if kind == "ranking":
            layout = {g["space"]: g for g in _state(table).view(None)["layout"]}
            ranks = data["ranks"]
            parts = [token_line(t, layout.get(ranks[t]), short=True) for t in TOKENS if t in ranks]
            return f"{who} turns up their tokens: " + " · ".join(parts)
        if kind == "gift":
            return "🎁 " + self._gift_line(table, data)
        if kind == "gifttrap":
            layout = {g["space"]: g for g in _state(table).view(None)["layout"]}
            gift = layout.get(data["space"])
            what = gift_text(gift) if gift else f"gift {data['space']}"
            return f"🪤 {who} shouts **GiftTRAP** on {what}: nobody scores from it this round."
        text = _names(table, event.text)
        return f"{who} {text}" if who else text

    def announcements(self, table: Table, events: list[Event]) -> list[str]:
        """Ping people when something is theirs to do: the dealer's pick, then everyone's choosing."""
        out: list[str] = []
        for event in events:
            if event.kind == "round_start":
                dealer = table.seats[event.data["dealer"]]
                if not dealer.is_computer and dealer.user_id is not None:
                    out.append(
                        f"<@{dealer.user_id}>, you deal round {event.data['round']}: "
                        "pick a pack with the buttons on the table."
                    )
            elif event.kind == "pack":
                people = [f"<@{s.user_id}>" for s in table.seats if not s.is_computer and s.user_id]
                if people:
                    out.append(
                        f"🎁 The gifts for round {event.data['round']} are on the table. "
                        f"{' '.join(people)}: choose your gifts and tokens in **{self.hand_label}**."
                    )
            elif event.kind == "filled":
                out.append(
                    f"⏰ Time is up for **{table.name(event.data['seat'])}**: the referee filled in "
                    "the rest of their choices."
                )
        return out

    def round_embed(self, table: Table, event: Event) -> discord.Embed | None:
        view = _state(table).view(None)
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
            get, give = view["get_track"][i], view["give_track"][i]
            moves = f"GET {get} ({signed(moved_get[i])}) · GIVE {give} ({signed(moved_give[i])})"
            lines.append(f"**{s.name}** — {moves}")
        embed = discord.Embed(
            title=f"GiftTRAP — round {event.data.get('round', view['round'])} over",
            description=_fit(lines, 4096, newest_last=False),
            colour=discord.Colour.orange(),
        )
        embed.set_footer(text=f"Both markers on GIFTED ({view['track_length']}) at a round's end wins.")
        return embed

    def final_embed(self, table: Table) -> discord.Embed:
        state = _state(table)
        view = state.view(None)
        result = state.result()
        assert result is not None
        for key in [k for k in self._pages if k[0] == table.id]:
            del self._pages[key]
        winners = [table.name(s) for s in result.winners]
        shared = " share the win" if len(winners) > 1 else " wins"
        embed = discord.Embed(
            title=f"GiftTRAP — {', '.join(winners)}{shared}"[:256], colour=discord.Colour.gold()
        )
        lines = []
        for p in sorted(result.placements, key=lambda p: (p.place, p.seat)):
            medal = {1: "🏆", 2: "🥈", 3: "🥉"}.get(p.place, f"{p.place}.")
            lines.append(
                f"{medal} **{table.name(p.seat)}** — GET {view['get_track'][p.seat]} · "
                f"GIVE {view['give_track'][p.seat]}"
            )
        embed.description = result.summary + "\n\n" + "\n".join(lines)
        embed.set_footer(text=f"{view['round']} rounds played. Results are on /leaderboard. Rematch below.")
        return embed

    # --- private panel -------------------------------------------------------------------------

    def _pages_for(self, view: GiftTrapView) -> list[tuple[str, str]]:
        """The panel's pages while choosing: (nav name, tab label)."""
        me = view["seat"]
        receivers = [r for r in range(view["players"]) if r != me]
        chunks = (len(receivers) + SELECTS_PER_PAGE - 1) // SELECTS_PER_PAGE
        pages = []
        for c in range(chunks):
            label = (
                "Give"
                if chunks == 1
                else f"Give {c * SELECTS_PER_PAGE + 1}–"
                + str(min(len(receivers), (c + 1) * SELECTS_PER_PAGE))
            )
            pages.append((f"give{c + 1}", label))
        pages.append(("rank", "Tokens"))
        pages.append(("cards", "Cards" if view["strategy_cards"] else "Swap tokens"))
        return pages

    def _default_page(self, view: GiftTrapView) -> str:
        my = view["my"]
        me = view["seat"]
        receivers = [r for r in range(view["players"]) if r != me]
        if my["to_give"]:
            index = receivers.index(my["to_give"][0])
            return f"give{index // SELECTS_PER_PAGE + 1}"
        if my["to_rank"]:
            return "rank"
        return "give1"

    def panel(
        self, table: Table, seat: int, note: str | None, nav: str | None = None
    ) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
        state = _state(table)
        view = state.view(seat)
        legal = set(state.legal_actions(seat))
        phase = view["phase"]
        my = view["my"]
        embed = discord.Embed(title=f"Your gifts — round {view['round']}", colour=discord.Colour.magenta())
        lines: list[str] = []
        items: list[discord.ui.Item[Any]] = []
        v = table.version
        if phase == "pack":
            if seat == view["dealer"]:
                lines.append("**You deal this round: pick a pack.** $ is cheap and cheerful, $$$$ lavish.")
                for pack, price in sorted(PRICES.items()):
                    items.append(
                        ActionButton(
                            table.id,
                            v,
                            f"pack-{pack}",
                            label=f"{price} pack",
                            style=discord.ButtonStyle.primary,
                            row=0,
                        )
                    )
            else:
                lines.append(f"**{table.name(view['dealer'])}** is picking the pack for this round.")
        elif phase == "choosing" and not my["ready"]:
            pages = self._pages_for(view)
            names = [p for p, _ in pages]
            page = nav if nav in names else self._pages.get((table.id, seat))
            if page not in names:
                page = self._default_page(view)
            self._pages[(table.id, seat)] = page
            lines += self._choice_lines(table, view)
            todo = []
            if my["to_give"]:
                todo.append(f"{plural(len(my['to_give']), 'gift')} still to give")
            if my["to_rank"]:
                todo.append(f"{plural(len(my['to_rank']), 'token')} still to place")
            lines.append(
                "\n👉 " + (" · ".join(todo) + "." if todo else "All set: press **Ready** to lock it in.")
            )
            items += self._page_items(table, view, page)
            for label_page, label in pages:
                current = label_page == page
                items.append(
                    ActionButton(
                        table.id,
                        v,
                        f"nav-{label_page}",
                        label=label,
                        style=discord.ButtonStyle.primary if current else discord.ButtonStyle.secondary,
                        row=4,
                    )
                )
            items.append(
                ActionButton(
                    table.id,
                    v,
                    "ready",
                    label="Ready",
                    emoji="✅",
                    style=discord.ButtonStyle.success if "ready" in legal else discord.ButtonStyle.secondary,
                    row=4,
                )
            )
        else:
            if phase == "choosing":
                lines.append("✅ **You are ready.** Your choices are locked in; waiting for the others.")
            elif phase == "reveal":
                lines.append("🎁 **The reveal is on** — watch the table.")
            elif phase == "between_rounds":
                lines.append("The round is over. Press **Next round** when everyone has had a look.")
                items.append(
                    ActionButton(
                        table.id,
                        v,
                        "next",
                        label="Next round",
                        emoji="▶️",
                        style=discord.ButtonStyle.success,
                        row=0,
                    )
                )
            if phase in ("choosing", "reveal"):
                lines += self._choice_lines(table, view)
        if my["gifttrap_available"]:
            lines.append(
                "\n🪤 Your GiftTRAP card is unused: press a **GiftTRAP** button on the table, any "
                "time until the last gift is unwrapped."
            )
        elif view["strategy_cards"] and view["gifttrap_used"][seat]:
            lines.append("\n🪤 You have played your GiftTRAP card (once a game).")
        if note:
            lines.append(f"\n⚠️ {_names(table, note)}")
        embed.description = "\n".join(lines)[:4096]
        get, give = view["get_track"][seat], view["give_track"][seat]
        embed.set_footer(
            text=f"Your GET {get} · GIVE {give} of {view['track_length']} · only you can see this panel"
        )
        if not any(getattr(i, "action", "").startswith("nav-") for i in items):
            items.append(ActionButton(table.id, v, "refresh", label="Refresh", emoji="🔄", row=4))
        return embed, items

    def _choice_lines(self, table: Table, view: GiftTrapView) -> list[str]:
        """This seat's own choices so far (its own view only)."""
        my = view["my"]
        me = view["seat"]
        gifts = {g["space"]: g for g in view["layout"]}
        lines = ["**Your gifts to the others**"]
        for r in range(view["players"]):
            if r == me:
                continue
            space = my["gives"][r]
            chosen = gift_text(gifts[space]) if space is not None else "— not chosen yet"
            lines.append(f"→ **{table.name(r)}**: {chosen}")
        if view["strategy_cards"]:
            if my["give_more"] is not None:
                lines.append(f"💝 Give More: with your gift for **{table.name(my['give_more'])}**")
            else:
                lines.append("💝 Give More: not played (optional, doubles your GIVE move for one gift)")
        lines.append("**Your tokens**")
        for token in TOKENS:
            space = my["ranks"].get(token)
            lines.append(f"{TOKEN_EMOJI[token]} " + token_line(token, gifts.get(space) if space else None))
        if view["strategy_cards"]:
            if my["get_more"] is not None:
                lines.append(f"🔍 Get More: under the gift from **{table.name(my['get_more'])}**")
            else:
                lines.append("🔍 Get More: not played (optional, doubles your GET move for one gift)")
        return lines

    def _page_items(self, table: Table, view: GiftTrapView, page: str) -> list[discord.ui.Item[Any]]:
        my = view["my"]
        me = view["seat"]
        v = table.version
        layout = view["layout"]
        items: list[discord.ui.Item[Any]] = []
        if page.startswith("give"):
            receivers = [r for r in range(view["players"]) if r != me]
            chunk = int(page[4:]) - 1
            given_to = {space: r for r, space in enumerate(my["gives"]) if space is not None}
            for row, r in enumerate(receivers[chunk * SELECTS_PER_PAGE : (chunk + 1) * SELECTS_PER_PAGE]):
                options = []
                for gift in layout:
                    other = given_to.get(gift["space"])
                    options.append(
                        discord.SelectOption(
                            label=gift_text(gift)[:100],
                            value=str(gift["space"]),
                            default=my["gives"][r] == gift["space"],
                            description=(
                                f"you give this one to {table.name(other)}"[:100]
                                if other is not None and other != r
                                else None
                            ),
                        )
                    )
                items.append(
                    ActionSelect(
                        table.id,
                        v,
                        f"give-{r}-",
                        options,
                        placeholder=f"Gift for {table.name(r)}"[:150],
                        row=row,
                    )
                )
        elif page == "rank":
            holding = {space: token for token, space in my["ranks"].items()}
            for row, token in enumerate(TOKENS):
                options = []
                for gift in layout:
                    held = holding.get(gift["space"])
                    options.append(
                        discord.SelectOption(
                            label=gift_text(gift)[:100],
                            value=str(gift["space"]),
                            default=my["ranks"].get(token) == gift["space"],
                            description=(
                                f"your {TOKEN_LABELS[held]} token is here"
                                if held is not None and held != token
                                else None
                            ),
                        )
                    )
                items.append(
                    ActionSelect(
                        table.id,
                        v,
                        f"rank-{token}-",
                        options,
                        placeholder=f"{TOKEN_EMOJI[token]} {TOKEN_LABELS[token]} goes on…",
                        row=row,
                    )
                )
        else:
            others = [r for r in range(view["players"]) if r != me]
            row = 0
            if view["strategy_cards"]:
                more = [
                    discord.SelectOption(label="No Give More", value="none", default=my["give_more"] is None)
                ]
                more += [
                    discord.SelectOption(
                        label=f"With my gift for {table.name(r)}"[:100],
                        value=str(r),
                        default=my["give_more"] == r,
                    )
                    for r in others
                ]
                items.append(
                    ActionSelect(
                        table.id,
                        v,
                        "givemore-",
                        more,
                        row=row,
                        placeholder="💝 Give More (doubles your GIVE move for one gift)",
                    )
                )
                get = [
                    discord.SelectOption(label="No Get More", value="none", default=my["get_more"] is None)
                ]
                get += [
                    discord.SelectOption(
                        label=f"Under the gift from {table.name(g)}"[:100],
                        value=str(g),
                        default=my["get_more"] == g,
                    )
                    for g in others
                ]
                items.append(
                    ActionSelect(
                        table.id,
                        v,
                        "getmore-",
                        get,
                        row=row + 1,
                        placeholder="🔍 Get More (doubles your GET move for one gift)",
                    )
                )
                row += 2
            gifts = {g["space"]: g for g in layout}
            placed = sorted((space, token) for token, space in my["ranks"].items())
            if placed:
                options = [
                    discord.SelectOption(
                        label=f"{TOKEN_LABELS[token]} off {gift_text(gifts[space])}"[:100], value=str(space)
                    )
                    for space, token in placed
                ]
                items.append(
                    ActionSelect(
                        table.id,
                        v,
                        "unrank-",
                        options,
                        row=row,
                        placeholder="Take a token off a gift (to swap two tokens)",
                    )
                )
        return items


class GiftTrapCog(commands.Cog):
    gifttrap = app_commands.Group(
        name="gifttrap", description="GiftTRAP: secret giving and getting", guild_only=True
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        bot.referee.register(GiftTrapUI())

    @gifttrap.command(name="new", description="Open a GiftTRAP table in this channel")
    @app_commands.describe(
        seats="How many seats (3–8)",
        track_length="Where GIFTED is on both tracks (5–60, default 20; shorter is a quicker game)",
        strategy_cards="Play with Give More, Get More and GiftTRAP (default on)",
        speed="Timers: relaxed, fast or off",
        thread="Play in a new thread",
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 3, 8] = 4,
        track_length: app_commands.Range[int, 5, 60] = 20,
        strategy_cards: bool = True,
        speed: Literal["relaxed", "fast", "off"] = "relaxed",
        thread: bool = False,
    ) -> None:
        await open_table_command(
            interaction,
            GAME.key,
            seats=seats,
            speed=speed,
            rules={"track_length": track_length, "strategy_cards": strategy_cards},
            thread=thread,
        )

    @gifttrap.command(name="rules", description="How to play GiftTRAP, and the house rulings in force")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await send_rules(interaction, GAME)


async def setup(bot: Any) -> None:
    await bot.add_cog(GiftTrapCog(bot))
