"""The Discord level: a few short sessions of people (no computer players, so nothing is decided by
timing) playing through SimCord with the real bot and the real discord.py, recording every REST
call the bot makes (``env.http_requests``: method, path, query, JSON body).

What changes from run to run is replaced before comparing (``Normaliser``): snowflake ids and
interaction tokens become ordinal placeholders in order of first appearance, Discord timestamps
(``<t:…>``) and ISO times become fixed marks (the bot reads the real clock for the database's
times), and a message's random ``nonce`` is dropped. Pictures are not drawn (``Unpainted``, as at
the render level): their bytes are not words, and drawing them in worker processes would let the
pictures' timing decide the order of two edits.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from rules import GAMES
from tests.e2e.golden.render import Unpainted
from tests.e2e.simhelpers import all_components
from tests.e2e.zipzap_driver import Player, play_to_end

JSON = dict[str, Any]
SNOWFLAKE = re.compile(r"(?<!\d)\d{16,20}(?!\d)")
TOKEN = re.compile(r"^(/interactions/[^/]+/|/webhooks/[^/]+/)([^/]+)")
TIMESTAMP = re.compile(r"<t:-?\d+(:[tTdDfFR])?>")
ISO_TIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:\d\d|Z)?")
SEED = 7  # every table's shuffle


class Normaliser:
    """Replaces what differs between two runs of the same session with stable placeholders."""

    def __init__(self) -> None:
        self.ids: dict[str, str] = {}
        self.tokens: dict[str, str] = {}

    def snowflake(self, digits: str) -> str:
        return self.ids.setdefault(digits, f"<id{len(self.ids) + 1}>")

    def text(self, text: str) -> str:
        text = SNOWFLAKE.sub(lambda m: self.snowflake(m.group(0)), text)
        text = TIMESTAMP.sub(lambda m: f"<t:TIME{m.group(1) or ''}>", text)
        return ISO_TIME.sub("<ISO-TIME>", text)

    def path(self, path: str) -> str:
        def token(match: re.Match[str]) -> str:
            name = self.tokens.setdefault(match.group(2), f"<token{len(self.tokens) + 1}>")
            return match.group(1) + name

        return self.text(TOKEN.sub(token, path, count=1))

    def value(self, value: Any, key: str = "") -> Any:
        if key == "nonce":
            return "<nonce>"
        if isinstance(value, dict):
            # The command sync's translations are the other languages' words, not English: they
            # are checked by tests/texts (the command tree in every locale), not pinned here.
            return {k: self.value(v, k) for k, v in value.items() if not k.endswith("_localizations")}
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 10**15:
            return self.snowflake(str(value))
        return value


@dataclass
class Session:
    """Runs a session's scripted steps, each named, and keeps which REST calls each one made."""

    name: str
    env: Any
    steps: list[tuple[str, int]] = field(default_factory=list)  # (what, index of its first call)

    async def do(self, what: str, action: Awaitable[Any]) -> Any:
        self.steps.append((what, len(self.env.http_requests)))
        return await action

    def records(self) -> list[JSON]:
        """Every REST call of the session, normalised, each with the step that made it: the calls
        from one step's start to the next's (those made as the bot started come first)."""
        normaliser = Normaliser()
        requests = self.env.http_requests
        starts = [("(start-up)", 0), *self.steps, ("", len(requests))]
        records = []
        for (what, start), (_, end) in itertools.pairwise(starts):
            for entry in requests[start:end]:
                records.append(
                    {
                        "case": self.name,
                        "step": what,
                        "method": entry.method,
                        "path": normaliser.path(entry.path),
                        "params": normaliser.value(entry.params),
                        "json": normaliser.value(entry.json),
                    }
                )
        return records


def quiet_pictures(bot: Any) -> None:
    bot.referee.drawing.art = Unpainted()


