"""Computer players for GiftTRAP. They see only their own view and legal actions, like a person would.

Each computer player has a taste: weights over the gift tags drawn from its persona (the table passes
the computer seat's name), so the same name always loves and hates the same kinds of gifts and people
can learn it. Both levels rank gifts purely by that taste (the thoughtful one parks NO WAY on a
GiftTRAPped gift when there is one, since it costs nothing there).

- casual: gives each player, in seat order, the gift that looks most like what that player ranked
  GREAT or GOOD before (its own taste when it knows nothing), with a little whim; plays Give More and
  Get More on a whim; uses GiftTRAP only now and then to dodge its own gift's NO WAY.
- thoughtful: learns every player's taste from the public history (all four tokens of every earlier
  round), predicts how each player will rank the layout, and shares the gifts out to maximise the
  expected points; backs its surest gift with Give More and the most reliable giver with Get More;
  keeps GiftTRAP for a gift of its own about to be unwrapped onto a NO WAY, or to stop a player about to
  win.

Every decision is a function of the view (plus the persona), so asking again after someone else's
click gives the same plan: a computer player never dithers.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from functools import lru_cache
from typing import Any

from rules.base import Action
from rules.gifttrap.tokens import NO_MATCH, TOKEN_POINTS, TOKENS
from rules.gifttrap.views import GiftTrapView, LaidOutGift, TokenPlaces

RECENT_ROUNDS = 8  # how far back a computer player remembers tastes
UNRANKED = -0.5  # what an untokened gift in an earlier round says about a taste: a mild no


@lru_cache(maxsize=4096)
def taste_weight(persona: str, tag: str) -> float:
    return random.Random(f"gifttrap-taste:{persona}:{tag}").gauss(0.0, 1.0)


def taste(persona: str, gift: LaidOutGift) -> float:
    """How much this persona likes a gift: its tags' weights plus a small fondness for the gift itself."""
    tags = gift["tags"]
    score = sum(taste_weight(persona, t) for t in tags) / math.sqrt(max(1, len(tags)))
    return score + fondness(persona, gift["gift"])


@lru_cache(maxsize=8192)
def fondness(persona: str, gift_id: str) -> float:
    return random.Random(f"gifttrap-taste:{persona}:gift:{gift_id}").uniform(-0.4, 0.4)


def rank_by_taste(
    persona: str, layout: list[LaidOutGift], trapped: set[int], park_noway: bool
) -> TokenPlaces:
    order = sorted(layout, key=lambda g: (-taste(persona, g), g["space"]))
    spaces = [g["space"] for g in order]
    if park_noway and trapped:
        # Nobody scores from a GiftTRAPped gift, so NO WAY there costs nothing; the +tokens avoid them.
        noway = next(s for s in reversed(spaces) if s in trapped)
        best = [s for s in spaces if s not in trapped][:3]
        if len(best) == 3:
            return dict(zip(TOKENS, [*best, noway], strict=True))
    return dict(zip(TOKENS, [*spaces[:3], spaces[-1]], strict=True))


def learned_tastes(view: GiftTrapView, seat: int, everything: bool) -> tuple[dict[str, float], int]:
    """Per-tag average of what ``seat`` scored gifts with those tags in earlier rounds, and how many
    rounds that rests on. ``everything`` False keeps only the GREAT, GOOD and NO WAY tokens."""
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    rounds = 0
    for past in view.get("history", [])[-RECENT_ROUNDS:]:
        ranks = past["rankings"][seat] if seat < len(past["rankings"]) else None
        if not ranks:
            continue
        rounds += 1
        by_space = {space: token for token, space in ranks.items()}
        for gift in past["layout"]:
            token = by_space.get(gift["space"])
            if token is None:
                if not everything:
                    continue
                value = UNRANKED
            elif token == "ok" and not everything:
                continue
            else:
                value = float(TOKEN_POINTS[token])
            for tag in gift["tags"]:
                sums[tag] = sums.get(tag, 0.0) + value
                counts[tag] = counts.get(tag, 0) + 1
    return {t: sums[t] / counts[t] for t in sums}, rounds


