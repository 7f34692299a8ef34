"""Names are input: no name a person can choose pings anybody, or shows as anything but itself.

Three layers (issue 19, "Names are input"):

- the code: every send and edit in cogs/ and bot.py names its allowed_mentions, and the bot's own
  default allows nobody;
- every drawing of every game, model-based: states along seeded self-play games of all five
  titles are drawn with hostile names (tests/fault/names.py: "@everyone", "@here", another
  member's "<@id>", a mentionable role's "<@&id>", "**", back-ticks, 32 characters of markdown,
  a right-to-left override) and with plain names of the same length, and must differ only by the
  names' inert forms;
- the wire: whole games of all five titles through SimCord, played by people with those names in
  a thread table, with every payload the bot sent checked (allowed_mentions, and no hostile name
  shown raw), and what Discord made of them (pings, rendered mentions).
"""

from __future__ import annotations

import ast
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from cogs.table.common import markdown_name
from rules import get_game
from tests.e2e import gifttrap_driver, spytrap_driver, trap_driver, zaptrap_driver, zipzap_driver
from tests.e2e.simhelpers import reply_text, texts
from tests.fault.fault_helpers import answered_privately, emit_slash
from tests.fault.names import (
    as_chosen,
    differences,
    inert_problems,
    ping_problems,
    render_game,
    render_lobby,
    roster,
    twin_name,
    wire_problems,
)
from tests.fault.twins import sample_states, ui_class

ROOT = Path(__file__).resolve().parents[2]

# --- the code --------------------------------------------------------------------------------------

SENDS = {"send", "send_message", "edit", "edit_message", "edit_original_response"}
# Calls of those names that send or edit no message: Lobby.edit changes a draft of the table,
# ClientUser.edit renames the bot (the offline world).
NOT_MESSAGES = {("lobby", "edit"), ("user", "edit")}


def _receiver(call: ast.Call) -> str:
    target = call.func.value if isinstance(call.func, ast.Attribute) else call.func
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


