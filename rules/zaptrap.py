"""Zap or Trap: a team card game of secret signals, a themed Kemps (RULINGS.md §1).

Card codes (every copy has its own code, so the referee always knows which card moved):
- a single alien card is its species number and a copy letter: "3a" is the first species-3 card,
  "10d" the fourth species-10 card;
- a double card is "D" and the lower species of its ring pair: "D3" shows species 3 and 4, "D10"
  species 10 and 1 (with more than one copy per pair a copy letter follows: "D3a", "D3b");
- the special cards are "XZZ" (Zip Zap, Don't Come Back), "XBF" (Be Free!! Be Free!!) and "XDM"
  (Dangerous Mission), with a copy letter when the table plays more than one copy ("XDMa").
The "kemps" preset uses the same codes for 13 ranks (1 = ace … 13 = king) in four suits (a–d).
``card_name(code, preset)`` gives the readable name; ``best_set(hand)`` the set a hand counts.

Actions (letters, digits, "-" only):
- "signal-think": during the signals phase, choose your side's real secret signal (any gesture id of
  ``GESTURES``); in the team game either partner may set it and the latest choice stands.
- "S3a-7c": give your 3a to the table and take the 7c from it (a swap).
- "gesture-wink": make a public gesture while a round is in play.
- "ZAP-2" / "TRAP-2": call ZAP or TRAP on seat 2 (0-based seat numbers); the first call ends the round.
- "deal": the dealer (or the referee after the lull timer) clears the four table cards and deals four.
- "next": after a round ends, start the next round's signals phase (any seat, or the referee).
- "signals": the referee closes the signals phase, keeping last round's signal (else a random one)
  for every side that has not chosen.

Sides ("units"): in the team game (4 or 6 players) unit = team = seat % (players // 2), partners sit
opposite; in the individual game (3 or 5) every seat is its own unit. Scores are kept per unit.

View (``view(seat)``; ``seat=None`` is the spectator). Keys for everyone:
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
  explained), "value", "scorers" (units that scored), "points" (per unit this round), "team_win"}.
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

Events (all public; ``seat`` = the actor): "game_start", "signals_open" {round, dealer},
"signal_chosen" {unit} (never which gesture), "signals_default" {units}, "deal" {round, dealer,
table, hand_counts, deck_count}, "swap" {gave, took, seq}, "gesture" {gesture, emoji, seq},
"lull_deal" {cleared, table, deck_count, reshuffled, seq}, "void_round" {round}, "call" (the call
dict above), "round_over" {round, points, scores}, "game_over" {winners, scores, team_win,
signals (the whole signal history)}.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, fields
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

# ---------------------------------------------------------------------------------------------
# Cards

TABLE_SIZE = 4
SET_SIZE = 4
FIVE_SET = 5
WRONG_TARGET_PENALTY = 2
DANGEROUS_MISSION_BONUS = 2
RECENT = 20  # how many recent gestures and swaps a view carries

ZIP_ZAP = "XZZ"
BE_FREE = "XBF"
DANGEROUS_MISSION = "XDM"
SPECIALS = (ZIP_ZAP, BE_FREE, DANGEROUS_MISSION)
SPECIAL_NAMES = {
    ZIP_ZAP: "Zip Zap, Don't Come Back",
    BE_FREE: "Be Free!! Be Free!!",
    DANGEROUS_MISSION: "Dangerous Mission",
}

# Our own aliens, one per species number.
ALIENS = (
    "Glorp",
    "Zibble",
    "Mookah",
    "Fennix",
    "Quorb",
    "Splunt",
    "Yarrowax",
    "Blimble",
    "Vexxo",
    "Nubbin",
    "Thrask",
    "Oozel",
    "Pibbitt",
)
RANKS = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
COPY_LETTERS = "abcdefgh"

GESTURES: dict[str, str] = {
    "think": "🤔",
    "wink": "😉",
    "yawn": "🥱",
    "shush": "🤫",
    "smirk": "😏",
    "cool": "😎",
    "eyeroll": "🙄",
    "sneeze": "🤧",
}

SINGLE_RE = re.compile(r"^(\d{1,2})([a-h])$")
DOUBLE_RE = re.compile(r"^D(\d{1,2})([a-h]?)$")
SPECIAL_RE = re.compile(r"^(XZZ|XBF|XDM)([a-h]?)$")


def special_kind(code: str) -> str | None:
    """ "XZZ", "XBF" or "XDM" for a special card (any copy), else None."""
    match = SPECIAL_RE.match(code)
    return match.group(1) if match else None


def species_shown(code: str, species_count: int) -> tuple[int, ...]:
    """The species a card shows: one for a single card, two for a double, none for a special."""
    if match := SINGLE_RE.match(code):
        return (int(match.group(1)),)
    if match := DOUBLE_RE.match(code):
        low = int(match.group(1))
        return (low, low % species_count + 1)
    return ()


def species_name(species: int, preset: str = "zaptrap", plural: bool = False) -> str:
    name = RANKS[species - 1] if preset == "kemps" else ALIENS[species - 1]
    if not plural:
        return name
    return name + ("es" if name.endswith(("x", "s")) else "s")


def card_name(code: str, preset: str = "zaptrap", species_count: int = 10) -> str:
    """ "Glorp", "Glorp-Zibble double", "Dangerous Mission"; kemps: "queen of hearts"."""
    kind = special_kind(code)
    if kind is not None:
        return SPECIAL_NAMES[kind]
    if match := SINGLE_RE.match(code):
        species = int(match.group(1))
        if preset == "kemps":
            copy = COPY_LETTERS.index(match.group(2))
            suit = SUIT_NAMES[copy] if copy < len(SUIT_NAMES) else f"suit {copy + 1}"
            return f"{species_name(species, preset)} of {suit}"
        return species_name(species, preset)
    if DOUBLE_RE.match(code):
        low, high = species_shown(code, species_count)
        return f"{species_name(low, preset)}-{species_name(high, preset)} double"
    return code


def card_sort_key(code: str) -> tuple[int, int, str]:
    if match := SINGLE_RE.match(code):
        return (0, int(match.group(1)), code)
    if match := DOUBLE_RE.match(code):
        return (1, int(match.group(1)), code)
    return (2, SPECIALS.index(special_kind(code) or ZIP_ZAP), code)


def sort_hand(cards: list[str]) -> list[str]:
    return sorted(cards, key=card_sort_key)


def _copy_codes(base: str, copies: int) -> list[str]:
    """One copy keeps the bare code ("D3", "XDM"); several get copy letters ("D3a", "D3b")."""
    if copies == 1:
        return [base]
    return [f"{base}{COPY_LETTERS[i]}" for i in range(copies)]


def best_set(hand: list[str], species_count: int) -> JSON | None:
    """The set this hand counts: the species shown by most of its cards (a double counts toward
    either of its species, once), if at least 4. A hand of up to 7 cards can hold only one set, so
    the best assignment is simply the best species; ties go to the lower species number."""
    showing: dict[int, list[str]] = {}
    for card in hand:
        for species in species_shown(card, species_count):
            showing.setdefault(species, []).append(card)
    if not showing:
        return None
    species = min(showing, key=lambda s: (-len(showing[s]), s))
    cards = showing[species]
    if len(cards) < SET_SIZE:
        return None
    return {"species": species, "count": len(cards), "cards": sort_hand(cards)}


# ---------------------------------------------------------------------------------------------
# Options

PRESETS: dict[str, dict[str, int]] = {
    "zaptrap": {"species": 10, "copies": 4, "doubles": 1, "specials": 1, "hand_size": 5},
    "kemps": {"species": 13, "copies": 4, "doubles": 0, "specials": 0, "hand_size": 4},
}
LULL_MODES = ("auto", "dealer")


@dataclass(frozen=True)
class ZapTrapOptions:
    """Table options; deck fields left as None take the preset's value."""

    preset: str = "zaptrap"
    species: int | None = None  # alien species (ranks in kemps), 4–13
    copies: int | None = None  # single cards per species, 1–8
    doubles: int | None = None  # copies of each double card in the ring, 0–2
    specials: int | None = None  # copies of each of the three special cards, 0–2
    hand_size: int | None = None  # 4–7
    lull: str = "auto"  # "auto": the referee deals after the lull timer; "dealer": only the dealer
    refuse_wrong_targets: bool = False
    target: int = 7

    def __post_init__(self) -> None:
        if self.preset not in PRESETS:
            raise ValueError(f"Preset must be one of {', '.join(PRESETS)}, not {self.preset!r}.")
        for name, value in PRESETS[self.preset].items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, value)
        limits = {"species": (4, 13), "copies": (1, 8), "doubles": (0, 2), "specials": (0, 2)}
        limits |= {"hand_size": (4, 7), "target": (1, 50)}
        for name, (low, high) in limits.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"The {name.replace('_', ' ')} must be a whole number from {low} to {high}.")
        if self.lull not in LULL_MODES:
            raise ValueError(f"Lull handling must be one of {', '.join(LULL_MODES)}, not {self.lull!r}.")
        if not isinstance(self.refuse_wrong_targets, bool):
            raise ValueError("refuse_wrong_targets must be true or false.")
        if self.copies_per_species < SET_SIZE:
            raise ValueError("With so few cards per species nobody could ever hold a set of four.")

    @property
    def copies_per_species(self) -> int:
        return int(self.copies or 0) + 2 * int(self.doubles or 0)

    def deck(self) -> list[str]:
        species, copies = int(self.species or 0), int(self.copies or 0)
        doubles, specials = int(self.doubles or 0), int(self.specials or 0)
        cards = [f"{s}{COPY_LETTERS[c]}" for s in range(1, species + 1) for c in range(copies)]
        for s in range(1, species + 1):
            cards += _copy_codes(f"D{s}", doubles) if doubles else []
        for kind in SPECIALS:
            cards += _copy_codes(kind, specials) if specials else []
        return cards


