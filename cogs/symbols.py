"""What the marks on the cards and panels mean, one line each, for the quick start's "What you see"
(``cogs/help.py``): Zip Zap's hatched cards, Zap or Trap's corner numbers, doubles and special
cards, Spy Trap's counting Files. A newcomer met these with no word of explanation (issue 33);
the full rules explain them too, but three screens away from the card.

Each game's lines follow the table's options, so a table without special cards lists none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogs.drawings.zaptrap_cards import SPECIAL_FACES
from cogs.drawings.zaptrap_words import SPECIAL_EMOJI, SPECIAL_NAMES, species_name
from cogs.texts import Texts
from rules.zaptrap.cards import BE_FREE, DANGEROUS_MISSION, ZIP_ZAP

T = Texts(__name__)

# The most a game's lines may take, on top of the quick start's own limit (cogs/help.py): with
# them a quick start still reads in about a minute on a phone. Zap or Trap's five lines: 420.
SYMBOLS_LIMIT = 450


def _zipzap(options: Any) -> list[str]:
    return [
        T.gettext(
            "**Raised card with a thick outline and a notch:** you can play it now. "
            "**Faded and hatched (striped):** you can't."
        )
    ]


def _zaptrap(options: Any) -> list[str]:
    if options.preset == "kemps":  # plain playing cards: nothing a card player needs told
        return []
    lines = [
        T.gettext(
            "**3 {initial}** in a corner: the alien's number and initial (3 = {alien}). "
            "A set is 4 cards with the same number.",
            initial=species_name(3)[:1],
            alien=species_name(3),
        )
    ]
    if options.doubles:
        lines.append(T.gettext("**3+4**: a double card, it counts as either alien."))
    if options.specials:
        special = {
            ZIP_ZAP: T.gettext("+1 when your ZAP succeeds while you hold it."),
            BE_FREE: T.gettext("+1 when your TRAP succeeds while you hold it."),
            DANGEROUS_MISSION: T.gettext(
                "+2 for whoever scores a call on the hand holding it, even a failed call."
            ),
        }
        for code, meaning in special.items():
            name, letters = T.gettext(SPECIAL_NAMES[code]), SPECIAL_FACES[code][2]  # "ZZ" on the card
            lines.append(f"{SPECIAL_EMOJI[code]} **{name}** ({letters}): {meaning}")
    return lines


def _spytrap(options: Any) -> list[str]:
    return [
        T.gettext(
            "**Counting Files:** Files of your country drawn from other spies' piles or stolen. "
            "4 of them win. A File from your own pile doesn't count, but a 4th one starts a challenge."
        )
    ]


SYMBOLS: dict[str, Callable[[Any], list[str]]] = {
    "zipzap": _zipzap,
    "zaptrap": _zaptrap,
    "spytrap": _spytrap,
}


def symbol_lines(game: Any, options: Any) -> list[str]:
    """One line per mark this game's table (with these options) shows; none for a game whose
    pictures explain themselves (Trap's board has its own legend)."""
    write = SYMBOLS.get(game.key)
    return write(options) if write is not None else []


__all__ = ["SYMBOLS", "SYMBOLS_LIMIT", "symbol_lines"]