def test_every_send_and_edit_names_its_allowed_mentions() -> None:
    """Every call that sends or edits a message (``send``, ``send_message``, ``edit``,
    ``edit_message``, ``edit_original_response``) in cogs/ and bot.py passes allowed_mentions
    itself: the bot-wide default allows nobody too, but a call that says whom it pings can be read
    on its own.

    Seen to fail on today's main: it names 30 calls, from bot.py's answer to a failed command to
    cogs/tables.py's /table status (messages.py's say() passed one; its other sends did not)."""
    missing = []
    files = [ROOT / "bot.py", *sorted((ROOT / "cogs").rglob("*.py"))]
    for file in files:
        for node in ast.walk(ast.parse(file.read_text(), str(file))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in SENDS or (_receiver(node), node.func.attr) in NOT_MESSAGES:
                continue
            if "allowed_mentions" not in {k.arg for k in node.keywords}:
                missing.append(f"{file.relative_to(ROOT)}:{node.lineno} .{node.func.attr}(…)")
    assert len(files) > 30, "the scan found too few files to mean anything"
    assert not missing, "\n".join(missing)


def test_the_bot_pings_nobody_by_default(make_bot: Any) -> None:
    """The Client's own allowed_mentions allow nobody: whatever a future call forgets, it pings no
    user, role, @everyone or @here. Seen to fail on today's main (the default was None: Discord's
    own default, which pings everyone named)."""
    bot = make_bot()
    assert bot.allowed_mentions is not None
    assert bot.allowed_mentions.to_dict() == {"parse": []}


# --- every drawing, model-based ----------------------------------------------------------------------

# Made-up snowflakes for the render check (the wire tests use real members and roles).
ROSTER = roster(123456789012345678, 876543210987654321)
# (players, options, seed): as many seats as a game has, so each rotation seats many names.
GAMES: dict[str, tuple[int, dict[str, Any], int]] = {
    "zipzap": (6, {"rounds": 2}, 3),
    "zaptrap": (6, {"target": 2}, 5),
    "spytrap": (6, {"round_limit": 8}, 7),
    "gifttrap": (8, {"track_length": 6}, 5),
    "trap": (2, {"quick_setup": True}, 5),
}


def test_each_hostile_name_has_inert_forms() -> None:
    """Each name's markdown, plain and file forms, checked by a small model of what Discord reads
    (tests/fault/names.py inert_problems), not by the bot's code: nothing unescaped, no live
    mention, no reordering character, and each reads as the name was chosen.

    Seen to fail with the forms of today's main (names as they are): every name but the long
    one's file form is reported ("'@everyone': markdown '@everyone' holds a live mention")."""
    problems = [p for name in ROSTER for p in inert_problems(name)]
    assert not problems, "\n".join(problems)


def _seatings(players: int) -> list[list[str]]:
    """Enough seatings of ``players`` that every hostile name sits in the game at least once."""
    rounds = math.ceil(len(ROSTER) / players)
    return [[ROSTER[(r * players + i) % len(ROSTER)] for i in range(players)] for r in range(rounds)]


@pytest.mark.parametrize("key", list(GAMES))
def test_every_drawing_shows_a_hostile_name_only_inert(key: str) -> None:
    """States along a seeded self-play game are drawn through the game's real GameUI and the
    table's own drawing (the table, its buttons, log lines, announcements as posted, round and
    final posts, `/table status`, History and its .txt, the parent channel's line, every panel
    and every page of it; a lobby with a join, a host leaving and a cancel) with hostile names,
    and again with plain names of the same length. Replacing each hostile name's inert form
    (markdown, plain or file, by where it is shown) by its plain twin must give the plain drawing
    exactly: so no name reached any output raw, half-escaped or escaped twice.

    Seen to fail (throwaway edits of this branch): with SeatInfo.name returning the name as
    chosen, as today's main draws it, in every game from the first state on (Zip Zap: 150
    differences, the first "table.fields[0].value: '**@everyone** — 9 cards …'"); with GiftTRAP's
    track lines cutting the escaped name instead of cutting the plain one and escaping that (98
    differences, e.g. "table.fields[0].value"); with Spy Trap's "Draw from …'s pile" buttons
    drawing the markdown name (15: "Draw from \\*\\*bold\\*\\* …'s pile (3)")."""
    players, options, seed = GAMES[key]
    cls = ui_class(key)
    samples = sample_states(key, players, options, seed, per_phase=2, every=8)
    problems: list[str] = []
    seen: Counter[tuple[str, str]] = Counter()
    for names in _seatings(players):
        plain = [twin_name(i, name) for i, name in enumerate(names)]
        for sample in samples:
            where = f"{key} #{sample.index} ({sample.state.get('phase')})"
            hostile = render_game(cls, key, sample.state, sample.events, names)
            twin = render_game(cls, key, sample.state, sample.events, plain)
            problems += differences(hostile, twin, names, where, seen)
        lobby = min(len(names), 4) + 1 if key != "trap" else 2
        seated = (names * 2)[:lobby]
        problems += differences(
            render_lobby(cls, key, seated),
            render_lobby(cls, key, [twin_name(i, n) for i, n in enumerate(seated)]),
            seated,
            f"{key} lobby",
            seen,
        )
    assert len(samples) >= 8, "too few states sampled to mean anything"
    assert not problems, f"{len(problems)} differences:\n" + "\n".join(problems[:8])
    unseen = [(kind, name) for name in ROSTER for kind in ("markdown", "plain") if not seen[(kind, name)]]
    assert not unseen, f"never drawn: {unseen}"


# --- the wire: whole games through SimCord -----------------------------------------------------------


@dataclass
class Night:
    """A server where people chose hostile names: carol (a member with a mentionable role, never
    seated) is who their mentions point at."""

    env: Any
    guild: Any
    channel: Any
    carol: Any
    role: Any
    names: list[str]
    people: list[Any] = field(default_factory=list)
    chosen: dict[int, str] = field(default_factory=dict)  # each person's name, by user id

    @property
    def seated(self) -> set[int]:
        return {p.id for p in self.people}


def hostile_night(env: Any, count: int, first: int = 0) -> Night:
    """``count`` people named from the roster (starting at ``first``), half by server nickname and
    half by their own display name."""
    guild = env.create_guild()
    channel = guild.create_text_channel("game-night")
    role = guild.create_role("night-owls", mentionable=True)
    carol = guild.add_member(env.create_user("carol"), roles=[role])
    names = roster(carol.id, role.id)
    night = Night(env, guild, channel, carol, role, names)
    for i in range(count):
        name = names[(first + i) % len(names)]
        if i % 2:
            person = guild.add_member(env.create_user(f"player{i}", global_name=name))
        else:
            person = guild.add_member(env.create_user(f"player{i}"), nick=name)
        night.people.append(person)
        night.chosen[person.id] = name
    return night


async def open_in_thread(night: Night, bot: Any, key: str, options: dict[str, Any], cpus: int = 0) -> Any:
    """The first person opens ``/<key> new thread:true``; the second sits down from the line in
    the parent channel, the others in the lobby, where the last one leaves and sits down again;
    computers fill ``cpus`` seats; the host starts. Returns the table."""
    host, *others = night.people
    opened = await host.slash(night.channel, f"{key} new", thread=True, **options)
    assert opened.ephemeral and "is open" in reply_text(opened), reply_text(opened)
    thread = night.channel.threads[-1]
    table = bot.referee.table_in(thread.id)
    lobby = next(m for m in thread.history() if m.id == table.table_message_id)
    line = next(m for m in night.channel.history() if "Press **Join**" in (m.content or ""))
    for i, person in enumerate(others):
        await person.click(line if i == 0 else lobby, label="Join")
    if len(others) > 1:
        await others[-1].click(lobby, label="Leave")
        await others[-1].click(lobby, label="Join")
    level = get_game(key).computer_levels[0]
    for _ in range(cpus):
        await host.click(lobby, label=f"Add computer: {level}")
    await host.click(lobby, label="Start")
    assert table.status == "playing"
    return thread, table, lobby


async def after_the_game(night: Night, thread: Any, key: str) -> None:
    """What anyone may ask afterwards: /stats of a player, /leaderboard."""
    await night.carol.slash(night.channel, "stats show", user=night.people[0])
    board = await night.carol.slash(night.channel, "leaderboard", game=key)
    assert board.acknowledged


def check_the_wire(night: Night, *, pings: bool, at_least: int = 50) -> None:
    problems, checked, pinging = wire_problems(night.env, night.names, night.seated)
    problems += ping_problems(night.env, night.seated)
    assert checked >= at_least, f"only {checked} message payloads: too few to mean anything"
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:10])
    if pings:
        assert pinging, "nobody was ever pinged: the check above proves nothing about pings"


