"""The bot's buttons: DynamicItems whose custom_id names the table (and, on panels, the version).

Registered once with ``bot.add_dynamic_items``; no View object is kept per message or per panel,
so buttons keep working after a restart and cost nothing while nobody clicks. The callbacks only
parse the custom_id and hand over to the Referee, without awaiting anything first, so the
referee takes the table lock before the handler's first await and arrival order decides races.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from cogs.table.languages import Spoken
from cogs.table.rendered import let_go, rendered_rows


class ClickHandler(Protocol):
    """Whoever takes the clicks (the referee, ``bot.referee``): the buttons only parse."""

    async def on_table_button(
        self, interaction: discord.Interaction[Any], table_id: int, verb: str, arg: str | None
    ) -> None: ...

    async def on_action_button(
        self, interaction: discord.Interaction[Any], table_id: int, version: int, action: str
    ) -> None: ...


TABLE_ID = re.compile(r"gt:(?P<tid>\d{1,18}):(?P<verb>[a-z_]{1,16})(?::(?P<arg>[A-Za-z0-9_+>\-]{1,48}))?")
ACTION_ID = re.compile(r"ga:(?P<tid>\d{1,18}):(?P<ver>\d{1,9}):(?P<action>[A-Za-z0-9_+>\-]{1,48})")
# A select on a panel: the chosen option's value is appended to the prefix to make the action.
SELECT_ID = re.compile(r"gs:(?P<tid>\d{1,18}):(?P<ver>\d{1,9}):(?P<prefix>[A-Za-z0-9_+>\-]{0,40})")
# A select on a lobby (host only): the verb and the chosen value.
LOBBY_SELECT_ID = re.compile(r"gl:(?P<tid>\d{1,18}):(?P<verb>[a-z_]{1,16})")
PATTERNS = (TABLE_ID, ACTION_ID, SELECT_ID, LOBBY_SELECT_ID)
# Option values must keep the joined action inside the engine's action alphabet.
VALUE = re.compile(r"[A-Za-z0-9_+>\-]{1,48}")


def _referee(interaction: discord.Interaction[Any]) -> ClickHandler:
    # The bot sets .referee before it takes any interaction (bot.py); discord.py's Client type
    # does not know the attribute.
    return interaction.client.referee  # type: ignore[no-any-return]


class TableButton(Spoken, discord.ui.DynamicItem[discord.ui.Button[Any]], template=TABLE_ID.pattern):
    """Lobby and table-message buttons: join, leave, cpu:<level>, start, cancel, hand, dm, rematch…"""

    def __init__(
        self,
        table_id: int,
        verb: str,
        arg: str | None = None,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        custom_id = f"gt:{table_id}:{verb}" + (f":{arg}" if arg else "")
        super().__init__(
            discord.ui.Button(
                label=label, style=style, emoji=emoji, disabled=disabled, row=row, custom_id=custom_id
            )
        )
        self.table_id = table_id
        self.verb = verb
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls(int(match["tid"]), match["verb"], match["arg"], label=_label(item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await _referee(interaction).on_table_button(interaction, self.table_id, self.verb, self.arg)
        finally:
            let_go(self, interaction)


class ActionButton(Spoken, discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTION_ID.pattern):
    """A panel button: one engine action at the state version the panel was drawn from."""

    def __init__(
        self,
        table_id: int,
        version: int,
        action: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                disabled=disabled,
                row=row,
                custom_id=f"ga:{table_id}:{version}:{action}",
            )
        )
        self.table_id = table_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        return cls(int(match["tid"]), int(match["ver"]), match["action"], label=_label(item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await _referee(interaction).on_action_button(
                interaction, self.table_id, self.version, self.action
            )
        finally:
            let_go(self, interaction)


class ActionSelect(Spoken, discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_ID.pattern):
    """A panel select: picking option ``v`` applies the action ``prefix + v`` at this version."""

    def __init__(
        self,
        table_id: int,
        version: int,
        prefix: str,
        options: list[discord.SelectOption],
        *,
        placeholder: str | None = None,
        row: int | None = None,
        disabled: bool = False,
        component_id: int | None = None,
    ) -> None:
        # ``component_id``: Discord's numeric id of the component in its message. A client may keep
        # a person's pick per component while the message is edited (the offline page does); a new
        # id makes it draw the select afresh from its options, as a refused pick needs.
        super().__init__(
            discord.ui.Select(
                custom_id=f"gs:{table_id}:{version}:{prefix}",
                options=options[:25],
                placeholder=placeholder,
                row=row,
                disabled=disabled,
                min_values=1,
                max_values=1,
                id=component_id,
            )
        )
        self.table_id = table_id
        self.version = version
        self.prefix = prefix

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionSelect:
        return cls(int(match["tid"]), int(match["ver"]), match["prefix"], _options(item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        value = _chosen(interaction)
        try:
            await _referee(interaction).on_action_button(
                interaction, self.table_id, self.version, self.prefix + value
            )
        finally:
            let_go(self, interaction)


class LobbySelect(Spoken, discord.ui.DynamicItem[discord.ui.Select[Any]], template=LOBBY_SELECT_ID.pattern):
    """A lobby select for the host, e.g. swapping two seats to arrange partners."""

    def __init__(
        self,
        table_id: int,
        verb: str,
        options: list[discord.SelectOption],
        *,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"gl:{table_id}:{verb}", options=options[:25], placeholder=placeholder, row=row
            )
        )
        self.table_id = table_id
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbySelect:
        return cls(int(match["tid"]), match["verb"], _options(item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await _referee(interaction).on_table_button(
                interaction, self.table_id, self.verb, _chosen(interaction)
            )
        finally:
            let_go(self, interaction)


_NONE = discord.SelectOption(label="—", value="none")  # text: an internal value


def _label(item: discord.ui.Item[Any]) -> str | None:
    return item.label if isinstance(item, discord.ui.Button) else None


def _options(item: discord.ui.Item[Any]) -> list[discord.SelectOption]:
    return (list(item.options) if isinstance(item, discord.ui.Select) else []) or [_NONE]


def payload(interaction: discord.Interaction[Any]) -> dict[str, Any]:
    """The interaction's raw data as plain JSON. discord.py types it as a union of payload
    TypedDicts, but a forged client can send anything, so it is read defensively as JSON."""
    data = interaction.data
    return dict(data) if isinstance(data, dict) else {}


def _chosen(interaction: discord.Interaction[Any]) -> str:
    values = payload(interaction).get("values") or [""]
    value = str(values[0])
    # A forged value outside the action alphabet becomes one the engine will refuse.
    return value if VALUE.fullmatch(value) else "invalid"


def is_ours(custom_id: str) -> bool:
    return any(p.fullmatch(custom_id) for p in PATTERNS)


def on_message(interaction: discord.Interaction[Any], custom_id: str) -> bool:
    """Whether the clicked custom_id is really on the message clicked.

    discord.py drops a DynamicItem click whose custom_id is not on the message (only a forged
    client can send one), which would leave the clicker with "This interaction failed"."""
    message = interaction.message
    if message is None:
        return False
    kind = payload(interaction).get("component_type")
    found: list[tuple[str, int]] = []
    _walk(message.components, found)
    # A forged payload may name a real custom_id with the wrong component type (a select sent as
    # a button); discord.py drops that too, so it counts as not on the message.
    return any(cid == custom_id and (kind is None or int(kind) == ctype) for cid, ctype in found)


def _walk(components: Any, found: list[tuple[str, int]]) -> None:
    """Every custom_id in ``components`` and their children, with its component type. A module
    function: a nested one that calls itself is a reference cycle, made afresh on every click."""
    for c in components or []:
        cid = getattr(c, "custom_id", None)
        if cid:
            found.append((cid, int(getattr(c.type, "value", c.type))))
        _walk(getattr(c, "children", None), found)


async def route_unlisted(interaction: discord.Interaction[Any], custom_id: str) -> None:
    """Send a click on a button that is not on its message through the normal checks."""
    referee = _referee(interaction)
    table = TABLE_ID.fullmatch(custom_id)
    if table:
        await referee.on_table_button(interaction, int(table["tid"]), table["verb"], table["arg"])
        return
    action = ACTION_ID.fullmatch(custom_id)
    if action:
        await referee.on_action_button(interaction, int(action["tid"]), int(action["ver"]), action["action"])
        return
    select = SELECT_ID.fullmatch(custom_id)
    if select:
        value = _chosen(interaction)
        await referee.on_action_button(
            interaction, int(select["tid"]), int(select["ver"]), select["prefix"] + value
        )
        return
    lobby = LOBBY_SELECT_ID.fullmatch(custom_id)
    if lobby:
        await referee.on_table_button(interaction, int(lobby["tid"]), lobby["verb"], _chosen(interaction))
        return


def view_of(items: list[discord.ui.Item[Any]]) -> discord.ui.View:
    """A throwaway View that only carries components to Discord.

    It is stopped before it is sent: discord.py then neither stores it nor, for an ephemeral
    panel, starts the 15-minute timeout task it forces on ephemeral views — one sleeping task
    per panel otherwise. Clicks still arrive, through the DynamicItems registered at start-up."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    # Sent as its components only, the items taken apart: no reference cycles left behind
    # (cogs/table/rendered.py).
    return rendered_rows(view)


def parse_only_listed(client: discord.Client) -> None:
    """Keep discord.py from parsing a clicked message for a click its DynamicItems would drop.

    For every click a DynamicItem's template matches, discord.py parses the clicked message's
    whole view (``View.from_message``) to find the item, and drops the click when its custom_id
    is not on the message: a button a newer drawing replaced (a quick player's click on a panel
    that just changed) or a forged one. That parsed view's items point at their view and rows,
    reference cycles left for the garbage collector at every such click: most of what a busy
    table left in cycles (issue 35). Those clicks are answered by the catch-all (cogs/tables.py)
    without it, so here they are not parsed at all."""
    store = client._connection._view_store
    parse = store.schedule_dynamic_item_call

    async def listed_only(
        component_type: int,
        factory: Any,
        interaction: discord.Interaction[Any],
        custom_id: str,
        match: Any,
    ) -> None:
        if on_message(interaction, custom_id):
            await parse(component_type, factory, interaction, custom_id, match)

    store.schedule_dynamic_item_call = listed_only  # type: ignore[method-assign]
