"""The four tokens each player puts on the gifts they would most and least like, and what they score.

A received gift moves the receiver's GET marker and the giver's GIVE marker by the receiver's token on
it, or by NO MATCH when the receiver put no token there.
"""

from __future__ import annotations

from typing import Literal, TypeGuard

Token = Literal["great", "good", "ok", "noway"]
TOKENS: tuple[Token, ...] = ("great", "good", "ok", "noway")
TOKEN_POINTS = {"great": 3, "good": 2, "ok": 1, "noway": -4}
TOKEN_LABELS = {"great": "GREAT +3", "good": "GOOD +2", "ok": "OK +1", "noway": "NO WAY −4"}
NO_MATCH = -1
NO_MATCH_LABEL = "NO MATCH −1"


def is_token(name: str) -> TypeGuard[Token]:
    return name in TOKENS
