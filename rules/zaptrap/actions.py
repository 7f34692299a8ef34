"""Zap or Trap's actions: short strings in the game's notation, how they are read and named.

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

from collections.abc import Callable

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


def describe_action(action: Action, card_name: Callable[[str], str]) -> str:
    """A player-readable name for an action ("swap your Glorp for the Zibble"); ``card_name``
    names a card code at this table."""
    try:
        kind, arg = parse_action(action)
    except IllegalAction:
        return action
    if kind == "swap":
        give, take = arg.split("-")
        return f"swap your {card_name(give)} for the {card_name(take)}"
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
