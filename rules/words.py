"""Small English helpers shared by the engines' event texts and the cogs' renderers.

One place decides "1 card" / "2 cards" and "a File" / "an Italian File", so no text counts on its
own and slips ("1 pts", "a Italian File") cannot creep back one f-string at a time.
"""

from __future__ import annotations

# The minus sign every negative number is shown with (U+2212), never the hyphen: the token labels
# ("NO WAY −4") use it, so a score beside them must too, or one line mixes two signs.
MINUS = "\u2212"
# Nouns whose plural is not the noun plus "s".
IRREGULAR = {"spy": "spies"}
VOWELS = frozenset("AEIOUaeiou")


def plural_of(noun: str) -> str:
    return IRREGULAR.get(noun, noun + "s")


def plural(count: int, noun: str, many: str | None = None) -> str:
    """ "1 card", "0 cards", "3 Files"; ``many`` overrides the plural form."""
    return f"{count} {noun if count == 1 else (many or plural_of(noun))}"


def signed(number: int) -> str:
    """ "+3", "+0", "−4": a change with its sign, the minus typographic (see MINUS)."""
    return f"+{number}" if number >= 0 else f"{MINUS}{-number}"


def article(word: str) -> str:
    """ "a" or "an" for the word that follows: by its first letter, which fits every word the games
    use (countries, card names, species). "an Italian File", "a French File", "an Evil Agent"."""
    return "an" if word[:1] in VOWELS else "a"


def with_article(phrase: str) -> str:
    """ "an Italian File", "a Trap Is Sprung"."""
    return f"{article(phrase)} {phrase}"
