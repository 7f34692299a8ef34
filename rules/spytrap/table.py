"""What lies on a Spy Trap table, and what leaves the engine: each seat's view and the stored JSON.

``SpyTrapTable`` holds a game in progress as plain data (the spies' identities, Immunity cards,
hands, piles and home areas; the deck and used pile; the bidding and the drawing under way; the
prompt waiting for an answer) and answers the small questions the rules ask of it. It also ends the
game and gives its result. The rules that change it are in drawing.py (a drawn card and the prompts
it raises) and state.py (set-up, piles, bidding, the end of a round, refusals, the timers' defaults).

Each key of a view is described where its type is, in views.py.
"""

from __future__ import annotations

import copy
import random
from typing import Final, Literal, Self

from rules.base import JSON, Event, Placement, Result
from rules.spytrap.cards import FILES_TO_WIN, country_of, file_country, sort_cards
from rules.spytrap.options import SpyTrapOptions, options_to_json, parse_options
from rules.spytrap.views import (
    CountryTally,
    DrawnCard,
    EndReason,
    Hint,
    LearnedFact,
    Phase,
    SpyTrapPrompt,
    SpyTrapView,
    WrongGuess,
)

GAME_KEY: Final = "spytrap"


class SpyTrapTable:
    """A game in progress as plain data, its small queries, its end, its views and its JSON."""

    def __init__(self, players: int, options: SpyTrapOptions, seed: int) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.round = 1
        self.phase: Phase = "pile"
        self.identity: list[str] = [""] * players
        self.id_discard: list[str] = []  # ID cards out of play, never shown
        self.pending_id: str | None = None  # an ID card received, waiting for the keep/swap choice
        self.immunity = [True] * players
        self.active = [True] * players
        self.out_order: list[int] = []
        self.eliminated_by: list[int | None] = [None] * players
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.piles: list[list[str]] = [[] for _ in range(players)]  # top first
        self.pile_done = [False] * players
        self.deck: list[str] = []  # top first
        self.used: list[str] = []
        self.home: list[list[list[str]]] = [[] for _ in range(players)]  # [card, from]
        self.opener = 0
        self.to_bid: int | None = None
        self.bids: list[int | Literal["pass"] | None] = [None] * players
        self.high_bid = 0
        self.high_bidder: int | None = None
        self.passes_in_row = 0
        self.max_bid = 0
        self.drawer: int | None = None
        self.draw_bid = 0
        self.draws_left = 0
        self.drawn: list[DrawnCard] = []
        self.last_winner: int | None = None
        self.prompt: SpyTrapPrompt | None = None
        self.challenge: JSON | None = None  # {"drawer", "country", "queue": [seats still to guess]}
        self.learned: list[list[LearnedFact]] = [[] for _ in range(players)]
        self.wrong_guesses: list[WrongGuess] = []
        self.winner: int | None = None
        self.end_reason: EndReason | None = None
        self.reshuffles = 0
        self.defaults_used = 0  # numbers the RNG labels of seeded timer defaults
        self.opening_events: list[Event] = []

    def _rng(self, label: str) -> random.Random:
        # A fresh RNG per use, derived from the seed, keeps the JSON small and a reload exact.
        return random.Random(f"spytrap:{self.seed}:{label}")

    # -- small queries ------------------------------------------------------------------------

    def active_seats(self) -> list[int]:
        return [s for s in range(self.players) if self.active[s]]

    def next_active(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            nxt = (seat + step) % self.players
            if self.active[nxt]:
                return nxt
        return seat

    def clockwise_from_left(self, seat: int) -> list[int]:
        return [
            (seat + step) % self.players
            for step in range(1, self.players)
            if self.active[(seat + step) % self.players]
        ]

    def tally(self, seat: int, country: str, counting_only: bool) -> int:
        return sum(
            1
            for card, source in self.home[seat]
            if country_of(card) == country and (not counting_only or source != "own")
        )

    def waiting(self) -> list[int]:
        if self.phase == "pile":
            return [s for s in range(self.players) if not self.pile_done[s]]
        if self.phase == "bid":
            return [] if self.to_bid is None else [self.to_bid]
        if self.phase == "draw":
            if self.prompt is not None:
                return [self.prompt["seat"]]
            return [] if self.drawer is None else [self.drawer]
        return []

    def min_bid(self) -> int:
        return self.high_bid + 1

    # -- end of the game -------------------------------------------------------------------------

    def _game_over(self, reason: EndReason, winner: int | None, events: list[Event]) -> None:
        self.phase = "over"
        self.winner = winner
        self.end_reason = reason
        self.prompt = None
        self.to_bid = None
        events.append(
            Event(
                "game_over",
                seat=None,
                data={"winner": winner, "reason": reason, "identities": list(self.identity)},
            )
        )

    def is_over(self) -> bool:
        return self.phase == "over"

    def final_points(self) -> list[int]:
        """Each spy still in: the counting Files of their identity; a spy put out: 0."""
        return [
            self.tally(s, self.identity[s], counting_only=True) if self.active[s] else 0
            for s in range(self.players)
        ]

    def result(self) -> Result | None:
        """Places by how far each spy got, so ratings see it too: the winner first; then the spies
        still in, by counting Files of their identity (equal counts share a place); then the spies
        put out, the later out ahead of the earlier."""
        if self.phase != "over":
            return None
        points = self.final_points()
        standing = [s for s in self.active_seats() if s != self.winner]
        place: dict[int, int] = {}
        first = 1
        if self.winner is not None:
            place[self.winner] = 1
            first = 2
        for s in standing:
            place[s] = first + sum(1 for o in standing if points[o] > points[s])
        next_place = first + len(standing)
        for index, s in enumerate(reversed(self.out_order)):
            place[s] = next_place + index
        placements = tuple(Placement(s, place[s], points[s]) for s in range(self.players))
        # How it ended (the cog words it): the end reason, the winner (None when the round limit or
        # the cards stopped the game) and the Files a win takes.
        return Result(
            placements,
            how=self.end_reason or "",
            details={"winner": self.winner, "files": FILES_TO_WIN},
        )

    # -- what players see ---------------------------------------------------------------------------

    def view(self, seat: int | None) -> SpyTrapView:
        over = self.phase == "over"
        data: SpyTrapView = {
            "game": GAME_KEY,
            "seat": seat,
            "players": self.players,
            "round": self.round,
            "round_limit": self.options.round_limit,
            "phase": self.phase,
            "active": list(self.active),
            "out_order": list(self.out_order),
            "immunity": list(self.immunity),
            "hand_counts": [len(h) for h in self.hands],
            "pile_sizes": [len(p) for p in self.piles],
            "deck_count": len(self.deck),
            "used_count": len(self.used),
            "piles_done": list(self.pile_done),
            "opener": self.opener,
            "to_bid": self.to_bid,
            "bids": list(self.bids),
            "high_bid": self.high_bid,
            "high_bidder": self.high_bidder,
            "min_bid": self.min_bid(),
            "max_bid": self.max_bid,
            "drawer": self.drawer,
            "draw_bid": self.draw_bid,
            "draws_left": self.draws_left,
            "drawn": [d.copy() for d in self.drawn],
            "home": [
                [{"card": card, "country": file_country(card), "from": source} for card, source in h]
                for h in self.home
            ],
            "tallies": [self._tallies(s) for s in range(self.players)],
            "prompt": self._public_prompt(),
            "waiting": self.waiting(),
            "wrong_guesses": [g.copy() for g in self.wrong_guesses],
            "winner": self.winner,
            "end_reason": self.end_reason,
        }
        if over:
            data["identities"] = list(self.identity)
        if seat is not None and 0 <= seat < self.players:
            data["identity"] = self.identity[seat]
            data["hand"] = sort_cards(self.hands[seat])
            data["my_pile"] = list(self.piles[seat])
            choosing = (
                self.prompt is not None
                and self.prompt["seat"] == seat
                and self.prompt["kind"] in ("keep", "swap")
            )
            data["received_id"] = self.pending_id if choosing else None
            data["learned"] = [f.copy() for f in self.learned[seat]]
            data["legal_hint"] = self._hint(seat)
        return data

    def _tallies(self, seat: int) -> dict[str, CountryTally]:
        out: dict[str, CountryTally] = {}
        for card, source in self.home[seat]:
            country = country_of(card)
            assert country is not None
            entry = out.setdefault(country, {"all": 0, "counting": 0})
            entry["all"] += 1
            entry["counting"] += int(source != "own")
        return out

    def _public_prompt(self) -> SpyTrapPrompt | None:
        # A copy, its lists included, so a view or the JSON never shares a list with the state.
        return None if self.prompt is None else copy.deepcopy(self.prompt)

    def _hint(self, seat: int) -> Hint | None:
        if self.phase == "over" or not self.active[seat] or seat not in self.waiting():
            return None
        if self.phase == "pile":
            return "pile"
        if self.phase == "bid":
            return "open" if self.high_bidder is None else "raise"
        if self.prompt is None:
            return "draw"
        return self.prompt["kind"]

    # -- persistence --------------------------------------------------------------------------------

    def to_json(self) -> JSON:
        return {
            "game": GAME_KEY,
            "version": 1,
            "players": self.players,
            "options": options_to_json(self.options),
            "seed": self.seed,
            "round": self.round,
            "phase": self.phase,
            "identity": list(self.identity),
            "id_discard": list(self.id_discard),
            "pending_id": self.pending_id,
            "immunity": list(self.immunity),
            "active": list(self.active),
            "out_order": list(self.out_order),
            "eliminated_by": list(self.eliminated_by),
            "hands": [list(h) for h in self.hands],
            "piles": [list(p) for p in self.piles],
            "pile_done": list(self.pile_done),
            "deck": list(self.deck),
            "used": list(self.used),
            "home": [[list(e) for e in h] for h in self.home],
            "opener": self.opener,
            "to_bid": self.to_bid,
            "bids": list(self.bids),
            "high_bid": self.high_bid,
            "high_bidder": self.high_bidder,
            "passes_in_row": self.passes_in_row,
            "max_bid": self.max_bid,
            "drawer": self.drawer,
            "draw_bid": self.draw_bid,
            "draws_left": self.draws_left,
            "drawn": [dict(d) for d in self.drawn],
            "last_winner": self.last_winner,
            "prompt": self._public_prompt(),
            "challenge": None
            if self.challenge is None
            else {**self.challenge, "queue": list(self.challenge["queue"])},
            "learned": [[dict(f) for f in facts] for facts in self.learned],
            "wrong_guesses": [dict(g) for g in self.wrong_guesses],
            "winner": self.winner,
            "end_reason": self.end_reason,
            "reshuffles": self.reshuffles,
            "defaults_used": self.defaults_used,
            "opening_events": [e.to_json() for e in self.opening_events],
        }

    @classmethod
    def from_json(cls, data: JSON) -> Self:
        if data.get("game") != GAME_KEY:
            raise ValueError(f"Not a Spy Trap state: game is {data.get('game')!r}.")
        state = cls(data["players"], parse_options(data["options"]), data["seed"])
        for key in (
            "round", "phase", "pending_id", "opener", "to_bid", "high_bid", "high_bidder", "passes_in_row",
            "max_bid", "drawer", "draw_bid", "draws_left", "last_winner", "winner", "end_reason",
            "reshuffles", "defaults_used",
        ):  # fmt: skip
            setattr(state, key, data[key])
        state.identity = list(data["identity"])
        state.id_discard = list(data["id_discard"])
        state.immunity = list(data["immunity"])
        state.active = list(data["active"])
        state.out_order = list(data["out_order"])
        state.eliminated_by = list(data["eliminated_by"])
        state.hands = [list(h) for h in data["hands"]]
        state.piles = [list(p) for p in data["piles"]]
        state.pile_done = list(data["pile_done"])
        state.deck = list(data["deck"])
        state.used = list(data["used"])
        state.home = [[list(e) for e in h] for h in data["home"]]
        state.bids = list(data["bids"])
        state.drawn = [d.copy() for d in data["drawn"]]
        state.prompt = copy.deepcopy(data["prompt"])  # None, or a prompt with its lists copied
        challenge = data["challenge"]
        state.challenge = None if challenge is None else {**challenge, "queue": list(challenge["queue"])}
        state.learned = [[f.copy() for f in facts] for facts in data["learned"]]
        state.wrong_guesses = [g.copy() for g in data["wrong_guesses"]]
        # A snapshot stored before the events became data holds each event's English sentence too
        # ("text"): its kind and data say the same, and the sentence is dropped.
        state.opening_events = [
            Event(e.kind, seat=e.seat, data=e.data)
            for e in map(Event.from_json, data.get("opening_events", []))
        ]
        return state
