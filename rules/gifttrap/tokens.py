"""The four tokens each player puts on the gifts they would most and least like, and what they score.

A received gift moves the receiver's GET marker and the giver's GIVE marker by the receiver's token on
it, or by NO MATCH when the receiver put no token there.
"""

from __future__ import annotations

from typing import Literal, TypeGuard

Token = Literal["great", "good", "ok", "noway"]
TOKENS: tuple[Token, ...] = ("great", "good", "ok", "noway")
TOKEN_POINTS = {"great": 3, "good": 2, "ok": 1, "noway": -4}
NO_MATCH = -1  # what a received gift with none of the receiver's tokens on it scores


def is_token(name: str) -> TypeGuard[Token]:
    return name in TOKENS
