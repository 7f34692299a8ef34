"""What a seat may see of Zap or Trap: ``ZapTrapState.view(seat)`` as typed dicts.

At run time a view is a plain JSON-able dict (scenario files, tests and the Discord layer read it
as one); these TypedDicts name its keys so that a misspelt key is a type error. ``seat=None`` is
the spectator. Keys for everyone:
- ``game`` "zaptrap"; ``seat`` the viewer (None for the spectator); ``players``; ``preset`` ("zaptrap"
  or "kemps"); ``species`` (species, or ranks, in the deck); ``hand_size``; ``target`` (points to win).
- ``team_game`` bool; ``team_of`` list per seat of its unit; ``units`` number of units;
  ``scores`` list per unit.
- ``phase``: "signals" (choosing secret signals before a round), "play" (the round is on: swap,
  gesture, call), "between" (a call or a void round ended the round; next_round timer), "over".
- ``round`` (1-based), ``dealer`` (seat dealing this round).
- ``signals_ready``: list per unit, whether it has chosen its signal this round (only "yes/no").
- ``table``: the four face-up cards (empty outside play); ``deck_count``; ``discard_count``;
  ``cleared``: the cards the last lull deal cleared away (public, face up) this round.
- ``hand_counts``: cards per seat.
- ``seq``: sequence number of the latest public swap, gesture or deal this round (0 at the deal).
- ``gestures``: this round's most recent public gestures, oldest first, each
  {"seq", "seat", "gesture"}; the referee never says whether one was a real signal.
- ``swaps``: this round's most recent swaps, oldest first, each {"seq", "seat", "gave", "took"}
  (both cards were face up, so public).
- ``deals``: seq numbers of this round's lull deals.
- ``palette``: gesture id -> emoji (``GESTURES``).
- ``call``: None, or the call that ended the last round (kept through "between" and "over"):
  {"caller", "target", "call" ("ZAP"/"TRAP"), "case" (team game: "zap_set", "zap_miss", "trap_set",
  "trap_miss"; individual game: "A"–"F"), "correct_target" bool, "hand" (the target's revealed hand),
  "set" (best set of that hand or None: {"species", "count", "cards"}), "lines" (the points
  explained: scoring.py's line codes, "on_set", "five_set", …, which the cog words), "value",
  "scorers" (units that scored), "points" (per unit this round), "team_win"}.
- ``void``: whether the last round was void (deck could not supply 4 cards).
- ``winners``: seats that won (empty until over); ``team_win``: whether a successful ZAP won it.
- ``signal_history``: only once the game is over: list per round {"round", "signals" (gesture id
  per unit, None if not chosen)}; absent before the end.
Keys added for a seat:
- ``hand``: its cards, sorted; ``best_set``: the set its hand counts ({"species", "count", "cards"})
  or None.
- ``unit``: its unit; ``partner``: partner seat (team game) or None.
- ``my_signal``: its side's chosen real signal for this round (None until chosen);
  ``last_signal``: its side's signal of the previous round (the default if time runs out).
- ``watch_seat`` / ``watch_signal``: the seat whose real signal it watches for (partner, or the
  player on its right in the individual game) and that signal (None until chosen).
- ``signal_to``: the seat that watches its signal (partner, or the player on its left).
- ``can_deal``: whether it may press Deal now.
"""

# No "from __future__ import annotations" here: evaluated annotations let the TypedDicts know at run
# time which keys are NotRequired (``__optional_keys__``), which tests and checks may rely on.
from typing import Literal, NotRequired, TypedDict

Phase = Literal["signals", "play", "between", "over"]


class SetView(TypedDict):
    """A set a hand counts: the species, how many of its cards show it, and those cards."""

    species: int
    count: int
    cards: list[str]


class GestureView(TypedDict):
    """A public gesture; ``seq`` orders it among this round's swaps, gestures and lull deals."""

    seq: int
    seat: int
    gesture: str


class SwapView(TypedDict):
    """A swap: the seat gave one of its cards to the table and took a table card."""

    seq: int
    seat: int
    gave: str
    took: str


class CallView(TypedDict):
    """The call that ended a round, the target's revealed hand and what it scored."""

    caller: int
    target: int
    call: str  # "ZAP" or "TRAP"
    case: str  # team game "zap_set" … "trap_miss"; individual game "A"–"F" (scoring.py)
    correct_target: bool
    hand: list[str]
    set: SetView | None
    lines: list[str]  # codes (scoring.LINES), one per line of the points explained
    value: int
    scorers: list[int]  # units
    points: list[int]  # per unit, this round
    team_win: bool


class SignalRound(TypedDict):
    """One round's real secret signals, per unit (None: not chosen); revealed at the end."""

    round: int
    signals: list[str | None]


class ZapTrapView(TypedDict):
    """``view(seat)``: everything above for everyone, the NotRequired keys only as noted."""

    game: str
    seat: int | None
    players: int
    preset: str
    species: int
    hand_size: int
    target: int
    team_game: bool
    team_of: list[int]
    units: int
    scores: list[int]
    phase: Phase
    round: int
    dealer: int
    signals_ready: list[bool]
    table: list[str]
    deck_count: int
    discard_count: int
    cleared: list[str]
    hand_counts: list[int]
    seq: int
    gestures: list[GestureView]
    swaps: list[SwapView]
    deals: list[int]
    palette: dict[str, str]
    call: CallView | None
    void: bool
    winners: list[int]
    team_win: bool
    # Only once the game is over.
    signal_history: NotRequired[list[SignalRound]]
    # Only for a seat (not the spectator).
    hand: NotRequired[list[str]]
    best_set: NotRequired[SetView | None]
    unit: NotRequired[int]
    partner: NotRequired[int | None]
    my_signal: NotRequired[str | None]
    last_signal: NotRequired[str | None]
    watch_seat: NotRequired[int]
    watch_signal: NotRequired[str | None]
    signal_to: NotRequired[int]
    can_deal: NotRequired[bool]


# Views and to_json() hand out copies that share no list with the state; dict.copy keeps the keys
# (and their order) exactly as they were, so the JSON form does not change.


def copy_call(call: CallView) -> CallView:
    copied = call.copy()
    copied["hand"] = list(call["hand"])
    copied["lines"] = list(call["lines"])
    copied["scorers"] = list(call["scorers"])
    copied["points"] = list(call["points"])
    found = call["set"]
    if found is not None:
        copied["set"] = copy_set(found)
    return copied


def copy_set(found: SetView) -> SetView:
    copied = found.copy()
    copied["cards"] = list(found["cards"])
    return copied


def copy_round(entry: SignalRound) -> SignalRound:
    copied = entry.copy()
    copied["signals"] = list(entry["signals"])
    return copied
