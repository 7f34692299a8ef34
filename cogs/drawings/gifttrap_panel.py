"""GiftTRAP's private panel: a seat's gifts to give, tokens to place, Give More and Get More, and
Ready, drawn from the seat's own view, page by page (Discord allows five rows of components).

Also the small helpers every GiftTRAP drawing writes gifts and tokens with (the tokens' names are in
gifttrap_cards.py). The cog (cogs/gifttrap.py) draws the public table and hands each seat's panel
to ``GiftTrapPanel``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

import discord

from cogs.drawings.gifttrap_cards import TOKEN_NAMES, name_of, token_label
from cogs.table.buttons import ActionButton, ActionSelect
from cogs.table.layout import FRESH_IDS
from cogs.table.model import Table
from cogs.texts import Texts
from rules.gifttrap import PRICES, TOKENS, GiftTrapState
from rules.gifttrap.views import GiftTrapView

T = Texts(__name__)


def fresh_ids(counter: Iterator[int]) -> Iterator[int]:
    """Eight new component ids (a page has at most four selects): above the ones the layout gives
    by place (cogs/table/layout.py), never the same twice from one ``counter`` (the panel's own, so
    that the same game drawn twice gets the same ids: the golden payloads compare them)."""
    base = FRESH_IDS + (next(counter) % 200_000_000) * 8
    return iter(range(base, base + 8))


TOKEN_EMOJI = {"great": "🤩", "good": "🙂", "ok": "😐", "noway": "🙅"}
# Each give/rank select takes a whole row; the fifth row holds the page tabs and Ready.
SELECTS_PER_PAGE = 4
NAME_WIDTH = 24


def gift_text(gift: Mapping[str, Any]) -> str:
    """A gift as every message writes it: its space, emoji and name ("3. 🧸 Teddy bear"), the name
    in the language spoken now, found by the gift's id (a record made before gifts had ids keeps
    the name it was stored with)."""
    return f"{gift['space']}. {gift['emoji']} {name_of(gift)}"


def short_gift(gift: Mapping[str, Any]) -> str:
    return f"{gift['space']}. {gift['emoji']}"


def token_line(token: str, gift: Mapping[str, Any] | None, *, short: bool = False) -> str:
    """A token and the gift under it ("GREAT +3 → 3. 🧸 Teddy bear")."""
    if gift is None:
        return T.gettext("{token} → — not placed yet", token=token_label(token))
    return T.gettext(
        "{token} → {gift}", token=token_label(token), gift=short_gift(gift) if short else gift_text(gift)
    )


def state_of(table: Table) -> GiftTrapState:
    """The table's engine state, typed, so that its views are ``GiftTrapView``s."""
    assert isinstance(table.state, GiftTrapState)
    return table.state


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
        self._fresh = itertools.count(1)  # for selects drawn afresh (``fresh_ids``)

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
            if chunks == 1:
                label = T.pgettext("tab", "Give")
            else:
                first, last = c * SELECTS_PER_PAGE + 1, min(len(receivers), (c + 1) * SELECTS_PER_PAGE)
                # Translators: a tab of the panel: the gifts for the other players first to last.
                label = T.pgettext("tab", "Give {first}–{last}", first=first, last=last)
            pages.append((f"give{c + 1}", label))
        pages.append(("rank", T.pgettext("tab", "Tokens")))
        pages.append(
            (
                "cards",
                T.pgettext("tab", "Cards") if view["strategy_cards"] else T.pgettext("tab", "Swap tokens"),
            )
        )
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
        embed = discord.Embed(
            title=T.gettext("Your gifts — round {round}", round=view["round"]),
            colour=discord.Colour.magenta(),
        )
        lines: list[str] = []
        items: list[discord.ui.Item[Any]] = []
        v = table.version
        if phase == "pack":
            if seat == view["dealer"]:
                lines.append(
                    T.gettext("**You deal this round: pick a pack.** $ is cheap and cheerful, $$$$ lavish.")
                )
                for pack, price in sorted(PRICES.items()):
                    items.append(
                        ActionButton(
                            table.id,
                            v,
                            f"pack-{pack}",
                            label=T.pgettext("button", "{price} pack", price=price),
                            style=discord.ButtonStyle.primary,
                            row=0,
                        )
                    )
            else:
                lines.append(
                    T.gettext(
                        "**{dealer}** is picking the pack for this round.", dealer=table.name(view["dealer"])
                    )
                )
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
                todo.append(
                    T.ngettext("{n} gift still to give", "{n} gifts still to give", len(my["to_give"]))
                )
            if my["to_rank"]:
                todo.append(
                    T.ngettext("{n} token still to place", "{n} tokens still to place", len(my["to_rank"]))
                )
            if len(todo) == 2:
                left = T.gettext("{gifts} · {tokens}.", gifts=todo[0], tokens=todo[1])
            elif todo:
                left = T.gettext("{left}.", left=todo[0])
            else:
                left = T.gettext("All set: press **Ready** to lock it in.")
            lines.append("\n👉 " + left)
            items += self._page_items(table, view, page, fresh=note is not None)
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
                    label=T.pgettext("button", "Ready"),
                    emoji="✅",
                    style=discord.ButtonStyle.success if "ready" in legal else discord.ButtonStyle.secondary,
                    row=4,
                )
            )
        else:
            if phase == "choosing":
                lines.append(
                    T.gettext("✅ **You are ready.** Your choices are locked in; waiting for the others.")
                )
            elif phase == "reveal":
                lines.append(T.gettext("🎁 **The reveal is on** — watch the table."))
            elif phase == "between_rounds":
                lines.append(
                    T.gettext("The round is over. Press **Next round** when everyone has had a look.")
                )
                items.append(
                    ActionButton(
                        table.id,
                        v,
                        "next",
                        label=T.pgettext("button", "Next round"),
                        emoji="▶️",
                        style=discord.ButtonStyle.success,
                        row=0,
                    )
                )
            if phase in ("choosing", "reveal"):
                lines += self._choice_lines(table, view)
        if my["gifttrap_available"]:
            lines.append(
                "\n"
                + T.gettext(
                    "🪤 Your GiftTRAP card is unused: press a **GiftTRAP** button on the table, any "
                    "time until the last gift is unwrapped."
                )
            )
        elif view["strategy_cards"] and view["gifttrap_used"][seat]:
            lines.append("\n" + T.gettext("🪤 You have played your GiftTRAP card (once a game)."))
        if note:
            lines.append(f"\n⚠️ {note}")
        embed.description = "\n".join(lines)[:4096]
        get, give = view["get_track"][seat], view["give_track"][seat]
        embed.set_footer(
            text=T.gettext(
                "Your GET {get} · GIVE {give} of {length} · only you can see this panel",
                get=get,
                give=give,
                length=view["track_length"],
            )
        )
        if not any(getattr(i, "action", "").startswith("nav-") for i in items):
            refresh = T.pgettext("button", "Refresh")
            items.append(ActionButton(table.id, v, "refresh", label=refresh, emoji="🔄", row=4))
        return embed, items

    def _choice_lines(self, table: Table, view: GiftTrapView) -> list[str]:
        """This seat's own choices so far (its own view only)."""
        my = view["my"]
        me = view["seat"]
        gifts = {g["space"]: g for g in view["layout"]}
        lines = [T.gettext("**Your gifts to the others**")]
        for r in range(view["players"]):
            if r == me:
                continue
            space = my["gives"][r]
            chosen = gift_text(gifts[space]) if space is not None else T.gettext("— not chosen yet")
            lines.append(T.gettext("→ **{name}**: {gift}", name=table.name(r), gift=chosen))
        if view["strategy_cards"]:
            if my["give_more"] is not None:
                # Translators: Give More and GET/GIVE are the game's own terms (its cards and tracks).
                lines.append(
                    T.gettext("💝 Give More: with your gift for **{name}**", name=table.name(my["give_more"]))
                )
            else:
                lines.append(
                    T.gettext("💝 Give More: not played (optional, doubles your GIVE move for one gift)")
                )
        lines.append(T.gettext("**Your tokens**"))
        for token in TOKENS:
            space = my["ranks"].get(token)
            lines.append(f"{TOKEN_EMOJI[token]} " + token_line(token, gifts.get(space) if space else None))
        if view["strategy_cards"]:
            if my["get_more"] is not None:
                # Translators: Get More and GET/GIVE are the game's own terms (its cards and tracks).
                lines.append(
                    T.gettext("🔍 Get More: under the gift from **{name}**", name=table.name(my["get_more"]))
                )
            else:
                lines.append(
                    T.gettext("🔍 Get More: not played (optional, doubles your GET move for one gift)")
                )
        return lines

    def _page_items(
        self, table: Table, view: GiftTrapView, page: str, *, fresh: bool = False
    ) -> list[discord.ui.Item[Any]]:
        """The page's selects. ``fresh``: drawn after a click that changed nothing (a refused pick,
        a panel too old), so they get new component ids and a client that kept the refused pick
        shows what is really chosen (nothing, for a gift already given to someone else)."""
        my = view["my"]
        me = view["seat"]
        v = table.version
        layout = view["layout"]
        items: list[discord.ui.Item[Any]] = []
        ids = fresh_ids(self._fresh) if fresh else None
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
                            # The chosen one is what the closed select shows: it says whose it is.
                            label=T.gettext(
                                "For {name}: {gift}", name=table.plain_name(r), gift=gift_text(gift)
                            )[:100],
                            value=str(gift["space"]),
                            default=my["gives"][r] == gift["space"],
                            description=(
                                T.gettext("you give this one to {name}", name=table.plain_name(other))[:100]
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
                        placeholder=T.gettext("Gift for {name}", name=table.plain_name(r))[:150],
                        row=row,
                        component_id=next(ids) if ids else None,
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
                            # "GREAT: 3. 🧸 Teddy bear": four closed selects of bare gift names
                            # didn't say which held GREAT and which NO WAY.
                            label=T.gettext(
                                "{token}: {gift}", token=T.gettext(TOKEN_NAMES[token]), gift=gift_text(gift)
                            )[:100],
                            value=str(gift["space"]),
                            default=my["ranks"].get(token) == gift["space"],
                            description=(
                                T.gettext("your {token} token is here", token=token_label(held))
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
                        placeholder=T.gettext(
                            "{emoji} {token} goes on…", emoji=TOKEN_EMOJI[token], token=token_label(token)
                        ),
                        row=row,
                        component_id=next(ids) if ids else None,
                    )
                )
        else:
            others = [r for r in range(view["players"]) if r != me]
            row = 0
            if view["strategy_cards"]:
                more = [
                    discord.SelectOption(
                        label=T.gettext("No Give More"),
                        value="none",  # text: an action's value
                        default=my["give_more"] is None,
                    )
                ]
                more += [
                    discord.SelectOption(
                        label=T.gettext("With my gift for {name}", name=table.plain_name(r))[:100],
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
                        placeholder=T.gettext("💝 Give More (doubles your GIVE move for one gift)"),
                    )
                )
                get = [
                    discord.SelectOption(
                        label=T.gettext("No Get More"),
                        value="none",  # text: an action's value
                        default=my["get_more"] is None,
                    )
                ]
                get += [
                    discord.SelectOption(
                        label=T.gettext("Under the gift from {name}", name=table.plain_name(g))[:100],
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
                        placeholder=T.gettext("🔍 Get More (doubles your GET move for one gift)"),
                    )
                )
                row += 2
            gifts = {g["space"]: g for g in layout}
            placed = sorted((space, token) for token, space in my["ranks"].items())
            if placed:
                options = [
                    discord.SelectOption(
                        label=T.gettext(
                            "{token} off {gift}", token=token_label(token), gift=gift_text(gifts[space])
                        )[:100],
                        value=str(space),
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
                        placeholder=T.gettext("Take a token off a gift (to swap two tokens)"),
                    )
                )
        return items
