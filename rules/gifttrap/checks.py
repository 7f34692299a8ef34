"""What a seat may do now in GiftTRAP: the legal actions, and for anything else the sentence that
says why not. Nothing here changes the table: GiftTrapState (state.py) builds on these checks and
applies what they allow.
"""

from __future__ import annotations

from rules.base import Action, IllegalAction
from rules.gifttrap.actions import Move
from rules.gifttrap.gifts import GIFTS, PACKS, Gift
from rules.gifttrap.options import GiftTrapOptions
from rules.gifttrap.tokens import TOKEN_LABELS, TOKENS, Token
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

    def gift_label(self, space: int) -> str:
        return f"gift {space} ({self.gift_at(space).label})"

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
        """Raise IllegalAction with a reason if the move is not allowed now; changes nothing."""
        if self.phase == "over":
            raise IllegalAction("The game is over.")
        verb = move.verb
        if verb in ("fill", "reveal"):
            if seat is not None:
                raise IllegalAction("Only the referee fills in choices or turns up the next gift.")
            wanted = "choosing" if verb == "fill" else "reveal"
            if self.phase != wanted:
                raise IllegalAction(f"There is nothing to {'fill in' if verb == 'fill' else 'reveal'} now.")
            return
        if seat is not None and not 0 <= seat < self.players:
            raise IllegalAction("That seat is not at this table.")
        if verb == "next":
            if self.phase != "between_rounds":
                raise IllegalAction("The round is still going: the next round starts after the reveal.")
            return
        if verb == "pack":
            self._check_pack(seat, move)
            return
        if seat is None:
            raise IllegalAction("Only a player can do that.")
        if verb == "gifttrap":
            self._check_gifttrap(seat, move)
            return
        if self.phase != "choosing":
            raise IllegalAction(self._not_choosing_reason())
        if self.ready[seat]:
            raise IllegalAction("You are ready: your choices are locked in for this round.")
        if verb in ("givemore", "getmore") and not self.options.strategy_cards:
            raise IllegalAction("Strategy cards are not in play at this table.")
        if verb == "give":
            self._check_give(seat, move)
        elif verb == "givemore":
            self._check_card_on(seat, move.seat, "Give More", "with the gift for", self.give_more[seat])
        elif verb == "getmore":
            self._check_card_on(seat, move.seat, "Get More", "under the gift from", self.get_more[seat])
        elif verb == "rank":
            self._check_rank(seat, move)
        elif verb == "unrank":
            assert move.space is not None
            self._check_space(move.space)
            if move.space not in self.ranks[seat].values():
                raise IllegalAction(f"You have no token on gift {move.space}.")
        elif verb == "ready":
            self._check_ready(seat)

    def _not_choosing_reason(self) -> str:
        if self.phase == "pack":
            return "The gifts are not laid out yet: the dealer is picking the pack."
        if self.phase == "reveal":
            return "The reveal has begun: choices are locked in until the next round."
        return "The round is over: choices open again when the next round's gifts are laid out."

    def _check_pack(self, seat: int | None, move: Move) -> None:
        if self.phase != "pack":
            raise IllegalAction("The pack for this round is already picked.")
        if seat is not None and seat != self.dealer:
            raise IllegalAction("Only the dealer picks the pack this round.")
        if move.pack not in PACKS:
            raise IllegalAction("Pick pack 1, 2, 3 or 4 ($ to $$$$).")

    def _check_space(self, space: int) -> None:
        if not 1 <= space <= self.spaces:
            raise IllegalAction(f"There is no gift {space}: the gifts are numbered 1 to {self.spaces}.")

    def _check_give(self, seat: int, move: Move) -> None:
        assert move.seat is not None and move.space is not None
        receiver, space = move.seat, move.space
        if receiver == seat:
            raise IllegalAction("You can't give a gift to yourself: give one to each other player.")
        if not 0 <= receiver < self.players:
            raise IllegalAction("There is no such seat at this table.")
        self._check_space(space)
        if self.gives[seat][receiver] == space:
            raise IllegalAction(f"You are already giving that player gift {space}.")
        if space in self.gives[seat]:
            raise IllegalAction(
                f"You already give gift {space} to another player: you can give each gift only once. "
                "Give that player a different gift first."
            )

    def _check_card_on(
        self, seat: int, other: int | None, card: str, where: str, current: int | None
    ) -> None:
        if other is None:
            if current is None:
                raise IllegalAction(f"Your {card} card is not in play, so there is nothing to take back.")
            return
        if other == seat:
            raise IllegalAction(f"You can't put {card} on yourself: put it {where} another player.")
        if not 0 <= other < self.players:
            raise IllegalAction("There is no such seat at this table.")
        if current == other:
            raise IllegalAction(f"Your {card} card is already {where} that player.")

    def _check_rank(self, seat: int, move: Move) -> None:
        assert move.space is not None and move.token is not None
        self._check_space(move.space)
        for token, space in self.ranks[seat].items():
            if space == move.space:
                if token == move.token:
                    raise IllegalAction(f"Your {TOKEN_LABELS[token]} token is already on gift {space}.")
                raise IllegalAction(
                    f"Your {TOKEN_LABELS[token]} token is already on gift {space}: "
                    "each token goes on a different gift."
                )

    def _check_ready(self, seat: int) -> None:
        missing = []
        gives = len(self.to_give(seat))
        if gives:
            missing.append(f"give {gives} more gift{'s' if gives > 1 else ''}")
        tokens = self.to_rank(seat)
        if tokens:
            labels = [TOKEN_LABELS[t].split()[0] for t in tokens]
            missing.append(f"place your {', '.join(labels)} token{'s' if len(tokens) > 1 else ''}")
        if missing:
            raise IllegalAction("Before you are ready, " + " and ".join(missing) + ".")

    def _check_gifttrap(self, seat: int, move: Move) -> None:
        if not self.options.strategy_cards:
            raise IllegalAction("Strategy cards are not in play at this table.")
        if self.trap_used[seat]:
            raise IllegalAction("You have already used your GiftTRAP card: it is once a game.")
        if self.phase not in ("choosing", "reveal"):
            raise IllegalAction("GiftTRAP goes on a gift on the table: wait for the next round's gifts.")
        assert move.space is not None
        self._check_space(move.space)
        if self.is_trapped(move.space):
            raise IllegalAction(f"Gift {move.space} already has a GiftTRAP card on it.")
