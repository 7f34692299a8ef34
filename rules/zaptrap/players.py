"""Computer players for Zap or Trap. They see only their own view and legal actions, like a person would:
their hand, the table, the public gestures and swaps, and the secret signals their view shows them
(their own side's, and the one they watch for)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from rules.base import Action
from rules.zaptrap.cards import GESTURES, SPECIAL_RE, species_shown
from rules.zaptrap.views import ZapTrapView

SIGNAL_REPEAT = 8  # public events before a player holding a set repeats its real signal
TRAP_PATIENCE = 6  # public events a sharp player waits, after a telling gesture, before a TRAP
SPECIAL_VALUE = {"XZZ": 2, "XDM": 2, "XBF": 1}


def species_counts(hand: list[str], species: int) -> list[int]:
    counts = [0] * (species + 1)
    for card in hand:
        for s in species_shown(card, species):
            counts[s] += 1
    return counts


def hand_value(hand: list[str], species: int, specials: bool) -> tuple[int, int, int, int]:
    """How close a hand is to a (five-)set: the best species count first, then the runner-up, then
    how concentrated the rest is; ``specials`` adds the worth of special cards kept beside a set."""
    counts = sorted(species_counts(hand, species), reverse=True)
    best = min(counts[0], 5)
    extra = 0
    if specials and best >= 4:
        extra = sum(SPECIAL_VALUE.get(m.group(1), 0) for c in hand if (m := SPECIAL_RE.match(c)))
    return best, extra, counts[1], sum(c * c for c in counts)


def species_total(view: ZapTrapView) -> int:
    return int(view["species"])


def _swap_parts(action: Action) -> tuple[str, str]:
    give, take = action[1:].split("-")
    return give, take


class ZapTrapPlayer:
    """Shared behaviour; the levels differ in speed, attention and cunning."""

    level = "base"
    notice = 1.0  # chance of noticing a partner's real signal each time it looks
    bluffs = False
    traps = False
    values_specials = False
    times: ClassVar[dict[str, tuple[float, float]]] = {
        "signal": (2.0, 5.0),
        "swap": (1.0, 2.5),
        "gesture": (0.7, 1.8),
        "ZAP": (1.2, 3.0),
        "TRAP": (1.5, 3.5),
        "deal": (5.0, 8.0),
        "other": (1.0, 2.0),
    }

    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("A computer player's speed multiplier must be positive.")
        self.speed = speed

    # -- deciding -----------------------------------------------------------------------------

    def choose(self, view: ZapTrapView, legal: list[Action], rng: random.Random) -> Action | None:
        if not legal or view.get("seat") is None:
            return None
        phase = view.get("phase")
        if phase == "signals":
            return self.pick_signal(view, legal, rng)
        if phase != "play":
            return None  # the reveal stays up until the next-round timer
        return self.play(view, legal, rng)

    def pick_signal(self, view: ZapTrapView, legal: list[Action], rng: random.Random) -> Action | None:
        if view["signals_ready"][view["unit"]]:
            return None
        last = view.get("last_signal")
        if last is not None and rng.random() < 0.6:
            return f"signal-{last}"
        return f"signal-{rng.choice(list(GESTURES))}"

    def play(self, view: ZapTrapView, legal: list[Action], rng: random.Random) -> Action | None:
        zap = self.zap(view, legal, rng)
        if zap is not None:
            return zap
        hand: list[str] = view["hand"]
        species = species_total(view)
        swap = self.best_swap(view, legal, species, rng)
        upgrade = swap is not None and hand_value(self._after(hand, swap), species, True)[0] == 5
        if view.get("best_set") and not upgrade:
            signal = self.real_signal(view)
            if signal is not None:
                return signal
        if self.traps:
            trap = self.trap(view, legal)
            if trap is not None:
                return trap
        if swap is not None:
            return swap
        if self.bluffs:
            bluff = self.bluff(view, rng)
            if bluff is not None:
                return bluff
        if "deal" in legal and not view.get("best_set"):
            return "deal"
        return None

    def zap(self, view: ZapTrapView, legal: list[Action], rng: random.Random) -> Action | None:
        watched, signal = view.get("watch_seat"), view.get("watch_signal")
        action = f"ZAP-{watched}"
        if signal is None or action not in legal:
            return None
        seen = any(g["seat"] == watched and g["gesture"] == signal for g in view.get("gestures", []))
        if seen and rng.random() < self.notice:
            return action
        return None

    @staticmethod
    def real_signal(view: ZapTrapView) -> Action | None:
        signal = view.get("my_signal")
        if signal is None:
            return None
        mine = [
            g["seq"] for g in view.get("gestures", []) if g["seat"] == view["seat"] and g["gesture"] == signal
        ]
        if mine and view.get("seq", 0) - max(mine) < SIGNAL_REPEAT:
            return None
        return f"gesture-{signal}"

    @staticmethod
    def _after(hand: list[str], swap: Action) -> list[str]:
        give, take = _swap_parts(swap)
        return [c for c in hand if c != give] + [take]

    def best_swap(
        self, view: ZapTrapView, legal: list[Action], species: int, rng: random.Random
    ) -> Action | None:
        hand: list[str] = view["hand"]
        now = hand_value(hand, species, self.values_specials)
        best: list[Action] = []
        best_value = now
        for action in legal:
            if not action.startswith("S"):
                continue
            value = hand_value(self._after(hand, action), species, self.values_specials)
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value and best:
                best.append(action)
        if not best:
            return None
        return best[0] if len(best) == 1 else min(best)

    def trap(self, view: ZapTrapView, legal: list[Action]) -> Action | None:
        """TRAP an opponent whose gestures give them away: the same gesture twice this round, once
        right after a swap of their own; or a gesture right after a swap, then no more swapping
        while the table moved on. Our own side's signal tells us nothing about them."""
        me = view["seat"]
        own = view.get("my_signal")
        swaps = {s["seq"]: s["seat"] for s in view.get("swaps", [])}
        now = view.get("seq", 0)
        for target in range(view["players"]):
            action = f"TRAP-{target}"
            if action not in legal or target == view.get("watch_seat") or target == me:
                continue
            made = [g for g in view.get("gestures", []) if g["seat"] == target and g["gesture"] != own]
            telling = [g for g in made if swaps.get(g["seq"] - 1) == target]
            if not telling:
                continue
            repeated = any(sum(1 for g in made if g["gesture"] == t["gesture"]) >= 2 for t in telling)
            last_swap = max((q for q, s in swaps.items() if s == target), default=0)
            # A bluffer's decoys vary; a player who found a set makes one gesture and stops swapping.
            single = len({g["gesture"] for g in made}) == 1 and len(made) == len(telling)
            settled = single and telling[-1]["seq"] > last_swap and now - telling[-1]["seq"] >= TRAP_PATIENCE
            if repeated or settled:
                return action
        return None

    @staticmethod
    def bluff(view: ZapTrapView, rng: random.Random) -> Action | None:
        """A decoy gesture now and then after one of its own swaps, so its real one is harder to read."""
        me = view["seat"]
        own_swaps = [s["seq"] for s in view.get("swaps", []) if s["seat"] == me]
        if not own_swaps:
            return None
        latest = max(own_swaps)
        if any(g["seat"] == me and g["seq"] > latest for g in view.get("gestures", [])):
            return None
        # Decided once per swap: the swap's sequence number seeds the coin, so a re-look agrees.
        coin = random.Random(f"bluff:{me}:{view.get('round')}:{latest}")
        if coin.random() >= 0.3:
            return None
        decoys = [g for g in GESTURES if g not in (view.get("my_signal"), view.get("watch_signal"))]
        return f"gesture-{coin.choice(decoys)}"

    # -- timing -------------------------------------------------------------------------------

    def reaction_time(self, view: ZapTrapView, action: Action, rng: random.Random) -> float:
        if action.startswith("signal-"):
            kind = "signal"
        elif action.startswith("S"):
            kind = "swap"
        elif action.startswith("gesture-"):
            kind = "gesture"
        elif action.startswith(("ZAP-", "TRAP-")):
            kind = action.split("-")[0]
        elif action == "deal":
            kind = "deal"
        else:
            kind = "other"
        low, high = self.times[kind]
        return rng.uniform(low, high) * self.speed


