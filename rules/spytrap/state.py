"""Spy Trap's rules for a round: set-up, piles, bidding, legal actions, refusals, timers' defaults.

A round runs through three phases: ``pile`` (everyone secretly builds a pile at once), ``bid``
(clockwise from the opener) and ``draw`` (the bid winner draws, one card at a time; a card may raise
a *prompt* that another player, or the drawer, must answer before the next draw). ``over`` ends the game.

Actions (the cog names each one in words):
- ``pile-FAM3-EA7-TR2``: build your pile, top card first: 3 hand cards, or all of a shorter hand.
- ``bid-4`` (strictly higher than the standing bid; the opener's first action must be a bid) / ``pass``.
- ``draw-2``: draw the top card of the pile of seat index 2 (your own included).
- ``steal-FRU4`` / ``nosteal``: after an Evil Agent from your pile, take a File from the drawer's home area.
- ``guess-French`` / ``noguess``: a free guess of the drawer's identity after a Trap from your pile.
- ``immunity`` / ``noimmunity``: answer a free guess, or play your Immunity card and not answer.
- ``guess-2-French``: the forced guess after a Trap from your own pile (seat index 2 is French).
- ``keep-own`` / ``keep-new``: keep your identity or take the one you received from the player you put out.
- ``challenge-French`` / ``nochallenge``: guess the drawer's identity after a 4th File from their own pile.
- ``swap`` / ``noswap``: during a challenge, take the identity of the wrong challenger you put out.
System actions (seat None, applied when the named timer runs out): ``auto-pile`` (timer "pile": builds a
pile for everyone not done, from the seed), ``bid-1`` / ``pass`` (timer "bid": the opener opens at 1,
anyone else passes), ``auto-draw`` (timer "draw": the first non-empty pile clockwise from the drawer's
left, their own last), and on timer "prompt": ``nosteal``, ``noguess``, ``immunity`` (plays the card),
``auto-guess`` (a forced guess chosen from the seed), ``keep-own``, ``nochallenge``, ``noswap``.

Event kinds and data (all public): ``deal`` {hand_counts, deck_count}, ``round_start`` {round,
opener}, ``pile_built`` {size}, ``timeout`` {timer, action; pile for "auto-draw"}, ``piles_ready``
{sizes, max_bid} ({} when no spy has a card left), ``bid`` {bid}, ``pass`` {},
``bid_won`` {bid}, ``draw`` {pile, card, type, country, from}, ``agent`` {pile, effect: "steal_offer"
| "nothing_to_steal" | "own_pile" | "inert"}, ``trap`` {pile, effect: "free_guess" | "own_pile" |
"inert"}, ``steal`` {card, from_seat}, ``nosteal`` {}, ``guess`` {drawer, country}, ``noguess`` {},
``immunity`` {}, ``answer`` {country, right}, ``own_guess`` {target, country, right},
``eliminated`` {by, how: "free_guess" | "own_trap_right" | "own_trap_wrong" | "challenge_right" |
"challenge_wrong"}, ``identity_choice`` {}, ``challenge_start`` {country}, ``challenge`` {drawer,
country, right}, ``nochallenge`` {}, ``challenge_over`` {}, ``win`` {how: "files" | "challenge" |
"last_spy"}, ``round_over`` {round}, ``reshuffle``
{cards}, ``short_hands`` {seats}, ``game_over`` {winner, reason, identities}.

Refusals (IllegalAction codes and parameters): ``game_over``, ``referee_default_only``,
``no_such_seat``, ``out_of_game``, ``referee_only``, ``piles_now``, ``pile_already_built``,
``pile_size`` {size}, ``same_card_twice``, ``card_not_held`` {card}, ``bidding_now``, ``not_your_bid``,
``pass_format``, ``opener_must_bid``, ``bid_format``, ``bid_too_low`` {high_bid}, ``bid_too_high``
{max_bid}, ``your_draw``, ``drawer_drawing``, ``not_drawer``, ``pile_format``, ``pile_empty`` {left,
draws_left}; while a prompt waits (drawing.py): ``answer_to_your_draw``, ``another_answers_first``,
``guess_target``, ``steal_not_file``, ``answer_prompt`` {kind}.
"""

from __future__ import annotations

from itertools import permutations

