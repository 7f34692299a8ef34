"""What the table says about itself, kept as data until it is shown: a computer player's level,
the lobby's footer notes ("Bea joined.") and why a table ended ("Stopped by Bea. No results were
recorded.").

Such a note is made when something happens, but read later and by others: the lobby's footer by
the whole channel (the table's language), the same words to the clicker privately (theirs), a
closed table's message at every redraw, and the operator's log in English. So a ``Note`` keeps a
code and its values (names as people chose them, seat numbers, a level's id) and ``worded`` makes
its sentence in the language spoken at the moment it is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from cogs.table.common import markdown_name, plain_name
from cogs.texts import Texts

T = Texts(__name__)


def level_name(level: str) -> str:
    """A computer player's level in the language spoken now (the engines name them by id:
    "casual", "sharp", "thoughtful", "easy", "medium", "hard"); an unknown one as it is."""
    # Translators: a computer player's level, in "Robo 1 ({level})" and "Add computer: {level}":
    # one short lowercase word.
    names = {
        "casual": T.pgettext("computer level", "casual"),
        "sharp": T.pgettext("computer level", "sharp"),
        "thoughtful": T.pgettext("computer level", "thoughtful"),
        "easy": T.pgettext("computer level", "easy"),
        "medium": T.pgettext("computer level", "medium"),
        "hard": T.pgettext("computer level", "hard"),
    }
    return names.get(level, level)


@dataclass(frozen=True)
class Note:
    """One thing said about a table: ``code`` names the sentence, ``values`` fill it in (raw:
    names are made safe for where they are shown when worded)."""

    code: str
    values: dict[str, str | int] = field(default_factory=dict)


def note(code: str, **values: str | int) -> Note:
    return Note(code, values)


def _worded(n: Note) -> str:
    v = n.values
    code = n.code
    # The lobby's footer (plain text: names as plain_name).
    if code == "joined":
        return T.gettext("{name} joined.", name=plain_name(str(v["name"])))
    if code == "left":
        return T.gettext("{name} left.", name=plain_name(str(v["name"])))
    if code == "new_host":
        # As the seat shows the name (SeatInfo.plain_name): an empty one by the seat's number.
        seat = int(v["seat"]) + 1
        name = plain_name(str(v["name"]), fallback="") or T.gettext("player {number}", number=seat)
        return T.gettext("{name} is the host now.", name=name)
    if code == "computer_sat":
        return T.gettext("A {level} computer player sat down.", level=level_name(str(v["level"])))
    if code == "swapped":
        return T.gettext("Seats {first} and {second} swapped.", first=v["first"], second=v["second"])
    # Why a table ended (a closed table's message: Markdown, names as markdown_name).
    if code == "cancelled_by":
        return T.gettext("Cancelled by {name}.", name=markdown_name(str(v["name"])))
    if code == "lobby_emptied":
        return T.gettext("Everyone left, so the table was cancelled.")
    if code == "game_emptied":
        return T.gettext("Everyone left, so the game was stopped. No results were recorded.")
    if code == "stopped_by":
        return T.gettext("Stopped by {name}. No results were recorded.", name=markdown_name(str(v["name"])))
    if code == "abandoned":
        return T.gettext(
            "This table's channel was deleted or the bot lost access to it, so the game was "
            "abandoned. No results were recorded."
        )
    raise ValueError(f"no wording for the table note {code!r}")


def worded(notes: Note | Sequence[Note] | None) -> str:
    """The notes as one text in the language spoken now ("Bea left. Al is the host now."); empty
    for none."""
    if notes is None:
        return ""
    if isinstance(notes, Note):
        return _worded(notes)
    return " ".join(_worded(n) for n in notes)
