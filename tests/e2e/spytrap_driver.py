"""Scripted spies: they use the public table buttons when it is their turn and their private
panel for piles and prompts, always taking the first choice offered."""

from __future__ import annotations

from typing import Any

from tests.e2e.simhelpers import ACTION, buttons, selects

FINAL_PREFIX = "Spy Trap — "


def is_over(channel: Any) -> bool:
    last = channel.last_message
    if not (last and last.embeds):
        return False
    title = last.embeds[0].title or ""
    return (
        title.startswith(FINAL_PREFIX)
        and "round" not in title
        and any("Rematch" in (b.get("label") or "") for b in buttons(last))
    )


class Spy:
    def __init__(self, actor: Any, seat: int, channel: Any, table_message: Any) -> None:
        self.actor = actor
        self.seat = seat
        self.channel = channel
        self.table_message = table_message
        self.panel: Any = None

    async def open_panel(self) -> None:
        result = await self.actor.click(self.table_message, label="My spy panel")
        assert result.ephemeral
        self.panel = result.response

    async def step(self, table: Any) -> bool:
        """Do one thing if it is this spy's move. Returns whether it changed the table (a click on
        a stale public button is refused, and then time must pass for the table to redraw)."""
        before = table.version
        await self._step(table)
        return table.version != before

    async def _step(self, table: Any) -> bool:
        view = table.state.view(None)
        if view["phase"] == "over" or not view["active"][self.seat]:
            return False
        if view["prompt"] is None and view["phase"] == "draw" and self.seat == view["drawer"]:
            public = [
                b
                for b in buttons(self.channel.history()[0])
                if (b.get("custom_id") or "").startswith(f"gt:{table.id}:act:") and not b.get("disabled")
            ]
            if public:
                await self.actor.click(self.channel.history()[0], custom_id=public[0]["custom_id"])
                return True
        # Bids are made in the bidder's panel (its select and Pass), as are decisions and piles.
        mine = (
            (view["prompt"] or {}).get("seat") == self.seat
            or (view["phase"] == "pile" and not view["piles_done"][self.seat])
            or (view["phase"] == "bid" and view["prompt"] is None and view["to_bid"] == self.seat)
        )
        if not mine:
            return False
        if self.panel is None:
            await self.open_panel()
        elif f":{table.version}:" not in " ".join(b.get("custom_id") or "" for b in buttons(self.panel)):
            # Only a stale panel needs refreshing (Refresh keeps a half-built pile).
            refresh = [b for b in buttons(self.panel) if (b.get("custom_id") or "").endswith(":refresh")]
            if refresh:
                await self.actor.click(self.panel, custom_id=refresh[0]["custom_id"])
            else:
                await self.open_panel()
        for menu in selects(self.panel):
            await self.actor.select(self.panel, [menu["options"][0]["value"]], custom_id=menu["custom_id"])
            return True
        offered = [
            b
            for b in buttons(self.panel)
            if (m := ACTION.fullmatch(b.get("custom_id") or ""))
            and not b.get("disabled")
            and m.group(3) not in ("refresh", "nav-start")
        ]
        # Finish a pile before picking more cards; otherwise take the first choice.
        offered.sort(key=lambda b: not ACTION.fullmatch(b["custom_id"]).group(3).startswith("pile-"))
        if offered:
            await self.actor.click(self.panel, custom_id=offered[0]["custom_id"])
            return True
        return False


async def play_to_end(env: Any, spies: list[Spy], table: Any, channel: Any, *, max_steps: int = 3000) -> int:
    steps = 0
    while table.status == "playing":
        assert steps < max_steps, "the game did not finish"
        acted = False
        for spy in spies:
            acted = await spy.step(table) or acted
        if not acted:
            await env.advance_time(1.0)
        steps += 1
    await env.advance_time(2)
    return steps
