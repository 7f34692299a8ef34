"""The actions of GiftTRAP, in its own notation (letters, digits and ``-`` only).

- ``pack-1`` … ``pack-4``: the dealer picks the $, $$, $$$ or $$$$ pack (the referee, seat None,
  sends the seeded default when the ``pack`` timer runs out).
- ``give-<seat>-<n>``: give gift ``n`` to that seat (replaces the gift chosen for that seat before).
- ``givemore-<seat>`` / ``givemore-none``: put your Give More card with the gift for that seat, or
  take it back.
- ``rank-great-<n>``, ``rank-good-<n>``, ``rank-ok-<n>``, ``rank-noway-<n>``: put that token on gift
  ``n`` (moving it from where it was); ``unrank-<n>`` takes your token off gift ``n``.
- ``getmore-<seat>`` / ``getmore-none``: put your Get More card under that giver's gift, or take it back.
- ``ready``: lock your choices in (they must be complete); no more changes this round.
- ``gifttrap-<n>``: play your once-a-game GiftTRAP card on gift ``n`` (choosing phase or reveal).
- ``next``: start the next round (any seat, or the referee on the ``next_round`` timer).
- System actions (seat None): ``fill`` (``choosing`` timer: complete the choices of everyone not ready),
  ``reveal`` (``reveal_step`` timer: reveal the next received gift), ``pack-<k>`` and ``next``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.base import Action, IllegalAction
from rules.gifttrap.tokens import Token, is_token


@dataclass(frozen=True)
class Move:
    verb: str  # pack, give, givemore, rank, unrank, getmore, ready, gifttrap, next, fill, reveal
    seat: int | None = None  # the other seat named in the action (None: "none")
    space: int | None = None
    token: Token | None = None
    pack: int | None = None


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() and str(int(text)) == text else None


def parse_action(action: Action) -> Move:
    parts = action.split("-")
    verb = parts[0]
    if verb in ("ready", "next", "fill", "reveal") and len(parts) == 1:
        return Move(verb)
    if verb == "pack" and len(parts) == 2 and (k := _number(parts[1])) is not None:
        return Move("pack", pack=k)
    if verb == "give" and len(parts) == 3:
        seat, space = _number(parts[1]), _number(parts[2])
        if seat is not None and space is not None:
            return Move("give", seat=seat, space=space)
    if verb in ("givemore", "getmore") and len(parts) == 2:
        if parts[1] == "none":
            return Move(verb)
        if (seat := _number(parts[1])) is not None:
            return Move(verb, seat=seat)
    if verb == "rank" and len(parts) == 3:
        token, n = parts[1], _number(parts[2])
        if is_token(token) and n is not None:
            return Move("rank", space=n, token=token)
    if verb in ("unrank", "gifttrap") and len(parts) == 2 and (n := _number(parts[1])) is not None:
        return Move(verb, space=n)
    raise IllegalAction("not_an_action", action=action)
