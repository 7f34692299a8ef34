"""A table: its seats, the engine state, its lock and version. No Discord calls in here.

The table is the in-memory twin of a ``games`` row. Nothing changes it in place: the referee
makes a ``draft()``, changes that, commits it with a version check, and only then ``adopt``s it
(see Referee.change). A failed commit leaves the table exactly as it was.
"""

from __future__ import annotations

import asyncio
import copy
import re
import sys
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from typing import Any

from cogs.table import latest
from cogs.table.common import escape, plain_name
from cogs.table.notes import Note, level_name
from cogs.texts import LANGUAGES, SOURCE, Texts
from db.models import Game as GameRow
from db.snapshots import grow_log
from db.standing_changes import FORGOTTEN_NAME
from db.store import SeatSpec
from rules import get_game
from rules.base import Event, Game, State

T = Texts(__name__)

# A computer player's name as the lobby stores it ("Robo 1 (casual)"): the English words, kept as
# data and worded when shown (``computer_name``), so stored seats need no migration.
ROBO = re.compile(r"Robo (\d{1,3}) \(([a-z_]{1,32})\)")


def computer_name(number: int, level: str) -> str:
    """A computer player's name in the language of the moment."""
    return T.gettext("Robo {number} ({level})", number=number, level=level_name(level))


def shown_name(chosen: str, user_id: int | None, computer_level: str | None) -> str | None:
    """A stored seat name that the referee gave, worded in the language of the moment: a computer
    the lobby seated ("Robo 1 (casual)"), or a person who asked to be forgotten (a seat with no
    person and no computer, kept under the stored marker FORGOTTEN_NAME). None: a name a person
    chose, shown as they chose it."""
    # A forgotten seat that a computer took over when its person left keeps its computer level.
    if user_id is None and chosen == FORGOTTEN_NAME:
        return T.gettext("former player")
    # Only a seat the lobby gave a computer (no person ever sat there) has a computer's name.
    robo = ROBO.fullmatch(chosen) if user_id is None and computer_level else None
    if robo is not None and robo[2] == computer_level:
        return computer_name(int(robo[1]), robo[2])
    return None


# Strings up to this length read from a table's row are shared (sys.intern) between tables: card
# codes, event kinds, JSON keys, phases, speeds, levels. Longer ones (sentences in rows stored before
# the catalogs) are kept as they are: each is one table's own, and interning it would only add an
# entry to the interpreter's table of interned strings.
SHARED_MAX = 40
_intern = sys.intern


def shared(value: Any) -> Any:
    """Decoded JSON with its short strings (keys and values) shared between tables.

    The JSON decoder makes every string of a document anew, so a thousand resumed tables held a
    thousand copies of "kind", "R7", "play"...: about 4 KiB a table, 40% of what one held
    (issue 35, bench --only memory). Interned, each is one object however many tables hold it;
    what the value means is unchanged (equal strings, containers of the same shape). About 25 µs
    for a Zip Zap state: 25 ms of a thousand tables' resume."""
    kind = type(value)  # exact types: JSON gives no subclasses, and this runs for every leaf
    if kind is str:
        return _intern(value) if len(value) <= SHARED_MAX else value
    if kind is list:
        return [shared(v) for v in value]
    if kind is dict:
        return {
            _intern(k) if type(k) is str and len(k) <= SHARED_MAX else k: shared(v) for k, v in value.items()
        }
    return value


def _word(value: str | None) -> str | None:
    """A stored word from a small vocabulary (a speed, a status, a level), shared between tables."""
    return None if value is None else sys.intern(value)


class TableMoved(Exception):
    """A change lost a race with another writer: the table was reloaded and nothing was applied."""


