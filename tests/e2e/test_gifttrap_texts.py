"""GiftTRAP's words, made by the cog from the engine's data: every refusal code in the sentence
players read (the same English as when the engine wrote it), actions named with the seats' names,
the result, and a recorded game's Latest lines, which read the same when the game is shown again
from its action log, and from rows stored before the engine spoke in data.

No Discord connection is needed: a Table is built around the engine's state, as the referee holds it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cogs.gifttrap import GiftTrapUI
from cogs.table import latest
from cogs.table.model import SeatInfo, Table
from rules.base import Event, IllegalAction
from rules.gifttrap import PACK_GIFTS, GiftTrap, GiftTrapState
from rules.replay import replay
from rules.selfplay import play_game

GAME = GiftTrap()
UI = GiftTrapUI()
NAMES = ["alice", "bob", "carol", "dan"]
OLD_SNAPSHOT = Path(__file__).resolve().parents[1] / "rules" / "gifttrap_old_snapshot.json"


def make_table(state: GiftTrapState, options: dict[str, Any] | None = None) -> Table:
    seats = [SeatInfo(s, 1000 + s, NAMES[s]) for s in range(state.players)]
    return Table(
        id=1, guild_id=1, channel_id=1, game=GAME, host_id=1000,
        settings={"seats": state.players, "rules": options or {}}, speed="relaxed", seed=0,
        status="playing", seats=seats, state=state,
    )  # fmt: skip


def dealt(players: int = 3, **options: Any) -> GiftTrapState:
    layout = [g.id for g in PACK_GIFTS[1][: players + 1]]
    return GAME.new_game(players, GAME.parse_options(options), 7, {"layout": layout, "dealer": 0})


def finished() -> GiftTrapState:
    """A short game played to its end by the referee's timers alone."""
    state = GAME.new_game(3, GAME.parse_options({"track_length": 5}), 1)
    for _ in range(5000):
        if state.is_over():
            return state
        state.apply(None, state.quiet_actions()[0].action)
    raise AssertionError("the game never ended")


def worded(state: GiftTrapState, seat: int | None, action: str) -> str:
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, action)
    assert json.dumps(state.to_json()) == before
    return UI.refusal(make_table(state), caught.value)