async def seat_of(table: Any, person: Any) -> int:
    seat = table.seat_of(person.id)
    assert seat is not None
    return int(seat)


@pytest.mark.simcord(settle_timeout=30)
async def test_a_zip_zap_game_of_hostile_names(simcord_env: Any, simcord_bot: Any) -> None:
    """Four people with hostile names and a computer play a whole Zip Zap game in a thread (one
    takes the DM route; carol, never seated, asks /table status); every payload and every
    message is checked (tests/fault/names.py wire_problems, ping_problems).

    Seen to fail on today's main (a copy with this test, and names.py's forms taken as the names
    themselves, as main shows them): 276 message payloads without allowed_mentions, the first the
    lobby; and the thread Discord starts for the table, named after its host "@everyone", mentions
    everyone (the thread's name went in as it was)."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 5
    night = hostile_night(env, 4)
    thread, _table, lobby = await open_in_thread(night, bot, "zipzap", {"seats": 5, "rounds": 1}, cpus=1)
    players = [zipzap_driver.Player(p, thread, lobby) for p in night.people]
    await night.people[1].click(lobby, label="Hand by DM")
    await night.carol.slash(thread, "table status")
    await zipzap_driver.play_to_end(env, players, thread)
    await after_the_game(night, thread, "zipzap")
    check_the_wire(night, pings=False)


@pytest.mark.simcord(settle_timeout=30)
async def test_a_zap_or_trap_game_of_hostile_names(simcord_env: Any, simcord_bot: Any) -> None:
    """Four people with hostile names (two teams) play a whole Zap or Trap game in a thread, one
    by DM: gestures, swaps, calls and the reveal name them; every payload and message checked.

    Seen to fail on today's main (as the Zip Zap game): 86 payloads without allowed_mentions, and
    94 texts carrying the right-to-left override, from the lobby's seats and teams ("Team 2: … &
    **<U+202E>evil<U+202C> twin**") and its footer ("<U+202E>evil<U+202C> twin joined.") on."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 3
    night = hostile_night(env, 4, first=4)
    thread, _table, lobby = await open_in_thread(
        night, bot, "zaptrap", {"seats": 4, "target": 1, "lull": 4, "speed": "fast"}
    )
    signals = ("smirk", "wink", "think", "cool")
    people = [zaptrap_driver.Person(env, p, thread, lobby, signals[i]) for i, p in enumerate(night.people)]
    await night.people[1].click(lobby, label="Hand by DM")
    await night.carol.slash(thread, "table status")
    await zaptrap_driver.play_to_end(env, people, thread)
    await after_the_game(night, thread, "zaptrap")
    check_the_wire(night, pings=False)