# Slots (here and on Table): a live table and its seats hold their fields in the object itself, no
# dictionary of attributes beside each (issue 35: 260 bytes of a resumed Zip Zap table of four).
@dataclass(slots=True)
class SeatInfo:
    seat: int
    user_id: int | None
    # The name as its owner chose it (their display name when they sat down): input, stored as
    # it is and never shown as it is. What is shown is ``name`` or ``plain_name``.
    chosen_name: str
    computer_level: str | None = None
    prefers_dm: bool = False
    left_at: datetime | None = None

    @property
    def name(self) -> str:
        """The name for message text and embeds (Discord markdown): escaped, so a name like
        "<@id>" or "**" shows as written and pings nobody. What every drawing uses."""
        return escape(self.plain_name)

    @property
    def plain_name(self) -> str:
        """The name for places Discord shows as they are: button and select labels, footers."""
        given = shown_name(self.chosen_name, self.user_id, self.computer_level)
        if given is not None:
            return given
        return plain_name(self.chosen_name, fallback="") or T.gettext("player {number}", number=self.seat + 1)

    @property
    def is_computer(self) -> bool:
        return self.computer_level is not None

    def spec(self) -> SeatSpec:
        return SeatSpec(
            seat=self.seat,
            user_id=self.user_id,
            name=self.chosen_name,
            computer_level=self.computer_level,
            prefers_dm=self.prefers_dm,
            left_at=self.left_at,
        )


def said_once(events: list[Event]) -> list[Event]:
    """The events with each one the timeout before it already told left out: a "timeout" whose
    action is the next event of the same seat ("alice ran out of time and passes.") says what
    happened, and "alice passes." after it read as a second pass (issue 33)."""
    kept: list[Event] = []
    for event in events:
        before = kept[-1] if kept else None
        if before is not None and before.kind == "timeout" and before.seat == event.seat:
            action = str(before.data.get("action", ""))
            if action == event.kind or action.startswith(event.kind + "-"):
                continue
        kept.append(event)
    return kept


# Timeouts in a row after which a person is taken to be away (issue 33: not pinged every turn).
AWAY_AFTER = 2


