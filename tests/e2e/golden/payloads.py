"""What the bot would send to Discord, as the JSON body of the REST call, from the keywords it sends
with: each function here hands those keywords to the discord.py function that builds that body
(``handle_message_parameters`` for a channel message, an edit or a follow-up,
``interaction_message_response_params`` for an interaction's answer), exactly as discord.py's own
``send``/``edit``/``send_message``/``edit_message`` do, with the bot's default allowed mentions
(nobody, bot.py).

``FakeInteraction`` lets the cogs' real answering code (``send_rules``, ``show_full_rules``, the
History button, ``/help``) run without Discord: it keeps the keywords each answer was sent with.
Nothing here awaits anything real, so ``run`` drives such a coroutine to its end in one step.
"""

from __future__ import annotations

import json
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, cast

import discord
from discord.http import MultipartParameters, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import interaction_message_response_params

from cogs.table.common import NOBODY

JSON = dict[str, Any]

CHANNEL_MESSAGE = 4  # an interaction answered with a new message
UPDATE_MESSAGE = 7  # an interaction answered by editing the message clicked


def run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine that awaits nothing real (only ``FakeInteraction``s and stubs) to its end."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("the coroutine awaited something real: it cannot be run without an event loop")


def _body(params: MultipartParameters) -> JSON:
    """The JSON body: the payload, or with files its ``payload_json`` part, plus what each file is.
    A picture's bytes are left out (Pillow draws them, they are not words); a text file's words
    are kept (Trap's move record, a long History)."""
    with params:
        if params.payload is not None:
            body: JSON = dict(params.payload)
        else:
            assert params.multipart, "a body without a payload is multipart"
            body = json.loads(params.multipart[0]["value"])
        files = []
        for file in params.files or []:
            entry: JSON = {"filename": file.filename}
            if file.filename.endswith((".txt", ".csv")):
                fp = file.fp
                at = fp.tell()
                entry["text"] = fp.read().decode()
                fp.seek(at)
            files.append(entry)
    if files:
        body["(files)"] = files
    return body


def channel_send(**kwargs: Any) -> JSON:
    """``channel.send(**kwargs)`` (Messageable.send), without its random nonce."""
    content = kwargs.pop("content", None)
    params = handle_message_parameters(
        content=str(content) if content is not None else None,
        tts=False,
        file=kwargs.pop("file", MISSING),
        files=kwargs.pop("files", MISSING),
        embed=kwargs.pop("embed", MISSING),
        embeds=kwargs.pop("embeds", MISSING),
        view=kwargs.pop("view", None),
        allowed_mentions=kwargs.pop("allowed_mentions", None),
        previous_allowed_mentions=NOBODY,
    )
    assert not kwargs, f"keywords not modelled: {sorted(kwargs)}"
    return _body(params)


def message_edit(**kwargs: Any) -> JSON:
    """``message.edit(**kwargs)`` (PartialMessage.edit)."""
    params = handle_message_parameters(
        content=kwargs.pop("content", MISSING),
        embed=kwargs.pop("embed", MISSING),
        embeds=kwargs.pop("embeds", MISSING),
        attachments=kwargs.pop("attachments", MISSING),
        view=kwargs.pop("view", MISSING),
        allowed_mentions=kwargs.pop("allowed_mentions", MISSING),
        previous_allowed_mentions=NOBODY,
    )
    assert not kwargs, f"keywords not modelled: {sorted(kwargs)}"
    return _body(params)


def _flags(ephemeral: bool) -> Any:
    if not ephemeral:
        return MISSING
    flags = discord.MessageFlags._from_value(0)
    flags.ephemeral = True
    return flags


