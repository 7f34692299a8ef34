"""The rules of Zip Zap: one game in progress, its rounds, runs, control and scores (RULINGS.md §2).

The referee knows every hand, so "nobody can follow" is decided at once after each card instead of
waiting for the table to notice; a stall (the table going quiet although someone could play) is the
system action "stall", and a leader who sits on control is played for with "idle".
"""

from __future__ import annotations

import random
from typing import Final

from rules.base import JSON, Action, Event, IllegalAction, Placement, QuietAction, Result, State
from rules.words import plural
from rules.zipzap.cards import (
    MAX_NUMBER,
    SOLID_SUITS,
    ZAP,
    all_number_cards,
    card_name,
    card_points,
    follow_hint,
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
        sizes = sorted({len(h) for h in hands})
        size_text = " or ".join(str(n) for n in sizes)
        card_word = "card" if sizes == [1] else "cards"
        events = [
            Event(
                "deal",
                f"Round {self.round} of {self.total_rounds} is dealt: "
                f"{size_text} {card_word} and a Zap card each.",
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
        state.opening_events = [Event.from_json(e) for e in data.get("opening_events", [])]
        return state
