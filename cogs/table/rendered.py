"""A view rendered once to its components, with the discord.py items it was built from taken apart.

discord.py's items form reference cycles: each points at its view (``_view``) and at the row or
container it sits in (``_parent``), which hold it in turn. A view the bot sends is garbage once
sent, and those cycles outlive it until the garbage collector finds them: some hundred objects per
message drawn, which made most of the reference cycles a click left (issue 35). Everything the bot
sends is stopped before it is sent (clicks arrive through the DynamicItems registered at
start-up), so discord.py only ever asks a sent view for its components: the view is rendered
once, its items are taken apart so that refcounting frees them, and discord.py gets a
``Rendered`` view that holds only the components, as plain data.
"""

from __future__ import annotations

import contextlib
import io
from typing import Any

import discord


def take_apart(view: discord.ui.View | discord.ui.LayoutView) -> None:
    """Break the cycles between ``view`` and its items (their ``_view`` and ``_parent``, a row's or
    container's ``_children``, a DynamicItem's own item), so refcounting frees them all."""
    items = list(view.walk_children())
    for item in items:
        inner = getattr(item, "item", None)  # a DynamicItem wraps the button or select it shows
        for part in (item, inner):
            if isinstance(part, discord.ui.Item):
                part._view = None
                part._parent = None
                if isinstance(getattr(part, "_children", None), list):
                    part._children = []  # type: ignore[attr-defined]
    view._children = []


def let_go(clicked: discord.ui.Item[Any], interaction: discord.Interaction[Any]) -> None:
    """After a click's handler, what it leaves behind made plain for refcounting:

    - the view discord.py parsed from the clicked message to find the clicked item
      (``View.from_message``, the whole message's items), which nothing uses any more;
    - the interaction's answer handle (``InteractionResponse`` points back at its interaction).
      The interaction itself may live on (an open panel is edited through it, which needs only
      its token); once dropped it then goes with its parsed message and all, instead of waiting
      in a cycle, possibly frozen (cogs/table/heap.py), for a collection. Every answer is made
      before the handler returns; a later ``interaction.response`` would be a fresh one."""
    view = clicked.view
    if view is not None:
        take_apart(view)
    clicked._view = None
    drop_answer_handle(interaction)


def drop_answer_handle(interaction: discord.Interaction[Any]) -> None:
    """Forget the interaction's answer handle once its handler has returned: the handle
    (``InteractionResponse``) points back at its interaction, a reference cycle that holds the
    interaction with its person, member and parsed data until a collection, or for good if it
    was frozen meanwhile (cogs/table/heap.py). Every answer is made before the handler returns;
    a later ``interaction.response`` would be a fresh one."""
    with contextlib.suppress(AttributeError):  # never asked for
        del interaction._cs_response  # type: ignore[attr-defined]


class Rendered(discord.ui.LayoutView):
    """What discord.py sends for a Components V2 view rendered beforehand: its components, and
    nothing to dispatch or store (it is stopped, like every view the bot sends)."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._rendered = components
        self.stop()

    def to_components(self) -> list[dict[str, Any]]:
        return self._rendered

    def has_components_v2(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


class RenderedRows(discord.ui.View):
    """The same for a classic view of action rows (a message that also has content or embeds)."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._rendered = components
        self.stop()

    def to_components(self) -> list[dict[str, Any]]:
        return self._rendered

    def has_components_v2(self) -> bool:
        return False

    def is_dispatchable(self) -> bool:
        return False


def rendered(view: discord.ui.LayoutView) -> Rendered:
    """``view`` rendered once (``to_components``) and taken apart."""
    components: list[dict[str, Any]] = view.to_components()  # type: ignore[no-untyped-call]
    take_apart(view)
    return Rendered(components)


def rendered_rows(view: discord.ui.View) -> RenderedRows:
    """A classic ``view`` rendered once and taken apart."""
    components = view.to_components()
    take_apart(view)
    return RenderedRows(components)


class Upload(discord.File):
    """A file to send from bytes, that leaves no reference cycle once sent.

    discord.py stubs the buffer's ``close`` while the file may be sent again, and its ``close``
    puts the buffer's own bound method back as an attribute of the buffer: the buffer then holds
    itself, and waits for the garbage collector (the last cycle a click left, issue 35). The stub
    is removed instead, so refcounting frees the buffer with the file."""

    def __init__(self, data: bytes, filename: str) -> None:
        super().__init__(io.BytesIO(data), filename=filename)

    def close(self) -> None:
        vars(self.fp).pop("close", None)  # the class's own close is the buffer's again
