"""Scripted people at a Zap or Trap table. Each decides from what their own panel shows (their
seat's view: hand, table, their signal, the signal they watch for, public gestures) and acts only
by clicking what the bot drew: the signal select, the swap select, the public gesture palette,
ZAP.

A person: picks a fixed secret signal; ZAPs as soon as the seat they watch makes its real signal;
makes their own real signal once they hold a set (and again if nothing happens for a while);
otherwise swaps toward a set when a swap helps.
"""

from __future__ import annotations

from typing import Any

from cogs.drawings.zaptrap_words import card_label
from rules.zaptrap.players import hand_value
from tests.e2e.simhelpers import buttons, selects

FINAL_TITLE = "Zap or Trap — final results"
REPEAT_SIGNAL_AFTER = 8  # public events before a person with a set makes their signal again
GESTURE_COOLDOWN = 3.0


async def open_lobby(
    env: Any,
    *,
    seats: int = 4,
    people: tuple[str, ...] = ("alice", "bob"),
    cpus: tuple[str, ...] = ("casual", "casual"),
    **options: Any,
) -> dict[str, Any]:
    """A lobby with ``people`` seated in order (the first one hosts), then computer players."""
    guild = env.create_guild()
    channel = guild.create_text_channel("game-night")
    actors = [guild.add_member(env.create_user(name)) for name in people]
    host = actors[0]
    result = await host.slash(channel, "zaptrap new", seats=seats, **options)
    assert result.ephemeral, "opening a table answers the host privately"
    lobby = channel.last_message
    for other in actors[1:]:
        await other.click(lobby, label="Join")
    for level in cpus:
        await host.click(lobby, label=f"Add computer: {level}")
    return {"guild": guild, "channel": channel, "actors": actors, "host": host, "lobby": lobby}


def is_over(channel: Any) -> bool:
    last = channel.last_message
    return bool(last and last.embeds and last.embeds[0].title == FINAL_TITLE)


def current(channel: Any, message: Any) -> Any:
    """The message as it is now (a message object from earlier keeps its old components)."""
    return next(m for m in channel.history() if m.id == message.id)


def custom_id_for(message: Any, suffix: str) -> str | None:
    """The custom_id of the button on ``message`` whose action ends the id (":ZAP-2", ":refresh")."""
    for b in buttons(message):
        cid = b.get("custom_id") or ""
        if cid.endswith(f":{suffix}") and not b.get("disabled"):
            return cid
    return None


def panel_version(message: Any) -> int | None:
    for b in buttons(message):
        parts = (b.get("custom_id") or "").split(":")
        if parts[0] == "ga":
            return int(parts[2])
    return None


def select_id(message: Any) -> str | None:
    def walk(components: Any) -> str | None:
        for c in components or []:
            cid = c.get("custom_id") if isinstance(c, dict) else getattr(c, "custom_id", None)
            if cid and cid.startswith("gs:"):
                return str(cid)
            inner = c.get("components") if isinstance(c, dict) else getattr(c, "children", None)
            found = walk(inner)
            if found:
                return found
        return None

    return walk(message.components)


def swap_option(message: Any, give: str, take: str, view: Any) -> tuple[str, str] | None:
    """The Swap select's custom_id and option value that swap ``give`` for ``take``: the first
    select's values are "give-take" (prefix "S"); a second one's prefix names the card to give.
    Two copies of a card are one option (they swap alike): an option with the same faces counts."""
    wanted = (card_label(give, view), card_label(take, view))
    for select in selects(message):
        cid = str(select.get("custom_id") or "")
        if not cid.startswith("gs:"):
            continue
        prefix = cid.split(":", 3)[3]
        for option in select.get("options") or []:
            action = prefix + str(option["value"])
            if not action.startswith("S") or "-" not in action:
                continue
            g, t = action[1:].split("-", 1)
            if (card_label(g, view), card_label(t, view)) == wanted:
                return cid, str(option["value"])
    return None