@dataclass(slots=True)
class Table:
    id: int
    guild_id: int
    channel_id: int
    game: Game[Any]
    host_id: int
    settings: dict[str, Any]  # {"seats": n, "rules": {game options json}, "timers": {name: seconds}}
    speed: str
    seed: int
    status: str = "lobby"
    # What the channel reads (this message, posts, pings, results) is in this language
    # (cogs.texts.LANGUAGES); what one person sees is in theirs (cogs/table/languages.py).
    language: str = SOURCE
    seats: list[SeatInfo] = field(default_factory=list)
    state: State[Any] | None = None
    version: int = 0
    # The version of the latest stored snapshot of ``state`` (db/snapshots.py): the referee
    # writes the full state again once enough actions have passed since.
    snapshot_at: int = 0
    table_message_id: int | None = None
    # The Latest lines as data (cogs/table/latest.py: events' and the table's own; a sentence in
    # rows stored before the catalogs), worded when drawn.
    log: list[Any] = field(default_factory=list)
    logged_at: int = 0  # the version whose events the log last grew by
    # What the latest action added to ``log`` ({"lines", "fresh"}, or None): stored on its row.
    log_added: dict[str, Any] | None = None
    deadline_at: datetime | None = None
    deadline_action: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Computer seat -> the action it has decided on and is "reaching for".
    planned: dict[int, str] = field(default_factory=dict)
    # The game's epoch (GameUI.epoch, e.g. the round) and the version it began at.
    epoch: Any = None
    epoch_since: int = 0
    # Why a table that ended is shown as it is ("Stopped by Bea…"); drawn on its message.
    closed_note: Note | None = None  # why it ended, worded when shown (cogs/table/notes.py)
    # When the channel stopped accepting the table (deleted, or the bot lost access); None if fine.
    unreachable_since: datetime | None = None
    # When someone last acted by hand, per user: no ping for a person who is playing right now.
    active_at: dict[int, datetime] = field(default_factory=dict)
    # Seat -> how many times in a row the referee acted for it on a timeout; a seat out of time
    # twice is away (``away``): no more pings until its person acts again (cogs/table/pings.py).
    timeouts: dict[int, int] = field(default_factory=dict)
    # Loaded by a process that does not own the table (a DM click reached it): it may commit one
    # change, version-checked, and tells the owner; it never times, plays or draws the table.
    foreign: bool = False

    # Fields that belong to this process's handling of the table, not to the game: a draft shares
    # them and adopt() leaves them alone.
    _LOCAL = ("lock", "planned", "active_at", "timeouts", "foreign")

    def draft(self) -> Table:
        """A copy to make a change on. The engine state is copied through its JSON (the one
        representation every engine round-trips exactly), so the draft can be thrown away."""
        state = self.game.from_json(self.state.to_json()) if self.state is not None else None
        return replace(
            self,
            seats=[replace(s) for s in self.seats],
            state=state,
            log=list(self.log),
            settings=copy.deepcopy(self.settings),
        )

    def adopt(self, draft: Table) -> None:
        """Take every game field of ``draft`` (after its change was committed)."""
        for f in fields(self):
            if f.name not in self._LOCAL:
                setattr(self, f.name, getattr(draft, f.name))

    def forget_person(self, user_id: int) -> bool:
        """The person was forgotten (db/forgetting.py): this ended table, kept in memory for its
        History, Rematch and last drawing, shows their seat as the database now has it."""
        changed = False
        names = {s.chosen_name for s in self.seats if s.user_id == user_id and s.chosen_name}
        said = set(self.closed_note.values.values()) if self.closed_note is not None else set()
        if said & names:
            self.closed_note, changed = None, True  # "Stopped by <her name>": the plain ending then
        for seat in self.seats:
            if seat.user_id == user_id:
                seat.user_id, seat.chosen_name, changed = None, FORGOTTEN_NAME, True
        if self.host_id == user_id:
            self.host_id, changed = 0, True
        self.active_at.pop(user_id, None)
        return changed

    @property
    def options(self) -> Any:
        return self.game.parse_options(self.settings.get("rules", {}))

    @property
    def max_seats(self) -> int:
        return int(self.settings.get("seats", self.game.max_players))

    @property
    def live(self) -> bool:
        return self.status in ("lobby", "playing")

    @property
    def host_seat(self) -> SeatInfo | None:
        """The host's seat, if the host still plays here."""
        seat = self.seat_of(self.host_id)
        return self.seats[seat] if seat is not None else None

    def pass_host(self) -> SeatInfo | None:
        """The host left: their powers pass to the next person still seated, whose seat this
        returns (None if nobody)."""
        if self.host_seat is not None:
            return None
        humans = self.humans()
        if not humans or humans[0].user_id is None:
            return None
        self.host_id = humans[0].user_id
        return humans[0]

    def away(self) -> list[int]:
        """The people's seats that ran out of time twice in a row and have not acted since."""
        return [
            s.seat
            for s in self.seats
            if not s.is_computer and s.user_id is not None and self.timeouts.get(s.seat, 0) >= AWAY_AFTER
        ]

    def seat_of(self, user_id: int) -> int | None:
        """The seat this person plays now (not one they left)."""
        for s in self.seats:
            if s.user_id == user_id and not s.is_computer:
                return s.seat
        return None

    def name(self, seat: int | None) -> str:
        """A seat's name for message text and embeds (escaped markdown: see SeatInfo.name)."""
        if seat is None:
            return T.gettext("The referee")
        return self.seats[seat].name

    def plain_name(self, seat: int | None) -> str:
        """A seat's name for button and select labels, placeholders and footers."""
        if seat is None:
            return T.gettext("The referee")
        return self.seats[seat].plain_name

    def humans(self) -> list[SeatInfo]:
        return [s for s in self.seats if not s.is_computer]

    def add_log(self, entries: list[Any], *, fresh: bool = False) -> None:
        """Keep the latest public entries; ``fresh`` starts over (a new deal makes old news stale,
        and a card named in last round's news may now sit in someone's hand)."""
        self.log = grow_log(self.log, entries, fresh=fresh)

    def log_start(self, opening: list[Event]) -> None:
        """The log of a game that has just begun: the start line and the engine's opening events
        (its deal and first flip). The live start, and every replay of the game, begin here."""
        self.log = []
        self.add_log([latest.begins(len(self.seats))] + [e.to_json() for e in opening])

    def log_events(self, events: list[Event]) -> None:
        """The public entries of one action's events, kept as data (cogs/table/latest.py words
        them when drawn). A deal among them starts the log afresh from the deal on. The live
        table, a catch-up by replay and a watched replay all grow their log here, so they read
        alike."""
        if events:
            self.logged_at = self.version
        deal = next((i for i, e in enumerate(events) if e.kind == "deal"), None)
        entries = [e.to_json() for e in said_once(events if deal is None else events[deal:])]
        self.add_log(entries, fresh=deal is not None)
        # What the action's row keeps of the log (db/snapshots.py): only its own entries. Without
        # them a restart rebuilt the Latest lines as of the snapshot, losing every line since.
        added = entries or deal is not None
        self.log_added = {"lines": entries, "fresh": deal is not None} if added else None

    def share_strings(self) -> None:
        """The engine state and the Latest lines with their short strings shared (``shared``),
        as a resumed table's are. For after a deal: the engine made this table's cards anew,
        and without it a table held its own copy of every card code from its second round on.
        The state goes through its JSON, the round trip every draft makes (``draft``)."""
        if self.state is not None:
            self.state = self.game.from_json(shared(self.state.to_json()))
        self.log = shared(self.log)

    def specs(self) -> list[SeatSpec]:
        return [s.spec() for s in self.seats]

    def timer_seconds(self, timer: str) -> float | None:
        """A table option (settings["timers"], e.g. Zap or Trap's lull time) beats the speed's."""
        override = self.settings.get("timers", {}).get(timer)
        if override is not None and self.speed != "off":
            return float(override)
        return self.game.timers.get(self.speed, {}).get(timer)

    @classmethod
    def from_row(cls, row: GameRow) -> Table:
        game = get_game(row.game)
        table = cls(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            game=game,
            host_id=row.host_id,
            settings=shared(dict(row.options)),
            speed=sys.intern(row.speed),
            seed=row.seed,
            status=sys.intern(row.status),
            language=sys.intern(row.language) if row.language in LANGUAGES else SOURCE,
            seats=[
                # A computer's name ("Robo 2 (casual)") is the same at many tables: shared too.
                SeatInfo(
                    s.seat,
                    s.user_id,
                    s.name if s.computer_level is None else shared(s.name),
                    _word(s.computer_level),
                    s.prefers_dm,
                    s.left_at,
                )
                for s in sorted(row.seats, key=lambda s: s.seat)
            ],
            version=row.version,
            snapshot_at=row.state_version if row.state_version is not None else row.version,
            table_message_id=row.table_message_id,
            log=shared(list(row.log or [])),
            deadline_at=_aware(row.deadline_at),
            deadline_action=_word(row.deadline_action),
        )
        if row.state is not None:
            # The engine keeps the strings it is given (card codes in hands, deck and pile).
            table.state = game.from_json(shared(row.state))
        elif row.status == "playing":
            # Store logged why: the actions after the snapshot don't replay (db/snapshots.py).
            raise ValueError(f"table {row.id}: its state can't be rebuilt from its snapshot and actions")
        return table

    def renumbered(self) -> None:
        """Lobby seats stay 0..n-1 in joining order after someone leaves."""
        self.seats = [replace(s, seat=i) for i, s in enumerate(self.seats)]


def _aware(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes even for timezone-aware columns; we store UTC only.
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment
