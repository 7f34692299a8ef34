"""Computer players for Spy Trap. They see only their own view and legal actions, like a person would.

Both levels read the same public facts a person at the table has: the home areas (with where each File
came from), the answers to guesses, the pile sizes; and their own secrets: identity, hand, own pile, the
ID cards they received. *Casual* plays by feel: rough bids, mostly random piles, hopeful guesses.
*Sharp* builds piles to hurt the drawer, bids by what it can safely draw, prefers inert and known piles,
and guesses identities from what each spy steals and keeps.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from rules.base import Action
from rules.spytrap.cards import COUNTRIES, FILES_TO_WIN, card_type, country_of
from rules.spytrap.views import (
    ChallengePrompt,
    KeepPrompt,
    OwnGuessPrompt,
    SpyTrapPrompt,
    SpyTrapView,
    StealPrompt,
    SwapPrompt,
)

REACTION: dict[str, dict[str, tuple[float, float]]] = {
    "casual": {"pile": (5.0, 12.0), "bid": (2.0, 5.0), "draw": (2.0, 4.5), "prompt": (2.5, 6.0)},
    "sharp": {"pile": (3.0, 8.0), "bid": (1.5, 3.5), "draw": (1.2, 3.0), "prompt": (1.5, 4.0)},
}


def my_seat(view: SpyTrapView) -> int:
    """The seat this player sits in: a computer player is only ever shown a seat's view."""
    seat = view["seat"]
    assert seat is not None, "a computer player decides from a seat's view, not a spectator's"
    return seat


def tally(view: SpyTrapView, seat: int, country: str, key: Literal["all", "counting"] = "counting") -> int:
    entry = view["tallies"][seat].get(country)
    return 0 if entry is None else int(entry[key])


def candidates(view: SpyTrapView, seat: int) -> list[str]:
    """Countries ``seat`` may still be, from what this viewer knows."""
    ruled_out = {view["identity"]}
    ruled_out |= {g["country"] for g in view["wrong_guesses"] if g["seat"] == seat}
    # An ID card received from a spy put out is now ours or discarded: nobody else holds it.
    ruled_out |= {fact["country"] for fact in view["learned"]}
    left = [c for c in COUNTRIES if c not in ruled_out]
    return left or [c for c in COUNTRIES if c != view["identity"]]


def suspicion(view: SpyTrapView, seat: int, country: str) -> float:
    """How strongly a spy's home area suggests ``country``: stolen Files were chosen, so they say most."""
    score = 0.0
    for entry in view["home"][seat]:
        if entry["country"] != country:
            continue
        score += {"stolen": 3.0, "opponent": 1.0, "own": 1.5}[entry["from"]]
    return score


def best_guess(view: SpyTrapView, seat: int, rng: random.Random) -> tuple[str, float]:
    """The likeliest country for ``seat`` and a rough confidence in it."""
    options = candidates(view, seat)
    scores = {c: suspicion(view, seat, c) + rng.random() * 0.1 for c in options}
    country = max(options, key=lambda c: scores[c])
    total = sum(scores.values()) + 0.5 * len(options)
    return country, (scores[country] + 0.5) / total


