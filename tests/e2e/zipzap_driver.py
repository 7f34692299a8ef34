"""Scripted people at a Zip Zap table: they open their hand panel and click cards, like a player
who always plays the first card of their hand that the panel offers (a button, or the leading
select's first option; a Zap only when no card is offered)."""

from __future__ import annotations

from typing import Any

from tests.e2e.simhelpers import buttons, playable, selects

FINAL_TITLE = "Zip Zap — final results"


async def open_lobby(
    env: Any,
    *,
    seats: int = 3,
    speed: str = "relaxed",
    cpu: str | None = "casual",
    people: tuple[str, ...] = ("alice", "bob"),
    **options: Any,
) -> dict[str, Any]:
    guild = env.create_guild()
    channel = guild.create_text_channel("game-night")
    actors = [guild.add_member(env.create_user(name)) for name in people]
    host = actors[0]
    result = await host.slash(channel, "zipzap new", seats=seats, speed=speed, **options)
    assert result.ephemeral, "opening a table answers the host privately"
    lobby = channel.last_message
    for other in actors[1:]:
        await other.click(lobby, label="Join")
    if cpu:
        await host.click(lobby, label=f"Add computer: {cpu}")
    return {"guild": guild, "channel": channel, "actors": actors, "host": host, "lobby": lobby}


def is_over(channel: Any) -> bool:
    last = channel.last_message
    return bool(last and last.embeds and last.embeds[0].title == FINAL_TITLE)


class Player:
    """One scripted person holding their ephemeral hand panel."""

    def __init__(self, actor: Any, channel: Any, table_message: Any) -> None:
        self.actor = actor
        self.channel = channel
        self.table_message = table_message
        self.panel: Any = None
        self.clicks = 0

    async def open_hand(self) -> None:
        result = await self.actor.click(self.table_message, label="My hand")
        assert result.ephemeral
        self.panel = result.response

    async def step(self) -> bool:
        """Play the first card the panel offers, else refresh. True if a card click was sent."""
        if self.panel is None:
            await self.open_hand()
        # A plain card before a Zap (the panel puts a lone ZAP first, and each Play-and-Zap
        # beside its card): the first card of the hand, as this player always played.
        offered = sorted(playable(self.panel), key=lambda b: "Z" in b["custom_id"].rsplit(":", 1)[1])
        self.clicks += 1
        menus = selects(self.panel)
        if menus and not [b for b in offered if "Z" not in b["custom_id"].rsplit(":", 1)[1]]:
            first = menus[0]["options"][0]["value"]
            await self.actor.select(self.panel, [first], custom_id=menus[0]["custom_id"])
            return True
        if offered:
            await self.actor.click(self.panel, custom_id=offered[0]["custom_id"])
            return True
        refresh = [b for b in buttons(self.panel) if (b.get("custom_id") or "").endswith(":refresh")]
        if refresh:
            await self.actor.click(self.panel, custom_id=refresh[0]["custom_id"])
        else:
            await self.open_hand()
        return False


async def play_to_end(
    env: Any,
    players: list[Any],
    channel: Any,
    *,
    max_steps: int = 4000,
    tick: float = 1.0,
    on_step: Any = None,
    on_player: Any = None,
) -> int:
    """Every player steps (``on_player(seat, player)`` after each one's step), then
    ``on_step(steps)``, then the clock moves on ``tick`` seconds; until the final results."""
    steps = 0
    while not is_over(channel):
        assert steps < max_steps, "the game did not finish"
        for seat, p in enumerate(players):
            if is_over(channel):
                break
            await p.step()
            if on_player is not None:
                await on_player(seat, p)
        if on_step is not None:
            await on_step(steps)
        await env.advance_time(tick)
        steps += 1
    return steps