def test_every_refusal_reads_as_the_engine_wrote_it() -> None:
    picking = GAME.new_game(3, GAME.parse_options({}), 3)
    assert worded(picking, 1, "pack-2") == "Only the dealer picks the pack this round."
    assert worded(picking, 0, "pack-5") == "Pick pack 1, 2, 3 or 4 ($ to $$$$)."
    assert worded(picking, 0, "give-1-2") == "The gifts are not laid out yet: the dealer is picking the pack."
    assert worded(picking, 0, "gifttrap-1") == (
        "GiftTRAP goes on a gift on the table: wait for the next round's gifts."
    )
    assert worded(picking, None, "fill") == "There is nothing to fill in now."

    state = dealt()
    cases = {
        (None, "give-1-1"): "Only a player can do that.",
        (0, "give-0-1"): "You can't give a gift to yourself: give one to each other player.",
        (0, "give-7-1"): "There is no such seat at this table.",
        (0, "give-1-9"): "There is no gift 9: the gifts are numbered 1 to 4.",
        (1, "givemore-1"): "You can't put Give More on yourself: put it with the gift for another player.",
        (1, "getmore-1"): "You can't put Get More on yourself: put it under the gift from another player.",
        (1, "givemore-none"): "Your Give More card is not in play, so there is nothing to take back.",
        (1, "getmore-none"): "Your Get More card is not in play, so there is nothing to take back.",
        (2, "ready"): (
            "Before you are ready, give 2 more gifts and place your GREAT, GOOD, OK, NO WAY tokens."
        ),
        (None, "reveal"): "There is nothing to reveal now.",
        (0, "fill"): "Only the referee fills in choices or turns up the next gift.",
        (0, "next"): "The round is still going: the next round starts after the reveal.",
        (0, "pack-1"): "The pack for this round is already picked.",
        (9, "give-1-1"): "That seat is not at this table.",
        (
            0,
            "bogus",
        ): "'bogus' is not a GiftTRAP action: try 'give-1-3', 'rank-great-2', 'ready' or 'gifttrap-4'.",
        (0, "unrank-1"): "You have no token on gift 1.",
    }
    for (seat, action), sentence in cases.items():
        assert worded(state, seat, action) == sentence, action

    for seat, action in ((0, "give-1-3"), (0, "rank-great-2"), (1, "givemore-2"), (1, "getmore-0")):
        state.apply(seat, action)
    assert worded(state, 0, "give-1-3") == "You are already giving that player gift 3."
    assert worded(state, 0, "give-2-3") == (
        "You already give gift 3 to another player: you can give each gift only once. "
        "Give that player a different gift first."
    )
    assert worded(state, 1, "givemore-2") == "Your Give More card is already with the gift for that player."
    assert worded(state, 1, "getmore-0") == "Your Get More card is already under the gift from that player."
    assert worded(state, 0, "rank-great-2") == "Your GREAT +3 token is already on gift 2."
    assert worded(state, 0, "rank-noway-2") == (
        "Your GREAT +3 token is already on gift 2: each token goes on a different gift."
    )
    assert (
        worded(state, 0, "ready")
        == "Before you are ready, give 1 more gift and place your GOOD, OK, NO WAY tokens."
    )
    for action in ("give-2-1", "rank-good-1", "rank-ok-3"):
        state.apply(0, action)
    assert worded(state, 0, "ready") == "Before you are ready, place your NO WAY token."
    state.apply(1, "give-0-1")
    assert (
        worded(state, 1, "ready")
        == "Before you are ready, give 1 more gift and place your GREAT, GOOD, OK, NO WAY tokens."
    )
    state.apply(0, "rank-noway-4")
    assert worded(state, 2, "ready").startswith("Before you are ready, give 2 more gifts")

    state.apply(1, "gifttrap-2")
    assert worded(state, 2, "gifttrap-2") == "Gift 2 already has a GiftTRAP card on it."
    assert worded(state, 1, "gifttrap-3") == "You have already used your GiftTRAP card: it is once a game."
    state.apply(0, "ready")
    assert worded(state, 0, "give-1-1") == "You are ready: your choices are locked in for this round."
    state.apply(None, "fill")
    assert worded(state, 0, "give-1-1") == "The reveal has begun: choices are locked in until the next round."
    while state.phase == "reveal":
        state.apply(None, "reveal")
    assert worded(state, 0, "give-1-1") == (
        "The round is over: choices open again when the next round's gifts are laid out."
    )

    plain = dealt(strategy_cards=False)
    assert worded(plain, 0, "givemore-1") == "Strategy cards are not in play at this table."
    assert worded(plain, 0, "gifttrap-1") == "Strategy cards are not in play at this table."

    short = finished()
    assert worded(short, 0, "next") == "The game is over."
    # A code the cog does not know (not one GiftTRAP raises) shows as it is.
    assert UI.refusal(make_table(short), IllegalAction("something_else")) == "something_else"


def test_actions_are_named_with_the_seats_names() -> None:
    state = dealt()
    table = make_table(state)
    first = PACK_GIFTS[1][0]
    assert UI.describe(table, "give-1-1") == f"give gift 1 ({first.emoji} {first.name}) to bob"
    assert UI.describe(table, "rank-great-1") == f"put GREAT +3 on gift 1 ({first.emoji} {first.name})"
    assert UI.describe(table, "unrank-1") == f"take your token off gift 1 ({first.emoji} {first.name})"
    assert UI.describe(table, "gifttrap-1") == f"shout GiftTRAP on gift 1 ({first.emoji} {first.name})"
    assert UI.describe(table, "givemore-2") == "put Give More with your gift for carol"
    assert UI.describe(table, "getmore-1") == "put Get More under the gift from bob"
    assert UI.describe(table, "givemore-none") == "take back your Give More card"
    assert UI.describe(table, "getmore-none") == "take back your Get More card"
    assert UI.describe(table, "ready") == "lock in your choices"
    assert UI.describe(table, "next") == "start the next round"
    assert UI.describe(table, "fill") == "fill in the choices of everyone not ready"
    assert UI.describe(table, "reveal") == "reveal the next gift"
    assert UI.describe(table, "pack-2") == "pick the $$ pack"
    for action in ("gifttrap-9", "give-7-1", "nonsense"):
        assert UI.describe(table, action) == action


def test_the_result_and_the_last_lines_say_who_won() -> None:
    state = finished()
    table = make_table(state)
    events: list[Event] = []  # the last action's: the last reveal, the round and the game over
    replayed = GAME.new_game(3, GAME.parse_options({"track_length": 5}), 1)
    while not replayed.is_over():
        events = replayed.apply(None, replayed.quiet_actions()[0].action)
    result = state.result()
    assert result is not None and result.how == "gifted" and "summary" not in result.to_json()
    winners = len(result.winners)
    rounds = state.round
    if winners == 1:
        how = f"One player has both markers on GIFTED after round {rounds} and wins."
    else:
        how = f"{winners} players have both markers on GIFTED after round {rounds} and share the win."
    assert UI.result_text(result) == how
    assert [UI.event_line(table, e) for e in events[-2:]] == [
        f"Round {rounds} is over.",
        f"The game is over. {how}",
    ]
    embed = UI.final_embed(table)
    assert embed.description is not None and embed.description.startswith(how + "\n\n")


