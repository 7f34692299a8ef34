"""The engine protocol every game implements.

Modelled on OpenSpiel's State API and python-chess: plain typed Python, no Discord, no asyncio,
no database. The referee (cogs/) only ever talks to a game through these types.

Conventions:
- A *seat* is an int from 0 to players-1, clockwise. ``None`` as a seat means the referee itself
  (system actions such as a stall or an idle leader), or the spectator for ``view``.
- An *action* is a short string in the game's own notation ("R4", "R4+Z", "c3>c4"). Strings keep
  custom_ids, recorded games and scenario files readable and trivially serialisable.
- ``apply`` either changes the state and returns public events, or raises ``IllegalAction`` and
  leaves the state exactly as it was.
- ``view(seat)`` is the only way hidden information leaves the engine: the Discord layer and the
  computer players see views, never the state. Each game types its view (a TypedDict), so a
  misspelt key is a type error, not a KeyError in the middle of a game; at run time a view is
  still a plain JSON-able dict, which is how scenario files and tests read it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar

# The rules documents' translations: locales/<lang>/rules/<game>/<name>, each with the structure of
# the English beside the engine (the same ``- `` items in the same order, the same ``key:``
# prefixes and ``## key`` headings, the same placeholders: tests/texts/test_rules_documents.py), so
# the engine reads a translation exactly as it reads the English. The language is a code the
# caller hands in (the Discord layer's, cogs.texts.language()); the engine itself knows none.
LOCALES = Path(__file__).resolve().parents[1] / "locales"
SOURCE_LANGUAGE = "en"

Action = str
JSON = dict[str, Any]
# What a seat sees: each game's TypedDict. Covariant for State (a game's view is a view),
# contravariant for ComputerPlayer (a player of one game takes that game's view).
V = TypeVar("V", bound=Mapping[str, Any], covariant=True)
V_contra = TypeVar("V_contra", bound=Mapping[str, Any], contravariant=True)


class IllegalAction(Exception):
    """An action the rules do not allow now, as data: ``code`` names the rule it breaks
    ("not_your_turn", "card_gone") and ``params`` its details (seat numbers, card codes, numbers),
    which the table words in the reader's language (the game cog's ``refusal``).
    """

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params: JSON = params


class OptionError(ValueError):
    """Table options the game refuses, as data: ``code`` says why and ``params`` with what, worded
    for people by the table in their language (cogs/table/options.py). The English sentence is
    the error's text (``str(error)``), for scenario files and the command line.

    Codes and their params: ``unknown`` (``options``: the names the game has not), ``not_a_choice``
    (``option``, ``value``, ``choices``), ``out_of_range`` (``option``, ``low``, ``high``, and
    ``unset`` when leaving it out is allowed), ``not_a_flag`` (``option``), and ``no_sets`` (Zap or
    Trap: a deck too small for anyone to hold a set).
    """

    def __init__(self, code: str, message: str, /, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params: JSON = params


@dataclass(frozen=True)
class Event:
    """Something that happened, public to everyone at the table, as data.

    ``kind`` is the message id (what happened: "played", "round_over"), ``seat`` who did it (None:
    the referee), ``data`` its parameters: seat numbers, card codes, numbers, never a sentence
    and never a name. The game's cog words it in the reader's language with the seats' names as
    they are when it is shown, so a recorded game can be shown later in any language.
    """

    kind: str
    seat: int | None = None
    data: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"kind": self.kind, "seat": self.seat, "data": self.data}

    @classmethod
    def from_json(cls, data: JSON) -> Event:
        """An event as stored; one stored before the engines spoke in data also has the English
        sentence it was shown with (``text``), which is not kept: the game words it again."""
        return cls(data["kind"], data.get("seat"), dict(data.get("data") or {}))


@dataclass(frozen=True)
class QuietAction:
    """What the referee should do if nothing happens for a while.

    ``timer`` names the table-speed setting that gives the delay ("stall", "idle", "next_round");
    ``action`` is the system action to apply (with seat ``None``) when that delay has passed
    with no other accepted action.
    """

    timer: str
    action: Action


@dataclass(frozen=True)
class Placement:
    seat: int
    place: int  # 1 = winner; equal places share
    points: int  # the game's own score for this seat (its meaning is the game's)


@dataclass(frozen=True)
class Result:
    """Final outcome: every seat's place and points, the input to leaderboards and ratings.

    ``how`` says how the game ended, as data (a code such as "last_spy", with ``details``: seat
    numbers and numbers), which the game's cog words.
    """

    placements: tuple[Placement, ...]
    how: str = ""
    details: JSON = field(default_factory=dict)

    @property
    def winners(self) -> list[int]:
        return [p.seat for p in self.placements if p.place == 1]

    def to_json(self) -> JSON:
        return {
            "placements": [{"seat": p.seat, "place": p.place, "points": p.points} for p in self.placements],
            "how": self.how,
            "details": self.details,
        }


class State(ABC, Generic[V]):
    """One game in progress. Subclasses are plain data plus rules; see the module docstring."""

    players: int

    @abstractmethod
    def legal_actions(self, seat: int | None) -> list[Action]:
        """Every action ``seat`` may take now (``None``: system actions), in a stable order."""

    @abstractmethod
    def apply(self, seat: int | None, action: Action) -> list[Event]:
        """Apply the action or raise IllegalAction (state unchanged)."""

    @abstractmethod
    def view(self, seat: int | None) -> V:
        """JSON-able dict of exactly what ``seat`` may see (``None``: spectator)."""

    @abstractmethod
    def quiet_actions(self) -> list[QuietAction]:
        """What should happen after a quiet period, soonest-relevant first; empty if nothing."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result | None:
        """The outcome once ``is_over()``; None before."""

    @abstractmethod
    def to_json(self) -> JSON: ...

    def describe(self, action: Action) -> str:
        """A player-readable name for an action ("play the red 4"); games override."""
        return action