@pytest.mark.simcord(settle_timeout=30)
async def test_a_spy_trap_game_of_hostile_names(simcord_env: Any, simcord_bot: Any) -> None:
    """Three people with hostile names and a computer play a whole Spy Trap game in a thread:
    bids, draws from named piles, decisions and the pings that tell each person it is their turn
    (pinged by seat: the check requires that someone was pinged, and only seated people).

    Seen to fail on today's main (as the Zip Zap game): 407 payloads without allowed_mentions; the
    thread "Spy Trap — <@carol>" mentions and pings carol; and the turn lines "<@…>, your bid at
    Spy Trap: <@carol> bids 2" and "<@…>, your decision at Spy Trap: <@carol> …" ping carol too,
    because the ping policy read every mention back out of the text."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 11
    night = hostile_night(env, 3, first=2)
    thread, table, lobby = await open_in_thread(night, bot, "spytrap", {"seats": 4, "max_rounds": 6}, cpus=1)
    spies = [spytrap_driver.Spy(p, await seat_of(table, p), thread, lobby) for p in night.people]
    await night.carol.slash(thread, "table status")
    # Everyone steps away until the referee has built their piles: the first bids come to people
    # who have not played for a while, so they are pinged.
    for _ in range(30):
        if table.state.view(None)["phase"] != "pile":
            break
        await env.advance_time(10)
    await spytrap_driver.play_to_end(env, spies, table, thread)
    await after_the_game(night, thread, "spytrap")
    check_the_wire(night, pings=True)


@pytest.mark.simcord(settle_timeout=30)
async def test_a_gifttrap_game_of_hostile_names(simcord_env: Any, simcord_bot: Any) -> None:
    """Four people with hostile names and a computer play a whole GiftTRAP game in a thread, one
    by DM; carol presses History once gifts have been unwrapped (names in the unwraps). Every
    payload and message checked; the choosing pings reach the seated people only.

    Seen to fail on today's main (as the Zip Zap game): 286 payloads without allowed_mentions and
    436 texts with the right-to-left override, among them the lobby's swap menu
    ("*_~|`… ↔ <U+202E>evil<U+202C> twin") and its footer."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 9
    night = hostile_night(env, 4, first=5)
    thread, table, lobby = await open_in_thread(
        night, bot, "gifttrap", {"seats": 5, "track_length": 5, "speed": "fast"}, cpus=1
    )
    people = [gifttrap_driver.Person(env, p, await seat_of(table, p), thread, lobby) for p in night.people]
    await people[1].take_dm_route()
    histories: list[Any] = []

    async def history_once(_step: int) -> None:
        if not histories and table.state is not None and table.state.view(None)["revealed"]:
            histories.append(await night.carol.click(lobby, label="History"))

    await gifttrap_driver.play_to_end(env, people, table, thread, on_step=history_once)
    assert histories and histories[0].ephemeral
    await after_the_game(night, thread, "gifttrap")
    check_the_wire(night, pings=True)


