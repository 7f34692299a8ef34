"""What a Spy Trap seat, or a spectator, sees: ``SpyTrapState.view`` returns a ``SpyTrapView``.

At run time a view is a plain JSON-able dict (scenario files and tests read it as one); these
TypedDicts say exactly which keys it has and what each holds, so the Discord cog and the computer
players are checked against them. ``view(None)`` is the spectator's view; a seat's view adds the
keys marked "seat views only". Seats are 0-based; countries are written by name ("French"); cards
by code (cards.py).
"""

# No ``from __future__ import annotations`` here: with real (not string) annotations, Python 3.11
# records which keys are NotRequired (``__required_keys__``), so tests can check a view at run time.
from typing import Literal, NotRequired, TypedDict

from rules.spytrap.cards import CardType

# A round runs through piles, bidding and drawing; "over" once the game has ended.
Phase = Literal["pile", "bid", "draw", "over"]
EndReason = Literal["files", "challenge", "last_spy", "round_limit", "no_cards"]
PromptKind = Literal["steal", "guess", "immunity", "own_guess", "keep", "challenge", "swap"]
# What a seat must do now (its ``legal_hint``): build its pile, open the bidding, raise or pass,
# draw, or answer its prompt (the prompt's kind); the cog words it.
Hint = Literal["pile", "open", "raise", "draw", PromptKind]
PROMPT_KINDS: tuple[PromptKind, ...] = (
    "steal",
    "guess",
    "immunity",
    "own_guess",
    "keep",
    "challenge",
    "swap",
)


class DrawnCard(TypedDict):
    """A card drawn this round, shown face up to everyone."""

    pile: int  # whose pile it came from
    card: str
    type: CardType
    country: str | None  # a File's country; None for an Evil Agent or a Trap


# A File in a home area. ``from`` is "opponent" (drawn from another spy's pile), "own" (drawn from
# their own pile) or "stolen" (taken with an Evil Agent); only "opponent" and "stolen" Files count
# toward the ordinary win. (``from`` is a Python keyword, hence the functional form.)
HomeFile = TypedDict("HomeFile", {"card": str, "country": str, "from": str})


class CountryTally(TypedDict):
    """A spy's Files of one country: all of them, and the ones that count toward the ordinary win."""

    all: int
    counting: int


class WrongGuess(TypedDict):
    """A public fact: ``seat`` answered "not ``country``" (cleared when it receives another ID card)."""

    seat: int
    country: str


class LearnedFact(TypedDict):
    """A private fact: the ID card of ``seat``, a spy this viewer put out."""

    seat: int
    country: str
    how: Literal["received_id"]


# The prompt: who must answer what before play goes on. ``seat`` answers; ``kind`` says what.


class StealPrompt(TypedDict):
    """An Evil Agent from ``seat``'s pile: steal one of the drawer's Files (``choices``), or not."""

    seat: int
    kind: Literal["steal"]
    drawer: int
    choices: list[str]


class GuessPrompt(TypedDict):
    """A Trap from ``seat``'s pile: a free guess of the drawer's identity, or none."""

    seat: int
    kind: Literal["guess"]
    drawer: int


class ImmunityPrompt(TypedDict):
    """The drawer (``seat``) answers ``guesser``'s free guess ``guess`` or plays their Immunity card."""

    seat: int
    kind: Literal["immunity"]
    guesser: int
    guess: str


class OwnGuessPrompt(TypedDict):
    """A Trap from the drawer's own pile: they must guess the identity of one of ``targets``."""

    seat: int
    kind: Literal["own_guess"]
    targets: list[int]


class KeepPrompt(TypedDict):
    """``seat`` put ``eliminated`` out and received their ID card: keep their own, or take it."""

    seat: int
    kind: Literal["keep"]
    eliminated: int


class ChallengePrompt(TypedDict):
    """The drawer reached 4 Files of ``country`` from their own pile: ``seat`` may challenge."""

    seat: int
    kind: Literal["challenge"]
    drawer: int
    country: str
    still_to_guess: list[int]  # the later challengers, in order


class SwapPrompt(TypedDict):
    """During a challenge the drawer (``seat``) put the wrong challenger ``eliminated`` out: swap?"""

    seat: int
    kind: Literal["swap"]
    eliminated: int


SpyTrapPrompt = (
    StealPrompt | GuessPrompt | ImmunityPrompt | OwnGuessPrompt | KeepPrompt | ChallengePrompt | SwapPrompt
)


class SpyTrapView(TypedDict):
    """Everything one seat may see (``seat`` None: a spectator). Lists "per seat" are indexed by seat."""

    game: Literal["spytrap"]
    seat: int | None
    players: int
    round: int
    round_limit: int
    phase: Phase
    active: list[bool]  # per seat, still in the game
    out_order: list[int]  # seats in the order they were put out
    immunity: list[bool]  # per seat, still holding the Immunity card (playing it is public)
    hand_counts: list[int]
    pile_sizes: list[int]
    deck_count: int  # the draw deck
    used_count: int  # the used pile
    piles_done: list[bool]  # per seat, whether its pile is built this round (never what is in it)
    opener: int  # who opens this round's bidding
    to_bid: int | None  # whose turn it is to bid (None outside bidding)
    bids: list[int | Literal["pass"] | None]  # per seat, the last thing said this round
    high_bid: int  # 0: none yet
    high_bidder: int | None
    min_bid: int  # min_bid to max_bid: the range a bid may take now
    max_bid: int
    drawer: int | None  # the bid winner (None before drawing)
    draw_bid: int
    draws_left: int
    drawn: list[DrawnCard]  # this round's drawn cards, in order
    home: list[list[HomeFile]]  # per seat, the Files in their home area
    tallies: list[dict[str, CountryTally]]  # per seat, country -> its Files
    prompt: SpyTrapPrompt | None
    waiting: list[int]  # the seats the table waits on (everyone not done while piles are built)
    wrong_guesses: list[WrongGuess]
    winner: int | None
    end_reason: EndReason | None  # once over
    # Once over only: every seat's identity (for a seat put out, the one it held then).
    identities: NotRequired[list[str]]
    # Seat views only:
    identity: NotRequired[str]  # your identity
    hand: NotRequired[list[str]]  # your cards, sorted
    my_pile: NotRequired[list[str]]  # your pile, top first
    received_id: NotRequired[str | None]  # the ID card you received, while you choose (keep, swap)
    learned: NotRequired[list[LearnedFact]]
    legal_hint: NotRequired[Hint | None]  # what you must do now (the cog words it)
