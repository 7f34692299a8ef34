"""A scripted person at a Trap table: they open their **My moves** panel and play by picking from
its select (a point, an arrow or a move; a page or an arrow's point first where the choices
need it), checking on every panel they see that every action it offers is legal right now."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable
from typing import Any

from PIL import Image

from rules.trap import Trap
from tests.e2e.simhelpers import ACTION, buttons, message_text, selects

ENGINE = Trap()
FINAL_PREFIX = "Trap — "
Chooser = Callable[[dict[str, Any], list[str]], str]


async def open_table(
    env: Any,
    *,
    cpu: str | None = "medium",
    people: tuple[str, ...] = ("alice",),
    **options: Any,
) -> dict[str, Any]:
    """/trap new by the first person, the others join, a computer fills the other seat."""
    guild = env.create_guild()
    channel = guild.create_text_channel("game-night")
    actors = [guild.add_member(env.create_user(name)) for name in people]
    host = actors[0]
    result = await host.slash(channel, "trap new", **options)
    assert result.ephemeral, "opening a table answers the host privately"
    lobby = channel.last_message
    for other in actors[1:]:
        await other.click(lobby, label="Join")
    if cpu:
        await host.click(lobby, label=f"Add computer: {cpu}")
    return {"guild": guild, "channel": channel, "actors": actors, "host": host, "lobby": lobby}


def final_message(channel: Any) -> Any:
    """The results post, once the game has ended (it carries the Rematch button)."""
    for message in reversed(channel.history()):
        title = message.embeds[0].title if message.embeds else ""
        if (
            title
            and title.startswith(FINAL_PREFIX)
            and any(b.get("label") == "Rematch" for b in buttons(message))
        ):
            return message
    return None


def is_over(channel: Any) -> bool:
    return final_message(channel) is not None


SELECT = re.compile(r"gs:(\d+):(\d+):(.*)")


def controls(panel: Any) -> dict[str, dict[str, Any]]:
    """What the panel offers, by what it does (an action, 'nav-…' or 'refresh'): each enabled
    button, and each option of its selects (``value`` set: picked, not clicked)."""
    found = {}
    for b in buttons(panel):
        m = ACTION.fullmatch(b.get("custom_id") or "")
        if m and not b.get("disabled"):
            found[m.group(3)] = b
    for menu in selects(panel):
        m = SELECT.fullmatch(menu.get("custom_id") or "")
        if m and not menu.get("disabled"):
            for option in menu.get("options", []):
                found[m.group(3) + option["value"]] = {
                    "custom_id": menu["custom_id"],
                    "value": option["value"],
                }
    return found


def offered_actions(panel: Any) -> set[str]:
    return {a for a in controls(panel) if a != "refresh" and not a.startswith("nav-")}


def board_png(env: Any, message: Any) -> Image.Image:
    """The board picture attached to a message, opened with Pillow (from SimCord's fake CDN)."""
    attachment = next(a for a in message.attachments if a.filename == "board.png")
    data = env.backend.cdn.get(attachment.url)
    assert data, "the attachment has no bytes"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def medium_chooser(seed: int = 1) -> Chooser:
    """Decide like the medium computer would, from the person's own view (all of Trap is public)."""
    player = ENGINE.computer_player("medium")
    rng = random.Random(seed)

    def choose(view: dict[str, Any], legal: list[str]) -> str:
        return player.choose(view, legal, rng) or legal[0]

    return choose


def moves_file(env: Any, message: Any) -> str:
    """The whole move list attached to the final table message (trap-moves.txt)."""
    attachment = next(a for a in message.attachments if a.filename == "trap-moves.txt")
    data = env.backend.cdn.get(attachment.url)
    assert data, "the attachment has no bytes"
    return bytes(data).decode()


def section(text: str, name: str) -> list[str]:
    """The entries of one move-list section ('1. c3 d4 2. …' → ['c3', 'd4', …]), from History
    (bold names) or from the .txt."""
    line = next(line for line in text.splitlines() if line.replace("**", "").startswith(name))
    body = line.split(":", 1)[1]
    return [t for t in body.split() if not re.fullmatch(r"\d+\.", t)]


class Person:
    """One scripted person holding their ephemeral move panel."""

    def __init__(self, actor: Any, table_message: Any, bot: Any, seat: int) -> None:
        self.actor = actor
        self.table_message = table_message
        self.bot = bot
        self.seat = seat
        self.panel: Any = None
        self.clicks = 0
        self.steps = 0  # panel-only steps taken on the way to an action (a page, an arrow's point)
        self.actions = 0
        self.panels_checked = 0

    def table(self) -> Any:
        tables = self.bot.referee.tables
        return next(iter(tables.values())) if tables else None

    async def open_panel(self) -> None:
        result = await self.actor.click(self.table_message, label="My moves")
        assert result.ephemeral
        self.panel = result.response
        self.check()

    def check(self) -> None:
        """Every enabled action button on the panel is a legal action of this seat right now."""
        table = self.table()
        if table is None or table.state is None or table.status != "playing":
            return
        legal = set(table.state.legal_actions(self.seat))
        offered = offered_actions(self.panel)
        assert offered <= legal, f"the panel offers illegal actions: {sorted(offered - legal)}"
        assert "⚠️" not in message_text(self.panel), message_text(self.panel)
        self.panels_checked += 1

    async def press(self, action: str) -> None:
        found = controls(self.panel).get(action)
        assert found is not None, f"{action} is not offered: {sorted(controls(self.panel))}"
        if "value" in found:
            await self.actor.select(self.panel, [found["value"]], custom_id=found["custom_id"])
        else:
            await self.actor.click(self.panel, custom_id=found["custom_id"])
        self.clicks += 1

    async def play(self, action: str) -> None:
        """Reach ``action`` through the panel's steps (an arrow's point, another page) and pick it."""
        table = self.table()
        tail = action.split(">")[0]
        tried: set[str] = set()
        while action not in controls(self.panel):
            offered = controls(self.panel)
            if f"nav-p{tail}" in offered and f"nav-p{tail}" not in tried:
                step = f"nav-p{tail}"
            else:
                pages = sorted(a for a in offered if a.startswith("nav-g") and a not in tried)
                assert pages, f"{action} is not reachable: {sorted(offered)}"
                step = pages[0]
            tried.add(step)
            self.steps += 1
            await self.press(step)
            self.check()
        before = table.version
        await self.press(action)
        assert self.table() is None or table.version == before + 1 or table.status != "playing"
        self.actions += 1
        self.check()

    async def step(self, choose: Chooser) -> bool:
        """If it is this person's turn, play one action chosen by ``choose``; True if so."""
        table = self.table()
        if table is None or table.state is None or table.status != "playing":
            return False
        if self.panel is None:
            await self.open_panel()
        legal = table.state.legal_actions(self.seat)
        if not legal:
            return False
        if not controls(self.panel).keys() - {"refresh"}:
            # The live refresh has not come yet (it comes at most once a second): ask for it.
            await self.press("refresh")
            self.check()
        await self.play(choose(table.state.view(self.seat), legal))
        return True


class Typist:
    """A person who plays from the keyboard only: `/trap move <action>`."""

    def __init__(self, actor: Any, channel: Any, bot: Any, seat: int) -> None:
        self.actor = actor
        self.channel = channel
        self.bot = bot
        self.seat = seat
        self.actions = 0

    async def step(self, choose: Chooser) -> bool:
        tables = self.bot.referee.tables
        table = next(iter(tables.values())) if tables else None
        if table is None or table.state is None or table.status != "playing":
            return False
        legal = table.state.legal_actions(self.seat)
        if not legal:
            return False
        before = table.version
        result = await self.actor.slash(
            self.channel, "trap move", move=choose(table.state.view(self.seat), legal)
        )
        assert result.ephemeral and table.version == before + 1, message_text(result.response)
        self.actions += 1
        return True


async def play_to_end(
    env: Any,
    people: list[Any],
    channel: Any,
    choose: Chooser,
    *,
    max_steps: int = 3000,
    tick: float = 1.0,
    until: Callable[[], bool] | None = None,
) -> int:
    """Everyone plays when it is their turn; the clock moves on between turns."""
    steps = 0
    while not is_over(channel) and not (until is not None and until()):
        assert steps < max_steps, "the game did not finish"
        moved = False
        for person in people:
            moved = await person.step(choose) or moved
        if not moved:
            await env.advance_time(tick)
        steps += 1
    return steps
