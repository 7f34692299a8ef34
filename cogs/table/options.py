"""What every game's `/… new` shares about its table options: the speed's choices, and the words
for options a game refuses.

A choice's name is what Discord shows in the person's language (``locale_str``, translated by
``cogs.texts.commands``); its value is what the command receives, the same in every language. An
engine refuses options as data (``rules.base.OptionError``); ``option_refusal`` words it.
"""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str

from cogs.texts import DOMAINS, SOURCE, Texts, join, language, number, translations
from rules.base import OptionError

T = Texts(__name__)

SPEED_CHOICES = [
    # Translators: a choice of the "speed" option of every /… new (the timers: unhurried).
    app_commands.Choice(name=locale_str("relaxed", context="speed"), value="relaxed"),
    # Translators: a choice of the "speed" option of every /… new (the timers: short).
    app_commands.Choice(name=locale_str("fast", context="speed"), value="fast"),
    # Translators: a choice of the "speed" option of every /… new (no timers at all).
    app_commands.Choice(name=locale_str("off", context="speed"), value="off"),
]


def speed_name(speed: str) -> str:
    """A table's speed in the language spoken now, as /… new's choices name it (the same
    messages: context "speed"); an unknown one as it is."""
    names = {
        "relaxed": T.pgettext("speed", "relaxed"),
        "fast": T.pgettext("speed", "fast"),
        "off": T.pgettext("speed", "off"),
    }
    return names.get(speed, speed)


def command_word(word: str) -> str:
    """An option's name or a choice as the person's Discord shows it in the command (the
    catalogs translate them for Discord: cogs/texts/commands.py), else as the engine says it."""
    lang = language()
    if lang == SOURCE:
        return word
    for domain in DOMAINS:
        found = translations(lang, domain).gettext(word)
        if found != word:
            return found
    return word


def option_refusal(game_title: str, error: OptionError) -> str:
    """Why a game refused its table options, in the language spoken now (the engine says it as
    data: ``rules.base.OptionError``). An option is named as its command writes it (`rounds`)."""
    p = error.params
    if error.code == "unknown":
        names = [f"`{name}`" for name in p["options"]]
        return T.ngettext(
            "{game} has no option {options}.",
            "{game} has no options {options}.",
            len(names),
            game=game_title,
            options=join(names),
        )
    option = f"`{command_word(str(p.get('option', '?')))}`"
    if error.code == "not_a_choice":
        choices = join([f"`{command_word(str(c))}`" for c in p["choices"]], style="or")
        return T.gettext(
            "{option} must be {choices}, not `{value}`.", option=option, choices=choices, value=p["value"]
        )
    if error.code == "out_of_range":
        if p.get("unset"):
            return T.gettext(
                "{option} must be a whole number from {low} to {high}, or left empty.",
                option=option,
                low=number(p["low"]),
                high=number(p["high"]),
            )
        return T.gettext(
            "{option} must be a whole number from {low} to {high}.",
            option=option,
            low=number(p["low"]),
            high=number(p["high"]),
        )
    if error.code == "not_a_flag":
        return T.gettext("{option} must be true or false.", option=option)
    if error.code == "no_sets":
        return T.gettext("With so few cards per species nobody could ever hold a set of four.")
    return T.gettext("{game} can't be played with those options.", game=game_title)
