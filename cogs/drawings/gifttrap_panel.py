"""GiftTRAP's private panel: a seat's gifts to give, tokens to place, Give More and Get More, and
Ready, drawn from the seat's own view one step at a time, so that it fits one phone screen with
any number of players (issue 33).

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
    """Eight new component ids (a panel has two selects): above the ones the layout gives
    by place (cogs/table/layout.py), never the same twice from one ``counter`` (the panel's own, so
    that the same game drawn twice gets the same ids: the golden payloads compare them)."""
    base = FRESH_IDS + (next(counter) % 200_000_000) * 8
    return iter(range(base, base + 8))


TOKEN_EMOJI = {"great": "🤩", "good": "🙂", "ok": "😐", "noway": "🙅"}
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
    """Each seat's panel while choosing is one step at a time, in two selects: the step (a gift
    for one player, one token, a card) and the choice for it, then Ready. Issue 33: a select per
    player and per token (up to seven plus four) and a text line per choice made the panel two
    phone screens tall; the step select is the checklist instead (each step with ✅ once done
    and what it holds), and after a choice the panel moves on to the next open step."""

    def __init__(self) -> None:
        # (table id, seat) -> the step that person is on and their choices when it was drawn, so a
        # live refresh keeps them on it and their own choice moves them on. Panel-only state:
        # losing it on restart is harmless.
        self._pages: dict[tuple[int, int], tuple[str, tuple[Any, ...]]] = {}
        self._fresh = itertools.count(1)  # for selects drawn afresh (``fresh_ids``)

    def forget(self, table_id: int) -> None:
        """The game is over: its panels' steps are not needed any more."""
        for key in [k for k in self._pages if k[0] == table_id]:
            del self._pages[key]

    @staticmethod
    def steps(view: GiftTrapView) -> list[str]:
        """The choosing steps, in order: "g<seat>" a gift for that player, "t<token>" a token,
        "off" taking a token off (to swap two), "gm" Give More and "km" Get More."""
        me = view["seat"]
        my = view["my"]
        out = [f"g{r}" for r in range(view["players"]) if r != me]
        out += [f"t{t}" for t in TOKENS]
        if my["ranks"]:
            out.append("off")
        if view["strategy_cards"]:
            out += ["gm", "km"]
        return out

    @staticmethod
    def _holds(view: GiftTrapView, step: str) -> Any:
        """What a step holds now (None: nothing chosen yet)."""
        my = view["my"]
        if step.startswith("g") and step[1:].isdigit():
            return my["gives"][int(step[1:])]
        if step.startswith("t"):
            placed: dict[str, int] = {t: space for t, space in my["ranks"].items()}
            return placed.get(step[1:])
        if step == "gm":
            return my["give_more"]
        if step == "km":
            return my["get_more"]
        return None

    def _next_step(self, view: GiftTrapView, after: str | None = None) -> str:
        """The first step still open after ``after`` (from the top again at the end): a gift or a
        token first, then the optional cards; the first step when all are done."""
        steps = self.steps(view)
        start = steps.index(after) + 1 if after in steps else 0
        ring = steps[start:] + steps[:start]
        required = [s for s in ring if s not in ("off", "gm", "km")]  # the gifts and tokens
        for step in required + [s for s in ring if s in ("gm", "km")]:
            if self._holds(view, step) is None:
                return step
        return steps[0]

    def _step(self, table: Table, seat: int, view: GiftTrapView, nav: str | None) -> str:
        my = view["my"]
        snapshot = (
            view["round"],
            tuple(my["gives"]),
            tuple(sorted(my["ranks"].items())),
            my["give_more"],
            my["get_more"],
        )
        steps = self.steps(view)
        key = (table.id, seat)
        if nav in steps:
            step = nav
        else:
            stored = self._pages.get(key)
            # Their own choice changed something since it was drawn: on to the next open step.
            if stored is not None and stored[0] in steps and stored[1] == snapshot:
                step = stored[0]
            else:
                same_round = stored is not None and stored[1][:1] == snapshot[:1]
                step = self._next_step(view, stored[0] if stored is not None and same_round else None)
        self._pages[key] = (step, snapshot)
        return step

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
            # One status line: what is left. What is chosen, the selects and the picture show.
            step = self._step(table, seat, view, nav)
            lines.append(self._left(view))
            items.append(self._steps_select(table, view, step))
            items.append(self._choice_select(table, view, step, fresh=note is not None))
            items.append(
                ActionButton(
                    table.id,
                    v,
                    "ready",
                    label=T.pgettext("button", "Ready"),
                    emoji="✅",
                    style=discord.ButtonStyle.success if "ready" in legal else discord.ButtonStyle.secondary,
                    row=2,
                )
            )
        else:
            if phase == "choosing":
                # That the choices are locked in, the select below says.
                lines.append(T.gettext("✅ **You are ready**: waiting for the others."))
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
                # What one chose, in the steps' own select: a line per choice made the panel
                # two phone screens tall with eight players (issue 33).
                items.append(
                    self._steps_select(
                        table, view, None, placeholder=T.gettext("🔒 Your choices, locked in (open to see)")
                    )
                )
        if note:
            lines.append(f"⚠️ {note}")
        embed.description = "\n".join(lines)[:4096]
        if phase != "choosing" or my["ready"]:
            # Not while choosing: the selects and Ready need the room on a phone, and the table
            # shows every track. The message says that only its reader sees it, and 🪤 is the
            # table's mark of a GiftTRAP card still to play (the quick start's "What you see"
            # explains both: cogs/symbols.py).
            get, give = view["get_track"][seat], view["give_track"][seat]
            footer = T.gettext(
                "Your GET {get} · GIVE {give} of {length}", get=get, give=give, length=view["track_length"]
            )
            embed.set_footer(text=footer + (" · 🪤" if my["gifttrap_available"] else ""))
        if not any(getattr(i, "action", "") == "ready" for i in items):
            # Beside Next round (a row of its own cost a phone a button's height).
            refresh = T.pgettext("button", "Refresh")
            row = 0 if phase == "between_rounds" or not items else 1
            items.append(ActionButton(table.id, v, "refresh", label=refresh, emoji="🔄", row=row))
        return embed, items

    @staticmethod
    def _left(view: GiftTrapView) -> str:
        """What is still to choose, in one short line (what is chosen, the selects show)."""
        my = view["my"]
        todo = []
        if my["to_give"]:
            todo.append(T.ngettext("{n} gift", "{n} gifts", len(my["to_give"])))
        if my["to_rank"]:
            todo.append(T.ngettext("{n} token", "{n} tokens", len(my["to_rank"])))
        if todo:
            # Translators: what is left to choose in the panel: "2 gifts · 4 tokens".
            return T.gettext("👉 To choose: {left}.", left=" · ".join(todo))
        return "👉 " + T.gettext("All set: press **Ready** to lock it in.")

    def _steps_select(
        self, table: Table, view: GiftTrapView, step: str | None, *, placeholder: str | None = None
    ) -> ActionSelect:
        """The checklist: every step, ✅ once done, with what it holds; picking one is panel-only
        (a "nav-…" step), so it never reaches the engine. ``step`` None: the choices locked in,
        shown when opened (picking one only draws the panel again)."""
        gifts = {g["space"]: g for g in view["layout"]}
        options = []
        for s in self.steps(view):
            if step is None and s == "off":
                continue
            held = self._holds(view, s)
            if s.startswith("g") and s[1:].isdigit():
                label = T.gettext("🎁 Gift for {name}", name=table.plain_name(int(s[1:])))
                about = gift_text(gifts[held]) if held in gifts else T.gettext("not chosen yet")
            elif s.startswith("t"):
                label = f"{TOKEN_EMOJI[s[1:]]} {token_label(s[1:])}"
                about = gift_text(gifts[held]) if held in gifts else T.gettext("not placed yet")
            elif s == "off":
                label = T.gettext("↩️ Take a token off (to swap two)")
                about = None
            elif s == "gm":
                label = T.gettext("💝 Give More (optional)")
                about = (
                    T.gettext("With my gift for {name}", name=table.plain_name(held))
                    if held is not None
                    else T.gettext("doubles your GIVE move for one gift")
                )
            else:
                label = T.gettext("🔍 Get More (optional)")
                about = (
                    T.gettext("Under the gift from {name}", name=table.plain_name(held))
                    if held is not None
                    else T.gettext("doubles your GET move for one gift")
                )
            done = held is not None
            options.append(
                discord.SelectOption(
                    label=(("✅ " if done else "") + label)[:100],
                    value=s,
                    default=s == step,
                    description=about[:100] if about else None,
                )
            )
        return ActionSelect(table.id, table.version, "nav-", options, row=0, placeholder=placeholder)

    def _choice_select(
        self, table: Table, view: GiftTrapView, step: str, *, fresh: bool = False
    ) -> discord.ui.Item[Any]:
        """The choice for the step. ``fresh``: drawn after a click that changed nothing (a refused
        pick, a panel too old), so it gets a new component id and a client that kept the refused
        pick shows what is really chosen (nothing, for a gift already given to someone else)."""
        my = view["my"]
        me = view["seat"]
        v = table.version
        layout = view["layout"]
        component_id = next(fresh_ids(self._fresh)) if fresh else None
        if step.startswith("g") and step[1:].isdigit():
            r = int(step[1:])
            given_to = {space: g for g, space in enumerate(my["gives"]) if space is not None}
            options = []
            for gift in layout:
                other = given_to.get(gift["space"])
                options.append(
                    discord.SelectOption(
                        # The chosen one is what the closed select shows: it says whose it is.
                        label=T.gettext("For {name}: {gift}", name=table.plain_name(r), gift=gift_text(gift))[
                            :100
                        ],
                        value=str(gift["space"]),
                        default=my["gives"][r] == gift["space"],
                        description=(
                            T.gettext("you give this one to {name}", name=table.plain_name(other))[:100]
                            if other is not None and other != r
                            else None
                        ),
                    )
                )
            return ActionSelect(
                table.id,
                v,
                f"give-{r}-",
                options,
                placeholder=T.gettext("Gift for {name}", name=table.plain_name(r))[:150],
                row=1,
                component_id=component_id,
            )
        if step.startswith("t") and step[1:] in TOKEN_EMOJI:
            token = step[1:]
            placed: dict[str, int] = {t: space for t, space in my["ranks"].items()}
            holding = {space: t for t, space in my["ranks"].items()}
            options = []
            for gift in layout:
                held = holding.get(gift["space"])
                options.append(
                    discord.SelectOption(
                        # "GREAT: 3. 🧸 Teddy bear": a bare gift name didn't say which token it is.
                        label=T.gettext(
                            "{token}: {gift}", token=T.gettext(TOKEN_NAMES[token]), gift=gift_text(gift)
                        )[:100],
                        value=str(gift["space"]),
                        default=placed.get(token) == gift["space"],
                        description=(
                            T.gettext("your {token} token is here", token=token_label(held))
                            if held is not None and held != token
                            else None
                        ),
                    )
                )
            return ActionSelect(
                table.id,
                v,
                f"rank-{token}-",
                options,
                placeholder=T.gettext(
                    "{emoji} {token} goes on…", emoji=TOKEN_EMOJI[token], token=token_label(token)
                ),
                row=1,
                component_id=component_id,
            )
        others = [r for r in range(view["players"]) if r != me]
        if step == "gm":
            return self._more_select(
                table,
                v,
                "givemore-",
                T.gettext("No Give More"),
                {r: T.gettext("With my gift for {name}", name=table.plain_name(r)) for r in others},
                my["give_more"],
                T.gettext("💝 Give More (doubles your GIVE move for one gift)"),
                component_id,
            )
        if step == "km":
            return self._more_select(
                table,
                v,
                "getmore-",
                T.gettext("No Get More"),
                {g: T.gettext("Under the gift from {name}", name=table.plain_name(g)) for g in others},
                my["get_more"],
                T.gettext("🔍 Get More (doubles your GET move for one gift)"),
                component_id,
            )
        # "off": a token off its gift, so that two can swap places (each goes on a different gift).
        gifts = {g["space"]: g for g in layout}
        on_gifts = sorted((space, token) for token, space in my["ranks"].items())
        options = [
            discord.SelectOption(
                label=T.gettext("{token} off {gift}", token=token_label(token), gift=gift_text(gifts[space]))[
                    :100
                ],
                value=str(space),
            )
            for space, token in on_gifts
        ]
        return ActionSelect(
            table.id,
            v,
            "unrank-",
            options,
            row=1,
            placeholder=T.gettext("Take a token off a gift (to swap two tokens)"),
            component_id=component_id,
        )

    @staticmethod
    def _more_select(
        table: Table,
        version: int,
        prefix: str,
        none_label: str,
        players: dict[int, str],
        chosen: int | None,
        placeholder: str,
        component_id: int | None,
    ) -> ActionSelect:
        """Give More or Get More: "none" or the player whose gift it doubles (``players``: each
        player's option label), the current choice shown as chosen."""
        nothing = "none"  # text: an action's value
        options = [discord.SelectOption(label=none_label, value=nothing, default=chosen is None)]
        options += [
            discord.SelectOption(label=label[:100], value=str(seat), default=chosen == seat)
            for seat, label in players.items()
        ]
        return ActionSelect(
            table.id, version, prefix, options, row=1, placeholder=placeholder, component_id=component_id
        )
