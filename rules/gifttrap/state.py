"""GiftTRAP's state: a round's set-up, the secret choices, the reveal, and what each seat may see.

A round: the dealer picks a pack (a price tier), players + 1 gifts are laid out on numbered spaces,
everyone secretly gives each other player one gift and secretly ranks the gifts with four tokens,
then the table reveals every received gift, one at a time, moving the GIVE and GET markers.

Seats are 0-based everywhere (actions, views, event data). Events, refusals and the result are
data only (a kind or code and its details, never a sentence or a name): the cog words them
(cogs/words/gifttrap.py) in the reader's language.
The actions are listed in actions.py; what each seat may do now, and why anything else is refused,
is in checks.py (GiftTrapState builds on it); what each seat may see is typed in views.py.

Event kinds (all public; ``data`` per kind):
- ``round_start`` {round, dealer}; ``pack`` {round, pack, price, layout: [gift ids], by_referee}.
- ``ready`` {seat}; ``filled`` {seat} (no detail of what was filled in); ``reveal_start`` {order}.
- ``ranking`` {seat, ranks, gifts: token -> gift id (missing in older records)};
  ``gift`` (one revealed gift: a RevealedGift, views.py).
- ``gifttrap`` {seat, space, gift, during: "choosing"|"reveal"}.
- ``round_over`` {round, give_track, get_track, winners};
  ``game_over`` {round, winners, give_track, get_track} (``round`` is missing in older records).
The private choices (give, rank, Give More, Get More) produce no event at all.
"""

from __future__ import annotations

import json
import random
from typing import Any, Final, TypedDict

from rules.base import (
    JSON,
    Action,
    Event,
    Placement,
    QuietAction,
    Result,
    State,
)
from rules.gifttrap.actions import parse_action
from rules.gifttrap.checks import Checks
from rules.gifttrap.gifts import GIFTS, PACK_GIFTS, PACKS, PRICES
from rules.gifttrap.options import GO, GiftTrapOptions, options_to_json, parse_options
from rules.gifttrap.tokens import NO_MATCH, TOKEN_POINTS
from rules.gifttrap.views import (
    GiftTrapView,
    LaidOutGift,
    PastGift,
    PastRound,
    Phase,
    RevealedGift,
    TokenPlaces,
    TrappedGift,
    Why,
)

GAME_KEY: Final = "gifttrap"


class StoredRound(TypedDict):
    """An earlier round as the state keeps it: views.PastRound with the layout as gift ids."""

    round: int
    dealer: int
    pack: int
    layout: list[str]
    revealed: list[PastGift]
    rankings: list[TokenPlaces]
    trapped: list[TrappedGift]
    give_track: list[int]
    get_track: list[int]
    winners: list[int]


