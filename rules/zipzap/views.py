"""What a seat sees of a Zip Zap game: the typed form of ``ZipZapState.view``.

At run time a view is the plain JSON-able dict ``view()`` returns; these types only let the cog
and the computer players read it without guessing at keys.
"""

# No ``from __future__ import annotations`` here: TypedDict reads NotRequired[...] from evaluated
# annotations, so with string annotations every key would count as required at run time
# (ZipZapView.__optional_keys__ would be empty).
from typing import Literal, NotRequired, TypedDict

from rules.zipzap.options import Scoring

# "play" while a round is on, "between_rounds" until the next deal, "over" after the last round.
Phase = Literal["play", "between_rounds", "over"]


class ZipZapView(TypedDict):
    """The spectator's view (``seat`` None); a seated player's view adds ``hand`` and ``can_zap``."""

    game: Literal["zipzap"]
    seat: int | None
    players: int
    phase: Phase
    round: int
    rounds: int  # how many rounds the game lasts
    scoring: Scoring
    top: str | None  # the card on top of the pile; None before the first flip
    top_seat: int | None  # who played the top card; None: flipped from the deck
    control: int | None  # the seat that may lead any card now
    first_player: int
    hand_counts: list[int]
    zap_used: list[bool]
    deck_count: int
    played: list[str]  # this round's pile, oldest first, flipped cards included
    out_of_game: list[str]  # the solid suits out of the game
    scores: list[int]
    last_round_points: list[int] | None  # None until a round has been scored
    went_out: int | None  # who went out in the round just played
    hand: NotRequired[list[str]]  # only a seated player's view: their own hand, sorted
    can_zap: NotRequired[bool]  # only a seated player's view: whether "Z" is legal now