@pytest.mark.simcord(settle_timeout=30)
async def test_a_trap_game_of_hostile_names(simcord_env: Any, simcord_bot: Any) -> None:
    """Two people with hostile names play a whole Trap game in a thread (turn pings by seat), and
    the move list at the end (trap-moves.txt) names them as they chose, plain text.

    Seen to fail on today's main (as the Zip Zap game), and, on this branch with the move list
    drawn through plain() as before, on the file: "Trap, table 1: <\\u200b@&…> (red, A) wins"
    kept the name's mention break and escapes."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 4  # a game someone wins, so the move list names them
    night = hostile_night(env, 2, first=3)
    thread, table, lobby = await open_in_thread(night, bot, "trap", {"quick_setup": True})
    people = [trap_driver.Person(p, lobby, bot, await seat_of(table, p)) for p in night.people]
    await night.carol.click(lobby, label="History")
    await trap_driver.play_to_end(env, people, thread, trap_driver.medium_chooser())
    await env.advance_time(6)  # the table message's last, paced edit carries the move list
    final_table = next(m for m in thread.history() if m.id == table.table_message_id)
    moves = trap_driver.moves_file(env, final_table)
    winner = table.state.result().winners
    if len(winner) == 1:  # "<name> (red, A) wins …": as chosen, in a plain-text file
        chosen = as_chosen(table.seats[winner[0]].chosen_name)
        assert moves.startswith(f"Trap, table {table.id}: {chosen} ("), moves[:200]
    assert "\\" not in moves and "\u200b" not in moves, moves[:200]
    await after_the_game(night, thread, "trap")
    check_the_wire(night, pings=True)


@pytest.mark.simcord(settle_timeout=30)
async def test_leaving_stopping_and_a_rematch_with_hostile_names(simcord_env: Any, simcord_bot: Any) -> None:
    """The texts around a game that name people: the host leaves a Zip Zap game mid-way
    (`/table leave`: "**…** left; a computer takes over", "**…** is the host now"), the new host
    stops it (`/table stop`: "Stopped by …"); a finished game's Rematch opens a lobby with the
    same names (copied as chosen, so shown once escaped, never twice). Every payload and message
    checked, and the stopped table names its stopper escaped.

    Seen to fail (a throwaway edit of this branch) with the rematch copying the seats' shown
    names instead of the chosen ones: "a name escaped twice" in the rematch lobby's seats (the
    32-character name as "\\\\\\*\\\\\\_…"); and on today's main, as the games above, on
    allowed_mentions."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 5
    night = hostile_night(env, 3, first=4)
    thread, table, lobby = await open_in_thread(night, bot, "zipzap", {"seats": 3, "rounds": 1})
    players = [zipzap_driver.Player(p, thread, lobby) for p in night.people]
    for player in players:
        await player.step()
    left = await night.people[0].slash(thread, "table leave")
    assert "computer player has taken your seat" in reply_text(left)
    heir = next(p for p in night.people if p.id == table.host_id)
    stopped = await heir.slash(thread, "table stop")
    assert "stopped" in reply_text(stopped)
    await env.advance_time(3)
    drawn = next(m for m in thread.history() if m.id == table.table_message_id)
    assert texts(drawn)[0].split("\n", 1)[1].startswith(f"Stopped by {markdown_name(night.chosen[heir.id])}.")
    # A game played to its end, then a rematch from its results.
    bot.referee.new_seed = lambda: 6
    opened = await night.people[1].slash(night.channel, "zipzap new", seats=2, rounds=1)
    assert opened.ephemeral
    second = bot.referee.table_in(night.channel.id)
    first_lobby = night.channel.last_message
    await night.people[2].click(first_lobby, label="Join")
    await night.people[1].click(first_lobby, label="Start")
    duo = [zipzap_driver.Player(p, night.channel, first_lobby) for p in night.people[1:]]
    await zipzap_driver.play_to_end(env, duo, night.channel)
    assert second.status == "finished"
    await night.people[2].click(night.channel.last_message, label="Rematch")
    rematch = bot.referee.table_in(night.channel.id)
    assert rematch is not None and rematch.status == "lobby" and rematch.id != second.id
    check_the_wire(night, pings=False)


@pytest.mark.simcord(settle_timeout=30)
async def test_typed_text_in_a_refusal_is_shown_inert(simcord_env: Any, simcord_bot: Any) -> None:
    """A forged `/zipzap new` whose option name is "<@carol> **x**" (a modified client can send
    any): the refusal quotes it escaped, privately, pinging nobody.

    Seen to fail on today's main: the answer carried no allowed_mentions, and the refusal quoted
    the name in a code span that its back-tick closed ("`x` <@carol> **x**` isn't an option…"),
    so carol was mentioned (SimCord also counts her pinged)."""
    env = simcord_env
    night = hostile_night(env, 1)
    forged = {"name": f"x` <@{night.carol.id}> **x**", "type": 3, "value": "1"}
    flight = emit_slash(night.people[0], night.channel, "zipzap new", [forged])
    await env.settle()
    assert answered_privately(flight)
    said = reply_text(flight.result)
    assert "isn't an option of /zipzap new" in said, said
    check_the_wire(night, pings=False, at_least=1)