# ---------------------------------------------------------------------------------------------
# State


class ZapTrapState(State):
    def __init__(self, players: int, options: ZapTrapOptions, seed: int) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.team_game = players in (4, 6)
        self.units = players // 2 if self.team_game else players
        self.round = 1
        self.phase = "signals"
        self.dealer = 0
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.table: list[str] = []
        self.deck: list[str] = []  # top first
        self.discards: list[str] = []  # oldest first
        self.cleared: list[str] = []
        self.shown: list[str] = []  # every card face up on the table this round
        self.seq = 0
        self.lulls = 0
        self.gestures: list[JSON] = []
        self.swaps: list[JSON] = []
        self.deals: list[int] = []
        self.choices: list[str | None] = [None] * self.units
        self.last_signals: list[str | None] = [None] * self.units
        self.signal_history: list[JSON] = []
        self.scores = [0] * self.units
        self.call: JSON | None = None
        self.void = False
        self.winners: list[int] = []
        self.team_win = False
        self.pending_deal: JSON | None = None
        self.opening_events: list[Event] = []

    # -- seats and sides ----------------------------------------------------------------------

    def unit_of(self, seat: int) -> int:
        return seat % self.units if self.team_game else seat

    def seats_of(self, unit: int) -> list[int]:
        return [s for s in range(self.players) if self.unit_of(s) == unit]

    def partner(self, seat: int) -> int | None:
        return (seat + self.players // 2) % self.players if self.team_game else None

    def left(self, seat: int) -> int:
        return (seat + 1) % self.players

    def right(self, seat: int) -> int:
        return (seat - 1) % self.players

    def watch_seat(self, seat: int) -> int:
        partner = self.partner(seat)
        return partner if partner is not None else self.right(seat)

    def signal_to(self, seat: int) -> int:
        partner = self.partner(seat)
        return partner if partner is not None else self.left(seat)

    def visible_units(self, seat: int) -> set[int]:
        """Units whose real signal this seat may know: its own, and the one it watches."""
        return {self.unit_of(seat), self.unit_of(self.watch_seat(seat))}

    def name(self, code: str) -> str:
        return card_name(code, self.options.preset, int(self.options.species or 0))

    def set_of(self, hand: list[str]) -> JSON | None:
        return best_set(hand, int(self.options.species or 0))

    def _rng(self, label: str) -> random.Random:
        # A fresh RNG per use, derived from the seed, keeps the JSON small and a reload exact.
        return random.Random(f"zaptrap:{self.seed}:{label}")

    # -- rounds -------------------------------------------------------------------------------

    def _open_signals(self) -> list[Event]:
        self.phase = "signals"
        self.choices = [None] * self.units
        self.hands = [[] for _ in range(self.players)]
        self.table, self.deck, self.discards, self.cleared, self.shown = [], [], [], [], []
        self.seq, self.lulls = 0, 0
        self.gestures, self.swaps, self.deals = [], [], []
        self.call, self.void = None, False
        sides = "each team chooses its" if self.team_game else "each player chooses their"
        return [
            Event(
                "signals_open",
                f"Round {self.round}: {sides} secret signal. Seat {self.dealer + 1} deals.",
                None,
                {"round": self.round, "dealer": self.dealer},
            )
        ]

    def _start_play(self) -> list[Event]:
        self.signal_history.append({"round": self.round, "signals": list(self.choices)})
        self.last_signals = list(self.choices)
        size = int(self.options.hand_size or 0)
        if self.pending_deal is not None:
            deal, self.pending_deal = self.pending_deal, None
            hands = [list(h) for h in deal["hands"]]
            table = list(deal["table"])
            self.deck = list(deal["deck"])
        else:
            cards = self.options.deck()
            self._rng(f"round{self.round}").shuffle(cards)
            # Dealt one at a time round the table from the dealer's left, like at a real table.
            order = [(self.dealer + 1 + i) % self.players for i in range(self.players)]
            hands = [[] for _ in range(self.players)]
            for i in range(size * self.players):
                hands[order[i % self.players]].append(cards[i])
            rest = cards[size * self.players :]
            table, self.deck = rest[:TABLE_SIZE], rest[TABLE_SIZE:]
        self.hands = [sort_hand(h) for h in hands]
        self.table = table
        self.shown = list(table)
        self.phase = "play"
        names = "; ".join(self.name(c) for c in table)
        return [
            Event(
                "deal",
                f"Round {self.round} is dealt: {plural(size, 'card')} each, and on the table {names}. Go!",
                None,
                {
                    "round": self.round,
                    "dealer": self.dealer,
                    "table": list(table),
                    "hand_counts": [len(h) for h in self.hands],
                    "deck_count": len(self.deck),
                },
            )
        ]

    def _lull_deal(self, seat: int | None) -> list[Event]:
        cleared = list(self.table)
        self.discards += cleared
        self.cleared = cleared
        self.table = []
        reshuffled = False
        events: list[Event] = []
        if len(self.deck) < TABLE_SIZE:
            # The four just cleared would come straight back: only older discards are reshuffled.
            older = self.discards[: -len(cleared)] if cleared else list(self.discards)
            if len(self.deck) + len(older) < TABLE_SIZE:
                return self._void_round()
            self.lulls += 1
            self._rng(f"reshuffle{self.round}-{self.lulls}").shuffle(older)
            self.deck += older
            self.discards = cleared
            reshuffled = True
        self.table, self.deck = self.deck[:TABLE_SIZE], self.deck[TABLE_SIZE:]
        self.shown += self.table
        self.seq += 1
        self.deals.append(self.seq)
        names = "; ".join(self.name(c) for c in self.table)
        lead = "cleared the table and dealt" if seat is not None else "The table is cleared after a lull:"
        again = " (the discards were shuffled into a new deck)" if reshuffled else ""
        events.append(
            Event(
                "lull_deal",
                f"{lead} {names}{again}. Go!",
                seat,
                {
                    "cleared": cleared,
                    "table": list(self.table),
                    "deck_count": len(self.deck),
                    "reshuffled": reshuffled,
                    "seq": self.seq,
                },
            )
        )
        return events

    def _void_round(self) -> list[Event]:
        self.void = True
        self.phase = "between"
        return [
            Event(
                "void_round",
                f"The deck cannot supply four new cards: round {self.round} is void and nobody scores. "
                "The next dealer deals a new round.",
                None,
                {"round": self.round},
            )
        ]

    def _next_round(self) -> list[Event]:
        self.round += 1
        self.dealer = self.left(self.dealer)
        return self._open_signals()

    # -- queries ------------------------------------------------------------------------------

    def call_targets(self, seat: int, call: str) -> list[int]:
        others = [t for t in range(self.players) if t != seat]
        if not self.team_game and not self.options.refuse_wrong_targets:
            return others
        watched = self.watch_seat(seat)
        return [watched] if call == "ZAP" else [t for t in others if t != watched]

    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.phase == "over":
            return []
        if seat is not None and not 0 <= seat < self.players:
            return []
        if self.phase == "signals":
            return ["signals"] if seat is None else [f"signal-{g}" for g in GESTURES]
        if self.phase == "between":
            return ["next"]
        if seat is None:
            return ["deal"]
        actions = [f"S{give}-{take}" for give in self.hands[seat] for take in self.table]
        actions += [f"gesture-{g}" for g in GESTURES]
        actions += [f"ZAP-{t}" for t in self.call_targets(seat, "ZAP")]
        actions += [f"TRAP-{t}" for t in self.call_targets(seat, "TRAP")]
        if seat == self.dealer:
            actions.append("deal")
        return actions

    # -- actions ------------------------------------------------------------------------------

    def _check(self, seat: int | None, action: Action) -> None:
        """Raise IllegalAction with a reason if ``action`` is not allowed now; changes nothing."""
        if self.phase == "over":
            raise IllegalAction("The game is over.")
        if seat is not None and not 0 <= seat < self.players:
            raise IllegalAction("That seat is not at this table.")
        kind, arg = parse_action(action)
        if kind == "signals":
            if seat is not None:
                raise IllegalAction("Only the referee closes the signal choice when time runs out.")
            if self.phase != "signals":
                raise IllegalAction("Secret signals are chosen only before a round starts.")
            return
        if kind == "next":
            if self.phase != "between":
                raise IllegalAction("The next round starts only after this round has ended.")
            return
        if kind == "signal":
            if seat is None:
                raise IllegalAction("Only a player chooses a secret signal.")
            if self.phase != "signals":
                raise IllegalAction("You can choose or change your secret signal only before a round starts.")
            return
        if kind == "gesture" and self.phase != "play":
            raise IllegalAction("Gestures are for while a round is in play.")
        if self.phase == "signals":
            raise IllegalAction("The round has not started yet: secret signals are being chosen.")
        if self.phase == "between":
            raise IllegalAction("The round is over: a call ended it, so swaps and calls are frozen.")
        if kind == "deal":
            if seat is not None and seat != self.dealer:
                raise IllegalAction("Only the dealer clears the table and deals four new cards.")
            return
        if seat is None:
            raise IllegalAction("Only a player can do that.")
        if kind == "gesture":
            return
        if kind == "swap":
            give, take = arg.split("-")
            self._check_swap(seat, give, take)
            return
        self._check_call(seat, kind, int(arg))

    def _check_swap(self, seat: int, give: str, take: str) -> None:
        if give not in self.hands[seat]:
            raise IllegalAction(f"You don't hold a {self.name(give)} ({give}).")
        if take in self.table:
            return
        if take in self.hands[seat]:
            raise IllegalAction(f"The {self.name(take)} ({take}) is already in your hand.")
        if take in self.shown:
            if take in self.discards:
                raise IllegalAction(f"The {self.name(take)} ({take}) was cleared off the table.")
            raise IllegalAction(f"Another player took the {self.name(take)} ({take}) first.")
        raise IllegalAction(f"The {self.name(take)} ({take}) is not on the table.")

    def _check_call(self, seat: int, call: str, target: int) -> None:
        if not 0 <= target < self.players:
            raise IllegalAction("There is no such seat at this table.")
        if target == seat:
            raise IllegalAction(f"You can't call {call} on yourself.")
        if target in self.call_targets(seat, call):
            return
        if self.team_game:
            if call == "ZAP":
                raise IllegalAction("In the team game you can only ZAP your partner.")
            raise IllegalAction("You can't TRAP your own partner: TRAP is for opponents.")
        if call == "ZAP":
            raise IllegalAction(
                "This table refuses wrong targets: you can only ZAP the player on your right, "
                "whose signal you watch."
            )
        raise IllegalAction(
            "This table refuses wrong targets: you can't TRAP the player on your right, "
            "whose signal you watch."
        )

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        self._check(seat, action)
        kind, arg = parse_action(action)
        if kind == "signals":
            return self._default_signals()
        if kind == "next":
            return self._next_round()
        if kind == "signal":
            assert seat is not None
            return self._choose_signal(seat, arg)
        if kind == "deal":
            return self._lull_deal(seat)
        assert seat is not None
        if kind == "gesture":
            self.seq += 1
            self.gestures.append({"seq": self.seq, "seat": seat, "gesture": arg})
            data = {"gesture": arg, "emoji": GESTURES[arg], "seq": self.seq}
            return [Event("gesture", f"made {GESTURES[arg]}", seat, data)]
        if kind == "swap":
            give, take = arg.split("-")
            self.hands[seat].remove(give)
            self.hands[seat] = sort_hand([*self.hands[seat], take])
            self.table[self.table.index(take)] = give
            self.shown.append(give)
            self.seq += 1
            self.swaps.append({"seq": self.seq, "seat": seat, "gave": give, "took": take})
            text = f"swapped a {self.name(give)} for the {self.name(take)}."
            return [Event("swap", text, seat, {"gave": give, "took": take, "seq": self.seq})]
        return self._resolve_call(seat, kind, int(arg))

    def _choose_signal(self, seat: int, gesture: str) -> list[Event]:
        unit = self.unit_of(seat)
        self.choices[unit] = gesture
        whose = "their team's" if self.team_game else "their"
        events = [Event("signal_chosen", f"has chosen {whose} secret signal.", seat, {"unit": unit})]
        if all(c is not None for c in self.choices):
            events += self._start_play()
        return events

    def _default_signals(self) -> list[Event]:
        missing = [u for u, c in enumerate(self.choices) if c is None]
        for unit in missing:
            last = self.last_signals[unit]
            if last is None:
                last = self._rng(f"signal{self.round}-{unit}").choice(list(GESTURES))
            self.choices[unit] = last
        sides = "team" if self.team_game else "player"
        text = (
            f"Time is up: every {sides} still choosing keeps last round's secret signal "
            "(or gets a random one in the first round)."
        )
        events = [Event("signals_default", text, None, {"units": missing})]
        return events + self._start_play()

    # -- calls and scoring --------------------------------------------------------------------

    def _resolve_call(self, caller: int, call: str, target: int) -> list[Event]:
        hand = sort_hand(self.hands[target])
        found = self.set_of(hand)
        five = found is not None and found["count"] >= FIVE_SET
        dangerous = sum(1 for c in hand if special_kind(c) == DANGEROUS_MISSION)
        bonus_card = ZIP_ZAP if call == "ZAP" else BE_FREE
        bonus = sum(1 for c in self.hands[caller] if special_kind(c) == bonus_card)

        word = call
        success_lines = [f"{word} on a set +1"]
        if five:
            success_lines.append("five-set +1")
        success_lines += ["Dangerous Mission in the target's hand +2"] * dangerous
        success_lines += [f"{SPECIAL_NAMES[bonus_card]} in the caller's hand +1"] * bonus
        failure_lines = [f"{word} on a hand without a set +1"]
        failure_lines += ["Dangerous Mission backfires +2"] * dangerous
        success = 1 + int(five) + DANGEROUS_MISSION_BONUS * dangerous + bonus
        failure = 1 + DANGEROUS_MISSION_BONUS * dangerous
        penalty_line = [
            f"{word} on the wrong player: penalty +{WRONG_TARGET_PENALTY}"
            if call == "ZAP"
            else f"TRAP on the player whose signal the caller watches: penalty +{WRONG_TARGET_PENALTY}"
        ]

        cu, tu = self.unit_of(caller), self.unit_of(target)
        has_set = found is not None
        correct = target in (
            [self.watch_seat(caller)]
            if call == "ZAP"
            else [t for t in range(self.players) if t not in (caller, self.watch_seat(caller))]
        )
        if self.team_game:
            case = ("zap_" if call == "ZAP" else "trap_") + ("set" if has_set else "miss")
            if has_set:
                scorers, value, lines = [cu], success, success_lines
            elif call == "ZAP":
                scorers, value, lines = [u for u in range(self.units) if u != cu], failure, failure_lines
            else:
                scorers, value, lines = [tu], failure, failure_lines
        elif call == "ZAP":
            if not correct:
                case, value, lines = "C", WRONG_TARGET_PENALTY, penalty_line
                scorers = [u for u in range(self.units) if u != cu]
            elif has_set:
                case, scorers, value, lines = "A", [cu, tu], success, success_lines
            else:
                case, value, lines = "B", failure, failure_lines
                scorers = [u for u in range(self.units) if u not in (cu, tu)]
        elif not correct:
            case, value, lines = "F", WRONG_TARGET_PENALTY, penalty_line
            scorers = [u for u in range(self.units) if u != cu]
        elif has_set:
            case, scorers, value, lines = "D", [cu], success, success_lines
        else:
            case, scorers, value, lines = "E", [tu], failure, failure_lines

        points = [value if u in scorers else 0 for u in range(self.units)]
        self.scores = [a + b for a, b in zip(self.scores, points, strict=True)]
        team_win = case == "A" and max(self.scores[cu], self.scores[tu]) >= self.options.target
        self.call = {
            "caller": caller,
            "target": target,
            "call": call,
            "case": case,
            "correct_target": correct or self.team_game,
            "hand": hand,
            "set": found,
            "lines": lines,
            "value": value,
            "scorers": scorers,
            "points": points,
            "team_win": team_win,
        }
        if found is None:
            shows = "no set"
        else:
            count = "five" if found["count"] >= FIVE_SET else "four"
            if found["count"] > FIVE_SET:
                count = str(found["count"])
            shows = f"a set of {count} {species_name(found['species'], self.options.preset, plural=True)}"
        each = " each" if len(scorers) > 1 else ""
        text = (
            f"called {call} on {self._whom(caller, target)}, who shows "
            + "; ".join(self.name(c) for c in hand)
            + f": {shows}. "
            + "; ".join(lines)
            + f" = {plural(value, 'point')}{each} to {self._units_text(scorers)}."
        )
        events = [Event("call", text, caller, dict(self.call))]
        events.append(
            Event(
                "round_over",
                f"Round {self.round} is over. Scores: " + self._scores_text() + ".",
                None,
                {"round": self.round, "points": points, "scores": list(self.scores)},
            )
        )
        self.phase = "between"
        self._check_win(team_win, [caller, target], events)
        return events

    def _whom(self, caller: int, target: int) -> str:
        if target == self.partner(caller):
            return "their partner"
        if not self.team_game and target == self.right(caller):
            return "the player on their right"
        if not self.team_game and target == self.left(caller):
            return "the player on their left"
        return f"seat {target + 1}"

    def _units_text(self, units: list[int]) -> str:
        if self.team_game:
            names = ["the team of seats " + " and ".join(str(s + 1) for s in self.seats_of(u)) for u in units]
        else:
            names = [f"seat {u + 1}" for u in units]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def _scores_text(self) -> str:
        if self.team_game:
            return ", ".join(
                "seats " + " & ".join(str(s + 1) for s in self.seats_of(u)) + f": {score}"
                for u, score in enumerate(self.scores)
            )
        return ", ".join(f"seat {u + 1}: {score}" for u, score in enumerate(self.scores))

    def _check_win(self, team_win: bool, pair: list[int], events: list[Event]) -> None:
        if team_win:
            self.winners = sorted(pair)
            self.team_win = True
        else:
            reached = [u for u, s in enumerate(self.scores) if s >= self.options.target]
            if not reached:
                return
            top = max(self.scores[u] for u in reached)
            self.winners = [s for s in range(self.players) if self.scores[self.unit_of(s)] == top]
        self.phase = "over"
        result = self.result()
        assert result is not None
        events.append(
            Event(
                "game_over",
                f"The game is over. {result.summary} The secret signals are revealed.",
                None,
                {
                    "winners": list(self.winners),
                    "scores": list(self.scores),
                    "team_win": self.team_win,
                    "signals": [dict(h, signals=list(h["signals"])) for h in self.signal_history],
                },
            )
        )

    # -- what players see ---------------------------------------------------------------------

    def view(self, seat: int | None) -> JSON:
        data: JSON = {
            "game": ZapOrTrap.key,
            "seat": seat,
            "players": self.players,
            "preset": self.options.preset,
            "species": self.options.species,
            "hand_size": self.options.hand_size,
            "target": self.options.target,
            "team_game": self.team_game,
            "team_of": [self.unit_of(s) for s in range(self.players)],
            "units": self.units,
            "scores": list(self.scores),
            "phase": self.phase,
            "round": self.round,
            "dealer": self.dealer,
            "signals_ready": [c is not None for c in self.choices],
            "table": list(self.table),
            "deck_count": len(self.deck),
            "discard_count": len(self.discards),
            "cleared": list(self.cleared),
            "hand_counts": [len(h) for h in self.hands],
            "seq": self.seq,
            "gestures": [dict(g) for g in self.gestures[-RECENT:]],
            "swaps": [dict(s) for s in self.swaps[-RECENT:]],
            "deals": list(self.deals),
            "palette": dict(GESTURES),
            "call": None if self.call is None else _copy_call(self.call),
            "void": self.void,
            "winners": list(self.winners),
            "team_win": self.team_win,
        }
        if self.phase == "over":
            data["signal_history"] = [dict(h, signals=list(h["signals"])) for h in self.signal_history]
        if seat is not None:
            unit = self.unit_of(seat)
            watched = self.watch_seat(seat)
            data["hand"] = sort_hand(self.hands[seat])
            data["best_set"] = self.set_of(self.hands[seat])
            data["unit"] = unit
            data["partner"] = self.partner(seat)
            data["my_signal"] = self.choices[unit]
            data["last_signal"] = self.last_signals[unit]
            data["watch_seat"] = watched
            data["watch_signal"] = self.choices[self.unit_of(watched)]
            data["signal_to"] = self.signal_to(seat)
            data["can_deal"] = self.phase == "play" and seat == self.dealer
        return data

    def quiet_actions(self) -> list[QuietAction]:
        if self.phase == "signals":
            return [QuietAction("signals", "signals")]
        if self.phase == "play":
            return [QuietAction("lull" if self.options.lull == "auto" else "lull_fallback", "deal")]
        if self.phase == "between":
            return [QuietAction("next_round", "next")]
        return []

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        scores = [self.scores[self.unit_of(s)] for s in range(self.players)]
        placements = []
        for seat in range(self.players):
            if seat in self.winners:
                place = 1
            elif self.team_win:
                others = [s for s in range(self.players) if s not in self.winners]
                place = 1 + len(self.winners) + sum(1 for o in others if scores[o] > scores[seat])
            else:
                # Partners share one score, so places count sides, not seats.
                place = 1 + sum(1 for score in self.scores if score > scores[seat])
            placements.append(Placement(seat, place, scores[seat]))
        top = scores[self.winners[0]]
        # Sides as "seat N" / "seats N and M" (a team), which every renderer turns into names.
        if self.team_win:
            pair = sorted(self.winners, key=lambda s: -scores[s])
            high, low = scores[pair[0]], scores[pair[1]]
            summary = (
                f"A successful ZAP wins it for seat {pair[0] + 1} and seat {pair[1] + 1} together "
                f"({high} and {plural(low, 'point')})."
            )
        else:
            units = sorted({self.unit_of(s) for s in self.winners})
            sides = [self._side_text(u) for u in units]
            verb = "share the win" if len(sides) > 1 else ("win" if self.team_game else "wins")
            each = "" if len(sides) == 1 else " each"
            names = sides[0] if len(sides) == 1 else ", ".join(sides[:-1]) + " and " + sides[-1]
            summary = f"{names[:1].upper()}{names[1:]} {verb} with {plural(top, 'point')}{each}."
        return Result(tuple(placements), summary)

    def _side_text(self, unit: int) -> str:
        seats = self.seats_of(unit)
        if len(seats) == 1:
            return f"seat {seats[0] + 1}"
        return "seats " + " and ".join(str(s + 1) for s in seats)

    def describe(self, action: Action) -> str:
        try:
            kind, arg = parse_action(action)
        except IllegalAction:
            return action
        if kind == "swap":
            give, take = arg.split("-")
            return f"swap your {self.name(give)} for the {self.name(take)}"
        if kind == "gesture":
            return f"make {GESTURES[arg]}"
        if kind == "signal":
            return f"choose {GESTURES[arg]} as your secret signal"
        if kind in ("ZAP", "TRAP"):
            return f"call {kind} on seat {int(arg) + 1}"
        return {
            "deal": "clear the table and deal four new cards",
            "next": "start the next round",
            "signals": "close the signal choice",
        }[kind]

    # -- persistence --------------------------------------------------------------------------

    def to_json(self) -> JSON:
        return {
            "game": ZapOrTrap.key,
            "version": 1,
            "players": self.players,
            "options": ZapOrTrap().options_to_json(self.options),
            "seed": self.seed,
            "round": self.round,
            "phase": self.phase,
            "dealer": self.dealer,
            "hands": [list(h) for h in self.hands],
            "table": list(self.table),
            "deck": list(self.deck),
            "discards": list(self.discards),
            "cleared": list(self.cleared),
            "shown": list(self.shown),
            "seq": self.seq,
            "lulls": self.lulls,
            "gestures": [dict(g) for g in self.gestures],
            "swaps": [dict(s) for s in self.swaps],
            "deals": list(self.deals),
            "choices": list(self.choices),
            "last_signals": list(self.last_signals),
            "signal_history": [dict(h, signals=list(h["signals"])) for h in self.signal_history],
            "scores": list(self.scores),
            "call": None if self.call is None else _copy_call(self.call),
            "void": self.void,
            "winners": list(self.winners),
            "team_win": self.team_win,
            "pending_deal": self.pending_deal,
            "opening_events": [e.to_json() for e in self.opening_events],
        }

    @classmethod
    def from_json(cls, data: JSON) -> ZapTrapState:
        if data.get("game") != ZapOrTrap.key:
            raise ValueError(f"Not a Zap or Trap state: game is {data.get('game')!r}.")
        state = cls(data["players"], ZapOrTrap().parse_options(data["options"]), data["seed"])
        state.round = data["round"]
        state.phase = data["phase"]
        state.dealer = data["dealer"]
        state.hands = [list(h) for h in data["hands"]]
        state.table = list(data["table"])
        state.deck = list(data["deck"])
        state.discards = list(data["discards"])
        state.cleared = list(data["cleared"])
        state.shown = list(data["shown"])
        state.seq = data["seq"]
        state.lulls = data["lulls"]
        state.gestures = [dict(g) for g in data["gestures"]]
        state.swaps = [dict(s) for s in data["swaps"]]
        state.deals = list(data["deals"])
        state.choices = list(data["choices"])
        state.last_signals = list(data["last_signals"])
        state.signal_history = [dict(h, signals=list(h["signals"])) for h in data["signal_history"]]
        state.scores = list(data["scores"])
        state.call = None if data["call"] is None else _copy_call(data["call"])
        state.void = data["void"]
        state.winners = list(data["winners"])
        state.team_win = data["team_win"]
        state.pending_deal = data["pending_deal"]
        state.opening_events = [Event.from_json(e) for e in data.get("opening_events", [])]
        return state


def _copy_call(call: JSON) -> JSON:
    copied = dict(call)
    for key in ("hand", "lines", "scorers", "points"):
        copied[key] = list(call[key])
    if call["set"] is not None:
        copied["set"] = dict(call["set"], cards=list(call["set"]["cards"]))
    return copied


def parse_action(action: Action) -> tuple[str, str]:
    """ "S3a-7c" -> ("swap", "3a-7c"); "ZAP-2" -> ("ZAP", "2"); "gesture-wink" -> ("gesture", "wink");
    "signal-wink" -> ("signal", "wink"); "deal", "next", "signals" -> (that, "")."""
    if action in ("deal", "next", "signals"):
        return action, ""
    head, dash, rest = action.partition("-")
    if dash and head in ("gesture", "signal"):
        if rest not in GESTURES:
            raise IllegalAction(f"'{rest}' is not one of the gestures: choose from {', '.join(GESTURES)}.")
        return head, rest
    if dash and head in ("ZAP", "TRAP"):
        if not rest.isdigit() or len(rest) > 2:
            raise IllegalAction(f"Write a call as '{head}-' and a seat number, such as '{head}-2'.")
        return head, rest
    if dash and head.startswith("S") and len(head) > 1 and is_card_code(head[1:]) and is_card_code(rest):
        return "swap", f"{head[1:]}-{rest}"
    raise IllegalAction(
        f"'{action}' is not a Zap or Trap action: swap with 'S3a-7c', gesture with 'gesture-wink', "
        "or call with 'ZAP-2' or 'TRAP-2'."
    )


def is_card_code(code: str) -> bool:
    return bool(SINGLE_RE.match(code) or DOUBLE_RE.match(code) or SPECIAL_RE.match(code))


# ---------------------------------------------------------------------------------------------
# The game


class ZapOrTrap(Game[ZapTrapState]):
    key: ClassVar[str] = "zaptrap"
    title: ClassVar[str] = "Zap or Trap"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    timers: ClassVar[dict[str, dict[str, float | None]]] = {
        "off": {"signals": 180.0, "lull": 60.0, "lull_fallback": 120.0, "next_round": 60.0},
        "relaxed": {"signals": 45.0, "lull": 10.0, "lull_fallback": 60.0, "next_round": 10.0},
        "fast": {"signals": 25.0, "lull": 6.0, "lull_fallback": 40.0, "next_round": 6.0},
    }
    computer_levels: ClassVar[tuple[str, ...]] = ("casual", "sharp")

    def parse_options(self, data: JSON) -> ZapTrapOptions:
        names = {f.name for f in fields(ZapTrapOptions)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"Unknown Zap or Trap option(s): {', '.join(sorted(unknown))}.")
        return ZapTrapOptions(**{k: v for k, v in data.items() if k in names})

    def options_to_json(self, options: Any) -> JSON:
        if options is None:
            options = ZapTrapOptions()
        elif isinstance(options, dict):
            options = self.parse_options(options)
        return {f.name: getattr(options, f.name) for f in fields(ZapTrapOptions)}

    def new_game(
        self, players: int, options: Any = None, seed: int = 0, deal: JSON | None = None
    ) -> ZapTrapState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"Zap or Trap is for {self.min_players} to {self.max_players} players, not {players}."
            )
        if options is None:
            options = ZapTrapOptions()
        elif isinstance(options, dict):
            options = self.parse_options(options)
        deck_size = len(options.deck())
        needed = players * int(options.hand_size) + TABLE_SIZE
        if deck_size < needed:
            raise ValueError(
                f"The deck has {deck_size} cards but {players} hands of {options.hand_size} and the "
                f"table need {needed}."
            )
        state = ZapTrapState(players, options, seed)
        state.dealer = state._rng("first_dealer").randrange(players)
        signals: list[str] | None = None
        if deal is not None:
            signals = validate_deal(state, deal)
            state.pending_deal = {
                "hands": [list(h) for h in deal["hands"]],
                "table": list(deal["table"]),
                "deck": list(deal["deck"]),
            }
            if "dealer" in deal:
                state.dealer = int(deal["dealer"])
        kind = "teams of two, partners opposite" if state.team_game else "everyone for themselves"
        events = [
            Event(
                "game_start",
                f"Zap or Trap for {players}: {kind}; first to {options.target} points wins.",
                None,
                {"team_game": state.team_game, "dealer": state.dealer},
            )
        ]
        events += state._open_signals()
        if signals is not None:
            for unit, gesture in enumerate(signals):
                state.choices[unit] = gesture
            events += state._start_play()
        state.opening_events = events
        return state

    def from_json(self, data: JSON) -> ZapTrapState:
        return ZapTrapState.from_json(data)

    def computer_player(self, level: str, **settings: Any) -> ComputerPlayer:
        # Imported here because the players module builds on this one's card helpers.
        from rules.zaptrap_players import make_player

        return make_player(level, **settings)

    def rules_text(self) -> str:
        return RULES_TEXT

    def house_rulings(self, options: Any) -> list[str]:
        if options is None:
            options = ZapTrapOptions()
        elif isinstance(options, dict):
            options = self.parse_options(options)
        o: ZapTrapOptions = options
        total = len(o.deck())
        if o.preset == "kemps":
            deck = (
                f"Classic Kemps preset: {o.species} ranks × {o.copies} suits, hands of {o.hand_size}, "
                f"{'no double cards' if not o.doubles else plural(o.doubles, 'double card')} and "
                f"{'no special cards' if not o.specials else plural(o.specials, 'special card')} "
                f"({total} cards)."
            )
        else:
            deck = (
                f"The deck: {o.species} alien species × {o.copies} single cards, {o.doubles} double card(s) "
                f"for each neighbouring pair in a ring (1+2 … {o.species}+1) and {o.specials} of each of "
                f"the three special cards: {total} cards; hands of {o.hand_size}."
            )
        if o.lull == "auto":
            lull = (
                "Lull: the dealer may clear the four table cards and deal four more at any time, and the "
                "referee does it after the lull timer (10 s at relaxed speed) passes with no action at the "
                "table (a gesture also restarts the count)."
            )
        else:
            lull = (
                "Lull: only the dealer clears the four table cards and deals four more; the referee steps "
                "in only after a long quiet time, so an absent dealer cannot hang the table."
            )
        wrong = (
            "Individual game: wrong targets (ZAP on anyone but the player on your right, TRAP on the "
            "player on your right) are refused (table option)."
            if o.refuse_wrong_targets
            else "Individual game: wrong targets (ZAP on anyone but the player on your right, TRAP on "
            "the player on your right) are allowed and penalised: every other player gets 2."
        )
        return [
            deck,
            "The seed text mentions four special cards but names three; we use the three it names, and "
            "special cards show no alien.",
            "A double card counts toward either of its species, once; the referee counts your best set "
            "for you.",
            "With more than one copy of a special card at the table, every copy counts.",
            "A hand of five or more matching aliens counts as a five-set (+1).",
            "The first dealer is chosen at random; after every round the deal passes to the left.",
            "A swap is one action (give one card, take one table card); the first swap the referee "
            "receives gets the card and a later swap naming it is refused.",
            lull,
            "When the deck runs out, the cards left are dealt first and then the discards, except the "
            "four just cleared off the table, are shuffled into a new deck; if that still cannot supply "
            "four cards the round is void, nobody scores, and the next dealer deals a new round.",
            "The first call the referee receives ends the round at once: swaps freeze and later calls "
            "are refused.",
            "After a call the target's whole hand is shown to everyone; other hands stay secret.",
            "Team game: ZAP on an opponent and TRAP on your partner are not offered.",
            "Team game: a failed ZAP gives every other team the failure value.",
            "Team game: if several teams reach the target together, the higher total wins and equal "
            "totals share the win.",
            "Individual game: a correct ZAP on a hand without a set gives every player except the caller "
            "and the target the failure value; a correct TRAP on a hand without a set gives the target "
            "alone the failure value.",
            wrong,
            "Wrong-target penalties are a flat 2 points: sets and special cards don't matter.",
            "Erratum: a TRAP on a five-set while holding Be Free!! Be Free!! is worth 3 points "
            "(1 + 1 + 1), as the rule says, not the 2 of the seed's worked example.",
            f"The game is played to {o.target} points (table option).",
            f"Secret signals: a palette of {len(GESTURES)} gestures; before each round every team (or "
            "player) privately picks its real signal, and may change it every round.",
            "In the individual game your chosen signal is shown only to the player on your left, who "
            "watches for it.",
            "If a side has not chosen when the signals timer runs out, it keeps last round's signal "
            "(a random one in the first round).",
            "Gestures are public and never checked: the referee never says whether one was a real "
            "signal; all real signals are revealed when the game ends.",
            "Rounds start again after a void round with a fresh choice of signals, like any other round.",
            "With table timers off the signal choice still closes after 3 minutes, the automatic deal "
            "comes after 60 s of quiet and the next round starts after 60 s, so a table never hangs.",
        ]


