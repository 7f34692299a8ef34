"""Zap or Trap's cards in words, in the reader's language: the aliens, the kemps preset's ranks and
suits, the doubles and the special cards, and the set a hand counts. The engine knows cards only
by code (rules/zaptrap/cards.py); the cog, the pictures' alt texts and the captions drawn on the
cards all name them here.
"""

from __future__ import annotations

from cogs.texts import N_, Texts
from rules.zaptrap.cards import (
    BE_FREE,
    COPY_LETTERS,
    DANGEROUS_MISSION,
    FIVE_SET,
    SINGLE_RE,
    ZIP_ZAP,
    special_kind,
    species_shown,
)
from rules.zaptrap.views import SetView, ZapTrapView

T = Texts(__name__)
# The special cards' emoji, beside their names on buttons and in lists (``card_label``).
SPECIAL_EMOJI = {"XZZ": "⚡", "XBF": "🕊️", "XDM": "💣"}

# The special cards' names.
SPECIAL_NAMES = {
    # Translators: a special card's name (the game's own term).
    ZIP_ZAP: N_("Zip Zap, Don't Come Back"),
    # Translators: a special card's name (the game's own term).
    BE_FREE: N_("Be Free!! Be Free!!"),
    # Translators: a special card's name (the game's own term).
    DANGEROUS_MISSION: N_("Dangerous Mission"),
}
# Our own aliens, one per species.
ALIENS = (
    # Translators: an alien's invented name (the game's own term; its initial is drawn on the card).
    N_("Glorp"),
    # Translators: an alien's invented name (the game's own term; its initial is drawn on the card).
    N_("Zibble"),
    # Translators: an alien's invented name (the game's own term; its initial is drawn on the card).
    N_("Mookah"),
    # Translators: an alien's invented name (the game's own term; its initial is drawn on the card).
    N_("Fennix"),
    # Translators: an alien's invented name (the game's own term; its initial is drawn on the card).
    N_("Quorb"),
    # Translators: an alien's invented name (the game's own term; its initial is drawn on the card).
    N_("Splunt"),
    # Translators: an alien's invented name (the game's own term; its initial is drawn on the card).
    N_("Yarrowax"),
    # Translators: an alien's invented name (the game's own term; its initial is drawn on the card).
    N_("Blimble"),
    # Translators: an alien's invented name (the game's own term; its initial is drawn on the card).
    N_("Vexxo"),
    # Translators: an alien's invented name (the game's own term; its initial is drawn on the card).
    N_("Nubbin"),
    # Translators: an alien's invented name (the game's own term; its initial is drawn on the card).
    N_("Thrask"),
    # Translators: an alien's invented name (the game's own term; its initial is drawn on the card).
    N_("Oozel"),
    # Translators: an alien's invented name (the game's own term; its initial is drawn on the card).
    N_("Pibbitt"),
)
# Several of one alien, as in "a set of four Glorps".
ALIENS_MANY = (
    # Translators: an alien species, several of them: "a set of four Glorps" (the game's own term).
    N_("Glorps"),
    # Translators: an alien species, several of them: "a set of four Glorps" (the game's own term).
    N_("Zibbles"),
    # Translators: an alien species, several of them: "a set of four Glorps" (the game's own term).
    N_("Mookahs"),
    # Translators: an alien species, several of them: "a set of four Glorps" (the game's own term).
    N_("Fennixes"),
    # Translators: an alien species, several of them: "a set of four Glorps" (the game's own term).
    N_("Quorbs"),
    # Translators: an alien species, several of them: "a set of four Glorps" (the game's own term).
    N_("Splunts"),
    # Translators: an alien species, several of them: "a set of four Glorps" (the game's own term).
    N_("Yarrowaxes"),
    # Translators: an alien species, several of them: "a set of four Glorps" (the game's own term).
    N_("Blimbles"),
    # Translators: an alien species, several of them: "a set of four Glorps" (the game's own term).
    N_("Vexxos"),
    # Translators: an alien species, several of them: "a set of four Glorps" (the game's own term).
    N_("Nubbins"),
    # Translators: an alien species, several of them: "a set of four Glorps" (the game's own term).
    N_("Thrasks"),
    # Translators: an alien species, several of them: "a set of four Glorps" (the game's own term).
    N_("Oozels"),
    # Translators: an alien species, several of them: "a set of four Glorps" (the game's own term).
    N_("Pibbitts"),
)
# The ranks of a plain pack of cards (the kemps preset).
RANKS = (
    # Translators: the ranks of a plain pack of cards (the kemps preset), as in "queen of hearts".
    N_("ace"), N_("2"), N_("3"), N_("4"), N_("5"), N_("6"), N_("7"),
    N_("8"), N_("9"), N_("10"), N_("jack"), N_("queen"), N_("king"),
)  # fmt: skip
# Several cards of one rank.
RANKS_MANY = (
    # Translators: several cards of one rank (the kemps preset), as in "a set of four kings".
    N_("aces"), N_("2s"), N_("3s"), N_("4s"), N_("5s"), N_("6s"), N_("7s"),
    N_("8s"), N_("9s"), N_("10s"), N_("jacks"), N_("queens"), N_("kings"),
)  # fmt: skip
# Translators: the four suits of a plain pack, as in "queen of hearts".
SUIT_NAMES = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))


