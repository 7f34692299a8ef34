"""The command tree: every slash command's options are checked before the command runs.

discord.py trusts Discord to have enforced option types, ranges and choices, so a forged
interaction could hand a command a string for a number, a number out of range or an unknown
choice (or a snowflake that is not one, which fails inside discord.py before any error handler).
Checking each option against the command's own declared parameters keeps that one rule in one
place, for every command present and future.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as Kind

from cogs.table.common import NOBODY, RESTARTING, escape
from cogs.table.languages import speak_to
from cogs.table.rendered import drop_answer_handle
from cogs.texts import Texts

log = logging.getLogger(__name__)
T = Texts(__name__)

SNOWFLAKE_KINDS = {Kind.user, Kind.channel, Kind.role, Kind.mentionable, Kind.attachment}


def _bad_value(param: Any, value: Any) -> str | None:
    """Why ``value`` does not fit ``param``, or None when it does."""
    kind = param.type
    name = param.display_name
    if kind is Kind.integer and (isinstance(value, bool) or not isinstance(value, int)):
        return T.gettext("`{name}` must be a whole number.", name=name)
    if kind is Kind.number and (isinstance(value, bool) or not isinstance(value, int | float)):
        return T.gettext("`{name}` must be a number.", name=name)
    if kind is Kind.boolean and not isinstance(value, bool):
        return T.gettext("`{name}` must be true or false.", name=name)
    if kind is Kind.string and not isinstance(value, str):
        return T.gettext("`{name}` must be text.", name=name)
    if kind in SNOWFLAKE_KINDS and not str(value).isdigit():
        return T.gettext("`{name}` must be a {kind}.", name=name, kind=kind.name)
    if kind in (Kind.integer, Kind.number):
        if param.min_value is not None and value < param.min_value:
            return T.gettext("`{name}` must be at least {least}.", name=name, least=param.min_value)
        if param.max_value is not None and value > param.max_value:
            return T.gettext("`{name}` must be at most {most}.", name=name, most=param.max_value)
    if param.choices and value not in [choice.value for choice in param.choices]:
        allowed = ", ".join(str(choice.value) for choice in param.choices)
        return T.gettext("`{name}` must be one of: {allowed}.", name=name, allowed=allowed)
    return None


def invalid_options(tree: app_commands.CommandTree[Any], data: dict[str, Any]) -> str | None:
    """A sentence saying what is wrong with a slash command's options, or None if nothing is."""
    try:
        command, options = tree._get_app_command_options(data)  # type: ignore[arg-type]
    except (app_commands.AppCommandError, KeyError, TypeError, ValueError):
        return T.gettext("That isn't a command I know.")
    if not isinstance(command, app_commands.Command):
        return None
    params = {p.display_name: p for p in command.parameters}
    given = set()
    for option in options:
        if not isinstance(option, dict) or not isinstance(option.get("name"), str):
            return T.gettext("That command arrived malformed.")
        param = params.get(option["name"])
        if param is None:
            # A forged name: shown escaped, not in a code span a back-tick could close.
            return T.gettext(
                "{option} isn't an option of /{command}.",
                option=escape(option["name"][:32]),
                command=command.qualified_name,
            )
        given.add(param.display_name)
        problem = _bad_value(param, option.get("value"))
        if problem is not None:
            return problem
    missing = [p.display_name for p in command.parameters if p.required and p.display_name not in given]
    if missing:
        return T.gettext("/{command} needs `{option}`.", command=command.qualified_name, option=missing[0])
    return None


class RefereeTree(app_commands.CommandTree[Any]):
    async def _call(self, interaction: discord.Interaction[Any]) -> None:
        # Every slash command's interaction, once its command has run, as each button's
        # (cogs/table/buttons.py): its answer handle no longer holds it in a reference cycle, which
        # kept 200 `/… new` interactions alive past their games' end in the bench (issue 35).
        try:
            await super()._call(interaction)
        finally:
            drop_answer_handle(interaction)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        # Everything the command says from here on is in its person's language (the check and
        # the command run in the interaction's own task): cogs/table/languages.py.
        speak_to(interaction)
        if interaction.type is not discord.InteractionType.application_command:
            return True
        referee = getattr(interaction.client, "referee", None)
        if referee is not None and referee.draining:
            # Shutting down: every command answers the same and makes or changes nothing.
            try:
                await interaction.response.send_message(
                    T.gettext(RESTARTING), ephemeral=True, allowed_mentions=NOBODY
                )
            except discord.HTTPException:
                log.info("could not answer a command while restarting")
            return False
        data: dict[str, Any] = dict(interaction.data) if isinstance(interaction.data, dict) else {}
        if data.get("type", 1) != 1:
            return True  # context menus carry no options
        problem = invalid_options(self, data)
        if problem is None:
            return True
        try:
            await interaction.response.send_message(
                T.gettext("{problem} Nothing happened.", problem=problem),
                ephemeral=True,
                allowed_mentions=NOBODY,
            )
        except discord.HTTPException:
            log.info("could not answer a malformed command")
        return False
