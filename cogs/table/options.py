"""What every game's `/… new` shares among its slash-command options: the speed's choices.

A choice's name is what Discord shows in the person's language (``locale_str``, translated by
``cogs.texts.commands``); its value is what the command receives, the same in every language.
"""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str

SPEED_CHOICES = [
    # Translators: a choice of the "speed" option of every /… new (the timers: unhurried).
    app_commands.Choice(name=locale_str("relaxed", context="speed"), value="relaxed"),
    # Translators: a choice of the "speed" option of every /… new (the timers: short).
    app_commands.Choice(name=locale_str("fast", context="speed"), value="fast"),
    # Translators: a choice of the "speed" option of every /… new (no timers at all).
    app_commands.Choice(name=locale_str("off", context="speed"), value="off"),
]
