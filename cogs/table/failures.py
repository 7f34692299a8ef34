"""Every Discord failure the bot meets, classified in one place.

Each call site asks ``classify(error)`` and acts on the kind, never on raw status codes, so what a
person sees and what the table becomes for, say, a deleted message is decided once (spellbot keeps
the same habit). The codes are Discord's JSON error codes.
"""

from __future__ import annotations

import enum

import discord

from cogs.table.layout import LayoutTooLarge

# https://discord.com/developers/docs/topics/opcodes-and-status-codes#json
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_MEMBER = 10007
UNKNOWN_WEBHOOK = 10015  # an interaction token past its 15 minutes
UNKNOWN_INTERACTION = 10062  # answered after Discord's 3-second window
MISSING_ACCESS = 50001
CANNOT_DM = 50007
MISSING_PERMISSIONS = 50013
INVALID_FORM_BODY = 50035


class Failure(enum.Enum):
    # The interaction can no longer be answered (too late, or its token expired): say it another way.
    INTERACTION_GONE = "interaction gone"
    # The message we edit was deleted: post it again.
    MESSAGE_GONE = "message gone"
    # The channel was deleted or the bot can no longer see it or post there: the table is unreachable.
    CHANNEL_GONE = "channel gone"
    NO_PERMISSION = "no permission"
    # The person closed their DMs: fall back to an ephemeral panel.
    DM_CLOSED = "dm closed"
    MEMBER_GONE = "member gone"
    # An edit refused over the attachments it kept (an id the message no longer holds: it was
    # changed elsewhere meanwhile): send it once more with every picture uploaded.
    ATTACHMENTS_REFUSED = "attachments refused"
    # Passing trouble (429, 5xx, a dropped connection): try again later, change nothing.
    TRANSIENT = "transient"
    # A drawing with more than a message can hold, even after everything that may give way did
    # (cogs/table/layout.py): sending it again would fail the same way, so it is not retried.
    # The message keeps what it showed, a click is told why, and the log says what was too large;
    # the next change draws afresh.
    TOO_LARGE = "too large"
    OTHER = "other"

    @property
    def unreachable(self) -> bool:
        """Whether the table's channel can no longer show the game."""
        return self in (Failure.CHANNEL_GONE, Failure.NO_PERMISSION)


def classify(error: BaseException) -> Failure:
    if isinstance(error, LayoutTooLarge):
        return Failure.TOO_LARGE
    if not isinstance(error, discord.HTTPException):
        # aiohttp and OS errors: the connection dropped; nothing Discord said about us.
        return Failure.TRANSIENT
    code = getattr(error, "code", 0)
    status = getattr(error, "status", 0)
    if code in (UNKNOWN_INTERACTION, UNKNOWN_WEBHOOK):
        return Failure.INTERACTION_GONE
    if code == UNKNOWN_MESSAGE:
        return Failure.MESSAGE_GONE
    if code in (UNKNOWN_CHANNEL, MISSING_ACCESS):
        return Failure.CHANNEL_GONE
    if code == MISSING_PERMISSIONS:
        return Failure.NO_PERMISSION
    if code == CANNOT_DM:
        return Failure.DM_CLOSED
    if code == UNKNOWN_MEMBER:
        return Failure.MEMBER_GONE
    text = str(getattr(error, "text", "")).lower()
    if status == 400 and code == INVALID_FORM_BODY and "attachment" in text:
        # Discord names the field it refused ("In attachments.0.id: …"; SimCord: "attachments:
        # unknown attachment id …", or a component's attachment:// that resolves to nothing).
        return Failure.ATTACHMENTS_REFUSED
    if status == 429 or status >= 500:
        return Failure.TRANSIENT
    if status == 404:
        # A 404 with no code we know: the thing addressed is gone. For an interaction callback that
        # is an expired token; the caller knows which it addressed.
        return Failure.MESSAGE_GONE
    if status == 403:
        return Failure.NO_PERMISSION
    return Failure.OTHER


# What a table needs the bot to be allowed in its channel, by the name Discord's settings show.
NEEDED = {
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
}
NEEDED_FOR_FILES = {"attach_files": "Attach Files"}
NEEDED_FOR_THREADS = {
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}


# What the invite asks for: every permission `/… new` checks, and Read Message History (replies
# and the thread line read the channel's messages). The README gives the same number.
INVITE = discord.Permissions(
    **dict.fromkeys([*NEEDED, *NEEDED_FOR_FILES, *NEEDED_FOR_THREADS], True), read_message_history=True
)
INVITE_SCOPES = ("bot", "applications.commands")


def invite_url(client_id: int) -> str:
    """The link that adds the bot to a server with every permission a table needs."""
    return discord.utils.oauth_url(client_id, permissions=INVITE, scopes=INVITE_SCOPES)


def missing(permissions: discord.Permissions | None, needed: dict[str, str]) -> list[str]:
    """The names of the permissions in ``needed`` that the bot lacks (none if unknown)."""
    if permissions is None:
        return []
    return [label for flag, label in needed.items() if not getattr(permissions, flag, False)]
