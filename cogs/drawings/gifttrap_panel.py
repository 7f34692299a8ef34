"""GiftTRAP's private panel: a seat's gifts to give, tokens to place, Give More and Get More, and
Ready, drawn from the seat's own view, page by page (Discord allows five rows of components).

Also the small helpers every GiftTRAP drawing writes gifts and tokens with. The cog
(cogs/gifttrap.py) draws the public table and hands each seat's panel to ``GiftTrapPanel``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from cogs.table.buttons import ActionButton, ActionSelect
from cogs.table.model import Table
from rules.gifttrap import PRICES, TOKEN_LABELS, TOKENS, GiftTrapState
from rules.gifttrap.views import GiftTrapView
from rules.words import plural

SEAT_WORD = re.compile(r"\b[Ss]eat (\d+)\b")
TOKEN_EMOJI = {"great": "🤩", "good": "🙂", "ok": "😐", "noway": "🙅"}
# Each give/rank select takes a whole row; the fifth row holds the page tabs and Ready.
SELECTS_PER_PAGE = 4
NAME_WIDTH = 24


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


def state_of(table: Table) -> GiftTrapState:
    """The table's engine state, typed, so that its views are ``GiftTrapView``s."""
    assert isinstance(table.state, GiftTrapState)
    return table.state


def with_names(table: Table, text: str) -> str:
    """Engine texts say "seat 3"; people want names."""

    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1)) - 1
        return f"**{table.name(seat)}**" if 0 <= seat < len(table.seats) else match.group(0)

    return SEAT_WORD.sub(name, text)


def fit(lines: list[str], limit: int = 1024, *, newest_last: bool = True) -> str:
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


class GiftTrapPanel:
    def __init__(self) -> None:
        # (table id, seat) -> the panel page that person last looked at, so a live refresh or an
        # answer to a select keeps them on it. Panel-only state: losing it on restart is harmless.
        self._pages: dict[tuple[int, int], str] = {}

    def forget(self, table_id: int) -> None:
        """The game is over: its panels' pages are not needed any more."""
        for key in [k for k in self._pages if k[0] == table_id]:
            del self._pages[key]

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
        state = state_of(table)
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
            lines.append(f"\n⚠️ {with_names(table, note)}")
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
                                f"you give this one to {table.plain_name(other)}"[:100]
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
                        placeholder=f"Gift for {table.plain_name(r)}"[:150],
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
                        label=f"With my gift for {table.plain_name(r)}"[:100],
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
                        label=f"Under the gift from {table.plain_name(g)}"[:100],
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
