"""The draw: what each card drawn does, the prompts it raises and their answers.

A File goes to the drawer's home area (a 4th File of a country from their own pile opens a
challenge); an Evil Agent lets its pile's owner steal; a Trap Is Sprung gives its pile's owner a free
guess (the drawer may answer it with Immunity) or, from the drawer's own pile, forces a guess. A
right guess puts a spy out; whoever put them out chooses which ID card to keep. The drawing goes on
until the bid is drawn, the drawer is out or the game is won; then state.py ends the round.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from rules.base import Action, Event, IllegalAction
from rules.spytrap.cards import COUNTRIES, FILES_TO_WIN, card_type, country_of, sort_cards
from rules.spytrap.table import SpyTrapTable
from rules.spytrap.views import ImmunityPrompt


class SpyTrapDrawing(SpyTrapTable, ABC):
    """The rules of the draw, on top of the table; a round's other rules are SpyTrapState's."""

    @abstractmethod
    def _end_round(self, events: list[Event]) -> None:
        """Unused piles back to hand, refills, the next round (state.py)."""

    # -- prompts: what each may answer ----------------------------------------------------------

    def _prompt_actions(self, seat: int) -> list[Action]:
        prompt = self.prompt
        assert prompt is not None
        if prompt["kind"] == "steal":
            return [f"steal-{c}" for c in prompt["choices"]] + ["nosteal"]
        if prompt["kind"] == "guess":
            return [f"guess-{c}" for c in COUNTRIES] + ["noguess"]
        if prompt["kind"] == "immunity":
            return ["immunity", "noimmunity"]
        if prompt["kind"] == "own_guess":
            return [f"guess-{t}-{c}" for t in prompt["targets"] for c in COUNTRIES]
        if prompt["kind"] == "keep":
            return ["keep-own", "keep-new"]
        if prompt["kind"] == "challenge":
            return [f"challenge-{c}" for c in COUNTRIES] + ["nochallenge"]
        return ["swap", "noswap"]

    def _check_prompt(self, seat: int, action: Action) -> None:
        assert self.prompt is not None
        if self.prompt["seat"] != seat:
            if self.drawer == seat and action.startswith("draw-"):
                raise IllegalAction("answer_to_your_draw")
            raise IllegalAction("another_answers_first")
        kind = self.prompt["kind"]
        if action in self._prompt_actions(seat):
            return
        if kind == "own_guess" and action.startswith("guess-"):
            raise IllegalAction("guess_target")
        if kind == "steal" and action.startswith("steal-"):
            raise IllegalAction("steal_not_file")
        raise IllegalAction("answer_prompt", kind=kind)

    # -- drawing ----------------------------------------------------------------------------------

    def _draw(self, seat: int, pile: int, events: list[Event]) -> None:
        card = self.piles[pile].pop(0)
        self.draws_left -= 1
        kind = card_type(card)
        own = pile == seat
        source = "own" if own else "opponent"
        self.drawn.append({"pile": pile, "card": card, "type": kind, "country": country_of(card)})
        events.append(
            Event(
                "draw",
                seat=seat,
                data={"pile": pile, "card": card, "type": kind, "country": country_of(card), "from": source},
            )
        )
        if kind == "file":
            self.home[seat].append([card, source])
            country = country_of(card)
            assert country is not None
            if not own:
                self._check_files_win(seat, events)
            elif self.tally(seat, country, counting_only=False) == FILES_TO_WIN:
                # Exactly the 4th File of the country (RULINGS §3): a 5th or later opens nothing.
                self._start_challenge(seat, country, events)
        elif kind == "agent":
            self.used.append(card)
            self._agent(seat, pile, events)
        else:
            self.used.append(card)
            self._trap(seat, pile, events)
        self._continue(events)

    def _agent(self, seat: int, pile: int, events: list[Event]) -> None:
        if pile == seat:
            events.append(Event("agent", seat=None, data={"pile": pile, "effect": "own_pile"}))
        elif not self.active[pile]:
            events.append(Event("agent", seat=None, data={"pile": pile, "effect": "inert"}))
        elif not self.home[seat]:
            events.append(Event("agent", seat=None, data={"pile": pile, "effect": "nothing_to_steal"}))
        else:
            choices = sort_cards([card for card, _ in self.home[seat]])
            self.prompt = {"seat": pile, "kind": "steal", "drawer": seat, "choices": choices}
            events.append(Event("agent", seat=None, data={"pile": pile, "effect": "steal_offer"}))

    def _trap(self, seat: int, pile: int, events: list[Event]) -> None:
        if pile == seat:
            targets = [s for s in self.active_seats() if s != seat]
            self.prompt = {"seat": seat, "kind": "own_guess", "targets": targets}
            events.append(Event("trap", seat=None, data={"pile": pile, "effect": "own_pile"}))
        elif not self.active[pile]:
            events.append(Event("trap", seat=None, data={"pile": pile, "effect": "inert"}))
        else:
            self.prompt = {"seat": pile, "kind": "guess", "drawer": seat}
            events.append(Event("trap", seat=None, data={"pile": pile, "effect": "free_guess"}))

    def _start_challenge(self, seat: int, country: str, events: list[Event]) -> None:
        self.challenge = {"drawer": seat, "country": country, "queue": self.clockwise_from_left(seat)}
        events.append(Event("challenge_start", seat=seat, data={"country": country}))

    def _continue(self, events: list[Event]) -> None:
        """After a card or an answer: ask the next question, wait for the next draw, or end the round."""
        if self.phase != "draw" or self.prompt is not None:
            return
        if self.challenge is not None:
            drawer = self.challenge["drawer"]
            queue = [s for s in self.challenge["queue"] if self.active[s] and s != drawer]
            if self.active[drawer] and queue:
                self.challenge["queue"] = queue[1:]
                self.prompt = {
                    "seat": queue[0],
                    "kind": "challenge",
                    "drawer": drawer,
                    "country": self.challenge["country"],
                    "still_to_guess": queue[1:],
                }
                return
            self.challenge = None
            if self.active[drawer]:
                own = self.identity[drawer]
                if self.tally(drawer, own, counting_only=False) >= FILES_TO_WIN:
                    events.append(Event("win", seat=drawer, data={"how": "challenge"}))
                    self._game_over("challenge", drawer, events)
                    return
                events.append(Event("challenge_over", seat=None, data={}))
        assert self.drawer is not None
        if not self.active[self.drawer] or self.draws_left <= 0:
            self._end_round(events)

    def _check_files_win(self, seat: int, events: list[Event]) -> bool:
        if self.phase == "over" or not self.active[seat]:
            return False
        if self.tally(seat, self.identity[seat], counting_only=True) < FILES_TO_WIN:
            return False
        events.append(Event("win", seat=seat, data={"how": "files"}))
        self._game_over("files", seat, events)
        return True

    # -- answering prompts ------------------------------------------------------------------------

    def _answer(self, seat: int, action: Action, events: list[Event]) -> None:
        assert self.prompt is not None
        prompt, self.prompt = self.prompt, None
        if prompt["kind"] == "steal":
            self._steal(seat, prompt["drawer"], action, events)
        elif prompt["kind"] == "guess":
            self._free_guess(seat, prompt["drawer"], action, events)
        elif prompt["kind"] == "immunity":
            self._immunity(seat, prompt, action, events)
        elif prompt["kind"] == "own_guess":
            _, target, country = action.split("-")
            self._own_guess(seat, int(target), country, events)
        elif prompt["kind"] == "challenge":
            self._challenge(seat, prompt["drawer"], action, events)
        else:
            self._choose_identity(seat, action in ("keep-new", "swap"), events)
        self._continue(events)

    def _steal(self, seat: int, drawer: int, action: Action, events: list[Event]) -> None:
        if action == "nosteal":
            events.append(Event("nosteal", seat=seat, data={}))
            return
        card = action.split("-", 1)[1]
        entry = next(e for e in self.home[drawer] if e[0] == card)
        self.home[drawer].remove(entry)
        self.home[seat].append([card, "stolen"])
        events.append(Event("steal", seat=seat, data={"card": card, "from_seat": drawer}))
        self._check_files_win(seat, events)

    def _free_guess(self, seat: int, drawer: int, action: Action, events: list[Event]) -> None:
        if action == "noguess":
            events.append(Event("noguess", seat=seat, data={}))
            return
        country = action.split("-", 1)[1]
        events.append(Event("guess", seat=seat, data={"drawer": drawer, "country": country}))
        if self.immunity[drawer]:
            self.prompt = {"seat": drawer, "kind": "immunity", "guesser": seat, "guess": country}
            return
        self._answer_guess(drawer, seat, country, events)

    def _immunity(self, seat: int, prompt: ImmunityPrompt, action: Action, events: list[Event]) -> None:
        if action == "immunity":
            self.immunity[seat] = False
            events.append(Event("immunity", seat=seat, data={}))
            return
        self._answer_guess(seat, prompt["guesser"], prompt["guess"], events)

    def _answer_guess(self, drawer: int, guesser: int, country: str, events: list[Event]) -> None:
        right = self.identity[drawer] == country
        if right:
            events.append(Event("answer", seat=drawer, data={"country": country, "right": True}))
            self._eliminate(drawer, guesser, "free_guess", events)
        else:
            events.append(Event("answer", seat=drawer, data={"country": country, "right": False}))
            self.wrong_guesses.append({"seat": drawer, "country": country})

    def _own_guess(self, seat: int, target: int, country: str, events: list[Event]) -> None:
        right = self.identity[target] == country
        events.append(
            Event("own_guess", seat=seat, data={"target": target, "country": country, "right": right})
        )
        if right:
            self._eliminate(target, seat, "own_trap_right", events)
        else:
            self._eliminate(seat, target, "own_trap_wrong", events)

    def _challenge(self, seat: int, drawer: int, action: Action, events: list[Event]) -> None:
        if action == "nochallenge":
            events.append(Event("nochallenge", seat=seat, data={}))
            return
        country = action.split("-", 1)[1]
        right = self.identity[drawer] == country
        events.append(
            Event("challenge", seat=seat, data={"drawer": drawer, "country": country, "right": right})
        )
        if right:
            self.challenge = None
            self._eliminate(drawer, seat, "challenge_right", events)
        else:
            self.wrong_guesses.append({"seat": drawer, "country": country})
            self._eliminate(seat, drawer, "challenge_wrong", events)

    def _eliminate(self, victim: int, by: int, how: str, events: list[Event]) -> None:
        self.active[victim] = False
        self.out_order.append(victim)
        self.eliminated_by[victim] = by
        self.used.extend(self.hands[victim])
        self.hands[victim] = []
        self.used.extend(card for card, _ in self.home[victim])
        self.home[victim] = []
        self.wrong_guesses = [g for g in self.wrong_guesses if g["seat"] != victim]
        self.learned[by].append({"seat": victim, "country": self.identity[victim], "how": "received_id"})
        events.append(Event("eliminated", seat=victim, data={"by": by, "how": how}))
        remaining = self.active_seats()
        if len(remaining) == 1:
            self.id_discard.append(self.identity[victim])
            events.append(Event("win", seat=remaining[0], data={"how": "last_spy"}))
            self._game_over("last_spy", remaining[0], events)
            return
        self.pending_id = self.identity[victim]
        if how == "challenge_wrong":
            self.prompt = {"seat": by, "kind": "swap", "eliminated": victim}
        else:
            self.prompt = {"seat": by, "kind": "keep", "eliminated": victim}

    def _choose_identity(self, seat: int, take_new: bool, events: list[Event]) -> None:
        assert self.pending_id is not None
        if take_new:
            self.id_discard.append(self.identity[seat])
            self.identity[seat] = self.pending_id
        else:
            self.id_discard.append(self.pending_id)
        self.pending_id = None
        # The table saw two ID cards in that hand, so what it knew about this spy no longer holds.
        self.wrong_guesses = [g for g in self.wrong_guesses if g["seat"] != seat]
        events.append(Event("identity_choice", seat=seat, data={}))
        self._check_files_win(seat, events)
