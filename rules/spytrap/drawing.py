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
from rules.spytrap.cards import (
    COUNTRIES,
    FILES_TO_WIN,
    card_name,
    card_type,
    country_of,
    seat_name,
    sort_cards,
)
from rules.spytrap.table import SpyTrapTable
from rules.spytrap.views import ImmunityPrompt
from rules.words import with_article


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
                raise IllegalAction("Wait: another player is answering a card you drew.")
            raise IllegalAction("Another player must answer first.")
        kind = self.prompt["kind"]
        if action in self._prompt_actions(seat):
            return
        reasons = {
            "steal": "Take one File from the drawer's home area ('steal-<card>') or decline with 'nosteal'.",
            "guess": "Guess the drawer's identity ('guess-French') or decline with 'noguess'.",
            "immunity": "Answer the guess with 'noimmunity' or play your Immunity card with 'immunity'.",
            "own_guess": "You must guess another spy's identity, such as 'guess-2-French'.",
            "keep": "Keep your own identity ('keep-own') or take the new one ('keep-new').",
            "challenge": "Guess the drawer's identity ('challenge-French') or let it go with 'nochallenge'.",
            "swap": "Swap identities with the player you put out ('swap') or keep yours ('noswap').",
        }
        if kind == "own_guess" and action.startswith("guess-"):
            raise IllegalAction("You can only guess the identity of another spy still in the game.")
        if kind == "steal" and action.startswith("steal-"):
            raise IllegalAction("That card is not a File in the drawer's home area.")
        raise IllegalAction(reasons[kind])

    # -- drawing ----------------------------------------------------------------------------------

    def _draw(self, seat: int, pile: int, events: list[Event]) -> None:
        card = self.piles[pile].pop(0)
        self.draws_left -= 1
        kind = card_type(card)
        own = pile == seat
        where = "their own pile" if own else f"{seat_name(pile)}'s pile"
        source = "own" if own else "opponent"
        self.drawn.append({"pile": pile, "card": card, "type": kind, "country": country_of(card)})
        events.append(
            Event(
                "draw",
                f"draws {with_article(card_name(card))} from {where}.",
                seat,
                {"pile": pile, "card": card, "type": kind, "country": country_of(card), "from": source},
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
            events.append(
                Event(
                    "agent",
                    "The Evil Agent came from the drawer's own pile: it does nothing.",
                    None,
                    {"pile": pile, "effect": "own_pile"},
                )
            )
        elif not self.active[pile]:
            text = "The Evil Agent does nothing: its pile's owner is out of the game."
            events.append(Event("agent", text, None, {"pile": pile, "effect": "inert"}))
        elif not self.home[seat]:
            text = "The Evil Agent finds no File to steal in the drawer's home area."
            events.append(Event("agent", text, None, {"pile": pile, "effect": "nothing_to_steal"}))
        else:
            choices = sort_cards([card for card, _ in self.home[seat]])
            self.prompt = {"seat": pile, "kind": "steal", "drawer": seat, "choices": choices}
            text = f"The Evil Agent lets {seat_name(pile)} steal a File from the drawer."
            events.append(Event("agent", text, None, {"pile": pile, "effect": "steal_offer"}))

    def _trap(self, seat: int, pile: int, events: list[Event]) -> None:
        if pile == seat:
            targets = [s for s in self.active_seats() if s != seat]
            self.prompt = {"seat": seat, "kind": "own_guess", "targets": targets}
            text = "The trap is sprung from the drawer's own pile: they must guess another spy's identity."
            events.append(Event("trap", text, None, {"pile": pile, "effect": "own_pile"}))
        elif not self.active[pile]:
            text = "The trap does nothing: its pile's owner is out of the game."
            events.append(Event("trap", text, None, {"pile": pile, "effect": "inert"}))
        else:
            self.prompt = {"seat": pile, "kind": "guess", "drawer": seat}
            text = f"The trap is sprung: {seat_name(pile)} may make a free guess of the drawer's identity."
            events.append(Event("trap", text, None, {"pile": pile, "effect": "free_guess"}))

    def _start_challenge(self, seat: int, country: str, events: list[Event]) -> None:
        self.challenge = {"drawer": seat, "country": country, "queue": self.clockwise_from_left(seat)}
        text = (
            f"now holds {FILES_TO_WIN} {country} Files, the 4th from their own pile: "
            "each other spy in turn may challenge by guessing their identity."
        )
        events.append(Event("challenge_start", text, seat, {"country": country}))

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
                    text = f"survives the challenge holding {FILES_TO_WIN} Files of their identity and wins!"
                    events.append(Event("win", text, drawer, {"how": "challenge"}))
                    self._game_over("challenge", drawer, events)
                    return
                events.append(Event("challenge_over", "Nobody guessed right; the drawing goes on.", None, {}))
        assert self.drawer is not None
        if not self.active[self.drawer] or self.draws_left <= 0:
            self._end_round(events)

    def _check_files_win(self, seat: int, events: list[Event]) -> bool:
        if self.phase == "over" or not self.active[seat]:
            return False
        if self.tally(seat, self.identity[seat], counting_only=True) < FILES_TO_WIN:
            return False
        text = f"holds {FILES_TO_WIN} Files of their own identity and wins!"
        events.append(Event("win", text, seat, {"how": "files"}))
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
            events.append(Event("nosteal", "steals nothing.", seat, {}))
            return
        card = action.split("-", 1)[1]
        entry = next(e for e in self.home[drawer] if e[0] == card)
        self.home[drawer].remove(entry)
        self.home[seat].append([card, "stolen"])
        text = f"steals the {card_name(card)} from {seat_name(drawer)}'s home area."
        events.append(Event("steal", text, seat, {"card": card, "from_seat": drawer}))
        self._check_files_win(seat, events)

    def _free_guess(self, seat: int, drawer: int, action: Action, events: list[Event]) -> None:
        if action == "noguess":
            events.append(Event("noguess", "makes no guess.", seat, {}))
            return
        country = action.split("-", 1)[1]
        events.append(
            Event(
                "guess",
                f"guesses that the drawer is {country}.",
                seat,
                {"drawer": drawer, "country": country},
            )
        )
        if self.immunity[drawer]:
            self.prompt = {"seat": drawer, "kind": "immunity", "guesser": seat, "guess": country}
            return
        self._answer_guess(drawer, seat, country, events)

    def _immunity(self, seat: int, prompt: ImmunityPrompt, action: Action, events: list[Event]) -> None:
        if action == "immunity":
            self.immunity[seat] = False
            events.append(
                Event("immunity", "plays their Immunity card and does not answer the guess.", seat, {})
            )
            return
        self._answer_guess(seat, prompt["guesser"], prompt["guess"], events)

    def _answer_guess(self, drawer: int, guesser: int, country: str, events: list[Event]) -> None:
        right = self.identity[drawer] == country
        if right:
            events.append(
                Event(
                    "answer",
                    f"is {country}: the guess is right.",
                    drawer,
                    {"country": country, "right": True},
                )
            )
            self._eliminate(drawer, guesser, "free_guess", events)
        else:
            events.append(Event("answer", f"is not {country}.", drawer, {"country": country, "right": False}))
            self.wrong_guesses.append({"seat": drawer, "country": country})

    def _own_guess(self, seat: int, target: int, country: str, events: list[Event]) -> None:
        right = self.identity[target] == country
        verdict = "right" if right else "wrong"
        text = f"guesses that {seat_name(target)} is {country}: {verdict}."
        events.append(Event("own_guess", text, seat, {"target": target, "country": country, "right": right}))
        if right:
            self._eliminate(target, seat, "own_trap_right", events)
        else:
            self._eliminate(seat, target, "own_trap_wrong", events)

    def _challenge(self, seat: int, drawer: int, action: Action, events: list[Event]) -> None:
        if action == "nochallenge":
            events.append(Event("nochallenge", "does not challenge.", seat, {}))
            return
        country = action.split("-", 1)[1]
        right = self.identity[drawer] == country
        verdict = "right" if right else "wrong"
        text = f"challenges: the drawer is {country}? The guess is {verdict}."
        events.append(Event("challenge", text, seat, {"drawer": drawer, "country": country, "right": right}))
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
        text = f"is out of the game; {seat_name(by)} receives their ID card."
        events.append(Event("eliminated", text, victim, {"by": by, "how": how}))
        remaining = self.active_seats()
        if len(remaining) == 1:
            self.id_discard.append(self.identity[victim])
            events.append(
                Event("win", "is the last spy standing and wins!", remaining[0], {"how": "last_spy"})
            )
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
        events.append(Event("identity_choice", "keeps one ID card and discards the other unseen.", seat, {}))
        self._check_files_win(seat, events)
