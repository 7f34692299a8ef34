"""Zip Zap: a real-time shedding game with no turns (RULINGS.md §2).

Card codes: a suit letter and a number, "R1".."R10" for the solid suits red, green, blue and yellow,
"W1".."W10" for the wild suit, and "Z0".."Z5" for the Zap cards (seat s owns "Z{s}"). In actions the
Zap card is written "Z", and play-and-Zap is one action: "R4+Z".

The referee knows every hand, so "nobody can follow" is decided at once after each card instead of
waiting for the table to notice; a stall (the table going quiet although someone could play) is the
system action "stall", and a leader who sits on control is played for with "idle".
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.base import (
    JSON,
    Action,
    ComputerPlayer,
    Event,
    Game,
    IllegalAction,
    Placement,
    QuietAction,
    Result,
    State,
)
from rules.words import plural

SOLID_SUITS = ("R", "G", "B", "Y")
WILD = "W"
SUITS = (*SOLID_SUITS, WILD)
SUIT_NAMES = {"R": "red", "G": "green", "B": "blue", "Y": "yellow", "W": "wild"}
ZAP = "Z"
MAX_NUMBER = 10
ZAP_CARDS = 6
SCORINGS = ("cards", "first_out")
CARD_POINTS = {"solid": 1, "wild": 3, "zap": 5}


# ---------------------------------------------------------------------------------------------
# Cards


def is_zap(code: str) -> bool:
    return code.startswith(ZAP)


def suit_of(code: str) -> str:
    return code[0]


def number_of(code: str) -> int:
    """The card's number; a Zap card has none and counts as 0 so it never follows anything."""
    return 0 if is_zap(code) else int(code[1:])


def card_name(code: str) -> str:
    """ "red 4", "wild 7", "Zap card"."""
    if is_zap(code):
        return "Zap card"
    return f"{SUIT_NAMES[suit_of(code)]} {number_of(code)}"


def card_sort_key(code: str) -> tuple[int, int]:
    """Colour first (red, green, blue, yellow, wild), then number; Zap cards last."""
    if is_zap(code):
        return (len(SUITS), number_of_zap(code))
    return (SUITS.index(suit_of(code)), number_of(code))


def number_of_zap(code: str) -> int:
    return int(code[1:]) if len(code) > 1 else 0


def sort_hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=card_sort_key)


def card_points(code: str) -> int:
    if is_zap(code):
        return CARD_POINTS["zap"]
    return CARD_POINTS["wild"] if suit_of(code) == WILD else CARD_POINTS["solid"]


def follows(card: str, top: str | None) -> bool:
    """Whether ``card`` may be played on ``top`` during a run."""
    if top is None or is_zap(card) or is_zap(top):
        return False
    n = number_of(top)
    if number_of(card) != n + 1:
        return False
    return suit_of(top) == WILD or suit_of(card) in (suit_of(top), WILD)


def all_number_cards(out_of_game: list[str]) -> list[str]:
    return [f"{s}{n}" for s in SUITS if s not in out_of_game for n in range(1, MAX_NUMBER + 1)]


def hand_size(players: int) -> int:
    if players <= 4:
        return 12
    return 9 if players == 5 else 8


def is_card_code(code: str) -> bool:
    if len(code) < 2 or code[0] not in SUITS or not code[1:].isdigit():
        return False
    return 1 <= int(code[1:]) <= MAX_NUMBER and str(int(code[1:])) == code[1:]


# ---------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class ZipZapOptions:
    scoring: str = "cards"  # "cards": lowest total wins; "first_out": a point for going out, most wins
    rounds: int | None = None  # None: one per player, doubled with 2 or 3 players

    def __post_init__(self) -> None:
        if self.scoring not in SCORINGS:
            raise ValueError(f"Scoring must be one of {', '.join(SCORINGS)}, not {self.scoring!r}.")
        if self.rounds is not None and (
            isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or not 1 <= self.rounds <= 50
        ):
            raise ValueError("Rounds must be a whole number from 1 to 50, or left unset.")

    def total_rounds(self, players: int) -> int:
        if self.rounds is not None:
            return self.rounds
        return players * 2 if players <= 3 else players


# ---------------------------------------------------------------------------------------------
# State


class ZipZapState(State):
    def __init__(self, players: int, options: ZipZapOptions, seed: int) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.total_rounds = options.total_rounds(players)
        self.round = 1
        self.phase = "play"
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
        sizes = sorted({len(h) for h in hands})
        size_text = " or ".join(str(n) for n in sizes)
        cards = "card" if sizes == [1] else "cards"
        events = [
            Event(
                "deal",
                f"Round {self.round} of {self.total_rounds} is dealt: "
                f"{size_text} {cards} and a Zap card each.",
                None,
                {
                    "round": self.round,
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
                events.append(
                    Event(
                        "control",
                        "leads: the deck is empty and nobody could follow the flipped cards."
                        if self.played
                        else "leads: there is no deck to flip from.",
                        self.first_player,
                        {"reason": "first_player"},
                    )
                )
                return
            card = self.deck.pop(0)
            self.played.append(card)
            self.top, self.top_seat = card, None
            text = f"The {card_name(card)} is flipped from the deck."
            events.append(Event("flip", text, None, {"card": card}))
            if self._someone_can_follow():
                return

    def _someone_can_follow(self) -> bool:
        return any(follows(card, self.top) for hand in self.hands for card in hand)

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
            raise IllegalAction("The game is over.")
        if action == "deal":
            if self.phase != "between_rounds":
                raise IllegalAction("The round is still being played; the next deal comes after it.")
            return
        if self.phase == "between_rounds":
            raise IllegalAction("The round is over: deal the next round first.")
        if action in ("stall", "idle"):
            if seat is not None:
                raise IllegalAction("Only the referee calls a stall or plays for an idle leader.")
            if action == "stall" and self.control is not None:
                raise IllegalAction("There is no open run to stall: a player has control.")
            if action == "idle" and self.control is None:
                raise IllegalAction("Nobody has control, so nobody is an idle leader.")
            return
        card, zap = parse_play(action)
        if seat is None:
            raise IllegalAction("Only a player can play a card.")
        if not 0 <= seat < self.players:
            raise IllegalAction("That seat is not at this table.")
        if self.control is not None and self.control != seat:
            if card is not None and self._beaten_to_it(seat, card):
                assert self.top is not None
                raise IllegalAction(
                    f"Another player got the {card_name(self.top)} down first and has control now."
                )
            raise IllegalAction("Another player has control: only the player in control may lead now.")
        if card is not None:
            self._check_card(seat, card, zap)
        else:
            self._check_zap(seat)

    def _check_card(self, seat: int, card: str, zap: bool) -> None:
        if card not in self.hands[seat]:
            raise IllegalAction(f"You don't hold the {card_name(card)}.")
        if self.control is None and not follows(card, self.top):
            assert self.top is not None
            if self._beaten_to_it(seat, card):
                raise IllegalAction(
                    f"Another player got the {card_name(self.top)} down first, "
                    f"and the {card_name(card)} doesn't follow it."
                )
            raise IllegalAction(
                f"The {card_name(card)} doesn't follow the {card_name(self.top)} on top: "
                + follow_hint(self.top)
            )
        if zap and not self.holds_zap(seat):
            raise IllegalAction(self._no_zap_reason(seat))

    def _beaten_to_it(self, seat: int, card: str) -> bool:
        """Whether ``card`` would have followed the card beneath the top, which another player
        covered first: the usual way a real-time play arrives too late."""
        beneath = self.played[-2] if len(self.played) >= 2 else None
        return card in self.hands[seat] and self.top_seat not in (None, seat) and follows(card, beneath)

    def _check_zap(self, seat: int) -> None:
        if not self.holds_zap(seat):
            raise IllegalAction(self._no_zap_reason(seat))
        if self._may_zap(seat):
            return
        if self.control == seat:
            raise IllegalAction(
                "You lead now, but the top card is not a number card of yours: lead a card (with "
                "Play and Zap if you like), or lead your Zap as your last card."
            )
        raise IllegalAction("You can only Zap right after your own number card, while it is still on top.")

    def _no_zap_reason(self, seat: int) -> str:
        if self.zap_used[seat]:
            return "You have already used your Zap this round."
        return "You don't hold your Zap card."

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
            events.append(
                Event(
                    "idle_play",
                    f"was idle in control, so the referee plays their lowest card: the {card_name(card)}.",
                    leader,
                    {"card": card},
                )
            )
            if is_zap(card):
                self._play_zap(leader, events)
            else:
                self._play_card(leader, card, events)
        else:
            assert seat is not None
            card, zap = parse_play(action)
            if card is not None:
                self._play_card(seat, card, events)
                if zap and self.phase == "play":
                    self._play_zap(seat, events)
            else:
                self._play_zap(seat, events)
        return events

    def _stall(self, events: list[Event]) -> None:
        if self.top_seat is None:
            events.append(
                Event("stall", "Nobody played on the flipped card: the next card is flipped.", None, {})
            )
            self._flip(events)
            return
        self.control = self.top_seat
        events.append(Event("stall", "The run stalled: nobody played in time.", None, {}))
        events.append(
            Event(
                "control",
                f"has control after the stall: their {card_name(self.top or '')} is on top.",
                self.top_seat,
                {"reason": "stall"},
            )
        )

    def _play_card(self, seat: int, card: str, events: list[Event]) -> None:
        leading = self.control == seat
        self.hands[seat].remove(card)
        self.played.append(card)
        self.top, self.top_seat, self.control = card, seat, None
        verb = "led" if leading else "played"
        events.append(Event("play", f"{verb} the {card_name(card)}.", seat, {"card": card, "lead": leading}))
        if not self.hands[seat]:
            self._end_round(seat, events)
        elif number_of(card) == MAX_NUMBER:
            self._give_control(seat, "ten", "has control after the 10 and leads any card.", events)
        elif not self._someone_can_follow():
            text = f"has control: nobody can follow the {card_name(card)}, so they lead any card."
            self._give_control(seat, "blocked", text, events)

    def _play_zap(self, seat: int, events: list[Event]) -> None:
        code = f"{ZAP}{seat}"
        self.hands[seat].remove(code)
        self.played.append(code)
        self.zap_used[seat] = True
        self.top, self.top_seat, self.control = code, seat, None
        events.append(Event("zap", "played their Zap card: ZAP!", seat, {"card": code}))
        if not self.hands[seat]:
            self._end_round(seat, events)
        else:
            self._give_control(seat, "zap", "has control after the Zap and leads any card.", events)

    def _give_control(self, seat: int, reason: str, text: str, events: list[Event]) -> None:
        self.control = seat
        events.append(Event("control", text, seat, {"reason": reason}))

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
        events.append(
            Event(
                "round_over",
                f"played their last card: Zip Zap! Round {self.round} of {self.total_rounds} is over.",
                seat,
                {"round": self.round, "went_out": seat, "points": list(points), "scores": list(self.scores)},
            )
        )
        if self.round >= self.total_rounds:
            self.phase = "over"
            result = self.result()
            assert result is not None
            events.append(
                Event(
                    "game_over",
                    f"The game is over. {result.summary}",
                    None,
                    {"winners": result.winners, "scores": list(self.scores)},
                )
            )
        else:
            self.phase = "between_rounds"

    # -- what players see ---------------------------------------------------------------------

    def view(self, seat: int | None) -> JSON:
        data: JSON = {
            "game": ZipZap.key,
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
        # Seats as "seat N", which every renderer turns into names.
        winners = [f"seat {p.seat + 1}" for p in placements if p.place == 1]
        rule = "lowest total wins" if lowest_wins else "most rounds won wins"
        if len(winners) == 1:
            summary = f"{winners[0].capitalize()} wins with {plural(best, 'point')} ({rule})."
        else:
            names = ", ".join(winners[:-1]) + " and " + winners[-1]
            summary = f"{names.capitalize()} share the win with {plural(best, 'point')} each ({rule})."
        return Result(placements, summary)

    def describe(self, action: Action) -> str:
        fixed = {
            "Z": "Zap",
            "stall": "call a stall",
            "idle": "play for the idle leader",
            "deal": "deal the next round",
        }
        if action in fixed:
            return fixed[action]
        try:
            card, zap = parse_play(action)
        except IllegalAction:
            return action
        assert card is not None
        return f"play the {card_name(card)}" + (" and Zap" if zap else "")

    # -- persistence --------------------------------------------------------------------------

    def to_json(self) -> JSON:
        return {
            "game": ZipZap.key,
            "version": 1,
            "players": self.players,
            "options": ZipZap().options_to_json(self.options),
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
        if data.get("game") != ZipZap.key:
            raise ValueError(f"Not a Zip Zap state: game is {data.get('game')!r}.")
        state = cls(data["players"], ZipZap().parse_options(data["options"]), data["seed"])
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
        state.opening_events = [Event.from_json(e) for e in data.get("opening_events", [])]
        return state


def parse_play(action: Action) -> tuple[str | None, bool]:
    """ "R4" -> ("R4", False); "R4+Z" -> ("R4", True); "Z" -> (None, True)."""
    if action == "Z":
        return None, True
    card, plus, rest = action.partition("+")
    if is_card_code(card) and (not plus or rest == "Z"):
        return card, bool(plus)
    if is_zap(action):
        raise IllegalAction("Write your Zap as 'Z' (or 'R4+Z' to play a card and Zap at once).")
    raise IllegalAction(f"'{action}' is not a Zip Zap action: play a card such as 'R4', 'R4+Z' or 'Z'.")


def follow_hint(top: str) -> str:
    n = number_of(top)
    if n >= MAX_NUMBER:
        return "nothing follows a 10."
    if suit_of(top) == WILD:
        return f"any {n + 1} follows a wild {n}."
    return f"only the {SUIT_NAMES[suit_of(top)]} {n + 1} or the wild {n + 1} follows it."


def idle_card(hand: list[str]) -> str:
    """The card the referee plays for an idle leader: lowest solid, else lowest wild, else the Zap."""
    solids = [c for c in hand if not is_zap(c) and suit_of(c) != WILD]
    if solids:
        return min(solids, key=lambda c: (number_of(c), card_sort_key(c)))
    wilds = [c for c in hand if not is_zap(c)]
    if wilds:
        return min(wilds, key=number_of)
    return hand[0]


# ---------------------------------------------------------------------------------------------
# The game


class ZipZap(Game[ZipZapState]):
    key: ClassVar[str] = "zipzap"
    title: ClassVar[str] = "Zip Zap"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    timers: ClassVar[dict[str, dict[str, float | None]]] = {
        "off": {"stall": 60.0, "idle": None, "next_round": None},
        "relaxed": {"stall": 15.0, "idle": 30.0, "next_round": 8.0},
        "fast": {"stall": 8.0, "idle": 15.0, "next_round": 5.0},
    }
    computer_levels: ClassVar[tuple[str, ...]] = ("casual", "sharp")

    def parse_options(self, data: JSON) -> ZipZapOptions:
        unknown = set(data) - {"scoring", "rounds"}
        if unknown:
            raise ValueError(f"Unknown Zip Zap option(s): {', '.join(sorted(unknown))}.")
        return ZipZapOptions(scoring=data.get("scoring", "cards"), rounds=data.get("rounds"))

    def options_to_json(self, options: Any) -> JSON:
        return {"scoring": options.scoring, "rounds": options.rounds}

    def new_game(
        self, players: int, options: Any = None, seed: int = 0, deal: JSON | None = None
    ) -> ZipZapState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"Zip Zap is for {self.min_players} to {self.max_players} players, not {players}."
            )
        if options is None:
            options = ZipZapOptions()
        elif isinstance(options, dict):
            options = self.parse_options(options)
        state = ZipZapState(players, options, seed)
        if deal is not None:
            state.out_of_game = validate_deal(players, deal)
        else:
            state._choose_out_of_game()
        state.opening_events = state._deal(deal)
        return state

    def from_json(self, data: JSON) -> ZipZapState:
        return ZipZapState.from_json(data)

    def computer_player(self, level: str, **settings: Any) -> ComputerPlayer:
        # Imported here because the players module builds on this one's card helpers.
        from rules.zipzap_players import make_player

        return make_player(level, **settings)

    def rules_text(self) -> str:
        return RULES_TEXT

    def house_rulings(self, options: Any) -> list[str]:
        if options is None:
            options = ZipZapOptions()
        if options.rounds is None:
            rounds = "The game lasts one round per player, two per player with 2 or 3 players."
        else:
            rounds = f"The game lasts {plural(options.rounds, 'round')} (table option)."
        if options.scoring == "cards":
            scoring = (
                "Scoring is by cards left: 1 per solid card, 3 per wild, 5 for a Zap card; "
                "the lowest total wins and equal lowest totals share the win."
            )
        else:
            scoring = (
                "Scoring is first-out: 1 point to whoever goes out each round; "
                "the most points wins and equal best totals share the win."
            )
        return [
            "The suits taken out with 2 or 3 players are drawn at random at the start and stay out, "
            "public, for the whole game.",
            "Every player gets their own Zap card; leftover Zap cards are out of play.",
            "A wild card may follow a wild card of the number below, like any other card.",
            "Only one card goes down at a time, and the first card the referee receives stays.",
            "The referee knows every hand, so the moment nobody holds a card that can follow, the player "
            "of the top card takes control; cards in the deck, already played or out of the game never "
            "count.",
            "A flipped card is played by nobody: if nobody can follow it (a flipped 10 included) the next "
            "card is flipped.",
            "The first seat at the table is the first player of round 1, the next seat of round 2, and so "
            "on round the table; if the deck runs out during a round's opening flips, that player leads.",
            "Play-and-Zap is one action: the card and your Zap go down together, so nobody can slip in "
            "between them.",
            "You may Zap only while your own number card is on top, once per round: also right after "
            "your 10, or while you hold control with your number card on top, which sheds the 5-point "
            "Zap card.",
            "A leader whose top card is not their own number card (after their Zap, or leading after "
            "the deck ran out) may put down the Zap alone only as their last card.",
            "A player in control may lead any card, and may lead a card with play-and-Zap.",
            "Stall: if a card could be played but nobody plays for a while, the run ends as if nobody "
            "could play (on a flipped card, the next card is flipped); the stall timer runs even with "
            "table timers off, so a table never hangs.",
            "Idle leader: if the player in control does not lead for a while, the referee leads their "
            "lowest solid card for them (else their lowest wild, else their Zap).",
            "The round ends the moment a player's last card goes down, their Zap card included.",
            rounds,
            scoring,
        ]


def validate_deal(players: int, deal: JSON) -> list[str]:
    """Check a fixed deal holds every in-play card exactly once; returns the suits out of the game."""
    try:
        hands = deal["hands"]
        deck = deal["deck"]
    except (KeyError, TypeError) as exc:
        raise ValueError("A deal needs 'hands' (one list of card codes per seat) and 'deck'.") from exc
    out = list(deal.get("out_of_game", []))
    if len(hands) != players:
        raise ValueError(f"The deal has {len(hands)} hands for {players} players.")
    for suit in out:
        if suit not in SOLID_SUITS:
            raise ValueError(f"Only solid suits can be out of the game, not {suit!r}.")
    if len(set(out)) != len(out):
        raise ValueError("A suit is listed twice in out_of_game.")
    cards = [c for h in hands for c in h] + list(deck)
    for code in cards:
        if not is_card_code(code):
            raise ValueError(f"{code!r} is not a number card code (Zap cards are added automatically).")
    expected = all_number_cards(out)
    missing = sorted(set(expected) - set(cards), key=card_sort_key)
    extra = sorted(set(cards) - set(expected), key=card_sort_key)
    twice = sorted({c for c in cards if cards.count(c) > 1}, key=card_sort_key)
    if missing or extra or twice:
        problems = []
        if missing:
            problems.append(f"missing {', '.join(missing)}")
        if extra:
            problems.append(f"out of the game but dealt {', '.join(extra)}")
        if twice:
            problems.append(f"dealt twice {', '.join(twice)}")
        raise ValueError("The deal must hold every in-play card exactly once: " + "; ".join(problems) + ".")
    return [s for s in SOLID_SUITS if s in out]


RULES_TEXT = """\
# Zip Zap

**Goal:** get rid of your cards fast. Whoever empties their hand first ends the round; everyone else
is left holding points, and over the game the lowest total wins.

## The cards
Five suits numbered 1 to 10: red, green, blue and yellow are the *solid* suits, and there is a *wild*
suit. Each player also gets their own **Zap card**. With 2 players two solid suits are left out, with
3 players one (you can see which). Everyone gets 12 cards (9 with 5 players, 8 with 6) plus their Zap
card; the rest is a face-down deck.

## Playing a round
The top card of the deck is flipped onto the pile. There are **no turns**: anyone holding a card that
follows the top card may play it, one card at a time, and the first card down stays.

- On a **solid** card, the same colour one higher follows, or the wild one higher
  (on the red 3: the red 4 or the wild 4).
- On a **wild** card, any card one higher follows, in any colour, wild included
  (on the wild 7: any 8).

A *run* goes on until somebody gets **control** and leads any card they like to start a new run:

- You play a **10**: you have control.
- **Nobody can follow** the top card (the card needed is played already or out of the game): whoever
  played the top card has control. The referee sees every hand, so this happens at once.
- You play your **Zap**: you have control.

If nobody can follow the very first flipped card, the next one is flipped; if the deck runs out, the
round's first player leads.

## Your Zap card
Once per round, right after you play a number card and while it is still on top, you may put your Zap
card on it and take control. That includes your 10, and a card of yours nobody can follow: you keep
control either way, and your hand sheds the Zap card's 5 points. The **Play and Zap** button does
both at once, so nobody can get in between.

## Ending a round and scoring
The round ends the moment someone plays their last card (a Zap card counts). Everyone else scores
1 point per solid card, 3 per wild card and 5 for a Zap card left in hand. The game lasts one round
per player (two per player with 2 or 3 players). Lowest total wins; equal totals share.

*Alternate scoring:* 1 point to whoever goes out each round, most points wins.

## When the table goes quiet
If a card could be played but nobody plays it for a while, the run *stalls*: the player of the top
card takes control. If the player in control does not lead, the referee leads their lowest card.
"""
