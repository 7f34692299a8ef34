"""Spy Trap: secret identities, bidding and face-down piles (RULINGS.md §3).

Cards have unique codes. File cards: "F" + a country code + a number from 1 to 12 ("FAM3" is American
File number 3; country codes AM American, FR French, GE German, IT Italian, RU Russian, SP Spanish).
Evil Agent cards "EA1".."EA13", Trap Is Sprung cards "TR1".."TR13". Identities are written as the
country's name ("French"). Seats are 0-based in data and 1-based ("seat 3") in event texts.

A round runs through three phases: ``pile`` (everyone secretly builds a pile at once), ``bid``
(clockwise from the opener) and ``draw`` (the bid winner draws, one card at a time; a card may raise
a *prompt* that another player, or the drawer, must answer before the next draw). ``over`` ends the game.

Actions (every one is also described by ``describe``):
- ``pile-FAM3-EA7-TR2``: build your pile, top card first: 3 hand cards, or all of a shorter hand.
- ``bid-4`` (strictly higher than the standing bid; the opener's first action must be a bid) / ``pass``.
- ``draw-2``: draw the top card of the pile of seat index 2 (your own included).
- ``steal-FRU4`` / ``nosteal``: after an Evil Agent from your pile, take a File from the drawer's home area.
- ``guess-French`` / ``noguess``: a free guess of the drawer's identity after a Trap from your pile.
- ``immunity`` / ``noimmunity``: answer a free guess, or play your Immunity card and not answer.
- ``guess-2-French``: the forced guess after a Trap from your own pile (seat index 2 is French).
- ``keep-own`` / ``keep-new``: keep your identity or take the one you received from the player you put out.
- ``challenge-French`` / ``nochallenge``: guess the drawer's identity after a 4th File from their own pile.
- ``swap`` / ``noswap``: during a challenge, take the identity of the wrong challenger you put out.
System actions (seat None, applied when the named timer runs out): ``auto-pile`` (timer "pile": builds a
pile for everyone not done, from the seed), ``bid-1`` / ``pass`` (timer "bid": the opener opens at 1,
anyone else passes), ``auto-draw`` (timer "draw": the first non-empty pile clockwise from the drawer's
left, their own last), and on timer "prompt": ``nosteal``, ``noguess``, ``immunity`` (plays the card),
``auto-guess`` (a forced guess chosen from the seed), ``keep-own``, ``nochallenge``, ``noswap``.

View keys, everyone (``view(None)`` is the spectator's):
- ``game`` "spytrap"; ``seat`` the viewer's seat or None; ``players``; ``round``; ``round_limit``.
- ``phase``: "pile", "bid", "draw" or "over".
- ``active``: per seat, still in the game. ``out_order``: seats in the order they were put out.
- ``immunity``: per seat, still holding the Immunity card (playing it is public).
- ``hand_counts``, ``pile_sizes``: per seat. ``deck_count``, ``used_count``: the draw deck and used pile.
- ``piles_done``: per seat, whether that seat's pile is built this round (never what is in it).
- ``opener``: who opens this round's bidding. ``to_bid``: whose turn it is to bid (None outside bidding).
- ``bids``: per seat, the last thing said this round: a number, "pass", or None (nothing yet).
- ``high_bid`` (0: none yet), ``high_bidder``; ``min_bid``, ``max_bid``: the range a bid may take now.
- ``drawer``, ``draw_bid``, ``draws_left``: the bid winner and their draws (None / 0 before drawing).
- ``drawn``: this round's drawn cards in order, ``{"pile": seat, "card": code, "type": "file" |
  "agent" | "trap", "country": name or None}``; every drawn card is shown face up.
- ``home``: per seat, the Files in their home area, ``{"card", "country", "from"}`` with ``from`` one of
  "opponent" (drawn from another's pile), "own" (drawn from their own pile), "stolen" (Evil Agent).
- ``tallies``: per seat, country -> ``{"all": n, "counting": m}``; counting Files are the ones drawn from
  an opponent's pile or stolen (the only ones that count toward the ordinary win).
- ``prompt``: None, or who must answer what before play goes on: ``{"seat", "kind", ...}`` with kind
  "steal" (+ ``drawer``, ``choices``: the drawer's File codes), "guess" (+ ``drawer``: a free guess),
  "immunity" (+ ``guesser``, ``guess``: the country named), "own_guess" (+ ``targets``: seats that may
  be guessed), "keep" (+ ``eliminated``: whose ID card the seat received), "challenge" (+ ``drawer``,
  ``country``: the country that reached 4, ``still_to_guess``: later challengers), "swap" (+
  ``eliminated``: the wrong challenger).
- ``waiting``: the seats the table is waiting on (everyone not done while piles are built).
- ``wrong_guesses``: public facts, ``{"seat", "country"}`` = that seat answered "not this country";
  cleared for a seat whenever it receives another ID card (it may have switched).
- ``winner``, ``end_reason`` ("files", "challenge", "last_spy", "round_limit", "no_cards") once over.
- ``identities``: every seat's identity (for a seat put out, the one it held then): only when over.
Seat views add:
- ``identity``: your identity. ``hand``: your cards, sorted. ``my_pile``: your pile, top first.
- ``received_id``: while you must choose (prompt "keep" or "swap"), the ID card you received.
- ``learned``: private facts, ``{"seat", "country", "how": "received_id"}``: the ID card of a player you
  put out.
- ``legal_hint``: None or a short sentence on what you must do now.

Event kinds and data (all public): ``deal`` {hand_counts, deck_count}, ``round_start`` {round,
opener}, ``pile_built`` {size}, ``timeout`` {timer, action}, ``piles_ready`` {sizes, max_bid} ({} when
no spy has a card left), ``bid`` {bid}, ``pass`` {},
``bid_won`` {bid}, ``draw`` {pile, card, type, country, from}, ``agent`` {pile, effect: "steal_offer"
| "nothing_to_steal" | "own_pile" | "inert"}, ``trap`` {pile, effect: "free_guess" | "own_pile" |
"inert"}, ``steal`` {card, from_seat}, ``nosteal`` {}, ``guess`` {drawer, country}, ``noguess`` {},
``immunity`` {}, ``answer`` {country, right}, ``own_guess`` {target, country, right},
``eliminated`` {by, how: "free_guess" | "own_trap_right" | "own_trap_wrong" | "challenge_right" |
"challenge_wrong"}, ``identity_choice`` {}, ``challenge_start`` {country}, ``challenge`` {drawer,
country, right}, ``nochallenge`` {}, ``challenge_over`` {}, ``win`` {how: "files" | "challenge" |
"last_spy"}, ``round_over`` {round}, ``reshuffle``
{cards}, ``short_hands`` {seats}, ``game_over`` {winner, reason, identities}.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import permutations
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
from rules.words import plural, with_article

COUNTRIES = ("American", "French", "German", "Italian", "Russian", "Spanish")
COUNTRY_CODES = {
    "AM": "American",
    "FR": "French",
    "GE": "German",
    "IT": "Italian",
    "RU": "Russian",
    "SP": "Spanish",
}
CODE_OF = {name: code for code, name in COUNTRY_CODES.items()}
FILES_PER_COUNTRY = 12
AGENTS = 13
TRAPS = 13
HAND_SIZE = 6
PILE_SIZE = 3
FILES_TO_WIN = 4
ROUND_LIMIT = 40
PROMPT_KINDS = ("steal", "guess", "immunity", "own_guess", "keep", "challenge", "swap")


# ---------------------------------------------------------------------------------------------
# Cards


def all_cards() -> list[str]:
    files = [f"F{code}{n}" for code in COUNTRY_CODES for n in range(1, FILES_PER_COUNTRY + 1)]
    return files + [f"EA{n}" for n in range(1, AGENTS + 1)] + [f"TR{n}" for n in range(1, TRAPS + 1)]


ALL_CARDS = frozenset(all_cards())
_COUNTRY_OF = {card: COUNTRY_CODES[card[1:3]] for card in ALL_CARDS if card.startswith("F")}


def is_file(card: str) -> bool:
    return card.startswith("F")


def card_type(card: str) -> str:
    if is_file(card):
        return "file"
    return "agent" if card.startswith("EA") else "trap"


def country_of(card: str) -> str | None:
    return _COUNTRY_OF.get(card)


def card_name(card: str) -> str:
    """ "French File", "Evil Agent", "Trap Is Sprung"."""
    if is_file(card):
        return f"{country_of(card)} File"
    return "Evil Agent" if card.startswith("EA") else "Trap Is Sprung"


def card_sort_key(card: str) -> tuple[int, str, int]:
    kind = card_type(card)
    order = {"file": 0, "agent": 1, "trap": 2}[kind]
    prefix = card[:3] if kind == "file" else card[:2]
    return (order, prefix, int(card[len(prefix) :]))


def sort_cards(cards: list[str]) -> list[str]:
    return sorted(cards, key=card_sort_key)


def seat_name(seat: int) -> str:
    return f"seat {seat + 1}"


def parse_country(text: str) -> str | None:
    for name in COUNTRIES:
        if text.lower() == name.lower():
            return name
    return None


# ---------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class SpyTrapOptions:
    round_limit: int = ROUND_LIMIT  # a safety net: a game that has not ended after this many rounds stops

    def __post_init__(self) -> None:
        value = self.round_limit
        if isinstance(value, bool) or not isinstance(value, int) or not 5 <= value <= 200:
            raise ValueError("The round limit must be a whole number from 5 to 200.")


# ---------------------------------------------------------------------------------------------
# State


class SpyTrapState(State):
    def __init__(self, players: int, options: SpyTrapOptions, seed: int) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.round = 1
        self.phase = "pile"
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
        self.bids: list[int | str | None] = [None] * players
        self.high_bid = 0
        self.high_bidder: int | None = None
        self.passes_in_row = 0
        self.max_bid = 0
        self.drawer: int | None = None
        self.draw_bid = 0
        self.draws_left = 0
        self.drawn: list[JSON] = []
        self.last_winner: int | None = None
        self.prompt: JSON | None = None
        self.challenge: JSON | None = None  # {"drawer", "country", "queue": [seats still to guess]}
        self.learned: list[list[JSON]] = [[] for _ in range(players)]
        self.wrong_guesses: list[JSON] = []
        self.winner: int | None = None
        self.end_reason: str | None = None
        self.reshuffles = 0
        self.defaults_used = 0  # numbers the RNG labels of seeded timer defaults
        self.opening_events: list[Event] = []

    # -- set-up -------------------------------------------------------------------------------

    def _rng(self, label: str) -> random.Random:
        # A fresh RNG per use, derived from the seed, keeps the JSON small and a reload exact.
        return random.Random(f"spytrap:{self.seed}:{label}")

    def _setup(self, deal: JSON | None) -> list[Event]:
        if deal is None:
            rng = self._rng("setup")
            ids = list(COUNTRIES)
            rng.shuffle(ids)
            self.identity = ids[: self.players]
            self.id_discard = ids[self.players :]
            cards = all_cards()
            rng.shuffle(cards)
            self.hands = [cards[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i in range(self.players)]
            self.deck = cards[HAND_SIZE * self.players :]
            self.opener = rng.randrange(self.players)
        else:
            self.identity = list(deal["identities"])
            self.id_discard = [c for c in COUNTRIES if c not in self.identity]
            self.hands = [list(h) for h in deal["hands"]]
            self.deck = list(deal["deck"])
            self.used = list(deal.get("used", []))
            self.home = [
                [[card, source] for card, source in h] for h in deal.get("home", [[]] * self.players)
            ]
            self.immunity = [bool(x) for x in deal.get("immunity", [True] * self.players)]
            self.opener = int(deal.get("opener", self._rng("setup").randrange(self.players)))
        events = [
            Event(
                "deal",
                f"Each spy gets a secret identity, an Immunity card and {HAND_SIZE} cards.",
                None,
                {"hand_counts": [len(h) for h in self.hands], "deck_count": len(self.deck)},
            )
        ]
        self._start_round(events)
        return events

    def _start_round(self, events: list[Event]) -> None:
        self.phase = "pile"
        self.piles = [[] for _ in range(self.players)]
        self.pile_done = [not self.active[s] or not self.hands[s] for s in range(self.players)]
        self.bids = [None] * self.players
        self.high_bid, self.high_bidder, self.passes_in_row, self.to_bid = 0, None, 0, None
        self.drawer, self.draw_bid, self.draws_left, self.drawn = None, 0, 0, []
        events.append(
            Event(
                "round_start",
                f"Round {self.round}: build your piles. "
                f"{seat_name(self.opener).capitalize()} opens the bidding.",
                None,
                {"round": self.round, "opener": self.opener},
            )
        )
        self._maybe_start_bidding(events)

    def _maybe_start_bidding(self, events: list[Event]) -> None:
        if not all(self.pile_done):
            return
        sizes = [len(p) for p in self.piles]
        self.max_bid = sum(sizes)
        if self.max_bid == 0:
            events.append(Event("piles_ready", "Nobody has a card left to put in a pile.", None, {}))
            self._game_over("no_cards", None, events)
            return
        self.phase = "bid"
        self.to_bid = self.opener
        events.append(
            Event(
                "piles_ready",
                f"Every pile is built ({plural(self.max_bid, 'card')} in all). The bidding starts.",
                None,
                {"sizes": sizes, "max_bid": self.max_bid},
            )
        )

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

    # -- legal actions --------------------------------------------------------------------------

    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.phase == "over":
            return []
        if seat is None:
            default = self._default_action()
            return [] if default is None else [default]
        if not 0 <= seat < self.players or not self.active[seat]:
            return []
        if self.phase == "pile":
            if self.pile_done[seat]:
                return []
            hand = sort_cards(self.hands[seat])
            return [f"pile-{'-'.join(order)}" for order in _orders(hand, min(PILE_SIZE, len(hand)))]
        if self.phase == "bid":
            if self.to_bid != seat:
                return []
            bids = [f"bid-{n}" for n in range(self.min_bid(), self.max_bid + 1)]
            return bids if self.high_bidder is None else [*bids, "pass"]
        if self.prompt is not None:
            if self.prompt["seat"] != seat:
                return []
            return self._prompt_actions(seat)
        if self.drawer == seat and self.draws_left > 0:
            return [f"draw-{s}" for s in range(self.players) if self.piles[s]]
        return []

    def _prompt_actions(self, seat: int) -> list[Action]:
        assert self.prompt is not None
        kind = self.prompt["kind"]
        if kind == "steal":
            return [f"steal-{c}" for c in self.prompt["choices"]] + ["nosteal"]
        if kind == "guess":
            return [f"guess-{c}" for c in COUNTRIES] + ["noguess"]
        if kind == "immunity":
            return ["immunity", "noimmunity"]
        if kind == "own_guess":
            return [f"guess-{t}-{c}" for t in self.prompt["targets"] for c in COUNTRIES]
        if kind == "keep":
            return ["keep-own", "keep-new"]
        if kind == "challenge":
            return [f"challenge-{c}" for c in COUNTRIES] + ["nochallenge"]
        return ["swap", "noswap"]

    def _default_action(self) -> Action | None:
        """The system action the referee applies when the current wait times out."""
        if self.phase == "pile":
            return "auto-pile"
        if self.phase == "bid":
            return "bid-1" if self.high_bidder is None else "pass"
        if self.phase != "draw":
            return None
        if self.prompt is None:
            return "auto-draw" if self.draws_left > 0 else None
        return {
            "steal": "nosteal",
            "guess": "noguess",
            "immunity": "immunity",
            "own_guess": "auto-guess",
            "keep": "keep-own",
            "challenge": "nochallenge",
            "swap": "noswap",
        }[self.prompt["kind"]]

    def quiet_actions(self) -> list[QuietAction]:
        action = self._default_action()
        if action is None:
            return []
        timer = self.phase if self.phase in ("pile", "bid") else "draw" if self.prompt is None else "prompt"
        return [QuietAction(timer, action)]

    # -- checking actions -----------------------------------------------------------------------

    def _check(self, seat: int | None, action: Action) -> None:
        """Raise IllegalAction with a reason if ``action`` is not allowed now; changes nothing."""
        if self.phase == "over":
            raise IllegalAction("The game is over.")
        if seat is None:
            default = self._default_action()
            if action != default:
                raise IllegalAction("The referee only applies the timer's default action.")
            return
        if not 0 <= seat < self.players:
            raise IllegalAction("That seat is not at this table.")
        if not self.active[seat]:
            raise IllegalAction("You are out of the game.")
        if action in ("auto-pile", "auto-draw", "auto-guess"):
            raise IllegalAction("Only the referee makes a choice for a player whose time ran out.")
        head, _, rest = action.partition("-")
        if self.phase == "pile":
            self._check_pile(seat, head, rest)
        elif self.phase == "bid":
            self._check_bid(seat, head, rest)
        elif self.prompt is not None:
            self._check_prompt(seat, action)
        else:
            self._check_draw(seat, head, rest)

    def _check_pile(self, seat: int, head: str, rest: str) -> None:
        if head != "pile":
            raise IllegalAction("Everyone is building a pile now: choose the cards for yours.")
        if self.pile_done[seat]:
            raise IllegalAction("Your pile is already built for this round.")
        cards = rest.split("-") if rest else []
        need = min(PILE_SIZE, len(self.hands[seat]))
        if len(cards) != need:
            raise IllegalAction(f"Your pile must have exactly {plural(need, 'card')}.")
        if len(set(cards)) != len(cards):
            raise IllegalAction("You named the same card twice.")
        for card in cards:
            if card not in self.hands[seat]:
                raise IllegalAction(f"You don't hold the card {card!r}.")

    def _check_bid(self, seat: int, head: str, rest: str) -> None:
        if head not in ("bid", "pass"):
            raise IllegalAction("The bidding is on: bid a number of cards or pass.")
        if self.to_bid != seat:
            raise IllegalAction("It is not your turn to bid.")
        if head == "pass":
            if rest:
                raise IllegalAction("Write a pass as 'pass'.")
            if self.high_bidder is None:
                raise IllegalAction("You open the bidding, so you must bid at least 1.")
            return
        if not rest.isdigit():
            raise IllegalAction("A bid is a whole number of cards, such as 'bid-3'.")
        amount = int(rest)
        if amount < self.min_bid():
            if self.high_bidder is None:
                raise IllegalAction("You open the bidding, so you must bid at least 1.")
            raise IllegalAction(f"You must bid more than the standing bid of {self.high_bid}.")
        if amount > self.max_bid:
            raise IllegalAction(
                f"There are only {plural(self.max_bid, 'card')} in all the piles: you cannot bid more."
            )

    def _check_draw(self, seat: int, head: str, rest: str) -> None:
        if head != "draw":
            if self.drawer == seat:
                raise IllegalAction("It is your draw: choose a pile, such as 'draw-0'.")
            raise IllegalAction("Nothing is waiting on you now: the drawer is drawing.")
        if self.drawer != seat:
            raise IllegalAction("Only the player who won the bidding draws.")
        if not rest.isdigit() or not 0 <= int(rest) < self.players:
            raise IllegalAction("Name a pile by its seat, such as 'draw-0'.")
        if not self.piles[int(rest)]:
            # The public table can be a moment behind (its message is redrawn at a limited rate), so
            # the refusal itself says how things stand now.
            left = sum(len(p) for p in self.piles)
            raise IllegalAction(
                f"That pile is empty now: draw from another one ({plural(left, 'card')} left in the "
                f"piles, {plural(self.draws_left, 'draw')} to go)."
            )

    def _check_prompt(self, seat: int, action: Action) -> None:
        assert self.prompt is not None
        if self.prompt["seat"] != seat:
            if self.drawer == seat and action.startswith("draw-"):
                raise IllegalAction("Wait: another player is answering a card you drew.")
            raise IllegalAction("Another player must answer first.")
        kind = self.prompt["kind"]
        if action in self._prompt_actions(seat):
            return
        reasons = {
            "steal": "Take one File from the drawer's home area ('steal-<card>') or decline with 'nosteal'.",
            "guess": "Guess the drawer's identity ('guess-French') or decline with 'noguess'.",
            "immunity": "Answer the guess with 'noimmunity' or play your Immunity card with 'immunity'.",
            "own_guess": "You must guess another spy's identity, such as 'guess-2-French'.",
            "keep": "Keep your own identity ('keep-own') or take the new one ('keep-new').",
            "challenge": "Guess the drawer's identity ('challenge-French') or let it go with 'nochallenge'.",
            "swap": "Swap identities with the player you put out ('swap') or keep yours ('noswap').",
        }
        if kind == "own_guess" and action.startswith("guess-"):
            raise IllegalAction("You can only guess the identity of another spy still in the game.")
        if kind == "steal" and action.startswith("steal-"):
            raise IllegalAction("That card is not a File in the drawer's home area.")
        raise IllegalAction(reasons[kind])

    # -- applying actions -------------------------------------------------------------------------

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        self._check(seat, action)
        events: list[Event] = []
        if seat is None:
            self._apply_default(action, events)
            return events
        if self.phase == "pile":
            self._build_pile(seat, action.split("-")[1:], events)
        elif self.phase == "bid":
            self._bid(seat, action, events)
        elif self.prompt is not None:
            self._answer(seat, action, events)
        else:
            self._draw(seat, int(action.split("-")[1]), events)
        return events

    def _apply_default(self, action: Action, events: list[Event]) -> None:
        if action == "auto-pile":
            for s in range(self.players):
                if not self.pile_done[s] and self.phase == "pile":
                    hand = sort_cards(self.hands[s])
                    rng = self._rng(f"default{self.defaults_used}")
                    self.defaults_used += 1
                    cards = rng.sample(hand, min(PILE_SIZE, len(hand)))
                    events.append(
                        Event(
                            "timeout",
                            "ran out of time: the referee built their pile.",
                            s,
                            {"timer": "pile", "action": action},
                        )
                    )
                    self._build_pile(s, cards, events)
            return
        seat = self.waiting()[0]
        timer = self.quiet_actions()[0].timer
        if action == "auto-draw":
            assert self.drawer is not None
            order = [(self.drawer + step) % self.players for step in range(1, self.players + 1)]
            pile = next(s for s in order if self.piles[s])
            events.append(
                Event(
                    "timeout",
                    f"ran out of time: the referee draws from {seat_name(pile)}'s pile.",
                    seat,
                    {"timer": timer, "action": action},
                )
            )
            self._draw(seat, pile, events)
            return
        if action == "auto-guess":
            assert self.prompt is not None
            rng = self._rng(f"default{self.defaults_used}")
            self.defaults_used += 1
            target = rng.choice(self.prompt["targets"])
            country = rng.choice([c for c in COUNTRIES if c != self.identity[seat]])
            events.append(
                Event(
                    "timeout",
                    "ran out of time: the referee guesses for them.",
                    seat,
                    {"timer": timer, "action": action},
                )
            )
            self._answer(seat, f"guess-{target}-{country}", events)
            return
        texts = {
            "bid-1": "ran out of time: the referee opens the bidding at 1 for them.",
            "pass": "ran out of time and passes.",
            "nosteal": "ran out of time and steals nothing.",
            "noguess": "ran out of time and makes no guess.",
            "immunity": "ran out of time: the referee plays their Immunity card for them.",
            "keep-own": "ran out of time: the referee settles their identity cards for them.",
            "nochallenge": "ran out of time and does not challenge.",
            "noswap": "ran out of time: the referee settles their identity cards for them.",
        }
        events.append(Event("timeout", texts[action], seat, {"timer": timer, "action": action}))
        if self.phase == "bid":
            self._bid(seat, action, events)
        else:
            self._answer(seat, action, events)

    # -- piles and bidding ----------------------------------------------------------------------

    def _build_pile(self, seat: int, cards: list[str], events: list[Event]) -> None:
        for card in cards:
            self.hands[seat].remove(card)
        self.piles[seat] = list(cards)
        self.pile_done[seat] = True
        size = len(cards)
        events.append(Event("pile_built", f"built a pile of {plural(size, 'card')}.", seat, {"size": size}))
        self._maybe_start_bidding(events)

    def _bid(self, seat: int, action: Action, events: list[Event]) -> None:
        if action == "pass":
            self.bids[seat] = "pass"
            self.passes_in_row += 1
            events.append(Event("pass", "passes.", seat, {}))
        else:
            amount = int(action.split("-")[1])
            self.bids[seat] = amount
            self.high_bid, self.high_bidder, self.passes_in_row = amount, seat, 0
            events.append(Event("bid", f"bids {amount}.", seat, {"bid": amount}))
        assert self.high_bidder is not None
        if self.high_bid >= self.max_bid or self.passes_in_row >= len(self.active_seats()) - 1:
            self._start_drawing(self.high_bidder, events)
        else:
            self.to_bid = self.next_active(seat)

    def _start_drawing(self, winner: int, events: list[Event]) -> None:
        self.phase = "draw"
        self.to_bid = None
        self.drawer, self.draw_bid, self.draws_left = winner, self.high_bid, self.high_bid
        self.last_winner = winner
        events.append(
            Event(
                "bid_won",
                f"wins the bidding and draws {plural(self.high_bid, 'card')}.",
                winner,
                {"bid": self.high_bid},
            )
        )

    # -- drawing ----------------------------------------------------------------------------------

    def _draw(self, seat: int, pile: int, events: list[Event]) -> None:
        card = self.piles[pile].pop(0)
        self.draws_left -= 1
        kind = card_type(card)
        own = pile == seat
        where = "their own pile" if own else f"{seat_name(pile)}'s pile"
        source = "own" if own else "opponent"
        self.drawn.append({"pile": pile, "card": card, "type": kind, "country": country_of(card)})
        events.append(
            Event(
                "draw",
                f"draws {with_article(card_name(card))} from {where}.",
                seat,
                {"pile": pile, "card": card, "type": kind, "country": country_of(card), "from": source},
            )
        )
        if kind == "file":
            self.home[seat].append([card, source])
            country = country_of(card)
            assert country is not None
            if not own:
                self._check_files_win(seat, events)
            elif self.tally(seat, country, counting_only=False) == FILES_TO_WIN:
                # Exactly the 4th File of the country (RULINGS §3): a 5th or later opens nothing.
                self._start_challenge(seat, country, events)
        elif kind == "agent":
            self.used.append(card)
            self._agent(seat, pile, events)
        else:
            self.used.append(card)
            self._trap(seat, pile, events)
        self._continue(events)

    def _agent(self, seat: int, pile: int, events: list[Event]) -> None:
        if pile == seat:
            events.append(
                Event(
                    "agent",
                    "The Evil Agent came from the drawer's own pile: it does nothing.",
                    None,
                    {"pile": pile, "effect": "own_pile"},
                )
            )
        elif not self.active[pile]:
            text = "The Evil Agent does nothing: its pile's owner is out of the game."
            events.append(Event("agent", text, None, {"pile": pile, "effect": "inert"}))
        elif not self.home[seat]:
            text = "The Evil Agent finds no File to steal in the drawer's home area."
            events.append(Event("agent", text, None, {"pile": pile, "effect": "nothing_to_steal"}))
        else:
            choices = sort_cards([card for card, _ in self.home[seat]])
            self.prompt = {"seat": pile, "kind": "steal", "drawer": seat, "choices": choices}
            text = f"The Evil Agent lets {seat_name(pile)} steal a File from the drawer."
            events.append(Event("agent", text, None, {"pile": pile, "effect": "steal_offer"}))

    def _trap(self, seat: int, pile: int, events: list[Event]) -> None:
        if pile == seat:
            targets = [s for s in self.active_seats() if s != seat]
            self.prompt = {"seat": seat, "kind": "own_guess", "targets": targets}
            text = "The trap is sprung from the drawer's own pile: they must guess another spy's identity."
            events.append(Event("trap", text, None, {"pile": pile, "effect": "own_pile"}))
        elif not self.active[pile]:
            text = "The trap does nothing: its pile's owner is out of the game."
            events.append(Event("trap", text, None, {"pile": pile, "effect": "inert"}))
        else:
            self.prompt = {"seat": pile, "kind": "guess", "drawer": seat}
            text = f"The trap is sprung: {seat_name(pile)} may make a free guess of the drawer's identity."
            events.append(Event("trap", text, None, {"pile": pile, "effect": "free_guess"}))

    def _start_challenge(self, seat: int, country: str, events: list[Event]) -> None:
        self.challenge = {"drawer": seat, "country": country, "queue": self.clockwise_from_left(seat)}
        text = (
            f"now holds {FILES_TO_WIN} {country} Files, the 4th from their own pile: "
            "each other spy in turn may challenge by guessing their identity."
        )
        events.append(Event("challenge_start", text, seat, {"country": country}))

    def _continue(self, events: list[Event]) -> None:
        """After a card or an answer: ask the next question, wait for the next draw, or end the round."""
        if self.phase != "draw" or self.prompt is not None:
            return
        if self.challenge is not None:
            drawer = self.challenge["drawer"]
            queue = [s for s in self.challenge["queue"] if self.active[s] and s != drawer]
            if self.active[drawer] and queue:
                self.challenge["queue"] = queue[1:]
                self.prompt = {
                    "seat": queue[0],
                    "kind": "challenge",
                    "drawer": drawer,
                    "country": self.challenge["country"],
                    "still_to_guess": queue[1:],
                }
                return
            self.challenge = None
            if self.active[drawer]:
                own = self.identity[drawer]
                if self.tally(drawer, own, counting_only=False) >= FILES_TO_WIN:
                    text = f"survives the challenge holding {FILES_TO_WIN} Files of their identity and wins!"
                    events.append(Event("win", text, drawer, {"how": "challenge"}))
                    self._game_over("challenge", drawer, events)
                    return
                events.append(Event("challenge_over", "Nobody guessed right; the drawing goes on.", None, {}))
        assert self.drawer is not None
        if not self.active[self.drawer] or self.draws_left <= 0:
            self._end_round(events)

    def _check_files_win(self, seat: int, events: list[Event]) -> bool:
        if self.phase == "over" or not self.active[seat]:
            return False
        if self.tally(seat, self.identity[seat], counting_only=True) < FILES_TO_WIN:
            return False
        text = f"holds {FILES_TO_WIN} Files of their own identity and wins!"
        events.append(Event("win", text, seat, {"how": "files"}))
        self._game_over("files", seat, events)
        return True

    # -- answering prompts ------------------------------------------------------------------------

    def _answer(self, seat: int, action: Action, events: list[Event]) -> None:
        assert self.prompt is not None
        prompt, self.prompt = self.prompt, None
        kind = prompt["kind"]
        if kind == "steal":
            self._steal(seat, prompt["drawer"], action, events)
        elif kind == "guess":
            self._free_guess(seat, prompt["drawer"], action, events)
        elif kind == "immunity":
            self._immunity(seat, prompt, action, events)
        elif kind == "own_guess":
            _, target, country = action.split("-")
            self._own_guess(seat, int(target), country, events)
        elif kind == "challenge":
            self._challenge(seat, prompt["drawer"], action, events)
        else:
            self._choose_identity(seat, action in ("keep-new", "swap"), events)
        self._continue(events)

    def _steal(self, seat: int, drawer: int, action: Action, events: list[Event]) -> None:
        if action == "nosteal":
            events.append(Event("nosteal", "steals nothing.", seat, {}))
            return
        card = action.split("-", 1)[1]
        entry = next(e for e in self.home[drawer] if e[0] == card)
        self.home[drawer].remove(entry)
        self.home[seat].append([card, "stolen"])
        text = f"steals the {card_name(card)} from {seat_name(drawer)}'s home area."
        events.append(Event("steal", text, seat, {"card": card, "from_seat": drawer}))
        self._check_files_win(seat, events)

    def _free_guess(self, seat: int, drawer: int, action: Action, events: list[Event]) -> None:
        if action == "noguess":
            events.append(Event("noguess", "makes no guess.", seat, {}))
            return
        country = action.split("-", 1)[1]
        events.append(
            Event(
                "guess",
                f"guesses that the drawer is {country}.",
                seat,
                {"drawer": drawer, "country": country},
            )
        )
        if self.immunity[drawer]:
            self.prompt = {"seat": drawer, "kind": "immunity", "guesser": seat, "guess": country}
            return
        self._answer_guess(drawer, seat, country, events)

    def _immunity(self, seat: int, prompt: JSON, action: Action, events: list[Event]) -> None:
        if action == "immunity":
            self.immunity[seat] = False
            events.append(
                Event("immunity", "plays their Immunity card and does not answer the guess.", seat, {})
            )
            return
        self._answer_guess(seat, prompt["guesser"], prompt["guess"], events)

    def _answer_guess(self, drawer: int, guesser: int, country: str, events: list[Event]) -> None:
        right = self.identity[drawer] == country
        if right:
            events.append(
                Event(
                    "answer",
                    f"is {country}: the guess is right.",
                    drawer,
                    {"country": country, "right": True},
                )
            )
            self._eliminate(drawer, guesser, "free_guess", events)
        else:
            events.append(Event("answer", f"is not {country}.", drawer, {"country": country, "right": False}))
            self.wrong_guesses.append({"seat": drawer, "country": country})

    def _own_guess(self, seat: int, target: int, country: str, events: list[Event]) -> None:
        right = self.identity[target] == country
        verdict = "right" if right else "wrong"
        text = f"guesses that {seat_name(target)} is {country}: {verdict}."
        events.append(Event("own_guess", text, seat, {"target": target, "country": country, "right": right}))
        if right:
            self._eliminate(target, seat, "own_trap_right", events)
        else:
            self._eliminate(seat, target, "own_trap_wrong", events)

    def _challenge(self, seat: int, drawer: int, action: Action, events: list[Event]) -> None:
        if action == "nochallenge":
            events.append(Event("nochallenge", "does not challenge.", seat, {}))
            return
        country = action.split("-", 1)[1]
        right = self.identity[drawer] == country
        verdict = "right" if right else "wrong"
        text = f"challenges: the drawer is {country}? The guess is {verdict}."
        events.append(Event("challenge", text, seat, {"drawer": drawer, "country": country, "right": right}))
        if right:
            self.challenge = None
            self._eliminate(drawer, seat, "challenge_right", events)
        else:
            self.wrong_guesses.append({"seat": drawer, "country": country})
            self._eliminate(seat, drawer, "challenge_wrong", events)

    def _eliminate(self, victim: int, by: int, how: str, events: list[Event]) -> None:
        self.active[victim] = False
        self.out_order.append(victim)
        self.eliminated_by[victim] = by
        self.used.extend(self.hands[victim])
        self.hands[victim] = []
        self.used.extend(card for card, _ in self.home[victim])
        self.home[victim] = []
        self.wrong_guesses = [g for g in self.wrong_guesses if g["seat"] != victim]
        self.learned[by].append({"seat": victim, "country": self.identity[victim], "how": "received_id"})
        text = f"is out of the game; {seat_name(by)} receives their ID card."
        events.append(Event("eliminated", text, victim, {"by": by, "how": how}))
        remaining = self.active_seats()
        if len(remaining) == 1:
            self.id_discard.append(self.identity[victim])
            events.append(
                Event("win", "is the last spy standing and wins!", remaining[0], {"how": "last_spy"})
            )
            self._game_over("last_spy", remaining[0], events)
            return
        self.pending_id = self.identity[victim]
        kind = "swap" if how == "challenge_wrong" else "keep"
        self.prompt = {"seat": by, "kind": kind, "eliminated": victim}

    def _choose_identity(self, seat: int, take_new: bool, events: list[Event]) -> None:
        assert self.pending_id is not None
        if take_new:
            self.id_discard.append(self.identity[seat])
            self.identity[seat] = self.pending_id
        else:
            self.id_discard.append(self.pending_id)
        self.pending_id = None
        # The table saw two ID cards in that hand, so what it knew about this spy no longer holds.
        self.wrong_guesses = [g for g in self.wrong_guesses if g["seat"] != seat]
        events.append(Event("identity_choice", "keeps one ID card and discards the other unseen.", seat, {}))
        self._check_files_win(seat, events)

    # -- end of round and game ---------------------------------------------------------------------

    def _end_round(self, events: list[Event]) -> None:
        for s in range(self.players):
            if self.active[s]:
                self.hands[s].extend(self.piles[s])
            else:
                self.used.extend(self.piles[s])
            self.piles[s] = []
        events.append(Event("round_over", f"Round {self.round} is over.", None, {"round": self.round}))
        self.drawer = None
        if self.round >= self.options.round_limit:
            self._game_over("round_limit", None, events)
            return
        assert self.last_winner is not None
        self.opener = (
            self.last_winner if self.active[self.last_winner] else self.next_active(self.last_winner)
        )
        self._refill(events)
        self.round += 1
        self._start_round(events)

    def _refill(self, events: list[Event]) -> None:
        order = [(self.opener + step) % self.players for step in range(self.players)]
        short: list[int] = []
        for s in order:
            if not self.active[s]:
                continue
            while len(self.hands[s]) < HAND_SIZE:
                if not self.deck:
                    if not self.used:
                        break
                    self.deck = list(self.used)
                    self.used = []
                    self._rng(f"reshuffle{self.reshuffles}").shuffle(self.deck)
                    self.reshuffles += 1
                    text = f"The deck is empty: the {len(self.deck)} used cards are shuffled into a new deck."
                    events.append(Event("reshuffle", text, None, {"cards": len(self.deck)}))
                self.hands[s].append(self.deck.pop(0))
            if len(self.hands[s]) < HAND_SIZE:
                short.append(s)
        if short:
            text = "The deck and the used pile are empty: some hands stay short this round."
            events.append(Event("short_hands", text, None, {"seats": short}))

    def _game_over(self, reason: str, winner: int | None, events: list[Event]) -> None:
        self.phase = "over"
        self.winner = winner
        self.end_reason = reason
        self.prompt = None
        self.to_bid = None
        result = self.result()
        assert result is not None
        events.append(
            Event(
                "game_over",
                f"The game is over. {result.summary}",
                None,
                {"winner": winner, "reason": reason, "identities": list(self.identity)},
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
        who = seat_name(self.winner or 0).capitalize()
        if self.end_reason == "files":
            summary = f"{who} collected {FILES_TO_WIN} Files of their identity."
        elif self.end_reason == "challenge":
            summary = f"{who} survived the challenge with {FILES_TO_WIN} Files of their identity."
        elif self.end_reason == "last_spy":
            summary = f"{who} is the last spy standing."
        else:
            why = "the round limit was reached" if self.end_reason == "round_limit" else "no cards were left"
            summary = (
                f"The game stopped because {why}; the spies still in are ranked by their counting Files."
            )
        return Result(placements, summary)

    # -- what players see ---------------------------------------------------------------------------

    def view(self, seat: int | None) -> JSON:
        over = self.phase == "over"
        data: JSON = {
            "game": SpyTrap.key,
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
            "drawn": [dict(d) for d in self.drawn],
            "home": [
                [{"card": card, "country": country_of(card), "from": source} for card, source in h]
                for h in self.home
            ],
            "tallies": [self._tallies(s) for s in range(self.players)],
            "prompt": self._public_prompt(),
            "waiting": self.waiting(),
            "wrong_guesses": [dict(g) for g in self.wrong_guesses],
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
            data["learned"] = [dict(f) for f in self.learned[seat]]
            data["legal_hint"] = self._hint(seat)
        return data

    def _tallies(self, seat: int) -> JSON:
        out: JSON = {}
        for card, source in self.home[seat]:
            country = country_of(card)
            assert country is not None
            entry = out.setdefault(country, {"all": 0, "counting": 0})
            entry["all"] += 1
            entry["counting"] += int(source != "own")
        return out

    def _public_prompt(self) -> JSON | None:
        if self.prompt is None:
            return None
        prompt = dict(self.prompt)
        for key in ("choices", "targets", "still_to_guess"):
            if key in prompt:
                prompt[key] = list(prompt[key])
        return prompt

    def _hint(self, seat: int) -> str | None:
        if self.phase == "over" or not self.active[seat] or seat not in self.waiting():
            return None
        if self.phase == "pile":
            return "Build your pile: choose its cards, top card first."
        if self.phase == "bid":
            return (
                "Open the bidding: bid at least 1." if self.high_bidder is None else "Raise the bid or pass."
            )
        if self.prompt is None:
            return f"Draw a card: {self.draws_left} left."
        return {
            "steal": "Your Evil Agent was drawn: steal a File from the drawer, or not.",
            "guess": "Your trap was sprung: make a free guess of the drawer's identity, or not.",
            "immunity": "Answer the guess, or play your Immunity card and stay silent.",
            "own_guess": "Your own trap: guess another spy's identity. If you are wrong, you are out.",
            "keep": "Keep your own identity or take the one you received.",
            "challenge": "Challenge the drawer's identity, or not. A wrong guess puts you out.",
            "swap": "Swap identities with the challenger you put out, or keep yours.",
        }[self.prompt["kind"]]

    def describe(self, action: Action) -> str:
        head, _, rest = action.partition("-")
        fixed = {
            "pass": "pass",
            "nosteal": "steal nothing",
            "noguess": "make no guess",
            "immunity": "play your Immunity card",
            "noimmunity": "answer the guess",
            "keep-own": "keep your own identity",
            "keep-new": "take the new identity",
            "nochallenge": "do not challenge",
            "swap": "swap identities",
            "noswap": "keep your identity",
            "auto-pile": "build piles for the players whose time ran out",
            "auto-draw": "draw for the player whose time ran out",
            "auto-guess": "guess for the player whose time ran out",
        }
        if action in fixed:
            return fixed[action]
        try:
            if head == "pile":
                return "build a pile of " + ", ".join(card_name(c) for c in rest.split("-")) + " (top first)"
            if head == "bid":
                return f"bid {int(rest)}"
            if head == "draw":
                return f"draw from {seat_name(int(rest))}'s pile"
            if head == "steal":
                return f"steal the {card_name(rest)}"
            if head == "challenge":
                return f"challenge: {rest}"
            if head == "guess":
                if "-" in rest:
                    target, country = rest.split("-")
                    return f"guess that {seat_name(int(target))} is {country}"
                return f"guess {rest}"
        except (ValueError, KeyError, IndexError):
            return action
        return action

    # -- persistence --------------------------------------------------------------------------------

    def to_json(self) -> JSON:
        return {
            "game": SpyTrap.key,
            "version": 1,
            "players": self.players,
            "options": SpyTrap().options_to_json(self.options),
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
    def from_json(cls, data: JSON) -> SpyTrapState:
        if data.get("game") != SpyTrap.key:
            raise ValueError(f"Not a Spy Trap state: game is {data.get('game')!r}.")
        state = cls(data["players"], SpyTrap().parse_options(data["options"]), data["seed"])
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
        state.drawn = [dict(d) for d in data["drawn"]]
        prompt = data["prompt"]
        state.prompt = (
            None if prompt is None else {k: list(v) if isinstance(v, list) else v for k, v in prompt.items()}
        )
        challenge = data["challenge"]
        state.challenge = None if challenge is None else {**challenge, "queue": list(challenge["queue"])}
        state.learned = [[dict(f) for f in facts] for facts in data["learned"]]
        state.wrong_guesses = [dict(g) for g in data["wrong_guesses"]]
        state.opening_events = [Event.from_json(e) for e in data.get("opening_events", [])]
        return state


def _orders(cards: list[str], size: int) -> list[tuple[str, ...]]:
    """Every ordered choice of ``size`` distinct cards, in a stable order."""
    return list(permutations(cards, size))


# ---------------------------------------------------------------------------------------------
# The game


class SpyTrap(Game[SpyTrapState]):
    key: ClassVar[str] = "spytrap"
    title: ClassVar[str] = "Spy Trap"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    # Every wait in Spy Trap blocks the whole table, so even at speed "off" each one ends eventually.
    timers: ClassVar[dict[str, dict[str, float | None]]] = {
        "off": {"pile": 900.0, "bid": 600.0, "draw": 600.0, "prompt": 600.0},
        "relaxed": {"pile": 90.0, "bid": 45.0, "draw": 45.0, "prompt": 45.0},
        "fast": {"pile": 45.0, "bid": 20.0, "draw": 20.0, "prompt": 20.0},
    }
    computer_levels: ClassVar[tuple[str, ...]] = ("casual", "sharp")

    def parse_options(self, data: JSON) -> SpyTrapOptions:
        unknown = set(data) - {"round_limit"}
        if unknown:
            raise ValueError(f"Unknown Spy Trap option(s): {', '.join(sorted(unknown))}.")
        return SpyTrapOptions(round_limit=data.get("round_limit", ROUND_LIMIT))

    def options_to_json(self, options: Any) -> JSON:
        return {"round_limit": options.round_limit}

    def new_game(
        self, players: int, options: Any = None, seed: int = 0, deal: JSON | None = None
    ) -> SpyTrapState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"Spy Trap is for {self.min_players} to {self.max_players} players, not {players}."
            )
        if options is None:
            options = SpyTrapOptions()
        elif isinstance(options, dict):
            options = self.parse_options(options)
        if deal is not None:
            validate_deal(players, deal)
        state = SpyTrapState(players, options, seed)
        state.opening_events = state._setup(deal)
        return state

    def from_json(self, data: JSON) -> SpyTrapState:
        return SpyTrapState.from_json(data)

    def computer_player(self, level: str, **settings: Any) -> ComputerPlayer:
        # Imported here because the players module builds on this one's card helpers.
        from rules.spytrap.players import make_player

        return make_player(level, **settings)

    def rules_text(self) -> str:
        return RULES_TEXT

    def house_rulings(self, options: Any) -> list[str]:
        if options is None:
            options = SpyTrapOptions()
        return [
            "There are 12 File cards for each of six countries: American, French, German, Italian, Russian "
            "and Spanish.",
            "A player with fewer than 3 cards puts all of them in their pile; a player with none has "
            "no pile.",
            "A pile, once built, cannot be changed that round; the table sees who is done, never what.",
            "Each raise must be strictly higher than the standing bid; passing is not final.",
            "The opener must bid at least 1 in every round, the first included.",
            "No one may bid more than the number of cards in all the piles, and a bid of that many ends "
            "the bidding at once.",
            "The first opener is chosen at random; after that the last bid winner opens, or the next "
            "spy still in on their left if they are out.",
            "A spy who holds Immunity chooses whether to play it after hearing a free guess, right or "
            "wrong, so playing it tells the table nothing.",
            "If a forced guess after a Trap from your own pile is wrong, the spy you named put you out "
            "and receives your ID card.",
            "A spy who receives an ID card chooses in private which one to keep; the table only sees "
            "that they chose.",
            "If the drawer is put out while drawing, the drawing stops and the round ends.",
            "Files count toward the ordinary win only if they were drawn from another spy's pile "
            "(a pile of a spy who is out included) or stolen; Files drawn from your own pile count only "
            "through a challenge.",
            "A challenge starts when a File from your own pile is exactly the 4th File of its country "
            "in your home area (a 5th or later starts none); each other spy still in may guess, "
            "clockwise from your left, and "
            "you win if nobody is right and you then hold 4 or more Files (any source) of your identity.",
            "A wrong challenger is put out by the drawer, who receives their ID card and may swap "
            "before the next guess; a right challenger puts the drawer out.",
            "When the deck runs out during the refill, the whole used pile is shuffled into a new deck; "
            "if that is still not enough, hands stay short and refills go clockwise from the next opener.",
            "A spy put out loses their hand and home area to the used pile at once; their pile stays "
            "drawable, inert, until the round ends and then goes to the used pile too.",
            "The game is won the moment a spy holds 4 counting Files of their current identity, "
            "however that happens (a draw, a steal or a change of identity).",
            f"A game still going after {options.round_limit} rounds stops (table option); the spies still "
            "in are ranked by their counting Files of their own identity, and equal counts share.",
            "If nobody has a card to put in a pile, the game stops the same way.",
            "Timers: a player who does not build a pile gets one chosen at random; the opener who does "
            "not bid opens at 1, anyone else passes; a drawer who does not draw takes the first pile "
            "clockwise from their left (their own last); no steal, no free guess and no challenge are "
            "the defaults; an unanswered free guess plays your Immunity card if you still hold it; a "
            "forced guess is chosen at random; an identity choice keeps your own.",
            "Every wait blocks the table, so every timer runs even with table timers off (10 to 15 minutes).",
            "Identities are shown to everyone when the game is over.",
            "Final places: the winner, then the spies still in by counting Files of their identity "
            "(equal counts share), then the spies put out, the later out ahead of the earlier.",
        ]


def validate_deal(players: int, deal: JSON) -> None:
    """Check a fixed deal (rules/spytrap/FORMATS.md); ValueError with the problem."""
    try:
        identities = list(deal["identities"])
        hands = [list(h) for h in deal["hands"]]
        deck = list(deal["deck"])
    except (KeyError, TypeError) as exc:
        raise ValueError("A deal needs 'identities', 'hands' (one list per seat) and 'deck'.") from exc
    if len(identities) != players or len(hands) != players:
        raise ValueError(f"The deal needs one identity and one hand for each of the {players} players.")
    for country in identities:
        if country not in COUNTRIES:
            raise ValueError(f"{country!r} is not a country: choose from {', '.join(COUNTRIES)}.")
    if len(set(identities)) != len(identities):
        raise ValueError("Two players cannot share an identity.")
    for hand in hands:
        if len(hand) > HAND_SIZE:
            raise ValueError(f"A hand holds at most {HAND_SIZE} cards.")
    home = deal.get("home", [[]] * players)
    if len(home) != players:
        raise ValueError("'home' needs one list per seat.")
    home_cards: list[str] = []
    for area in home:
        for entry in area:
            if (
                not isinstance(entry, list | tuple)
                or len(entry) != 2
                or entry[1] not in ("opponent", "own", "stolen")
            ):
                raise ValueError("A home entry is [card, from] with from 'opponent', 'own' or 'stolen'.")
            if not is_file(str(entry[0])):
                raise ValueError(f"Only File cards lie in a home area, not {entry[0]!r}.")
            home_cards.append(entry[0])
    immunity = deal.get("immunity", [True] * players)
    if len(immunity) != players:
        raise ValueError("'immunity' needs one true/false per seat.")
    opener = deal.get("opener", 0)
    if isinstance(opener, bool) or not isinstance(opener, int) or not 0 <= opener < players:
        raise ValueError("'opener' must be a seat at the table.")
    cards = [c for h in hands for c in h] + deck + list(deal.get("used", [])) + home_cards
    missing = sorted(ALL_CARDS - set(cards), key=lambda c: c)
    unknown = sorted({c for c in cards if c not in ALL_CARDS})
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if missing or unknown or twice:
        problems = []
        if missing:
            problems.append(f"missing {', '.join(missing)}")
        if unknown:
            problems.append(f"not Spy Trap cards {', '.join(unknown)}")
        if twice:
            problems.append(f"dealt twice {', '.join(twice)}")
        raise ValueError("The deal must hold every card exactly once: " + "; ".join(problems) + ".")


RULES_TEXT = """\
# Spy Trap