def validate_deal(state: ZapTrapState, deal: JSON) -> list[str] | None:
    """Check a fixed first deal; returns its signals (one gesture id per unit) if it gives them."""
    try:
        hands = deal["hands"]
        table = deal["table"]
        deck = deal["deck"]
    except (KeyError, TypeError) as exc:
        raise ValueError("A deal needs 'hands' (one list per seat), 'table' (4 cards) and 'deck'.") from exc
    size = state.options.hand_size
    if len(hands) != state.players:
        raise ValueError(f"The deal has {len(hands)} hands for {state.players} players.")
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            raise ValueError(f"Hand {seat} has {len(hand)} cards; this table deals {size}.")
    if len(table) != TABLE_SIZE:
        raise ValueError(f"The table needs exactly {TABLE_SIZE} cards, not {len(table)}.")
    cards = [c for h in hands for c in h] + list(table) + list(deck)
    expected = state.options.deck()
    missing = [c for c in expected if c not in cards]
    extra = [c for c in cards if c not in expected]
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if missing or extra or twice:
        problems = []
        if missing:
            problems.append(f"missing {', '.join(missing)}")
        if extra:
            problems.append(f"not in this deck {', '.join(extra)}")
        if twice:
            problems.append(f"dealt twice {', '.join(twice)}")
        raise ValueError("The deal must hold every card exactly once: " + "; ".join(problems) + ".")
    if "dealer" in deal:
        dealer = deal["dealer"]
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < state.players:
            raise ValueError(f"The dealer must be a seat from 0 to {state.players - 1}.")
    signals = deal.get("signals")
    if signals is None:
        return None
    if len(signals) != state.units or any(s not in GESTURES for s in signals):
        raise ValueError(
            f"'signals' needs one gesture id per {'team' if state.team_game else 'player'} "
            f"({state.units}), from: {', '.join(GESTURES)}."
        )
    return list(signals)


