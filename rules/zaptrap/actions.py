"""Zap or Trap's actions: short strings in the game's notation, and how they are read (the cog
names them for people).

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
"""

from __future__ import annotations

from rules.base import Action, IllegalAction
from rules.zaptrap.cards import GESTURES, is_card_code


def parse_action(action: Action) -> tuple[str, str]:
    """ "S3a-7c" -> ("swap", "3a-7c"); "ZAP-2" -> ("ZAP", "2"); "gesture-wink" -> ("gesture", "wink");
    "signal-wink" -> ("signal", "wink"); "deal", "next", "signals" -> (that, "")."""
    if action in ("deal", "next", "signals"):
        return action, ""
    head, dash, rest = action.partition("-")
    if dash and head in ("gesture", "signal"):
        if rest not in GESTURES:
            raise IllegalAction("unknown_gesture", gesture=rest)
        return head, rest
    if dash and head in ("ZAP", "TRAP"):
        if not rest.isdigit() or len(rest) > 2:
            raise IllegalAction("bad_call", call=head)
        return head, rest
    if dash and head.startswith("S") and len(head) > 1 and is_card_code(head[1:]) and is_card_code(rest):
        return "swap", f"{head[1:]}-{rest}"
    raise IllegalAction("unknown_action", action=action)
