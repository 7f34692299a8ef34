"""What a seat may do now in GiftTRAP: the legal actions, and for anything else the refusal's code
and details (the cog words them: cogs/words/gifttrap.py). Nothing here changes the table: GiftTrapState
(state.py) builds on these checks and applies what they allow.
"""

from __future__ import annotations

from rules.base import Action, IllegalAction
from rules.gifttrap.actions import Move
from rules.gifttrap.gifts import GIFTS, PACKS, Gift
from rules.gifttrap.options import GiftTrapOptions
from rules.gifttrap.tokens import TOKENS, Token
from rules.gifttrap.views import Phase, TokenPlaces, TrappedGift


class Checks:
    """The rules' questions about the table as it stands; GiftTrapState owns and sets this data."""

    players: int
    options: GiftTrapOptions
    phase: Phase
    dealer: int
    layout: list[str]  # gift ids, space n is layout[n - 1]
    gives: list[list[int | None]]
    give_more: list[int | None]
    ranks: list[TokenPlaces]
    get_more: list[int | None]
    ready: list[bool]
    trap_used: list[bool]
    trapped: list[TrappedGift]

    # -- queries ------------------------------------------------------------------------------

    @property
    def spaces(self) -> int:
        return len(self.layout)

    def gift_at(self, space: int) -> Gift:
        return GIFTS[self.layout[space - 1]]

    def is_trapped(self, space: int) -> bool:
        return any(t["space"] == space for t in self.trapped)

    def to_give(self, seat: int) -> list[int]:
        return [r for r in range(self.players) if r != seat and self.gives[seat][r] is None]

    def to_rank(self, seat: int) -> list[Token]:
        return [t for t in TOKENS if t not in self.ranks[seat]]

    def can_gifttrap(self, seat: int) -> bool:
        return (
            self.options.strategy_cards and not self.trap_used[seat] and self.phase in ("choosing", "reveal")
        )

    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.phase == "over":
            return []
        if seat is None:
            return {
                "pack": [f"pack-{k}" for k in PACKS],
                "choosing": ["fill"],
                "reveal": ["reveal"],
                "between_rounds": ["next"],
            }[self.phase]
        if not 0 <= seat < self.players:
            return []
        if self.phase == "pack":
            return [f"pack-{k}" for k in PACKS] if seat == self.dealer else []
        if self.phase == "between_rounds":
            return ["next"]
        actions: list[Action] = []
        spaces = range(1, self.spaces + 1)
        if self.phase == "choosing" and not self.ready[seat]:
            mine = self.gives[seat]
            given = {s for s in mine if s is not None}
            for r in range(self.players):
                if r != seat:
                    actions += [f"give-{r}-{n}" for n in spaces if n not in given]
            if self.options.strategy_cards:
                current = self.give_more[seat]
                actions += [f"givemore-{r}" for r in range(self.players) if r not in (seat, current)]
                if current is not None:
                    actions.append("givemore-none")
            holding = {space: token for token, space in self.ranks[seat].items()}
            for token in TOKENS:
                actions += [f"rank-{token}-{n}" for n in spaces if n not in holding]
            actions += [f"unrank-{n}" for n in sorted(holding)]
            if self.options.strategy_cards:
                current = self.get_more[seat]
                actions += [f"getmore-{g}" for g in range(self.players) if g not in (seat, current)]
                if current is not None:
                    actions.append("getmore-none")
            if not self.to_give(seat) and not self.to_rank(seat):
                actions.append("ready")
        if self.can_gifttrap(seat):
            actions += [f"gifttrap-{n}" for n in spaces if not self.is_trapped(n)]
        return actions

    # -- checking -----------------------------------------------------------------------------

    def _check(self, seat: int | None, move: Move) -> None:
        """Raise IllegalAction (a code and its details) if the move is not allowed now; changes nothing."""
        if self.phase == "over":
            raise IllegalAction("game_over")
        verb = move.verb
        if verb in ("fill", "reveal"):
            if seat is not None:
                raise IllegalAction("referee_only")
            wanted = "choosing" if verb == "fill" else "reveal"
            if self.phase != wanted:
                raise IllegalAction("nothing_to_fill" if verb == "fill" else "nothing_to_reveal")
            return
        if seat is not None and not 0 <= seat < self.players:
            raise IllegalAction("not_at_table", seat=seat)
        if verb == "next":
            if self.phase != "between_rounds":
                raise IllegalAction("round_going")
            return
        if verb == "pack":
            self._check_pack(seat, move)
            return
        if seat is None:
            raise IllegalAction("players_only")
        if verb == "gifttrap":
            self._check_gifttrap(seat, move)
            return
        if self.phase != "choosing":
            raise IllegalAction(self._not_choosing_code())
        if self.ready[seat]:
            raise IllegalAction("locked_in")
        if verb in ("givemore", "getmore") and not self.options.strategy_cards:
            raise IllegalAction("no_strategy_cards")
        if verb == "give":
            self._check_give(seat, move)
        elif verb == "givemore":
            self._check_card_on(seat, move.seat, "give_more", self.give_more[seat])
        elif verb == "getmore":
            self._check_card_on(seat, move.seat, "get_more", self.get_more[seat])
        elif verb == "rank":
            self._check_rank(seat, move)
        elif verb == "unrank":
            assert move.space is not None
            self._check_space(move.space)
            if move.space not in self.ranks[seat].values():
                raise IllegalAction("no_token", space=move.space)
        elif verb == "ready":
            self._check_ready(seat)

    def _not_choosing_code(self) -> str:
        if self.phase == "pack":
            return "not_laid_out"
        if self.phase == "reveal":
            return "reveal_begun"
        return "round_over"

    def _check_pack(self, seat: int | None, move: Move) -> None:
        if self.phase != "pack":
            raise IllegalAction("pack_picked")
        if seat is not None and seat != self.dealer:
            raise IllegalAction("dealer_only")
        if move.pack not in PACKS:
            raise IllegalAction("no_such_pack", pack=move.pack)

    def _check_space(self, space: int) -> None:
        if not 1 <= space <= self.spaces:
            raise IllegalAction("no_such_gift", space=space, spaces=self.spaces)

    def _check_give(self, seat: int, move: Move) -> None:
        assert move.seat is not None and move.space is not None
        receiver, space = move.seat, move.space
        if receiver == seat:
            raise IllegalAction("give_to_self")
        if not 0 <= receiver < self.players:
            raise IllegalAction("no_such_seat", seat=receiver)
        self._check_space(space)
        if self.gives[seat][receiver] == space:
            raise IllegalAction("already_giving", space=space, seat=receiver)
        if space in self.gives[seat]:
            raise IllegalAction("gift_given", space=space, seat=self.gives[seat].index(space))

    def _check_card_on(self, seat: int, other: int | None, card: str, current: int | None) -> None:
        """``card``: "give_more" or "get_more"."""
        if other is None:
            if current is None:
                raise IllegalAction("card_not_played", card=card)
            return
        if other == seat:
            raise IllegalAction("card_on_self", card=card)
        if not 0 <= other < self.players:
            raise IllegalAction("no_such_seat", seat=other)
        if current == other:
            raise IllegalAction("card_already_there", card=card, seat=other)

    def _check_rank(self, seat: int, move: Move) -> None:
        assert move.space is not None and move.token is not None
        self._check_space(move.space)
        for token, space in self.ranks[seat].items():
            if space == move.space:
                if token == move.token:
                    raise IllegalAction("token_already_there", token=token, space=space)
                raise IllegalAction("gift_has_token", token=token, space=space, wanted=move.token)

    def _check_ready(self, seat: int) -> None:
        gives = self.to_give(seat)
        tokens = self.to_rank(seat)
        if gives or tokens:
            # receivers: the seats still without a gift; tokens: the tokens not yet placed.
            raise IllegalAction("not_complete", receivers=gives, tokens=tokens)

    def _check_gifttrap(self, seat: int, move: Move) -> None:
        if not self.options.strategy_cards:
            raise IllegalAction("no_strategy_cards")
        if self.trap_used[seat]:
            raise IllegalAction("gifttrap_used")
        if self.phase not in ("choosing", "reveal"):
            raise IllegalAction("no_gifts_out")
        assert move.space is not None
        self._check_space(move.space)
        if self.is_trapped(move.space):
            raise IllegalAction("already_trapped", space=move.space)
