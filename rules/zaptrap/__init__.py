"""Zap or Trap: a team card game of secret signals, a themed Kemps (RULINGS.md §1).

The package, part by part:
- ``cards.py``    the cards: codes, names, the deck's pieces, the set a hand counts; the gestures
- ``options.py``  the table options (deck preset and sizes, lull handling, wrong targets, target)
- ``actions.py``  the action notation ("S3a-7c", "gesture-wink", "ZAP-2", …) and how it is read
- ``scoring.py``  what a ZAP or TRAP scores and who gets it; the final places
- ``state.py``    the rules: one game in progress, its rounds, deals, swaps, calls, view and JSON
- ``views.py``    what a seat may see: ``view(seat)`` as TypedDicts
- ``players.py``  the computer players, deciding from their view only
- ``FORMATS.md``  the options, actions and a scenario's fixed ``deal`` as files write them
This module is the game's entry in the registry (``ZapOrTrap``): new games (with a scenario's
deal checked here), loading, computer players, the rules text and the house rulings.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules.base import JSON, ComputerPlayer, Game
from rules.words import plural
from rules.zaptrap.actions import parse_action
from rules.zaptrap.cards import (
    GESTURES,
    TABLE_SIZE,
    best_set,
    card_name,
    is_card_code,
    sort_hand,
    species_name,
    species_shown,
)
from rules.zaptrap.options import ZapTrapOptions, options_to_json, parse_options
from rules.zaptrap.players import make_player
from rules.zaptrap.state import KEY, ZapTrapState
from rules.zaptrap.views import ZapTrapView

# What other code imports from ``rules.zaptrap``; each part's own module has the rest.
__all__ = [
    "GESTURES",
    "ZapOrTrap",
    "ZapTrapOptions",
    "ZapTrapState",
    "ZapTrapView",
    "best_set",
    "card_name",
    "is_card_code",
    "parse_action",
    "sort_hand",
    "species_name",
    "species_shown",
]


class ZapOrTrap(Game[ZapTrapState]):
    key: ClassVar[str] = KEY
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
        return parse_options(data)

    def options_to_json(self, options: Any) -> JSON:
        if options is None:
            options = ZapTrapOptions()
        elif isinstance(options, dict):
            options = self.parse_options(options)
        return options_to_json(options)

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
        signals = validate_deal(state, deal) if deal is not None else None
        state.open_game(deal, signals)
        return state

    def from_json(self, data: JSON) -> ZapTrapState:
        return ZapTrapState.from_json(data)

    def computer_player(self, level: str, **settings: Any) -> ComputerPlayer[ZapTrapView]:
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