from rules.base import JSON, Action, Event, IllegalAction, QuietAction, State
from rules.spytrap.cards import COUNTRIES, HAND_SIZE, PILE_SIZE, all_cards, sort_cards
from rules.spytrap.drawing import SpyTrapDrawing
from rules.spytrap.views import SpyTrapView


class SpyTrapState(SpyTrapDrawing, State[SpyTrapView]):
    """A game of Spy Trap in progress: the table (table.py) and the draw (drawing.py) with the rules
    of the rest of a round, and the engine protocol (rules/base.py) the referee calls."""

    # -- set-up -------------------------------------------------------------------------------

    def _setup(self, deal: JSON | None) -> list[Event]:
        if deal is None:
            rng = self._rng("setup")
            ids = list(COUNTRIES)
            rng.shuffle(ids)
            self.identity = ids[: self.players]
            self.id_discard = ids[self.players :]
            cards = all_cards()
            rng.shuffle(cards)
            self.hands = [cards[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i in range(self.players)]
            self.deck = cards[HAND_SIZE * self.players :]
            self.opener = rng.randrange(self.players)
        else:
            self.identity = list(deal["identities"])
            self.id_discard = [c for c in COUNTRIES if c not in self.identity]
            self.hands = [list(h) for h in deal["hands"]]
            self.deck = list(deal["deck"])
            self.used = list(deal.get("used", []))
            self.home = [
                [[card, source] for card, source in h] for h in deal.get("home", [[]] * self.players)
            ]
            self.immunity = [bool(x) for x in deal.get("immunity", [True] * self.players)]
            self.opener = int(deal.get("opener", self._rng("setup").randrange(self.players)))
        events = [
            Event(
                "deal",
                seat=None,
                data={"hand_counts": [len(h) for h in self.hands], "deck_count": len(self.deck)},
            )
        ]
        self._start_round(events)
        return events

    def _start_round(self, events: list[Event]) -> None:
        self.phase = "pile"
        self.piles = [[] for _ in range(self.players)]
        self.pile_done = [not self.active[s] or not self.hands[s] for s in range(self.players)]
        self.bids = [None] * self.players
        self.high_bid, self.high_bidder, self.passes_in_row, self.to_bid = 0, None, 0, None
        self.drawer, self.draw_bid, self.draws_left, self.drawn = None, 0, 0, []
        events.append(Event("round_start", seat=None, data={"round": self.round, "opener": self.opener}))
        self._maybe_start_bidding(events)

    def _maybe_start_bidding(self, events: list[Event]) -> None:
        if not all(self.pile_done):
            return
        sizes = [len(p) for p in self.piles]
        self.max_bid = sum(sizes)
        if self.max_bid == 0:
            events.append(Event("piles_ready", seat=None, data={}))
            self._game_over("no_cards", None, events)
            return
        self.phase = "bid"
        self.to_bid = self.opener
        events.append(Event("piles_ready", seat=None, data={"sizes": sizes, "max_bid": self.max_bid}))

    # -- legal actions --------------------------------------------------------------------------

    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.phase == "over":
            return []
        if seat is None:
            default = self._default_action()
            return [] if default is None else [default]
        if not 0 <= seat < self.players or not self.active[seat]:
            return []
        if self.phase == "pile":
            if self.pile_done[seat]:
                return []
            hand = sort_cards(self.hands[seat])
            return [f"pile-{'-'.join(order)}" for order in _orders(hand, min(PILE_SIZE, len(hand)))]
        if self.phase == "bid":
            if self.to_bid != seat:
                return []
            bids = [f"bid-{n}" for n in range(self.min_bid(), self.max_bid + 1)]
            return bids if self.high_bidder is None else [*bids, "pass"]
        if self.prompt is not None:
            if self.prompt["seat"] != seat:
                return []
            return self._prompt_actions(seat)
        if self.drawer == seat and self.draws_left > 0:
            return [f"draw-{s}" for s in range(self.players) if self.piles[s]]
        return []

    def _default_action(self) -> Action | None:
        """The system action the referee applies when the current wait times out."""
        if self.phase == "pile":
            return "auto-pile"
        if self.phase == "bid":
            return "bid-1" if self.high_bidder is None else "pass"
        if self.phase != "draw":
            return None
        if self.prompt is None:
            return "auto-draw" if self.draws_left > 0 else None
        return {
            "steal": "nosteal",
            "guess": "noguess",
            "immunity": "immunity",
            "own_guess": "auto-guess",
            "keep": "keep-own",
            "challenge": "nochallenge",
            "swap": "noswap",
        }[self.prompt["kind"]]

    def quiet_actions(self) -> list[QuietAction]:
        action = self._default_action()
        if action is None:
            return []
        timer = self.phase if self.phase in ("pile", "bid") else "draw" if self.prompt is None else "prompt"
        return [QuietAction(timer, action)]

    # -- checking actions -----------------------------------------------------------------------

    def _check(self, seat: int | None, action: Action) -> None:
        """Raise IllegalAction with a reason if ``action`` is not allowed now; changes nothing."""
        if self.phase == "over":
            raise IllegalAction("game_over")
        if seat is None:
            default = self._default_action()
            if action != default:
                raise IllegalAction("referee_default_only")
            return
        if not 0 <= seat < self.players:
            raise IllegalAction("no_such_seat")
        if not self.active[seat]:
            raise IllegalAction("out_of_game")
        if action in ("auto-pile", "auto-draw", "auto-guess"):
            raise IllegalAction("referee_only")
        head, _, rest = action.partition("-")
        if self.phase == "pile":
            self._check_pile(seat, head, rest)
        elif self.phase == "bid":
            self._check_bid(seat, head, rest)
        elif self.prompt is not None:
            self._check_prompt(seat, action)
        else:
            self._check_draw(seat, head, rest)

    def _check_pile(self, seat: int, head: str, rest: str) -> None:
        if head != "pile":
            raise IllegalAction("piles_now")
        if self.pile_done[seat]:
            raise IllegalAction("pile_already_built")
        cards = rest.split("-") if rest else []
        need = min(PILE_SIZE, len(self.hands[seat]))
        if len(cards) != need:
            raise IllegalAction("pile_size", size=need)
        if len(set(cards)) != len(cards):
            raise IllegalAction("same_card_twice")
        for card in cards:
            if card not in self.hands[seat]:
                raise IllegalAction("card_not_held", card=card)

    def _check_bid(self, seat: int, head: str, rest: str) -> None:
        if head not in ("bid", "pass"):
            raise IllegalAction("bidding_now")
        if self.to_bid != seat:
            raise IllegalAction("not_your_bid")
        if head == "pass":
            if rest:
                raise IllegalAction("pass_format")
            if self.high_bidder is None:
                raise IllegalAction("opener_must_bid")
            return
        if not rest.isdigit():
            raise IllegalAction("bid_format")
        amount = int(rest)
        if amount < self.min_bid():
            if self.high_bidder is None:
                raise IllegalAction("opener_must_bid")
            raise IllegalAction("bid_too_low", high_bid=self.high_bid)
        if amount > self.max_bid:
            raise IllegalAction("bid_too_high", max_bid=self.max_bid)

    def _check_draw(self, seat: int, head: str, rest: str) -> None:
        if head != "draw":
            if self.drawer == seat:
                raise IllegalAction("your_draw")
            raise IllegalAction("drawer_drawing")
        if self.drawer != seat:
            raise IllegalAction("not_drawer")
        if not rest.isdigit() or not 0 <= int(rest) < self.players:
            raise IllegalAction("pile_format")
        if not self.piles[int(rest)]:
            # The public table can be a moment behind (its message is redrawn at a limited rate), so
            # the refusal itself says how things stand now.
            left = sum(len(p) for p in self.piles)
            raise IllegalAction("pile_empty", left=left, draws_left=self.draws_left)

    # -- applying actions -------------------------------------------------------------------------

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        self._check(seat, action)
        events: list[Event] = []
        if seat is None:
            self._apply_default(action, events)
            return events
        if self.phase == "pile":
            self._build_pile(seat, action.split("-")[1:], events)
        elif self.phase == "bid":
            self._bid(seat, action, events)
        elif self.prompt is not None:
            self._answer(seat, action, events)
        else:
            self._draw(seat, int(action.split("-")[1]), events)
        return events

    def _apply_default(self, action: Action, events: list[Event]) -> None:
        if action == "auto-pile":
            for s in range(self.players):
                if not self.pile_done[s] and self.phase == "pile":
                    hand = sort_cards(self.hands[s])
                    rng = self._rng(f"default{self.defaults_used}")
                    self.defaults_used += 1
                    cards = rng.sample(hand, min(PILE_SIZE, len(hand)))
                    events.append(Event("timeout", seat=s, data={"timer": "pile", "action": action}))
                    self._build_pile(s, cards, events)
            return
        seat = self.waiting()[0]
        timer = self.quiet_actions()[0].timer
        if action == "auto-draw":
            assert self.drawer is not None
            order = [(self.drawer + step) % self.players for step in range(1, self.players + 1)]
            pile = next(s for s in order if self.piles[s])
            events.append(Event("timeout", seat=seat, data={"timer": timer, "action": action, "pile": pile}))
            self._draw(seat, pile, events)
            return
        if action == "auto-guess":
            prompt = self.prompt
            assert prompt is not None and prompt["kind"] == "own_guess"
            rng = self._rng(f"default{self.defaults_used}")
            self.defaults_used += 1
            target = rng.choice(prompt["targets"])
            country = rng.choice([c for c in COUNTRIES if c != self.identity[seat]])
            events.append(Event("timeout", seat=seat, data={"timer": timer, "action": action}))
            self._answer(seat, f"guess-{target}-{country}", events)
            return
        events.append(Event("timeout", seat=seat, data={"timer": timer, "action": action}))
        if self.phase == "bid":
            self._bid(seat, action, events)
        else:
            self._answer(seat, action, events)

    # -- piles and bidding ----------------------------------------------------------------------

    def _build_pile(self, seat: int, cards: list[str], events: list[Event]) -> None:
        for card in cards:
            self.hands[seat].remove(card)
        self.piles[seat] = list(cards)
        self.pile_done[seat] = True
        size = len(cards)
        events.append(Event("pile_built", seat=seat, data={"size": size}))
        self._maybe_start_bidding(events)

    def _bid(self, seat: int, action: Action, events: list[Event]) -> None:
        if action == "pass":
            self.bids[seat] = "pass"
            self.passes_in_row += 1
            events.append(Event("pass", seat=seat, data={}))
        else:
            amount = int(action.split("-")[1])
            self.bids[seat] = amount
            self.high_bid, self.high_bidder, self.passes_in_row = amount, seat, 0
            events.append(Event("bid", seat=seat, data={"bid": amount}))
        assert self.high_bidder is not None
        if self.high_bid >= self.max_bid or self.passes_in_row >= len(self.active_seats()) - 1:
            self._start_drawing(self.high_bidder, events)
        else:
            self.to_bid = self.next_active(seat)

    def _start_drawing(self, winner: int, events: list[Event]) -> None:
        self.phase = "draw"
        self.to_bid = None
        self.drawer, self.draw_bid, self.draws_left = winner, self.high_bid, self.high_bid
        self.last_winner = winner
        events.append(Event("bid_won", seat=winner, data={"bid": self.high_bid}))

    # -- end of a round ----------------------------------------------------------------------------

    def _end_round(self, events: list[Event]) -> None:
        for s in range(self.players):
            if self.active[s]:
                self.hands[s].extend(self.piles[s])
            else:
                self.used.extend(self.piles[s])
            self.piles[s] = []
        events.append(Event("round_over", seat=None, data={"round": self.round}))
        self.drawer = None
        if self.round >= self.options.round_limit:
            self._game_over("round_limit", None, events)
            return
        assert self.last_winner is not None
        self.opener = (
            self.last_winner if self.active[self.last_winner] else self.next_active(self.last_winner)
        )
        self._refill(events)
        self.round += 1
        self._start_round(events)

    def _refill(self, events: list[Event]) -> None:
        order = [(self.opener + step) % self.players for step in range(self.players)]
        short: list[int] = []
        for s in order:
            if not self.active[s]:
                continue
            while len(self.hands[s]) < HAND_SIZE:
                if not self.deck:
                    if not self.used:
                        break
                    self.deck = list(self.used)
                    self.used = []
                    self._rng(f"reshuffle{self.reshuffles}").shuffle(self.deck)
                    self.reshuffles += 1
                    events.append(Event("reshuffle", seat=None, data={"cards": len(self.deck)}))
                self.hands[s].append(self.deck.pop(0))
            if len(self.hands[s]) < HAND_SIZE:
                short.append(s)
        if short:
            events.append(Event("short_hands", seat=None, data={"seats": short}))


def _orders(cards: list[str], size: int) -> list[tuple[str, ...]]:
    """Every ordered choice of ``size`` distinct cards, in a stable order."""
    return list(permutations(cards, size))