class GiftTrapState(Checks, State[GiftTrapView]):
    def __init__(self, players: int, options: GiftTrapOptions, seed: int) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.round = 1
        self.phase: Phase = "pack"
        self.dealer = 0
        self.pack: int | None = None
        self.layout: list[str] = []  # gift ids, space n is layout[n - 1]
        self.seen: list[str] = []  # gifts laid out in earlier rounds, avoided while others remain
        self.gives: list[list[int | None]] = []
        self.give_more: list[int | None] = []
        self.ranks: list[TokenPlaces] = []
        self.get_more: list[int | None] = []
        self.ready: list[bool] = []
        self.filled: list[bool] = []
        self.trap_used = [False] * players
        self.trapped: list[TrappedGift] = []
        self.reveal_order: list[list[int]] = []
        self.revealed: list[RevealedGift] = []
        self.ranking_shown: list[bool] = []
        self.give_track = [GO] * players
        self.get_track = [GO] * players
        self.history: list[StoredRound] = []
        self.winners: list[int] = []
        self.opening_events: list[Event] = []
        self._history_cache: tuple[int, str] = (0, "[]")
        self._clear_choices()

    @property
    def length(self) -> int:
        return self.options.track_length

    def _rng(self, label: str) -> random.Random:
        # A fresh RNG per round and purpose, derived from the seed, keeps the JSON small and reloads exact.
        return random.Random(f"gifttrap:{self.seed}:round{self.round}:{label}")

    def _clear_choices(self) -> None:
        n = self.players
        self.gives = [[None] * n for _ in range(n)]
        self.give_more = [None] * n
        self.ranks = [{} for _ in range(n)]
        self.get_more = [None] * n
        self.ready = [False] * n
        self.filled = [False] * n
        self.trapped = []
        self.reveal_order = []
        self.revealed = []
        self.ranking_shown = [False] * n

    # -- round set-up -------------------------------------------------------------------------

    def _start_round(self, events: list[Event]) -> None:
        self.phase = "pack"
        self.pack = None
        self.layout = []
        self._clear_choices()
        data = {"round": self.round, "dealer": self.dealer}
        events.append(Event("round_start", seat=self.dealer, data=data))

    def default_pack(self) -> int:
        return self._rng("pack").choice(PACKS)

    def draw_layout(self, pack: int) -> list[str]:
        """players + 1 gifts of the pack, preferring gifts nobody has seen yet this game."""
        rng = self._rng("layout")
        pool = [g.id for g in PACK_GIFTS[pack]]
        fresh = [g for g in pool if g not in self.seen]
        needed = self.players + 1
        rng.shuffle(fresh)
        chosen = fresh[:needed]
        if len(chosen) < needed:
            stale = [g for g in pool if g in self.seen]
            rng.shuffle(stale)
            chosen += stale[: needed - len(chosen)]
        return chosen

    def _lay_out(self, pack: int, layout: list[str], by_referee: bool, events: list[Event]) -> None:
        self.pack = pack
        self.layout = list(layout)
        self.seen += [g for g in layout if g not in self.seen]
        self.phase = "choosing"
        data = {
            "round": self.round,
            "pack": pack,
            "price": PRICES[pack],
            "layout": list(layout),
            "by_referee": by_referee,
        }
        events.append(Event("pack", seat=None if by_referee else self.dealer, data=data))

    # -- applying -----------------------------------------------------------------------------

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        move = parse_action(action)
        self._check(seat, move)
        events: list[Event] = []
        verb = move.verb
        if verb == "pack":
            assert move.pack is not None
            self.dealer_pick(move.pack, seat is None, events)
        elif verb == "give":
            assert seat is not None and move.seat is not None
            self.gives[seat][move.seat] = move.space
        elif verb == "givemore":
            assert seat is not None
            self.give_more[seat] = move.seat
        elif verb == "getmore":
            assert seat is not None
            self.get_more[seat] = move.seat
        elif verb == "rank":
            assert seat is not None and move.token is not None and move.space is not None
            self.ranks[seat][move.token] = move.space
        elif verb == "unrank":
            assert seat is not None
            self.ranks[seat] = {t: s for t, s in self.ranks[seat].items() if s != move.space}
        elif verb == "ready":
            assert seat is not None
            self.ready[seat] = True
            events.append(Event("ready", seat=seat, data={"seat": seat}))
            self._maybe_start_reveal(events)
        elif verb == "fill":
            self._fill(events)
        elif verb == "gifttrap":
            assert seat is not None and move.space is not None
            self._gifttrap(seat, move.space, events)
        elif verb == "reveal":
            self._reveal_next(events)
        elif verb == "next":
            self.round += 1
            self.dealer = (self.dealer + 1) % self.players
            self._start_round(events)
        return events

    def dealer_pick(self, pack: int, by_referee: bool, events: list[Event]) -> None:
        self._lay_out(pack, self.draw_layout(pack), by_referee, events)

    def _fill(self, events: list[Event]) -> None:
        """Complete every unready player's choices by a simple seeded rule, keeping what they chose:
        a random unused gift for each missing receiver, random free gifts for missing tokens."""
        for seat in range(self.players):
            if self.ready[seat]:
                continue
            rng = self._rng(f"fill{seat}")
            for receiver in self.to_give(seat):
                free = [n for n in range(1, self.spaces + 1) if n not in self.gives[seat]]
                self.gives[seat][receiver] = rng.choice(free)
            for token in self.to_rank(seat):
                free = [n for n in range(1, self.spaces + 1) if n not in self.ranks[seat].values()]
                self.ranks[seat][token] = rng.choice(free)
            self.ready[seat] = self.filled[seat] = True
            events.append(Event("filled", seat=seat, data={"seat": seat}))
        self._maybe_start_reveal(events)

    def _maybe_start_reveal(self, events: list[Event]) -> None:
        if not all(self.ready):
            return
        n = self.players
        self.reveal_order = [
            [receiver, (receiver + k) % n]
            for receiver in ((self.dealer + i) % n for i in range(n))
            for k in range(1, n)
        ]
        self.phase = "reveal"
        events.append(Event("reveal_start", data={"order": [list(pair) for pair in self.reveal_order]}))

    def _gifttrap(self, seat: int, space: int, events: list[Event]) -> None:
        self.trap_used[seat] = True
        gift = self.gift_at(space)
        during = self.phase
        self.trapped.append({"space": space, "gift": gift.id, "seat": seat, "at": len(self.revealed)})
        data = {"seat": seat, "space": space, "gift": gift.id, "during": during}
        events.append(Event("gifttrap", seat=seat, data=data))

    def _move(self, track: list[int], seat: int, amount: int) -> int:
        before = track[seat]
        track[seat] = max(GO, min(self.length, before + amount))
        return track[seat] - before

    def _reveal_next(self, events: list[Event]) -> None:
        receiver, giver = self.reveal_order[len(self.revealed)]
        if not self.ranking_shown[receiver]:
            self.ranking_shown[receiver] = True
            ranks = dict(self.ranks[receiver])
            gifts = {token: self.layout[space - 1] for token, space in ranks.items()}
            data = {"seat": receiver, "ranks": ranks, "gifts": gifts}
            events.append(Event("ranking", seat=receiver, data=data))
        space = self.gives[giver][receiver]
        assert space is not None
        gift = self.gift_at(space)
        token = next((t for t, s in self.ranks[receiver].items() if s == space), None)
        points = NO_MATCH if token is None else TOKEN_POINTS[token]
        give_more = self.give_more[giver] == receiver
        get_more = self.get_more[receiver] == giver
        trapped = self.is_trapped(space)
        why: list[Why] = []
        if trapped:
            receiver_points = giver_points = 0
            why.append("gifttrap")
        else:
            receiver_points = points * (2 if get_more else 1)
            giver_points = points * (2 if give_more else 1)
            if give_more:
                why.append("give_more")
            if get_more:
                why.append("get_more")
        receiver_moved = self._move(self.get_track, receiver, receiver_points)
        giver_moved = self._move(self.give_track, giver, giver_points)
        record: RevealedGift = {
            "receiver": receiver,
            "giver": giver,
            "space": space,
            "gift": gift.id,
            "name": gift.name,
            "emoji": gift.emoji,
            "token": token,
            "points": points,
            "trapped": trapped,
            "give_more": give_more,
            "get_more": get_more,
            "receiver_points": receiver_points,
            "giver_points": giver_points,
            "receiver_moved": receiver_moved,
            "giver_moved": giver_moved,
            "get": self.get_track[receiver],
            "give": self.give_track[giver],
            "why": why,
        }
        self.revealed.append(record)
        # The event names the gift by its id: its name and emoji are worded when shown.
        data = {k: v for k, v in _copy_json(record).items() if k not in ("name", "emoji")}
        events.append(Event("gift", seat=receiver, data=data))
        if len(self.revealed) == len(self.reveal_order):
            self._end_round(events)

    def _end_round(self, events: list[Event]) -> None:
        self.winners = [
            s
            for s in range(self.players)
            if self.give_track[s] == self.length and self.get_track[s] == self.length
        ]
        assert self.pack is not None  # the reveal comes after the dealer's pick
        self.history.append(
            {
                "round": self.round,
                "dealer": self.dealer,
                "pack": self.pack,
                "layout": list(self.layout),
                "revealed": [_past(r) for r in self.revealed],
                "rankings": [dict(r) for r in self.ranks],
                "trapped": [t.copy() for t in self.trapped],
                "give_track": list(self.give_track),
                "get_track": list(self.get_track),
                "winners": list(self.winners),
            }
        )
        events.append(
            Event(
                "round_over",
                data={
                    "round": self.round,
                    "give_track": list(self.give_track),
                    "get_track": list(self.get_track),
                    "winners": list(self.winners),
                },
            )
        )
        if self.winners:
            self.phase = "over"
            result = self.result()
            assert result is not None
            events.append(
                Event(
                    "game_over",
                    data={
                        "round": self.round,
                        "winners": list(self.winners),
                        "give_track": list(self.give_track),
                        "get_track": list(self.get_track),
                    },
                )
            )
        else:
            self.phase = "between_rounds"

    # -- what players see ---------------------------------------------------------------------

    def _layout_json(self, layout: list[str]) -> list[LaidOutGift]:
        return [GIFTS[g].on_space(n) for n, g in enumerate(layout, 1)]

    def _history_view(self) -> list[PastRound]:
        # Earlier rounds never change, and every view of every seat carries them: render them once
        # and hand out fresh copies (json.loads is far cheaper than copying the dicts by hand).
        if self._history_cache[0] != len(self.history):
            rendered = [{**past, "layout": self._layout_json(past["layout"])} for past in self.history]
            self._history_cache = (len(self.history), json.dumps(rendered))
        return list(json.loads(self._history_cache[1]))

    def view(self, seat: int | None) -> GiftTrapView:
        data: GiftTrapView = {
            "game": GAME_KEY,
            "seat": seat,
            "players": self.players,
            "phase": self.phase,
            "round": self.round,
            "dealer": self.dealer,
            "pack": self.pack,
            "price": None if self.pack is None else PRICES[self.pack],
            "default_pack": self.default_pack() if self.phase == "pack" else None,
            "layout": self._layout_json(self.layout),
            "ready": list(self.ready),
            "filled": list(self.filled),
            "track_length": self.length,
            "give_track": list(self.give_track),
            "get_track": list(self.get_track),
            "strategy_cards": self.options.strategy_cards,
            "gifttrap_used": list(self.trap_used),
            "trapped": [t.copy() for t in self.trapped],
            "reveal_order": [list(p) for p in self.reveal_order],
            "reveal_next": len(self.revealed),
            "revealed": json.loads(json.dumps(self.revealed)),
            "rankings": [dict(self.ranks[s]) if self.ranking_shown[s] else None for s in range(self.players)],
            "history": self._history_view(),
            "winners": list(self.winners),
        }
        if seat is not None and 0 <= seat < self.players:
            data["my"] = {
                "gives": list(self.gives[seat]),
                "give_more": self.give_more[seat],
                "ranks": dict(self.ranks[seat]),
                "get_more": self.get_more[seat],
                "ready": self.ready[seat],
                "to_give": self.to_give(seat) if self.phase == "choosing" else [],
                "to_rank": self.to_rank(seat) if self.phase == "choosing" else [],
                "gifttrap_available": self.can_gifttrap(seat)
                and any(not self.is_trapped(n) for n in range(1, self.spaces + 1)),
            }
        return data

    def quiet_actions(self) -> list[QuietAction]:
        if self.phase == "pack":
            return [QuietAction("pack", f"pack-{self.default_pack()}")]
        if self.phase == "choosing":
            return [QuietAction("choosing", "fill")]
        if self.phase == "reveal":
            return [QuietAction("reveal_step", "reveal")]
        if self.phase == "between_rounds":
            return [QuietAction("next_round", "next")]
        return []

    def is_over(self) -> bool:
        return self.phase == "over"

    def points(self, seat: int) -> int:
        return self.give_track[seat] + self.get_track[seat]

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        scores = [self.points(s) for s in range(self.players)]
        placements = tuple(
            Placement(s, 1 if s in self.winners else 1 + sum(1 for o in scores if o > own), own)
            for s, own in enumerate(scores)
        )
        # "gifted": the winners have both markers on GIFTED at the end of round ``round``.
        return Result(placements, how="gifted", details={"round": self.round, "winners": list(self.winners)})

    # -- persistence --------------------------------------------------------------------------

    def to_json(self) -> JSON:
        return {
            "game": GAME_KEY,
            "version": 1,
            "players": self.players,
            "options": options_to_json(self.options),
            "seed": self.seed,
            "round": self.round,
            "phase": self.phase,
            "dealer": self.dealer,
            "pack": self.pack,
            "layout": list(self.layout),
            "seen": list(self.seen),
            "gives": [list(g) for g in self.gives],
            "give_more": list(self.give_more),
            "ranks": [dict(r) for r in self.ranks],
            "get_more": list(self.get_more),
            "ready": list(self.ready),
            "filled": list(self.filled),
            "trap_used": list(self.trap_used),
            "trapped": _copy_json(self.trapped),
            "reveal_order": [list(p) for p in self.reveal_order],
            "revealed": _copy_json(self.revealed),
            "ranking_shown": list(self.ranking_shown),
            "give_track": list(self.give_track),
            "get_track": list(self.get_track),
            "history": _copy_json(self.history),
            "winners": list(self.winners),
            "opening_events": [e.to_json() for e in self.opening_events],
        }

    @classmethod
    def from_json(cls, data: JSON) -> GiftTrapState:
        if data.get("game") != GAME_KEY:
            raise ValueError(f"Not a GiftTRAP state: game is {data.get('game')!r}.")
        state = cls(data["players"], parse_options(data["options"]), data["seed"])
        state.round = data["round"]
        state.phase = data["phase"]
        state.dealer = data["dealer"]
        state.pack = data["pack"]
        state.layout = list(data["layout"])
        state.seen = list(data["seen"])
        state.gives = [list(g) for g in data["gives"]]
        state.give_more = list(data["give_more"])
        state.ranks = [dict(r) for r in data["ranks"]]
        state.get_more = list(data["get_more"])
        state.ready = list(data["ready"])
        state.filled = list(data["filled"])
        state.trap_used = list(data["trap_used"])
        state.trapped = _copy_json(data["trapped"])
        state.reveal_order = [list(p) for p in data["reveal_order"]]
        state.revealed = [_legacy_data(r) for r in _copy_json(data["revealed"])]
        state.ranking_shown = list(data["ranking_shown"])
        state.give_track = list(data["give_track"])
        state.get_track = list(data["get_track"])
        state.history = _copy_json(data["history"])
        state.winners = list(data["winners"])
        # Events as data only: a ``text`` stored by the code before the catalogs is dropped.
        state.opening_events = [
            Event(e["kind"], seat=e.get("seat"), data=_legacy_data(dict(e.get("data") or {})))
            for e in data.get("opening_events", [])
        ]
        return state


def _past(record: RevealedGift) -> PastGift:
    """What the public history keeps of a revealed gift (its name and emoji are in its layout)."""
    return {
        "receiver": record["receiver"],
        "giver": record["giver"],
        "space": record["space"],
        "token": record["token"],
        "points": record["points"],
        "trapped": record["trapped"],
        "give_more": record["give_more"],
        "get_more": record["get_more"],
        "receiver_points": record["receiver_points"],
        "giver_points": record["giver_points"],
    }


# The reasons a revealed gift's moves differ from its token, as stored before they were codes.
LEGACY_WHY: Final[dict[str, Why]] = {
    "A GiftTRAP card is on this gift, so nobody scores from it.": "gifttrap",
    "The giver's Give More card doubles the giver's move.": "give_more",
    "The receiver's Get More card doubles the receiver's move.": "get_more",
}


def _legacy_data(data: Any) -> Any:
    """A revealed gift (or an event's data) as stored by the code before the catalogs: its ``why``
    sentences become codes. Anything else is returned as it is."""
    if isinstance(data, dict) and isinstance(data.get("why"), list):
        data["why"] = [LEGACY_WHY.get(w, w) for w in data["why"]]
    return data


def _copy_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    return value
