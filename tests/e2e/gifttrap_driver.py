"""Scripted people at a GiftTRAP table. Each decides from what their own panel shows (their seat's
view) and acts only through clicks: the public pack buttons, and in their private panel the page
tabs, one select per gift, token or strategy card, and Ready."""

from __future__ import annotations

from typing import Any

from tests.e2e.simhelpers import buttons, selects

FINAL_PREFIX = "GiftTRAP — "


def select_with(message: Any, prefix: str) -> dict[str, Any] | None:
    """The panel select whose action prefix is ``prefix`` (custom_id gs:<table>:<version>:<prefix>)."""
    for menu in selects(message):
        if menu["custom_id"].split(":", 3)[3] == prefix:
            return menu
    return None


def button_for(message: Any, action: str) -> dict[str, Any] | None:
    for b in buttons(message):
        cid = b.get("custom_id") or ""
        if cid.startswith("ga:") and cid.split(":", 3)[3] == action:
            return b
    return None


def public_button(message: Any, action: str) -> dict[str, Any] | None:
    for b in buttons(message):
        if (b.get("custom_id") or "").endswith(f":act:{action}"):
            return b
    return None


def is_over(channel: Any) -> bool:
    last = channel.last_message
    if not (last and last.embeds):
        return False
    title = last.embeds[0].title or ""
    return title.startswith(FINAL_PREFIX) and any("Rematch" in (b.get("label") or "") for b in buttons(last))


async def open_lobby(
    env: Any,
    bot: Any,
    *,
    seed: int,
    people: tuple[str, ...] = ("alice", "bob"),
    cpus: tuple[str, ...] = ("casual", "thoughtful"),
    seats: int = 4,
    track_length: int = 6,
    speed: str = "fast",
    strategy_cards: bool = True,
) -> dict[str, Any]:
    """A started table: people join, the host adds the computers and presses Start."""
    bot.referee.new_seed = lambda: seed
    guild = env.create_guild()
    channel = guild.create_text_channel("gift-night")
    actors = [guild.add_member(env.create_user(name)) for name in people]
    host = actors[0]
    result = await host.slash(
        channel,
        "gifttrap new",
        seats=seats,
        track_length=track_length,
        speed=speed,
        strategy_cards=strategy_cards,
    )
    assert result.ephemeral, "opening a table answers the host privately"
    lobby = channel.last_message
    for other in actors[1:]:
        await other.click(lobby, label="Join")
    for level in cpus:
        await host.click(lobby, label=f"Add computer: {level}")
    await host.click(lobby, label="Start")
    table = bot.referee.tables[max(bot.referee.tables)]
    people_list = [Person(env, actor, seat, channel, lobby) for seat, actor in enumerate(actors)]
    return {"guild": guild, "channel": channel, "lobby": lobby, "table": table, "people": people_list}