class CasualPlayer(ZapTrapPlayer):
    """Swaps toward the obvious set, signals when it has one, sometimes misses a partner's signal,
    never bluffs and never risks a TRAP."""

    level = "casual"
    notice = 0.75
    times: ClassVar[dict[str, tuple[float, float]]] = {
        "signal": (3.0, 8.0),
        "swap": (1.5, 3.5),
        "gesture": (1.0, 2.5),
        "ZAP": (1.8, 4.5),
        "TRAP": (2.0, 4.5),
        "deal": (8.0, 12.0),
        "other": (1.5, 3.0),
    }


class SharpPlayer(ZapTrapPlayer):
    """Quicker, goes for five-sets and keeps useful special cards, bluffs with decoy gestures, and
    TRAPs opponents whose gestures give them away."""

    level = "sharp"
    notice = 1.0
    bluffs = True
    traps = True
    values_specials = True
    times: ClassVar[dict[str, tuple[float, float]]] = {
        "signal": (2.0, 5.0),
        "swap": (0.9, 2.2),
        "gesture": (0.6, 1.6),
        "ZAP": (1.0, 2.5),
        "TRAP": (1.5, 3.5),
        "deal": (5.0, 8.0),
        "other": (1.0, 2.0),
    }

    def pick_signal(self, view: ZapTrapView, legal: list[Action], rng: random.Random) -> Action | None:
        if view["signals_ready"][view["unit"]]:
            return None
        # A fresh signal every round keeps watchers from learning it.
        fresh = [g for g in GESTURES if g != view.get("last_signal")]
        return f"signal-{rng.choice(fresh)}"


LEVELS: dict[str, type[ZapTrapPlayer]] = {"casual": CasualPlayer, "sharp": SharpPlayer}


def make_player(level: str, **settings: Any) -> ZapTrapPlayer:
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(
            f"Unknown Zap or Trap computer level {level!r}: choose from {', '.join(LEVELS)}."
        ) from None
    return cls(**settings)