def predicted(learned: dict[str, float], gift: LaidOutGift) -> float:
    tags = gift["tags"]
    return sum(learned.get(t, 0.0) for t in tags) / max(1, len(tags))


def expected_points(scores: dict[int, float], trapped: set[int]) -> dict[int, float]:
    """Turn predicted liking into the token each gift would likely get: top three +3 +2 +1, the least
    liked −4, the rest NO MATCH; a GiftTRAPped gift scores nothing."""
    order = sorted(scores, key=lambda s: (-scores[s], s))
    values = {s: float(NO_MATCH) for s in order}
    for token, space in zip(TOKENS[:3], order[:3], strict=False):
        values[space] = float(TOKEN_POINTS[token])
    values[order[-1]] = float(TOKEN_POINTS["noway"])
    for space in trapped:
        values[space] = 0.0
    return values


class Plan:
    """What a computer player wants its choices to be this round."""

    def __init__(self) -> None:
        self.gives: dict[int, int] = {}
        self.give_more: int | None = None
        self.ranks: TokenPlaces = {}
        self.get_more: int | None = None


class GiftTrapPlayer(ABC):
    level = "base"
    click = (1.2, 3.0)  # seconds per choice once the player has looked the gifts over

    def __init__(self, speed: float = 1.0, persona: str = "") -> None:
        if speed <= 0:
            raise ValueError("A computer player's speed multiplier must be positive.")
        self.speed = speed
        self.persona = persona

    def whim(self, view: GiftTrapView, label: str) -> random.Random:
        """A per-round random source fixed by the view, so a whim does not change between looks."""
        return random.Random(
            f"gifttrap-bot:{self.level}:{self.persona}:{view['seat']}:{view['round']}:{label}"
        )

    def who(self, view: GiftTrapView) -> str:
        """The persona whose taste this player has; without a name, the seat stands in for one."""
        return self.persona or f"seat {_seat(view) + 1}"

    # -- deciding -----------------------------------------------------------------------------

    def choose(self, view: GiftTrapView, legal: list[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        phase = view.get("phase")
        if phase == "pack":
            choice = f"pack-{self.whim(view, 'pack').randint(1, 4)}"
            return choice if choice in legal else legal[0]
        trap = self.gifttrap(view, legal)
        if trap is not None:
            return trap
        if phase == "choosing" and not view["my"]["ready"]:
            return self.next_step(view, self.plan(view), legal)
        return None  # the reveal and the next round come on the table's own timers

    def next_step(self, view: GiftTrapView, plan: Plan, legal: list[Action]) -> Action | None:
        my = view["my"]
        gives: list[int | None] = my["gives"]
        for receiver, space in sorted(plan.gives.items()):
            if gives[receiver] == space:
                continue
            if space in gives:
                # The gift is still with another receiver: move that one first, to a gift nobody gets.
                holder = gives.index(space)
                spare = next(n for n in range(1, len(view["layout"]) + 1) if n not in gives)
                return _legal(f"give-{holder}-{spare}", legal)
            return _legal(f"give-{receiver}-{space}", legal)
        if my["give_more"] != plan.give_more:
            return _legal("givemore-none" if plan.give_more is None else f"givemore-{plan.give_more}", legal)
        ranks: TokenPlaces = my["ranks"]
        for token in TOKENS:
            space = plan.ranks[token]
            if ranks.get(token) == space:
                continue
            if space in ranks.values():
                return _legal(f"unrank-{space}", legal)
            return _legal(f"rank-{token}-{space}", legal)
        if my["get_more"] != plan.get_more:
            return _legal("getmore-none" if plan.get_more is None else f"getmore-{plan.get_more}", legal)
        return _legal("ready", legal)

    @abstractmethod
    def plan(self, view: GiftTrapView) -> Plan:
        """The choices this level wants this round."""

    def gifttrap(self, view: GiftTrapView, legal: list[Action]) -> Action | None:
        return None

    # -- shared reading of the view -----------------------------------------------------------

    @staticmethod
    def trapped_spaces(view: GiftTrapView) -> set[int]:
        return {t["space"] for t in view.get("trapped", [])}

    @staticmethod
    def my_gift_heading_for_noway(view: GiftTrapView) -> int | None:
        """The space of a gift this player gave that is still wrapped, to a receiver whose tokens are
        up and whose NO WAY is on it."""
        seat = view["seat"]
        gives = view["my"]["gives"]
        trapped = GiftTrapPlayer.trapped_spaces(view)
        for receiver, giver in view["reveal_order"][view["reveal_next"] :]:
            ranks = view["rankings"][receiver]
            if giver != seat or not ranks:
                continue
            space = gives[receiver]
            if space is not None and ranks.get("noway") == space and space not in trapped:
                return space
        return None

    def reaction_time(self, view: GiftTrapView, action: Action, rng: random.Random) -> float:
        low, high = self.click
        seconds = rng.uniform(low, high)
        if action.startswith("gifttrap"):
            seconds = rng.uniform(0.8, 2.0)  # a shout, not a deliberation
        elif action.startswith("pack"):
            seconds += 2.0
        elif view.get("phase") == "choosing" and _nothing_chosen(view):
            seconds += rng.uniform(3.0, 8.0)  # looking the gifts over first
        return seconds * self.speed


def _seat(view: GiftTrapView) -> int:
    seat = view["seat"]
    assert seat is not None, "a computer player plays from a seat's own view"
    return seat


def _legal(action: Action, legal: list[Action]) -> Action | None:
    return action if action in legal else None


def _nothing_chosen(view: GiftTrapView) -> bool:
    my = view.get("my")
    if not my:
        return True
    return not my["ranks"] and all(g is None for g in my["gives"])


class CasualPlayer(GiftTrapPlayer):
    level = "casual"
    click = (1.5, 4.0)

    def plan(self, view: GiftTrapView) -> Plan:
        seat = view["seat"]
        layout: list[LaidOutGift] = view["layout"]
        whim = self.whim(view, "plan")
        plan = Plan()
        plan.ranks = rank_by_taste(self.who(view), layout, set(), park_noway=False)
        used: set[int] = set()
        for receiver in range(view["players"]):
            if receiver == seat:
                continue
            learned, rounds = learned_tastes(view, receiver, everything=False)

            def appeal(gift: LaidOutGift, learned: dict[str, float] = learned, rounds: int = rounds) -> float:
                guess = predicted(learned, gift) if rounds else taste(self.who(view), gift)
                return guess + whim.uniform(-0.6, 0.6)

            best = max((g for g in layout if g["space"] not in used), key=appeal)
            plan.gives[receiver] = best["space"]
            used.add(best["space"])
        if view["strategy_cards"]:
            others = [s for s in range(view["players"]) if s != seat]
            plan.give_more = whim.choice(others) if whim.random() < 0.7 else None
            plan.get_more = whim.choice(others) if whim.random() < 0.7 else None
        return plan

    def gifttrap(self, view: GiftTrapView, legal: list[Action]) -> Action | None:
        if view.get("phase") != "reveal" or not view["my"]["gifttrap_available"]:
            return None
        space = self.my_gift_heading_for_noway(view)
        if space is not None and self.whim(view, f"trap{view['reveal_next']}").random() < 0.5:
            return _legal(f"gifttrap-{space}", legal)
        return None


class ThoughtfulPlayer(GiftTrapPlayer):
    level = "thoughtful"
    click = (1.0, 2.5)

    def plan(self, view: GiftTrapView) -> Plan:
        seat = view["seat"]
        layout: list[LaidOutGift] = view["layout"]
        trapped = self.trapped_spaces(view)
        plan = Plan()
        plan.ranks = rank_by_taste(self.who(view), layout, trapped, park_noway=True)
        values: dict[int, dict[int, float]] = {}
        sure: dict[int, bool] = {}
        for receiver in range(view["players"]):
            if receiver == seat:
                continue
            learned, rounds = learned_tastes(view, receiver, everything=True)
            if rounds:
                scores = {g["space"]: predicted(learned, g) for g in layout}
            else:
                # Knowing nothing yet, people assume others like what they like themselves.
                scores = {g["space"]: taste(self.who(view), g) for g in layout}
            values[receiver] = expected_points(scores, trapped)
            sure[receiver] = rounds >= 1
        pairs = sorted(
            ((value, receiver, space) for receiver, row in values.items() for space, value in row.items()),
            key=lambda p: (-p[0], p[1], p[2]),
        )
        used: set[int] = set()
        for _value, receiver, space in pairs:
            if receiver not in plan.gives and space not in used:
                plan.gives[receiver] = space
                used.add(space)
        if view["strategy_cards"]:
            best = max(plan.gives, key=lambda r: (values[r][plan.gives[r]], sure[r], -r))
            if values[best][plan.gives[best]] >= 2 and sure[best]:
                plan.give_more = best
            plan.get_more = self.best_giver(view)
            if plan.get_more is None and not view.get("history"):
                # Nothing to go on yet, and gifts are rarely worse than a shrug: back someone anyway.
                plan.get_more = self.whim(view, "getmore").choice([r for r in plan.gives])
        return plan

    @staticmethod
    def best_giver(view: GiftTrapView) -> int | None:
        """The player whose gifts to this one scored best lately, if they scored well."""
        seat = view["seat"]
        totals: dict[int, list[int]] = {}
        for past in view.get("history", [])[-RECENT_ROUNDS:]:
            for record in past["revealed"]:
                if record["receiver"] == seat:
                    totals.setdefault(record["giver"], []).append(record["points"])
        if not totals:
            return None
        giver = max(sorted(totals), key=lambda g: sum(totals[g]) / len(totals[g]))
        return giver if sum(totals[giver]) / len(totals[giver]) >= 0.5 else None

    def gifttrap(self, view: GiftTrapView, legal: list[Action]) -> Action | None:
        phase = view.get("phase")
        if phase not in ("choosing", "reveal") or not view["my"]["gifttrap_available"]:
            return None
        if phase == "reveal":
            space = self.my_gift_heading_for_noway(view)
            if space is not None:
                return _legal(f"gifttrap-{space}", legal)
        leader = self.about_to_win(view)
        if leader is None:
            return None
        trapped = self.trapped_spaces(view)
        if phase == "reveal":
            ranks = view["rankings"][leader]
            pending = [g for r, g in view["reveal_order"][view["reveal_next"] :] if r == leader]
            if not ranks or not pending:
                return None
            target = ranks["great"]
            if target in trapped or view["my"]["gives"][leader] == target:
                return None
            return _legal(f"gifttrap-{target}", legal)
        # Before the reveal: spoil the gift the leader has loved most lately.
        learned, rounds = learned_tastes(view, leader, everything=True)
        if rounds < 2:
            return None
        candidates = [g for g in view["layout"] if g["space"] not in trapped]
        target = max(candidates, key=lambda g: (predicted(learned, g), -g["space"]))["space"]
        return _legal(f"gifttrap-{target}", legal)

    @staticmethod
    def about_to_win(view: GiftTrapView) -> int | None:
        """A player other than this one within a good round of GIFTED on both tracks."""
        length = view["track_length"]
        seat = _seat(view)
        give, get = view["give_track"], view["get_track"]
        close = [
            s
            for s in range(view["players"])
            if s != seat and give[s] >= length - 3 and get[s] >= length - 3 and give[seat] < length - 3
        ]
        return min(close, key=lambda s: (-(give[s] + get[s]), s)) if close else None


LEVELS: dict[str, type[GiftTrapPlayer]] = {"casual": CasualPlayer, "thoughtful": ThoughtfulPlayer}


def make_player(level: str, **settings: Any) -> GiftTrapPlayer:
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(
            f"Unknown GiftTRAP computer level {level!r}: choose from {', '.join(LEVELS)}."
        ) from None
    return cls(**settings)