RULES_TEXT = """\
# Zap or Trap

**Goal:** collect four matching aliens, tell your partner with a secret signal, and get ZAPped home,
or catch your opponents holding a set with a TRAP. First to 7 points wins.

## Teams and signals
With **4 or 6 players** you play in teams of two, partners sitting opposite. With **3 or 5 players**
everyone plays for themselves, and you signal to the player on your **left** (so you watch the player
on your right).

Before each round every team (or player) privately picks its **secret signal** from the gesture
palette (🤔 😉 🥱 🤫 😏 😎 🙄 🤧). During the round anyone may make any gesture at any time, and everyone
sees it. Only your partner (or your left neighbour) knows which one is real. Bluffing is allowed!

## The cards
Ten alien species, four cards each, plus ten **double** cards (1+2, 2+3, … 10+1) that count toward
either of their two species, and three special cards:
- **Zip Zap, Don't Come Back**: +1 if you hold it when your ZAP succeeds.
- **Be Free!! Be Free!!**: +1 if you hold it when your TRAP succeeds.
- **Dangerous Mission**: +2 to whoever scores a call on the hand holding it, even when the call fails.

## A round
Everyone gets 5 cards and 4 go face up on the table. There are **no turns**: at any time you may swap
one card from your hand with one on the table. The first swap the referee receives wins the card.
When the table goes quiet the dealer clears the four cards and deals four more (the referee does it
for them after a short lull).

A **set** is four cards showing the same alien (five: a five-set, worth a bonus point).

## Calls
- **ZAP** your partner (or, alone, the player on your right) when you see their real signal.
- **TRAP** an opponent you think holds a set.

The first call ends the round at once and the target shows their hand.
- Success: 1 point, +1 for a five-set, +2 for Dangerous Mission in the target's hand, +1 for your
  Zip Zap (on a ZAP) or Be Free (on a TRAP).
- Failure: 1 point (+2 with Dangerous Mission) to the other side: on a failed ZAP every other team,
  on a failed TRAP the target's team.

**3 or 5 players:** a correct ZAP on a set scores for both you and the target; a ZAP without a set
scores for everyone else; a TRAP on a set scores for you alone, a failed one for the target alone.
Calling ZAP on anyone but the player on your right, or TRAP on the player on your right, gives every
other player 2 points. If a successful ZAP takes you or your partner-of-the-moment to 7, you both win
together at once.

## Winning
At the end of a round, whoever has 7 or more wins; if several do, the highest total wins, and equal
totals share. All secret signals are revealed when the game ends.

*Classic Kemps* (a table option): a standard 52-card deck, hands of 4, four of a kind.
"""
