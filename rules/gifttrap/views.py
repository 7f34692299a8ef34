"""What a seat (or a spectator) sees of a GiftTRAP table: ``GiftTrapState.view(seat)``, typed.

At run time a view is a plain JSON-able dict; these TypedDicts say exactly which keys it has and
what they hold, so a misspelt key in a cog or a computer player is a type error. Seats are 0-based;
gifts are named by their space on the table, 1 to players + 1.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from rules.gifttrap.tokens import Token

# "pack" (the dealer picks), "choosing", "reveal", "between_rounds" or "over".
Phase = Literal["pack", "choosing", "reveal", "between_rounds", "over"]
# Why a revealed gift's moves differ from its token: a GiftTRAP card on it (nobody moves), the
# giver's Give More card (the giver's move doubled), the receiver's Get More card (theirs doubled).
Why = Literal["gifttrap", "give_more", "get_more"]
# Where a player's tokens are: token -> space (only the tokens placed so far while choosing).
TokenPlaces = dict[Token, int]


class LaidOutGift(TypedDict):
    """A gift on the table this round."""

    space: int
    gift: str  # its id in gifts.json
    name: str
    emoji: str
    tags: list[str]


class TrappedGift(TypedDict):
    """A GiftTRAP card played this round."""

    space: int
    gift: str
    seat: int  # who played it
    at: int  # how many gifts had been revealed when it was played


class RevealedGift(TypedDict):
    """One received gift, unwrapped: who, what, the token on it and how both markers moved."""

    receiver: int
    giver: int
    space: int
    gift: str
    name: str
    emoji: str
    token: Token | None  # None: NO MATCH
    points: int  # 3, 2, 1, -4, or -1 for NO MATCH
    trapped: bool
    give_more: bool
    get_more: bool
    receiver_points: int  # the moves after doubling, 0 when trapped
    giver_points: int
    receiver_moved: int  # what the markers really moved, after stopping at GO or GIFTED
    giver_moved: int
    get: int  # the receiver's GET marker after the move
    give: int  # the giver's GIVE marker after the move
    why: list[Why]  # the GiftTRAP and doubling reasons, in that order


class PastGift(TypedDict):
    """What the public history keeps of a revealed gift (its name and emoji are in the layout)."""

    receiver: int
    giver: int
    space: int
    token: Token | None
    points: int
    trapped: bool
    give_more: bool
    get_more: bool
    receiver_points: int
    giver_points: int


class PastRound(TypedDict):
    """An earlier round, public record: computer players learn tastes from it."""

    round: int
    dealer: int
    pack: int
    layout: list[LaidOutGift]
    revealed: list[PastGift]
    rankings: list[TokenPlaces]  # every seat's four tokens
    trapped: list[TrappedGift]
    give_track: list[int]  # the markers at the round's end
    get_track: list[int]
    winners: list[int]


class MyChoices(TypedDict):
    """A seated player's own secret choices this round."""

    gives: list[int | None]  # per receiver seat, the space given (None for yourself and not yet)
    give_more: int | None  # the receiver whose gift carries your Give More card
    ranks: TokenPlaces  # placed so far
    get_more: int | None  # the giver whose gift to you has your Get More card under it
    ready: bool
    to_give: list[int]  # receivers still without a gift (empty outside choosing)
    to_rank: list[Token]  # tokens not yet placed (empty outside choosing)
    gifttrap_available: bool  # whether you may play GiftTRAP now


class GiftTrapView(TypedDict):
    """A seat's view, or the spectator's (``seat`` None, and no ``my``)."""

    game: Literal["gifttrap"]
    seat: int | None
    players: int
    phase: Phase
    round: int  # 1-based
    dealer: int
    pack: int | None  # 1-4, None before the pick
    price: str | None  # "$" to "$$$$"
    default_pack: int | None  # what the referee picks if the dealer's time runs out (only then)
    layout: list[LaidOutGift]  # empty before the pick
    ready: list[bool]  # per seat: locked in this round
    filled: list[bool]  # per seat: the referee completed their choices when time ran out
    track_length: int  # the GIFTED space (GO is 0)
    give_track: list[int]
    get_track: list[int]
    strategy_cards: bool  # Give More, Get More and GiftTRAP in play
    gifttrap_used: list[bool]  # per seat: their once-a-game GiftTRAP card is spent
    trapped: list[TrappedGift]
    reveal_order: list[list[int]]  # [receiver, giver] pairs in reveal order (public)
    reveal_next: int  # how many have been revealed
    revealed: list[RevealedGift]  # this round's, oldest first
    rankings: list[TokenPlaces | None]  # per seat, once turned up in the reveal
    history: list[PastRound]
    winners: list[int]  # empty until the game is over
    my: NotRequired[MyChoices]  # only in a seated player's own view