class Person:
    """One scripted person: gives gifts in space order, ranks the first gifts, backs the first
    receiver's gift with Give More, puts Get More under the first giver's gift, presses Ready."""

    def __init__(self, env: Any, actor: Any, seat: int, channel: Any, table_message: Any) -> None:
        self.env = env
        self.actor = actor
        self.seat = seat
        self.channel = channel
        self.table_message = table_message
        self._panel: Any = None
        self._dm_panel: int | None = None
        self.answers: list[Any] = []

    @property
    def panel(self) -> Any:
        """The panel as it is now (a DM panel is read afresh: history gives snapshots)."""
        if self._dm_panel is not None:
            return next(m for m in self.actor.user.dm_channel.history() if m.id == self._dm_panel)
        return self._panel

    @panel.setter
    def panel(self, message: Any) -> None:
        self._panel = message

    @property
    def clicker(self) -> Any:
        """Who clicks the panel: in a DM it is the user, not the server member."""
        return self.actor.user if self._dm_panel is not None else self.actor

    async def take_dm_route(self) -> None:
        await self.actor.click(self.table_message, label="Hand by DM")
        self._dm_panel = self.actor.user.dm_channel.history()[-1].id

    async def open_panel(self) -> None:
        if self._dm_panel is not None:
            await self.take_dm_route()
            return
        result = await self.actor.click(self.table_message, label="My gifts")
        assert result.ephemeral
        self.panel = result.response

    def panel_version(self) -> int | None:
        for b in buttons(self.panel):
            cid = b.get("custom_id") or ""
            if cid.startswith("ga:"):
                return int(cid.split(":")[2])
        return None

    async def fresh_panel(self, table: Any) -> None:
        """A panel drawn at the table's current version (a stale one is refreshed by Refresh, or by
        picking its step again in the step select)."""
        if self.panel is None:
            await self.open_panel()
            return
        if self.panel_version() == table.version:
            return
        for b in buttons(self.panel):
            cid = b.get("custom_id") or ""
            if cid.endswith(":refresh") or ":nav-" in cid:
                await self.clicker.click(self.panel, custom_id=cid)
                return
        steps = select_with(self.panel, "nav-")
        if steps is not None:
            step = next(
                (o["value"] for o in steps["options"] if o.get("default")), steps["options"][0]["value"]
            )
            await self.clicker.select(self.panel, [step], custom_id=steps["custom_id"])
            return
        await self.open_panel()

    async def choose(self, prefix: str, value: str) -> Any:
        menu = select_with(self.panel, prefix)
        assert menu is not None, f"no {prefix} select on the panel"
        result = await self.clicker.select(self.panel, [value], custom_id=menu["custom_id"])
        self.answers.append(result)
        return result

    async def show_page(self, step: str) -> None:
        """Go to a step of the panel ("g<seat>", "t<token>", "off", "gm", "km") with its step select."""
        menu = select_with(self.panel, "nav-")
        assert menu is not None, "no step select on the panel"
        assert step in [o["value"] for o in menu["options"]], f"no {step} step on the panel"
        await self.clicker.select(self.panel, [step], custom_id=menu["custom_id"])

    def plan(self, view: dict[str, Any]) -> tuple[str, str, str] | None:
        """The next (step, select prefix, value) this person fills in, or None when all is set."""
        my = view["my"]
        spaces = [g["space"] for g in view["layout"]]
        if my["to_give"]:
            receiver = my["to_give"][0]
            used = {s for s in my["gives"] if s is not None}
            space = next(s for s in spaces if s not in used)
            return f"g{receiver}", f"give-{receiver}-", str(space)
        if my["to_rank"]:
            token = my["to_rank"][0]
            taken = set(my["ranks"].values())
            # GREAT, GOOD and OK on the lowest numbers, NO WAY on the highest.
            order = list(reversed(spaces)) if token == "noway" else spaces
            space = next(s for s in order if s not in taken)
            return f"t{token}", f"rank-{token}-", str(space)
        if view["strategy_cards"]:
            first = next(r for r in range(view["players"]) if r != self.seat)
            if my["give_more"] is None:
                return "gm", "givemore-", str(first)
            if my["get_more"] is None:
                return "km", "getmore-", str(first)
        return None

    async def step(self, table: Any) -> bool:
        """Do one thing if something is this person's to do. True if a click changed the game."""
        if table.status != "playing":
            return False
        view = table.state.view(self.seat)
        phase = view["phase"]
        if phase == "pack" and view["dealer"] == self.seat:
            # Public buttons act on the current state: the stored table message has them now.
            await self.actor.click(self.table_message, custom_id=f"gt:{table.id}:act:pack-2")
            return True
        if phase != "choosing" or view["my"]["ready"]:
            return False
        await self.fresh_panel(table)
        planned = self.plan(view)
        if planned is None:
            ready = button_for(self.panel, "ready")
            assert ready is not None
            await self.clicker.click(self.panel, custom_id=ready["custom_id"])
            return True
        page, prefix, value = planned
        if select_with(self.panel, prefix) is None:
            await self.show_page(page)
        before = table.version
        await self.choose(prefix, value)
        return table.version != before


async def play_to_end(
    env: Any,
    people: list[Person],
    table: Any,
    channel: Any,
    *,
    max_steps: int = 2000,
    on_step: Any = None,
    tick: float = 1.0,
) -> int:
    """Everyone acts until nothing is theirs to do, then time runs on (computers, the reveal)."""
    steps = 0
    while table.status == "playing":
        assert steps < max_steps, "the game did not finish"
        acted = False
        for p in people:
            acted = await p.step(table) or acted
        if on_step is not None:
            await on_step(steps)
        if not acted:
            await env.advance_time(tick)
        steps += 1
    await env.advance_time(2)  # the final table edit and the results post
    return steps