def record_lines(seed: int, players: int, options: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Self-play a game, wording each Latest entry (kept as data, as the table keeps it) the moment
    it happened; returns the recorded game and those lines."""
    held: dict[str, Table] = {}
    shown: list[str] = []

    def seen(state: Any, _seat: Any, _action: Any, events: list[Event]) -> None:
        if "table" not in held:
            held["table"] = make_table(state, options)
            held["table"].log_start(state.opening_events)
            shown.extend(latest.line(held["table"], e, UI.event_line) for e in held["table"].log)
        table = held["table"]
        table.version += 1
        table.log_events(events)
        shown.extend(latest.line(table, e.to_json(), UI.event_line) for e in events)

    record = play_game(GAME, players, options, seed, ["thoughtful", "casual"], on_action=seen)
    return record.to_json(), shown


@pytest.mark.parametrize(("seed", "players"), [(5, 3), (9, 4)])
def test_a_stored_game_shown_again_from_its_actions_reads_as_when_it_was_played(
    seed: int, players: int
) -> None:
    """The Latest entries are stored as data and worded when drawn: a game shown again later (its
    actions replayed, as a watched replay or a catch-up does) reads line for line as it was played,
    the gifts and tokens of each round included, though the table holds the last round by then."""
    options = {"track_length": 8}
    recorded, as_played = record_lines(seed, players, options)
    outcome = replay(json.loads(json.dumps(recorded)))  # from the stored action log
    assert outcome.failed_at is None
    state = outcome.state
    assert isinstance(state, GiftTrapState) and state.is_over() and state.round > 1
    table = make_table(state, options)
    stored = json.loads(json.dumps([latest.begins(players)] + [e.to_json() for e in outcome.events]))
    again = [latest.line(table, entry, UI.event_line) for entry in stored]
    assert again == as_played
    assert any(line.startswith("🎁 **") for line in again)
    assert any("turns up their tokens" in line for line in again)


def test_rows_stored_before_the_engine_spoke_in_data_read_the_same() -> None:
    """Events stored with the old engine's sentence (``text``) beside their data are worded from
    the data, as new ones are; the old snapshot's events read as a fresh game's."""
    old = json.loads(OLD_SNAPSHOT.read_text(encoding="utf-8"))
    state = GAME.from_json(old)
    table = make_table(state)
    fresh = [Event(e.kind, seat=e.seat, data=e.data) for e in state.opening_events]
    stored = [Event.from_json(e) for e in old["opening_events"]]
    assert all(e["text"] for e in old["opening_events"])  # the old format kept a sentence
    lines = [UI.event_line(table, e) for e in stored]
    assert lines == [UI.event_line(table, e) for e in fresh]
    assert lines == [
        "Round 1: **alice** deals and picks the pack.",
        "**alice** picks the $ pack: 4 gifts are on the table.",
    ]
    # The revealed gifts' old reasons (sentences) are codes now, and the gifts read as they did.
    gift = Event("gift", seat=0, data=dict(old["revealed"][1]))
    assert UI.event_line(table, gift) == UI.event_line(
        table, Event("gift", seat=0, data=dict(state.revealed[1]))
    )


def test_the_quick_start_explains_the_tokens_and_the_strategy_cards() -> None:
    """The panel no longer explains Give More, Get More and the GiftTRAP card each time it is
    drawn (issue 33: a phone screen of text); the quick start's "What you see" does, once, and
    says what the picture's token shapes are. On main GiftTRAP had no such lines."""
    from cogs.symbols import SYMBOLS_LIMIT, symbol_lines

    game = GiftTrap()
    lines = symbol_lines(game, game.parse_options({}))
    assert len(lines) == 3 and len("\n".join(lines)) <= SYMBOLS_LIMIT
    assert "GREAT a star" in lines[0]
    assert "**Give More**" in lines[1] and "**Get More**" in lines[1]
    assert lines[2].startswith("🪤 **GiftTRAP**")
    # A table without strategy cards explains none.
    assert symbol_lines(game, game.parse_options({"strategy_cards": False})) == lines[:1]