class Person:
    """One scripted person holding their ephemeral panel."""

    def __init__(self, env: Any, actor: Any, channel: Any, table_message: Any, signal: str) -> None:
        self.env = env
        self.actor = actor
        self.channel = channel
        self.table_message = table_message
        self.signal = signal
        self.panel: Any = None
        self.last_gesture_at = -1e9
        self.clock = 0.0  # virtual seconds, advanced by play_to_end
        self.zapped_seq: tuple[int, int] = (0, -1)  # (round, gesture seq) already answered
        self.log: list[str] = []

    @property
    def table(self) -> Any:
        return self.env.bot.referee.table_in(self.channel.id)

    @property
    def seat(self) -> int:
        seat = self.table.seat_of(self.actor.id)
        assert seat is not None
        return int(seat)

    async def open_hand(self) -> None:
        result = await self.actor.click(self.table_message, label="My hand & signal")
        assert result.ephemeral
        self.panel = result.response

    async def fresh_panel(self) -> None:
        if self.panel is None:
            await self.open_hand()
            return
        if panel_version(self.panel) != self.table.version:
            refresh = custom_id_for(self.panel, "refresh")
            if refresh is None:
                await self.open_hand()
            else:
                await self.actor.click(self.panel, custom_id=refresh)

    async def choose_signal(self, gesture: str) -> None:
        menu = select_id(self.panel)
        assert menu is not None, "the signals panel offers a select"
        await self.actor.select(self.panel, [gesture], custom_id=menu)
        self.log.append(f"signal-{gesture}")

    async def click_action(self, action: str) -> bool:
        cid = custom_id_for(self.panel, action)
        if cid is None:
            return False
        await self.actor.click(self.panel, custom_id=cid)
        self.log.append(action)
        return True

    async def gesture(self, gesture: str) -> bool:
        table_message = current(self.channel, self.table_message)
        cid = custom_id_for(table_message, f"gesture-{gesture}")
        if cid is None:
            return False  # the table message has not been redrawn with the palette yet
        await self.actor.click(table_message, custom_id=cid)
        self.last_gesture_at = self.clock
        self.log.append(f"gesture-{gesture}")
        return True

    async def swap(self, give: str, take: str) -> bool:
        """The swap, picked in the panel's Swap select ("Give X · take Y")."""
        found = swap_option(self.panel, give, take, self.table.state.view(self.seat))
        if found is None:
            return False
        await self.actor.select(self.panel, [found[1]], custom_id=found[0])
        self.log.append(f"S{give}-{take}")
        return True

    async def step(self) -> None:
        table = self.table
        if table is None or table.state is None or table.status != "playing":
            return
        await self.fresh_panel()
        view = table.state.view(self.seat)
        if view["phase"] == "signals":
            if view["my_signal"] is None:
                await self.choose_signal(self.signal)
            return
        if view["phase"] != "play":
            return
        watched, real = view["watch_seat"], view["watch_signal"]
        seen = [g["seq"] for g in view["gestures"] if g["seat"] == watched and g["gesture"] == real]
        if seen and (view["round"], max(seen)) != self.zapped_seq:
            self.zapped_seq = (view["round"], max(seen))
            if await self.click_action(f"ZAP-{watched}"):
                return
        if view["best_set"] is not None and view["my_signal"] is not None:
            mine = [
                g["seq"]
                for g in view["gestures"]
                if g["seat"] == self.seat and g["gesture"] == view["my_signal"]
            ]
            due = not mine or view["seq"] - max(mine) >= REPEAT_SIGNAL_AFTER
            if due and self.clock - self.last_gesture_at >= GESTURE_COOLDOWN:
                await self.gesture(view["my_signal"])
            return
        species = int(view["species"])
        now = hand_value(view["hand"], species, False)
        best: tuple[Any, str, str] | None = None
        for give in view["hand"]:
            for take in view["table"]:
                after = [c for c in view["hand"] if c != give] + [take]
                value = hand_value(after, species, False)
                if value > now and (best is None or value > best[0]):
                    best = (value, give, take)
        if best is not None:
            await self.swap(best[1], best[2])


async def play_to_end(
    env: Any, people: list[Person], channel: Any, *, max_steps: int = 600, tick: float = 1.0
) -> int:
    steps = 0
    while not is_over(channel):
        assert steps < max_steps, "the game did not finish"
        for p in people:
            if is_over(channel):
                break
            await p.step()
        await env.advance_time(tick)
        for p in people:
            p.clock += tick
        steps += 1
    return steps


FOUR = ("alice", "bob", "carol", "dave")


async def four_people_in_play(env: Any, bot: Any, *, seed: int = 7, **options: Any) -> dict[str, Any]:
    """Four people (alice & carol against bob & dave), nobody computer, so nothing moves unless
    someone clicks; alice and bob choose their teams' signals and the round is dealt."""
    bot.referee.new_seed = lambda: seed
    t = await open_lobby(env, seats=4, people=FOUR, cpus=(), **options)
    await t["host"].click(t["lobby"], label="Start")
    people = [
        Person(env, a, t["channel"], t["lobby"], g)
        for a, g in zip(t["actors"], ("smirk", "wink", "think", "cool"), strict=True)
    ]
    for p in people[:2]:
        await p.step()
    t["people"] = people
    t["table"] = bot.referee.tables[1]
    assert t["table"].state.phase == "play"
    for p in people:
        await p.fresh_panel()
    return t