def response_send(content: Any = None, **kwargs: Any) -> JSON:
    """``interaction.response.send_message(content, **kwargs)``."""
    params = interaction_message_response_params(
        type=CHANNEL_MESSAGE,
        content=content,
        tts=False,
        embeds=kwargs.pop("embeds", MISSING),
        embed=kwargs.pop("embed", MISSING),
        file=kwargs.pop("file", MISSING),
        files=kwargs.pop("files", MISSING),
        previous_allowed_mentions=NOBODY,
        allowed_mentions=kwargs.pop("allowed_mentions", MISSING),
        flags=_flags(kwargs.pop("ephemeral", False)),
        view=kwargs.pop("view", MISSING),
    )
    assert not kwargs, f"keywords not modelled: {sorted(kwargs)}"
    return _body(params)


def response_edit(**kwargs: Any) -> JSON:
    """``interaction.response.edit_message(**kwargs)``."""
    params = interaction_message_response_params(
        type=UPDATE_MESSAGE,
        content=kwargs.pop("content", MISSING),
        embed=kwargs.pop("embed", MISSING),
        embeds=kwargs.pop("embeds", MISSING),
        view=kwargs.pop("view", MISSING),
        attachments=kwargs.pop("attachments", MISSING),
        previous_allowed_mentions=NOBODY,
        allowed_mentions=kwargs.pop("allowed_mentions", MISSING),
    )
    assert not kwargs, f"keywords not modelled: {sorted(kwargs)}"
    return _body(params)


def followup_send(content: Any = MISSING, **kwargs: Any) -> JSON:
    """``interaction.followup.send(content, **kwargs)`` (Webhook.send)."""
    params = handle_message_parameters(
        content=MISSING if content is None else content,
        tts=False,
        file=kwargs.pop("file", MISSING),
        files=kwargs.pop("files", MISSING),
        embed=kwargs.pop("embed", MISSING),
        embeds=kwargs.pop("embeds", MISSING),
        flags=_flags(kwargs.pop("ephemeral", False)),
        view=kwargs.pop("view", MISSING),
        allowed_mentions=kwargs.pop("allowed_mentions", MISSING),
        previous_allowed_mentions=NOBODY,
    )
    assert not kwargs, f"keywords not modelled: {sorted(kwargs)}"
    return _body(params)


@dataclass
class FakeResponse:
    sent: list[JSON]
    done: bool = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: Any = None, **kwargs: Any) -> None:
        assert not self.done, "an interaction is answered once"
        self.done = True
        self.sent.append(response_send(content, **kwargs))

    async def edit_message(self, **kwargs: Any) -> None:
        assert not self.done, "an interaction is answered once"
        self.done = True
        self.sent.append(response_edit(**kwargs))


@dataclass
class FakeFollowup:
    sent: list[JSON]

    async def send(self, content: Any = MISSING, **kwargs: Any) -> None:
        self.sent.append(followup_send(content, **kwargs))


@dataclass
class FakeInteraction:
    """An interaction answered only through ``response`` and ``followup``; ``sent`` is the JSON
    body of each answer, in order. ``client.referee`` is the referee (or whatever finds the table
    in the channel: ``table_in``); ``message`` the message clicked, if any."""

    client: Any
    id: int = 0
    user: Any = None
    message: Any = None
    channel: Any = None
    channel_id: int = 1
    guild_id: int | None = 1
    data: JSON = field(default_factory=dict)
    app_permissions: Any = None
    sent: list[JSON] = field(default_factory=list)
    # The person's Discord app language (None: Discord sent none, as in the English golden data).
    locale: discord.Locale | None = None

    def __post_init__(self) -> None:
        self.response = FakeResponse(self.sent)
        self.followup = FakeFollowup(self.sent)

    @property
    def typed(self) -> discord.Interaction[Any]:
        """This fake as the type the bot's code takes (it has everything that code reads)."""
        return cast("discord.Interaction[Any]", self)


def invoke(command: Any, cog: Any, interaction: FakeInteraction) -> None:
    """A slash command's own code (``app_commands.Command.callback``), answered to ``interaction``."""
    run(command.callback(cog, interaction.typed))