S = TypeVar("S", bound=State[Any])


class ComputerPlayer(Protocol[V_contra]):
    """A computer player decides from its own view and legal actions only."""

    level: str

    def choose(self, view: V_contra, legal: list[Action], rng: random.Random) -> Action | None:
        """The action it wants to take now, or None to wait."""
        ...

    def reaction_time(self, view: V_contra, action: Action, rng: random.Random) -> float:
        """Seconds a person at this level would take before doing ``action``."""
        ...


class Game(ABC, Generic[S]):
    """A game module's entry point: options, new games, loading, computer players."""

    key: ClassVar[str]  # "zipzap": used in custom_ids, the database and the CLI
    title: ClassVar[str]  # "Zip Zap"
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # Table-speed name -> timer name -> seconds (None: that timer is off at this speed).
    timers: ClassVar[dict[str, dict[str, float | None]]]

    @abstractmethod
    def parse_options(self, data: JSON) -> Any:
        """Validated options object from JSON (defaults filled in); ValueError with a reason."""

    @abstractmethod
    def options_to_json(self, options: Any) -> JSON: ...

    @abstractmethod
    def new_game(self, players: int, options: Any, seed: int, deal: JSON | None = None) -> S:
        """A fresh game; ``deal`` fixes the shuffle for scenarios and tutorials."""

    @abstractmethod
    def from_json(self, data: JSON) -> S: ...

    @abstractmethod
    def computer_player(self, level: str, **settings: Any) -> ComputerPlayer[Any]:
        """A computer player; ValueError for an unknown level."""

    computer_levels: ClassVar[tuple[str, ...]]

    @abstractmethod
    def rules_text(self, lang: str = SOURCE_LANGUAGE) -> str:
        """The rules as players read them, Markdown, for ``/<game> rules``, in ``lang`` where a
        translation exists (``game_document``)."""

    @abstractmethod
    def house_rulings(self, options: Any, lang: str = SOURCE_LANGUAGE) -> list[str]:
        """Every house ruling in force with these options, one sentence each, in ``lang`` where
        a translation exists."""


def packaged_text(package: str, name: str) -> str:
    """A Markdown file shipped beside a game's engine as package data (its rules text, its fixed
    rulings). Read once, at import: a missing file is a packaging bug and should fail loudly."""
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def translated_path(package: str, name: str, lang: str) -> Path:
    """Where a rules document's translation into ``lang`` is kept."""
    return LOCALES / lang / "rules" / package.rsplit(".", 1)[-1] / name


@cache
def game_document(package: str, name: str, lang: str = SOURCE_LANGUAGE) -> str:
    """A game's rules document (``rules.md``, ``rulings.md``, ``option_rulings.md``) in ``lang``:
    its translation where one is kept, else the English shipped with the engine. Read once per
    process and language."""
    if lang != SOURCE_LANGUAGE:
        path = translated_path(package, name, lang)
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return packaged_text(package, name)


def markdown_items(text: str) -> list[str]:
    """The ``- `` items of a Markdown list, one string each (continuation lines joined), in order:
    how a rulings file becomes the sentences ``house_rulings`` returns."""
    items: list[str] = []
    for line in text.splitlines():
        if line.startswith("- "):
            items.append(line[2:].strip())
        elif line.startswith("  ") and items and line.strip():
            items[-1] += " " + line.strip()
    return items