def species_name(species: int, preset: str = "zaptrap", many: bool = False) -> str:
    """An alien ("Glorp"), or a rank in the kemps preset ("queen"); ``many``: "Glorps", "queens"."""
    if preset == "kemps":
        return T.gettext((RANKS_MANY if many else RANKS)[species - 1])
    return T.gettext((ALIENS_MANY if many else ALIENS)[species - 1])


def suit_name(copy: int) -> str:
    """The kemps preset's suit of a copy letter's index (past the fourth, a number)."""
    if copy < len(SUIT_NAMES):
        return T.gettext(SUIT_NAMES[copy])
    return T.gettext("suit {number}", number=copy + 1)


def special_name(kind: str) -> str:
    return T.gettext(SPECIAL_NAMES[kind])


def card_name(code: str, preset: str = "zaptrap", species_count: int = 10) -> str:
    """ "Glorp", "Glorp-Zibble double", "Dangerous Mission"; kemps: "queen of hearts"."""
    kind = special_kind(code)
    if kind is not None:
        return special_name(kind)
    if match := SINGLE_RE.match(code):
        species = int(match.group(1))
        if preset == "kemps":
            suit = suit_name(COPY_LETTERS.index(match.group(2)))
            # Translators: a card of a plain pack (the kemps preset): "queen of hearts".
            return T.gettext("{rank} of {suit}", rank=species_name(species, preset), suit=suit)
        return species_name(species, preset)
    shown = species_shown(code, species_count)
    if len(shown) == 2:
        low, high = shown
        # Translators: a double card shows two neighbouring species: "Glorp-Zibble double".
        return T.gettext(
            "{low}-{high} double", low=species_name(low, preset), high=species_name(high, preset)
        )
    return code


def set_text(found: SetView | None, preset: str) -> str:
    """The set a hand counts: "a set of four Glorps", or "no set"."""
    if found is None:
        return T.gettext("no set")
    count = int(found["count"])
    if count == FIVE_SET - 1:
        number = T.pgettext("a set of", "four")
    elif count == FIVE_SET:
        number = T.pgettext("a set of", "five")
    else:
        number = str(count)
    many = species_name(int(found["species"]), preset, many=True)
    # Translators: {count} is "four", "five" or a number; {species} an alien (or rank) in the plural.
    return T.gettext("a set of {count} {species}", count=number, species=many)


def card_label(code: str, view: ZapTrapView) -> str:
    """A card's face on a button or in a list: its name, with an emoji for the special cards."""
    name = card_name(code, view["preset"], int(view["species"]))
    emoji = SPECIAL_EMOJI.get(code[:3])
    return f"{emoji} {name}" if emoji else name
