"""The rules of Zip Zap: one game in progress, its rounds, runs, control and scores (RULINGS.md §2).

The referee knows every hand, so "nobody can follow" is decided at once after each card instead of
waiting for the table to notice; a stall (the table going quiet although someone could play) is the
system action "stall", and a leader who sits on control is played for with "idle".
"""

from __future__ import annotations

import random
from typing import Final

from rules.base import JSON, Action, Event, IllegalAction, Placement, QuietAction, Result, State
from rules.zipzap.cards import (
    MAX_NUMBER,
    SOLID_SUITS,
    ZAP,
    all_number_cards,
    card_points,
    followers,
    follows,
    hand_size,
    idle_card,
    is_zap,
    number_of,
    parse_play,
    sort_hand,
)
from rules.zipzap.options import ZipZapOptions, options_to_json, parse_options
from rules.zipzap.views import Phase, ZipZapView

# The game's key: in custom_ids, the database, the CLI, and the "game" of every stored state.
KEY: Final = "zipzap"


class ZipZapState(State[ZipZapView]):
    def __init__(self, players: int, options: ZipZapOptions, seed: int) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.total_rounds = options.total_rounds(players)
        self.round = 1
        self.phase: Phase = "play"
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.deck: list[str] = []  # top first
        self.played: list[str] = []  # this round's pile, oldest first, flipped cards included
        self.top: str | None = None
        self.top_seat: int | None = None  # None: flipped from the deck
        self.control: int | None = None
        self.first_player = 0
        self.zap_used = [False] * players
        self.scores = [0] * players
        self.last_round_points: list[int] | None = None
        self.went_out: int | None = None
        self.out_of_game: list[str] = []
        self.opening_events: list[Event] = []

    # -- round set-up -------------------------------------------------------------------------

    def _round_rng(self, label: str) -> random.Random:
        # A fresh RNG per round, derived from the seed, keeps the JSON small and a reload exact.
        return random.Random(f"zipzap:{self.seed}:{label}")

    def _choose_out_of_game(self) -> None:
        removed = {2: 2, 3: 1}.get(self.players, 0)
        chosen = self._round_rng("suits").sample(list(SOLID_SUITS), removed)
        self.out_of_game = [s for s in SOLID_SUITS if s in chosen]

    def _deal(self, deal: JSON | None) -> list[Event]:
        self.first_player = (self.round - 1) % self.players
        self.zap_used = [False] * self.players
        self.played, self.top, self.top_seat, self.control, self.went_out = [], None, None, None, None
        self.phase = "play"
        if deal is not None:
            hands = [list(h) for h in deal["hands"]]
            self.deck = list(deal["deck"])
        else:
            cards = all_number_cards(self.out_of_game)
            self._round_rng(f"round{self.round}").shuffle(cards)
            size = hand_size(self.players)
            hands = [cards[i * size : (i + 1) * size] for i in range(self.players)]
            self.deck = cards[size * self.players :]
        self.hands = [sort_hand([*h, f"{ZAP}{s}"]) for s, h in enumerate(hands)]
        # hand_counts include each seat's Zap card.
        events = [
            Event(
                "deal",
                data={
                    "round": self.round,
                    "rounds": self.total_rounds,
                    "hand_counts": [len(h) for h in self.hands],
                    "deck_count": len(self.deck),
                },
            )
        ]
        self._flip(events)
        return events

    def _flip(self, events: list[Event]) -> None:
        """Flip deck cards until one can be followed; an empty deck gives the first player the lead."""
        while True:
            if not self.deck:
                self.control = self.first_player
                # flipped: cards were flipped and nobody could follow them (else there was no deck).
                data = {"reason": "first_player", "flipped": bool(self.played)}
                events.append(Event("control", seat=self.first_player, data=data))
                return
            card = self.deck.pop(0)
            self.played.append(card)
            self.top, self.top_seat = card, None
            events.append(Event("flip", data={"card": card}))
            if self._someone_can_follow():
                return

    def _someone_can_follow(self) -> bool:
        wanted = followers(self.top)
        return bool(wanted) and any(not wanted.isdisjoint(hand) for hand in self.hands)

    # -- queries ------------------------------------------------------------------------------

    def holds_zap(self, seat: int) -> bool:
        return f"{ZAP}{seat}" in self.hands[seat]

    def _own_number_on_top(self, seat: int) -> bool:
        """The seat played the top card and it is a number card: the moment a Zap is allowed
        (RULINGS §2), whether or not that card also gave them control (a 10, nobody can follow)."""
        return self.top_seat == seat and self.top is not None and not is_zap(self.top)

    def _may_zap(self, seat: int) -> bool:
        """A lone Zap now: right after your own number card while it is on top (also after your 10
        or while you hold control over it, which sheds the 5-point card), or as your last card."""
        if not self.holds_zap(seat):
            return False
        if self._own_number_on_top(seat):
            return True
        return self.control == seat and len(self.hands[seat]) == 1

    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.phase == "over":
            return []
        if self.phase == "between_rounds":
            return ["deal"]
        if seat is None:
            return ["idle"] if self.control is not None else ["stall"]
        if not 0 <= seat < self.players:
            return []
        hand = self.hands[seat]
        if self.control is not None:
            if self.control != seat:
                return []
            cards = [c for c in hand if not is_zap(c)]
        else:
            cards = [c for c in hand if follows(c, self.top)]
        # Play-and-Zap: the card goes down and is at once the player's own number card on top.
        combos = [f"{c}+Z" for c in cards] if self.holds_zap(seat) else []
        return cards + combos + (["Z"] if self._may_zap(seat) else [])

    def can_zap(self, seat: int) -> bool:
        return "Z" in self.legal_actions(seat)

    # -- actions ------------------------------------------------------------------------------

    def _check(self, seat: int | None, action: Action) -> None:
        """Raise IllegalAction with a reason if ``action`` is not allowed now; changes nothing."""
        if self.phase == "over":
            raise IllegalAction("game_over")
        if action == "deal":
            if self.phase != "between_rounds":
                raise IllegalAction("round_in_play")
            return
        if self.phase == "between_rounds":
            raise IllegalAction("round_over")
        if action in ("stall", "idle"):
            if seat is not None:
                raise IllegalAction("referee_only")
            if action == "stall" and self.control is not None:
                raise IllegalAction("no_open_run")
            if action == "idle" and self.control is None:
                raise IllegalAction("no_idle_leader")
            return
        card, zap = parse_play(action)
        if seat is None:
            raise IllegalAction("players_only")
        if not 0 <= seat < self.players:
            raise IllegalAction("no_such_seat", seat=seat)
        if self.control is not None and self.control != seat:
            if card is not None and self._beaten_to_it(seat, card):
                # The card that beat it is on top, and its player has control now.
                raise IllegalAction("beaten_to_control", top=self.top)
            raise IllegalAction("not_in_control", control=self.control)
        if card is not None:
            self._check_card(seat, card, zap)
        else:
            self._check_zap(seat)

    def _check_card(self, seat: int, card: str, zap: bool) -> None:
        if card not in self.hands[seat]:
            raise IllegalAction("card_not_held", card=card)
        if self.control is None and not follows(card, self.top):
            assert self.top is not None
            if self._beaten_to_it(seat, card):
                raise IllegalAction("beaten_to_it", card=card, top=self.top)
            raise IllegalAction("does_not_follow", card=card, top=self.top)
        if zap and not self.holds_zap(seat):
            raise IllegalAction(self._no_zap_code(seat))

    def _beaten_to_it(self, seat: int, card: str) -> bool:
        """Whether ``card`` would have followed the card beneath the top, which another player
        covered first: the usual way a real-time play arrives too late."""
        beneath = self.played[-2] if len(self.played) >= 2 else None
        return card in self.hands[seat] and self.top_seat not in (None, seat) and follows(card, beneath)

    def _check_zap(self, seat: int) -> None:
        if not self.holds_zap(seat):
            raise IllegalAction(self._no_zap_code(seat))
        if self._may_zap(seat):
            return
        if self.control == seat:
            # Leading, over a card that is not their own number card: lead a card, or Zap as the last.
            raise IllegalAction("zap_not_a_lead")
        raise IllegalAction("zap_too_late")

    def _no_zap_code(self, seat: int) -> str:
        return "zap_used" if self.zap_used[seat] else "no_zap"

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        self._check(seat, action)
        events: list[Event] = []
        if action == "deal":
            self.round += 1
            events = self._deal(None)
        elif action == "stall":
            self._stall(events)
        elif action == "idle":
            assert self.control is not None
            leader = self.control
            card = idle_card(self.hands[leader])
            events.append(Event("idle_play", seat=leader, data={"card": card}))
            if is_zap(card):
                self._play_zap(leader, events)
            else:
                self._play_card(leader, card, events)
        else:
            assert seat is not None
            played, zap = parse_play(action)
            if played is not None:
                self._play_card(seat, played, events)
                if zap and self.phase == "play":
                    self._play_zap(seat, events)
            else:
                self._play_zap(seat, events)
        return events

    def _stall(self, events: list[Event]) -> None:
        if self.top_seat is None:
            events.append(Event("stall", data={"flipped": True}))  # the next card is flipped
            self._flip(events)
            return
        self.control = self.top_seat
        events.append(Event("stall", data={"flipped": False}))
        events.append(Event("control", seat=self.top_seat, data={"reason": "stall", "card": self.top}))

    def _play_card(self, seat: int, card: str, events: list[Event]) -> None:
        leading = self.control == seat
        self.hands[seat].remove(card)
        self.played.append(card)
        self.top, self.top_seat, self.control = card, seat, None
        events.append(Event("play", seat=seat, data={"card": card, "lead": leading}))
        if not self.hands[seat]:
            self._end_round(seat, events)
        elif number_of(card) == MAX_NUMBER:
            self._give_control(seat, "ten", card, events)
        elif not self._someone_can_follow():
            self._give_control(seat, "blocked", card, events)

    def _play_zap(self, seat: int, events: list[Event]) -> None:
        code = f"{ZAP}{seat}"
        self.hands[seat].remove(code)
        self.played.append(code)
        self.zap_used[seat] = True
        self.top, self.top_seat, self.control = code, seat, None
        events.append(Event("zap", seat=seat, data={"card": code}))
        if not self.hands[seat]:
            self._end_round(seat, events)
        else:
            self._give_control(seat, "zap", code, events)

    def _give_control(self, seat: int, reason: str, card: str, events: list[Event]) -> None:
        """``reason``: "ten", "blocked" (nobody can follow) or "zap"; ``card`` the one on top."""
        self.control = seat
        events.append(Event("control", seat=seat, data={"reason": reason, "card": card}))

    def round_points(self, went_out: int) -> list[int]:
        if self.options.scoring == "first_out":
            return [1 if s == went_out else 0 for s in range(self.players)]
        return [
            0 if s == went_out else sum(card_points(c) for c in hand) for s, hand in enumerate(self.hands)
        ]

    def _end_round(self, seat: int, events: list[Event]) -> None:
        points = self.round_points(seat)
        self.scores = [a + b for a, b in zip(self.scores, points, strict=True)]
        self.last_round_points = points
        self.went_out = seat
        self.control = None
        data = {
            "round": self.round,
            "rounds": self.total_rounds,
            "went_out": seat,
            "points": list(points),
            "scores": list(self.scores),
        }
        events.append(Event("round_over", seat=seat, data=data))
        if self.round >= self.total_rounds:
            self.phase = "over"
            result = self.result()
            assert result is not None
            over = {"winners": result.winners, "scores": list(self.scores), "how": result.how}
            events.append(Event("game_over", data={**over, **result.details}))
        else:
            self.phase = "between_rounds"

    # -- what players see ---------------------------------------------------------------------

    def view(self, seat: int | None) -> ZipZapView:
        data: ZipZapView = {
            "game": KEY,
            "seat": seat,
            "players": self.players,
            "phase": self.phase,
            "round": self.round,
            "rounds": self.total_rounds,
            "scoring": self.options.scoring,
            "top": self.top,
            "top_seat": self.top_seat,
            "control": self.control,
            "first_player": self.first_player,
            "hand_counts": [len(h) for h in self.hands],
            "zap_used": list(self.zap_used),
            "deck_count": len(self.deck),
            "played": list(self.played),
            "out_of_game": list(self.out_of_game),
            "scores": list(self.scores),
            "last_round_points": None if self.last_round_points is None else list(self.last_round_points),
            "went_out": self.went_out,
        }
        if seat is not None:
            data["hand"] = sort_hand(self.hands[seat])
            data["can_zap"] = self.phase == "play" and self.can_zap(seat)
        return data

    def quiet_actions(self) -> list[QuietAction]:
        if self.phase == "between_rounds":
            return [QuietAction("next_round", "deal")]
        if self.phase != "play":
            return []
        if self.control is not None:
            return [QuietAction("idle", "idle")]
        return [QuietAction("stall", "stall")]

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        lowest_wins = self.options.scoring == "cards"

        def better(a: int, b: int) -> bool:
            return a < b if lowest_wins else a > b

        placements = tuple(
            Placement(s, 1 + sum(1 for other in self.scores if better(other, own)), own)
            for s, own in enumerate(self.scores)
        )
        best = min(self.scores) if lowest_wins else max(self.scores)
        # how: "lowest_total" (scoring by cards left) or "most_rounds" (first out); points: the winners'.
        how = "lowest_total" if lowest_wins else "most_rounds"
        return Result(placements, how=how, details={"points": best})

    # -- persistence --------------------------------------------------------------------------

    def to_json(self) -> JSON:
        return {
            "game": KEY,
            "version": 1,
            "players": self.players,
            "options": options_to_json(self.options),
            "seed": self.seed,
            "round": self.round,
            "phase": self.phase,
            "hands": [list(h) for h in self.hands],
            "deck": list(self.deck),
            "played": list(self.played),
            "top": self.top,
            "top_seat": self.top_seat,
            "control": self.control,
            "first_player": self.first_player,
            "zap_used": list(self.zap_used),
            "scores": list(self.scores),
            "last_round_points": None if self.last_round_points is None else list(self.last_round_points),
            "went_out": self.went_out,
            "out_of_game": list(self.out_of_game),
            "opening_events": [e.to_json() for e in self.opening_events],
        }

    @classmethod
    def from_json(cls, data: JSON) -> ZipZapState:
        if data.get("game") != KEY:
            raise ValueError(f"Not a Zip Zap state: game is {data.get('game')!r}.")
        state = cls(data["players"], parse_options(data["options"]), data["seed"])
        state.round = data["round"]
        state.phase = data["phase"]
        state.hands = [list(h) for h in data["hands"]]
        state.deck = list(data["deck"])
        state.played = list(data["played"])
        state.top = data["top"]
        state.top_seat = data["top_seat"]
        state.control = data["control"]
        state.first_player = data["first_player"]
        state.zap_used = list(data["zap_used"])
        state.scores = list(data["scores"])
        lrp = data["last_round_points"]
        state.last_round_points = None if lrp is None else list(lrp)
        state.went_out = data["went_out"]
        state.out_of_game = list(data["out_of_game"])
        state.opening_events = [_opening_event(e, state.total_rounds) for e in data.get("opening_events", [])]
        return state


def _opening_event(data: JSON, total_rounds: int) -> Event:
    """A stored opening event as data. Snapshots stored before events became data also hold the
    English sentence ("text"), which is dropped; what it said that the data did not (the rounds in
    the game, whether the leader was chosen after flipped cards) is added to the data."""
    kind, seat, params = data["kind"], data.get("seat"), dict(data.get("data") or {})
    if "text" in data:
        if kind == "deal":
            params.setdefault("rounds", total_rounds)
        elif kind == "control" and params.get("reason") == "first_player":
            params.setdefault("flipped", "no deck" not in str(data["text"]))
    return Event(kind, seat=seat, data=params)
