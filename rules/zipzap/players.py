"""Computer players for Zip Zap. They see only their own view and legal actions, like a person would."""

from __future__ import annotations

import random
from typing import Any

from rules.base import Action
from rules.zipzap.cards import MAX_NUMBER, WILD, follows, is_zap, number_of, parse_play, suit_of
from rules.zipzap.views import ZipZapView


def _is_lead(view: ZipZapView) -> bool:
    return view.get("control") is not None and view.get("control") == view.get("seat")


def chain_length(card: str, hand: list[str]) -> int:
    """How many cards of ``hand`` this player could put down in a row starting with ``card``,
    if nobody else got in between: a measure of how well a card keeps the run in their hands."""
    rest = [c for c in hand if c != card and not is_zap(c)]
    length, top = 1, card
    while True:
        nxt = [c for c in rest if follows(c, top)]
        if not nxt:
            return length
        # Solid successors keep the wild cards (worth more points and more flexible) for later.
        top = min(nxt, key=lambda c: suit_of(c) == WILD)
        rest.remove(top)
        length += 1


def _reaches_ten(card: str, hand: list[str]) -> bool:
    return number_of(card) + chain_length(card, hand) - 1 >= MAX_NUMBER


class ZipZapPlayer:
    """Shared timing; subclasses decide what to play."""

    level = "base"
    reaction = (1.0, 2.0)  # seconds to follow; leading takes a little longer

    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("A computer player's speed multiplier must be positive.")
        self.speed = speed

    def choose(self, view: ZipZapView, legal: list[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        if "deal" in legal:
            return "deal"
        hand: list[str] = view.get("hand", [])
        for action in legal:
            if self._goes_out(action, hand):
                return action
        return self.decide(view, legal, hand, rng)

    @staticmethod
    def _goes_out(action: Action, hand: list[str]) -> bool:
        if action == "Z":
            return len(hand) == 1
        card, zap = parse_play(action)
        return len(hand) == (2 if zap else 1) and card is not None

    def decide(
        self, view: ZipZapView, legal: list[Action], hand: list[str], rng: random.Random
    ) -> Action | None:
        return legal[0]

    def reaction_time(self, view: ZipZapView, action: Action, rng: random.Random) -> float:
        low, high = self.reaction
        seconds = rng.uniform(low, high)
        if action == "deal":
            seconds += 1.5
        elif _is_lead(view):
            seconds *= 1.4  # choosing what to lead is a real decision; following is a reflex
        if "+Z" in action or action == "Z":
            seconds += 0.2
        return seconds * self.speed


class CasualPlayer(ZipZapPlayer):
    """Plays whatever fits, leads at random, Zaps now and then."""

    level = "casual"
    reaction = (1.5, 3.5)

    def decide(
        self, view: ZipZapView, legal: list[Action], hand: list[str], rng: random.Random
    ) -> Action | None:
        singles = [a for a in legal if "+" not in a and a != "Z"]
        combos = [a for a in legal if a.endswith("+Z")]
        if combos and rng.random() < 0.05:
            return rng.choice(combos)
        if singles:
            return rng.choice(singles)
        if "Z" in legal and rng.random() < 0.3:
            return "Z"
        return None


class SharpPlayer(ZipZapPlayer):
    """Keeps control where it can, spends the Zap when it matters, never wastes it."""

    level = "sharp"
    reaction = (0.8, 1.8)

    def decide(
        self, view: ZipZapView, legal: list[Action], hand: list[str], rng: random.Random
    ) -> Action | None:
        singles = [a for a in legal if "+" not in a and a != "Z"]
        combos = {parse_play(a)[0]: a for a in legal if a.endswith("+Z")}
        late = len(hand) <= 4
        if _is_lead(view):
            card = self._best_lead(singles, hand)
            if card is None:
                return None
            # Late in the round a lead with nothing behind it is worth backing with the Zap.
            if late and card in combos and chain_length(card, hand) == 1 and number_of(card) != MAX_NUMBER:
                return combos[card]
            return card
        if singles:
            card = max(singles, key=lambda c: self._follow_score(c, hand))
            if card in combos and late and chain_length(card, hand) == 1 and number_of(card) != MAX_NUMBER:
                return combos[card]
            return card
        if "Z" in legal:
            # Our card is on top and we cannot go on: Zap to keep control if the round is late or
            # if we hold a run worth leading.
            leads = [c for c in hand if not is_zap(c)]
            best_chain = max((chain_length(c, hand) for c in leads), default=0)
            if late or best_chain >= 3:
                return "Z"
        return None

    @staticmethod
    def _follow_score(card: str, hand: list[str]) -> tuple[int, int, int]:
        return (
            int(number_of(card) == MAX_NUMBER or _reaches_ten(card, hand)),
            chain_length(card, hand),
            int(suit_of(card) == WILD),
        )

    @staticmethod
    def _best_lead(cards: list[str], hand: list[str]) -> str | None:
        if not cards:
            return None

        def score(card: str) -> tuple[int, int, int, int]:
            return (
                int(_reaches_ten(card, hand)),
                chain_length(card, hand),
                int(suit_of(card) == WILD),
                -number_of(card),
            )

        return max(cards, key=score)


LEVELS: dict[str, type[ZipZapPlayer]] = {"casual": CasualPlayer, "sharp": SharpPlayer}


def make_player(level: str, **settings: Any) -> ZipZapPlayer:
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(
            f"Unknown Zip Zap computer level {level!r}: choose from {', '.join(LEVELS)}."
        ) from None
    return cls(**settings)