**Goal:** you are a secret agent of one of six countries. Collect **4 Files of your own country**
without being unmasked, or be the **last spy standing**.

## Setting up
Everyone gets a secret identity card (the country you spy for), one **Immunity** card and 6 cards.
The deck has 72 Files (12 per country: American, French, German, Italian, Russian, Spanish),
13 **Evil Agents** and 13 **Trap Is Sprung** cards.

## A round
1. **Piles.** Everyone at once secretly puts 3 cards from their hand face down in a pile, in the order
   they choose (top card first). With fewer than 3 cards you use them all.
2. **Bidding.** From the opener, clockwise: bid how many cards you will draw, raise (higher), or pass.
   Passing is not final: you may bid again when it comes back to you. The bidding ends when one bid
   stands and everyone else has passed. The opener must bid at least 1; nobody can bid more cards than
   the piles hold.
3. **Drawing.** The winner draws exactly that many cards, one at a time, from the top of any pile,
   their own included. Each card acts at once:
   - **File:** goes face up into the drawer's home area.
   - **Evil Agent** from another spy's pile: that spy may steal any File from the drawer's home area.
     From your own pile it does nothing.
   - **Trap Is Sprung** from another spy's pile: that spy may make a **free guess** of the drawer's
     identity (no penalty if wrong). The drawer hears the guess and may play Immunity instead of
     answering. A right guess, unanswered by Immunity, puts the drawer out.
     From your own pile: you **must** guess another spy's identity. Wrong, and you are out
     (Immunity does not help); the spy you named is the one who put you out.
4. **End of the round.** Unused pile cards go back to their owners' hands and everyone refills to 6.
   When the deck runs out, the used cards are shuffled into a new one. The bid winner opens the next round.

## Being put out
Whoever puts a spy out receives that spy's ID card, looks at both, keeps one identity and discards the
other unseen. A spy who is out loses their hand and Files; their pile can still be drawn this round,
but its Evil Agents and Traps do nothing. If the drawer is put out, the round ends at once.

## Winning
- The moment you hold **4 Files of your identity** that you drew from **other spies' piles** or
  **stole**, you win.
- **Challenge:** when a File from your **own** pile is your **4th** File of one country, each
  other spy in turn, starting on your left, may guess your identity (no Immunity). A wrong challenger
  is out, and you may swap identities with them before the next guess. A right challenger puts you out.
  If nobody is right and you then hold 4 Files of your identity (from any pile), you win.
- The **last spy standing** wins.

The game stops after a round limit (a safety net, 40 rounds unless the table changes it).
"""
