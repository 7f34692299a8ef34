"""Every text a person reads is made here, at the moment it is drawn, from a gettext catalog.

The catalogs are in ``locales/`` at the top of the project: one template per *domain*
(``locales/<domain>.pot``, extracted from the code by ``python -m cogs.texts update``, which
runs Babel's extractor, as ``pybabel extract`` does) and, per
language, ``locales/<language>/LC_MESSAGES/<domain>.po``. A domain is one game (its engine's
messages, its cog and its pictures: ``zipzap``, ``zaptrap``, ``spytrap``, ``gifttrap``, ``trap``)
or ``table``, the machinery every game shares; so each game's words live in one place, and
translators can take one game at a time.

How code speaks::

    from cogs.texts import Texts
    T = Texts(__name__)                        # the domain follows the module (domain_of)
    T.gettext("Round {round} over", round=3)
    T.ngettext("{n} card", "{n} cards", count) # n is filled in; CLDR plural rules pick the form
    T.pgettext("bid", "Pass")                  # a context tells "Pass" (a bid) from "Pass" (a turn)

Placeholders are ``str.format`` fields, filled after translation (every text is formatted, so a
literal brace is written ``{{``), and a value (a name a person chose) is never read as a template.
Which language: the one set by ``speaking(language)`` around the drawing (a person's for what only
they see, the table's for what the channel sees), English otherwise. Numbers and lists are
formatted by Babel for the same language (``number``, ``join``).

The language of a text is a ContextVar: a drawing handed to a thread (asyncio.to_thread) keeps it;
a drawing sent to a worker process carries its words already made.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from gettext import NullTranslations
from pathlib import Path
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

LOCALES = Path(__file__).resolve().parents[2] / "locales"
# The language every source text is written in (the catalogs' msgids).
SOURCE = "en"
# The languages the referee speaks: a folder under locales/ and a line here (its name as its
# speakers write it, shown where a language is chosen).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "es": "Español",
    "de": "Deutsch",
    "pt_BR": "Português (Brasil)",
    "pl": "Polski",
}
GAMES = ("zipzap", "zaptrap", "spytrap", "gifttrap", "trap")
DOMAINS = ("table", *GAMES)

_language: ContextVar[str] = ContextVar("referee_language", default=SOURCE)


def domain_of(module: str) -> str:
    """The domain of a module's texts, from its dotted name: a game's engine (``rules.zipzap.*``),
    cog (``cogs.zipzap``) and pictures (``cogs.drawings.zipzap_cards``) are the game's; the rest is
    the table's."""
    parts = module.split(".")
    for part in parts[1:]:
        stem = part.split("_")[0]
        if stem in GAMES:
            return stem
    return "table"


def language() -> str:
    """The language texts are made in now."""
    return _language.get()


@contextmanager
def speaking(lang: str | None) -> Iterator[None]:
    """Make every text drawn inside in ``lang`` (a language the referee speaks; otherwise English)."""
    token = _language.set(lang if lang in LANGUAGES else SOURCE)
    try:
        yield
    finally:
        _language.reset(token)


def speak(lang: str | None) -> None:
    """Make every text drawn from here to the end of the current task in ``lang`` (otherwise
    English). For a task that is one person's from start to end (an interaction's: discord.py
    runs each in a task of its own), where no ``with speaking`` could enclose the whole of it; a
    task started from here inherits the language, as every ContextVar."""
    _language.set(lang if lang in LANGUAGES else SOURCE)


def catalog_path(lang: str, domain: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{domain}.po"


@cache
def translations(lang: str, domain: str) -> NullTranslations:
    """A language's catalog of one domain, read once per process. The ``.po`` file is compiled in
    memory (no ``.mo`` files to keep in step); a missing one gives the source texts."""
    path = catalog_path(lang, domain)
    if not path.exists():
        return NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang, domain=domain)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=domain)


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang.replace("-", "_"))


def number(value: int | float) -> str:
    """A number as the language writes it ("1,234" in English, "1.234" in German)."""
    return format_decimal(value, locale=_locale(language()))


# The minus sign every negative number is shown with (U+2212), never the hyphen: GiftTRAP's token
# labels ("NO WAY −4") use it, so a score beside them must too, or one line mixes two signs.
MINUS = "\u2212"


def signed(number: int) -> str:
    """ "+3", "+0", "−4": a change with its sign, the minus typographic (see MINUS)."""
    return f"+{number}" if number >= 0 else f"{MINUS}{-number}"


def join(items: Sequence[str], *, style: str = "standard") -> str:
    """ "a, b, and c" in the language's own words (CLDR list patterns)."""
    locale = _locale(language())
    try:
        return format_list(list(items), style=style, locale=locale)  # type: ignore[arg-type]
    except (KeyError, ValueError):
        # CLDR gives some languages no pattern of that style (Spanish has no "unit" start pattern):
        # the language's standard list reads right there too.
        return format_list(list(items), style="standard", locale=locale)


class Texts:
    """One domain's messages. The method names are gettext's, so ``pybabel extract`` (and
    ``python -m cogs.texts update``) finds every call with its default keywords."""

    def __init__(self, module: str) -> None:
        self.domain = domain_of(module)

    def _catalog(self) -> NullTranslations:
        return translations(language(), self.domain)

    def gettext(self, message: str, /, **params: Any) -> str:
        return self._catalog().gettext(message).format(**params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The form for ``n`` (CLDR's rules for the language: Polish has three); ``{n}`` in the
        text is filled with ``n``."""
        return self._catalog().ngettext(singular, plural, n).format(n=n, **params)

    def pgettext(self, context: str, message: str, /, **params: Any) -> str:
        return self._catalog().pgettext(context, message).format(**params)

    def npgettext(self, context: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
        return self._catalog().npgettext(context, singular, plural, n).format(n=n, **params)


# Ordinals follow CLDR's ordinal categories of the language (English: 1st, 2nd, 3rd, 4th; German
# has only "other": "1."): one message per category, so each language says its own.


_T = Texts(__name__)


def ordinal(n: int) -> str:
    """ "1st", "22nd", "13th" in the language now."""
    category = _locale(language()).ordinal_form(n)
    if category == "one":
        return _T.pgettext("ordinal one", "{n}st", n=n)
    if category == "two":
        return _T.pgettext("ordinal two", "{n}nd", n=n)
    if category == "few":
        return _T.pgettext("ordinal few", "{n}rd", n=n)
    if category == "many":
        return _T.pgettext("ordinal many", "{n}th", n=n)
    return _T.pgettext("ordinal other", "{n}th", n=n)


def N_(message: str) -> str:
    """Marks a text for the catalog where it is defined (a table of labels); it is translated
    where it is shown, with ``Texts.gettext(variable)``."""
    return message