class SpyTrapPlayer:
    """Shared dispatch and timing; subclasses decide."""

    level = "base"

    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("A computer player's speed multiplier must be positive.")
        self.speed = speed

    def choose(self, view: SpyTrapView, legal: list[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        prompt = view.get("prompt")
        if view["phase"] == "pile":
            choice = self.build_pile(view, legal, rng)
        elif view["phase"] == "bid":
            choice = self.bid(view, legal, rng)
        elif prompt is not None and prompt["seat"] == view["seat"]:
            choice = self.answer(view, prompt, legal, rng)
        else:
            choice = self.draw(view, legal, rng)
        return choice if choice in legal else rng.choice(legal)

    # -- decisions, overridden by the levels ---------------------------------------------------------

    def build_pile(self, view: SpyTrapView, legal: list[Action], rng: random.Random) -> Action:
        return rng.choice(legal)

    def bid(self, view: SpyTrapView, legal: list[Action], rng: random.Random) -> Action:
        return legal[0]

    def draw(self, view: SpyTrapView, legal: list[Action], rng: random.Random) -> Action:
        return rng.choice(legal)

    def answer(
        self, view: SpyTrapView, prompt: SpyTrapPrompt, legal: list[Action], rng: random.Random
    ) -> Action:
        if prompt["kind"] == "immunity":
            return "immunity" if prompt["guess"] == view["identity"] else "noimmunity"
        if prompt["kind"] == "keep" or prompt["kind"] == "swap":
            return self.keep(view, prompt, rng)
        if prompt["kind"] == "steal":
            return self.steal(view, prompt, rng)
        if prompt["kind"] == "guess":
            country, _ = best_guess(view, prompt["drawer"], rng)
            return f"guess-{country}"
        if prompt["kind"] == "own_guess":
            return self.forced_guess(view, prompt, rng)
        return self.challenge(view, prompt, rng)

    def steal(self, view: SpyTrapView, prompt: StealPrompt, rng: random.Random) -> Action:
        mine = [c for c in prompt["choices"] if country_of(c) == view["identity"]]
        return f"steal-{mine[0]}" if mine else f"steal-{rng.choice(prompt['choices'])}"

    def forced_guess(self, view: SpyTrapView, prompt: OwnGuessPrompt, rng: random.Random) -> Action:
        target = rng.choice(prompt["targets"])
        return f"guess-{target}-{rng.choice(candidates(view, target))}"

    def keep(self, view: SpyTrapView, prompt: KeepPrompt | SwapPrompt, rng: random.Random) -> Action:
        new = view.get("received_id")
        take = new is not None and tally(view, my_seat(view), new) > tally(
            view, my_seat(view), view["identity"]
        )
        if prompt["kind"] == "swap":
            return "swap" if take else "noswap"
        return "keep-new" if take else "keep-own"

    def challenge(self, view: SpyTrapView, prompt: ChallengePrompt, rng: random.Random) -> Action:
        return "nochallenge"

    # -- timing -----------------------------------------------------------------------------------------

    def reaction_time(self, view: SpyTrapView, action: Action, rng: random.Random) -> float:
        timer: str
        if view["phase"] in ("pile", "bid"):
            timer = view["phase"]
        else:
            timer = "prompt" if view.get("prompt") else "draw"
        low, high = REACTION[self.level][timer]
        return rng.uniform(low, high) * self.speed


class CasualPlayer(SpyTrapPlayer):
    """Piles by feel, bids a little, guesses hopefully, rarely dares a challenge."""

    level = "casual"

    def build_pile(self, view: SpyTrapView, legal: list[Action], rng: random.Random) -> Action:
        hand: list[str] = view["hand"]
        size = len(legal[0].split("-")) - 1
        cards = rng.sample(hand, size)
        traps = [c for c in cards if card_type(c) == "trap"]
        if traps and rng.random() < 0.5:
            cards.remove(traps[0])
            cards.insert(0, traps[0])
        return "pile-" + "-".join(cards)

    def bid(self, view: SpyTrapView, legal: list[Action], rng: random.Random) -> Action:
        wanted = rng.randint(1, 3)
        if view["min_bid"] <= wanted and f"bid-{view['min_bid']}" in legal:
            return f"bid-{view['min_bid']}"
        return "pass" if "pass" in legal else legal[0]

    def draw(self, view: SpyTrapView, legal: list[Action], rng: random.Random) -> Action:
        own = f"draw-{view['seat']}"
        pile = view["my_pile"]
        if own in legal and len(legal) > 1 and pile and card_type(pile[0]) == "trap":
            return rng.choice([a for a in legal if a != own])
        return rng.choice(legal)

    def steal(self, view: SpyTrapView, prompt: StealPrompt, rng: random.Random) -> Action:
        mine = [c for c in prompt["choices"] if country_of(c) == view["identity"]]
        if mine:
            return f"steal-{mine[0]}"
        return f"steal-{rng.choice(prompt['choices'])}" if rng.random() < 0.6 else "nosteal"

    def answer(
        self, view: SpyTrapView, prompt: SpyTrapPrompt, legal: list[Action], rng: random.Random
    ) -> Action:
        if prompt["kind"] == "guess":
            return f"guess-{rng.choice(candidates(view, prompt['drawer']))}"
        if prompt["kind"] == "immunity" and prompt["guess"] != view["identity"] and rng.random() < 0.15:
            return "immunity"  # a nervous spy plays it anyway now and then
        return super().answer(view, prompt, legal, rng)

    def challenge(self, view: SpyTrapView, prompt: ChallengePrompt, rng: random.Random) -> Action:
        options = candidates(view, prompt["drawer"])
        if prompt["country"] in options and (len(options) == 1 or rng.random() < 0.2):
            return f"challenge-{prompt['country']}"
        return "nochallenge"


class SharpPlayer(SpyTrapPlayer):
    """Traps on top, bids what it can draw safely, reads home areas, challenges only when sure enough."""

    level = "sharp"

    def build_pile(self, view: SpyTrapView, legal: list[Action], rng: random.Random) -> Action:
        hand: list[str] = view["hand"]
        size = len(legal[0].split("-")) - 1
        me = view["identity"]
        # A country an opponent is close to completing is not worth handing over.
        danger = {
            country
            for seat, active in enumerate(view["active"])
            if active and seat != view["seat"]
            for country in COUNTRIES
            if tally(view, seat, country) >= FILES_TO_WIN - 1
        }

        def score(card: str) -> float:
            kind = card_type(card)
            if kind == "trap":
                return 4.0
            if kind == "agent":
                return 3.0
            country = country_of(card)
            # Files of our own country help only if we draw them back ourselves (a challenge).
            if country == me:
                return 1.5 if tally(view, my_seat(view), me, "all") >= 2 else 0.5
            return -1.0 if country in danger else 1.0

        ranked = sorted(hand, key=lambda c: (score(c), rng.random()), reverse=True)[:size]
        # Traps and agents on top catch the drawer's first pick; a trap first of all.
        ranked.sort(key=lambda c: {"trap": 0, "agent": 1, "file": 2}[card_type(c)])
        return "pile-" + "-".join(ranked)

    def bid(self, view: SpyTrapView, legal: list[Action], rng: random.Random) -> Action:
        seat = my_seat(view)
        me = view["identity"]
        pile: list[str] = view["my_pile"]
        safe = 0
        for card in pile:
            if card_type(card) == "trap":
                break
            safe += 1
        near = tally(view, seat, me)
        wanted = max(safe, 1) + (1 if near >= 2 else 0) + (1 if view["immunity"][seat] and near >= 1 else 0)
        if view["min_bid"] <= wanted and f"bid-{view['min_bid']}" in legal:
            return f"bid-{view['min_bid']}"
        return "pass" if "pass" in legal else legal[0]

    def draw(self, view: SpyTrapView, legal: list[Action], rng: random.Random) -> Action:
        seat = my_seat(view)
        inert = [a for a in legal if not view["active"][int(a.split("-")[1])]]
        if inert:
            return inert[0]
        own = f"draw-{seat}"
        pile: list[str] = view["my_pile"]
        if own in legal and pile and card_type(pile[0]) != "trap":
            return own
        others = [a for a in legal if a != own]
        if not others:
            return own

        # Nothing is known of other piles' tops; a pile that has shrunk was drawn from this round,
        # so its next card is more likely to have been put there to be reached, not to trap.
        deepest = max(view["pile_sizes"][int(a.split("-")[1])] for a in others)
        fresh = [a for a in others if view["pile_sizes"][int(a.split("-")[1])] < deepest]
        return rng.choice(fresh or others)

    def steal(self, view: SpyTrapView, prompt: StealPrompt, rng: random.Random) -> Action:
        choices: list[str] = prompt["choices"]
        mine = [c for c in choices if country_of(c) == view["identity"]]
        if mine:
            return f"steal-{mine[0]}"
        suspect, _ = best_guess(view, prompt["drawer"], rng)
        denied = [c for c in choices if country_of(c) == suspect]
        return f"steal-{(denied or choices)[0]}"

    def forced_guess(self, view: SpyTrapView, prompt: OwnGuessPrompt, rng: random.Random) -> Action:
        best: tuple[float, int, str] | None = None
        for target in prompt["targets"]:
            country, confidence = best_guess(view, target, rng)
            if best is None or confidence > best[0]:
                best = (confidence, target, country)
        assert best is not None
        return f"guess-{best[1]}-{best[2]}"

    def keep(self, view: SpyTrapView, prompt: KeepPrompt | SwapPrompt, rng: random.Random) -> Action:
        seat = my_seat(view)
        new = view.get("received_id")
        own = view["identity"]
        take = False
        if new is not None:
            own_key = (tally(view, seat, own), tally(view, seat, own, "all"))
            new_key = (tally(view, seat, new), tally(view, seat, new, "all"))
            if prompt["kind"] == "swap":
                # The challenge is won on every File of the identity held when it ends.
                own_key = (tally(view, seat, own, "all"), own_key[0])
                new_key = (tally(view, seat, new, "all"), new_key[0])
            take = new_key > own_key
        if prompt["kind"] == "swap":
            return "swap" if take else "noswap"
        return "keep-new" if take else "keep-own"

    def challenge(self, view: SpyTrapView, prompt: ChallengePrompt, rng: random.Random) -> Action:
        drawer = prompt["drawer"]
        options = candidates(view, drawer)
        if len(options) == 1:
            return f"challenge-{options[0]}"
        country = prompt["country"]
        if country in options and len(options) <= 2:
            return f"challenge-{country}"
        return "nochallenge"


LEVELS: dict[str, type[SpyTrapPlayer]] = {"casual": CasualPlayer, "sharp": SharpPlayer}


def make_player(level: str, **settings: Any) -> SpyTrapPlayer:
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(
            f"Unknown Spy Trap computer level {level!r}: choose from {', '.join(LEVELS)}."
        ) from None
    return cls(**settings)