async def zipzap_night(env: Any, bot: Any) -> Session:
    """/help and every game's `/… rules`; a Zip Zap lobby opened, joined, refused twice, seats
    swapped, started; the rules asked at the table; a spectator refused a hand; /table status;
    the game played to its end by two people; the replay, the leaderboard, a player's record and
    /history."""
    bot.referee.new_seed = lambda: SEED
    quiet_pictures(bot)
    session = Session("zipzap-night", env)
    do = session.do
    guild = env.create_guild()
    channel = guild.create_text_channel("game-night")
    alice, bob, carol = (guild.add_member(env.create_user(name)) for name in ("alice", "bob", "carol"))
    await do("alice: /help", alice.slash(channel, "help"))
    for key in GAMES:  # each game's quick start away from a table (the defaults), as a command
        await do(f"carol: /{key} rules", carol.slash(channel, f"{key} rules"))
    await do("alice: /zipzap new seats=3 rounds=1", alice.slash(channel, "zipzap new", seats=3, rounds=1))
    lobby = channel.last_message
    await do("bob: Join", bob.click(lobby, label="Join"))
    await do("carol: Start (not the host)", carol.click(lobby, label="Start"))
    await do("bob: Join (again)", bob.click(lobby, label="Join"))
    now = next(m for m in channel.history() if m.id == lobby.id)  # the lobby as it is now
    swap = next(c for c in all_components(now) if str(getattr(c, "custom_id", "")).startswith("gl:"))
    await do("alice: swap seats 1 and 2", alice.select(lobby, ["0"], custom_id=swap.custom_id))
    await do("alice: Start", alice.click(lobby, label="Start"))
    asked = await do("bob: /zipzap rules", bob.slash(channel, "zipzap rules"))
    await do("bob: Full rules", bob.click(asked.response, label="Full rules"))
    await do("carol: My hand (not playing)", carol.click(lobby, label="My hand"))
    await do("carol: /table status", carol.slash(channel, "table status"))
    players = [Player(alice, channel, lobby), Player(bob, channel, lobby)]
    await do("alice and bob play to the end", play_to_end(env, players, channel))
    final = channel.last_message
    await do("alice: Watch again", alice.click(final, label="Watch again"))
    await do("alice: /leaderboard zipzap", alice.slash(channel, "leaderboard", game="zipzap"))
    await do("bob: /stats show alice", bob.slash(channel, "stats show", user=alice))
    await do("alice: /history", alice.slash(channel, "history"))
    return session


async def trap_keyboard(env: Any, bot: Any) -> Session:
    """A GiftTRAP lobby cancelled by its host; then a Trap table started by two people playing from
    the keyboard: a move out of turn, one by someone not playing, one off the board, one that
    isn't a move, two legal moves; the History; /table status; /trap rules; someone not the host
    refused a stop, and the host stops the game."""
    bot.referee.new_seed = lambda: SEED
    quiet_pictures(bot)
    session = Session("trap-keyboard", env)
    do = session.do
    guild = env.create_guild()
    channel = guild.create_text_channel("game-night")
    alice, bob, carol = (guild.add_member(env.create_user(name)) for name in ("alice", "bob", "carol"))
    await do("alice: /gifttrap new", alice.slash(channel, "gifttrap new", seats=3))
    await do("alice: Cancel", alice.click(channel.last_message, label="Cancel"))
    await do("alice: /trap new quick_setup", alice.slash(channel, "trap new", quick_setup=True))
    lobby = channel.last_message
    await do("bob: Join", bob.click(lobby, label="Join"))
    await do("alice: Start", alice.click(lobby, label="Start"))
    table = bot.referee.table_in(channel.id)
    first = sorted(table.state.legal_actions(0))[0]
    await do(f"bob: /trap move {first} (out of turn)", bob.slash(channel, "trap move", move=first))
    await do(f"carol: /trap move {first} (not playing)", carol.slash(channel, "trap move", move=first))
    await do("alice: /trap move f9 (off the board)", alice.slash(channel, "trap move", move="f9"))
    await do("alice: /trap move hello (not a move)", alice.slash(channel, "trap move", move="hello"))
    await do(f"alice: /trap move {first}", alice.slash(channel, "trap move", move=first))
    await do("2 seconds pass", env.advance_time(2))  # the table's paced edit
    second = sorted(table.state.legal_actions(1))[0]
    await do(f"bob: /trap move {second}", bob.slash(channel, "trap move", move=second))
    await do("carol: History", carol.click(lobby, label="History"))
    await do("carol: /table status", carol.slash(channel, "table status"))
    await do("bob: /trap rules", bob.slash(channel, "trap rules"))
    await do("bob: /table stop (not the host)", bob.slash(channel, "table stop"))
    await do("alice: /table stop", alice.slash(channel, "table stop"))
    await do("2 seconds pass", env.advance_time(2))
    return session


SESSIONS: dict[str, Callable[[Any, Any], Awaitable[Session]]] = {
    "zipzap-night": zipzap_night,
    "trap-keyboard": trap_keyboard,
}
