"""Zap or Trap's rules: one game in progress (``ZapTrapState``), from the signals phase through
deals, swaps, gestures and lull deals to the call that ends a round, the scores and the winners.

Sides ("units"): in the team game (4 or 6 players) unit = team = seat % (players // 2), partners sit
opposite; in the individual game (3 or 5) every seat is its own unit. Scores are kept per unit.

What a seat may see is ``view(seat)`` (its keys are described in views.py); the events are all
public (``seat`` = the actor) and data only, worded by the game's cog: "game_start" {players,
target, team_game, dealer}, "signals_open" {round, dealer, team_game}, "signal_chosen" {unit} (never
which gesture), "signals_default" {units, team_game}, "deal" {round, dealer, table, hand_counts,
deck_count, hand_size}, "swap" {gave, took, seq}, "gesture" {gesture, emoji, seq}, "lull_deal"
{cleared, table, deck_count, reshuffled, seq} (seat None: the referee after a lull), "void_round"
{round}, "call" (the view's call dict), "round_over" {round, points, scores}, "game_over" {winners,
scores, team_win, signals (the whole signal history)}. Events stored by older code also held an
English ``text``, and fewer keys (no players, target, team_game or hand_size): the cog reads those
from the view. A refusal is ``IllegalAction(code, **params)``; the codes are the cog's ``refusal``.
"""

from __future__ import annotations

import random
from typing import cast

from rules.base import JSON, Action, Event, IllegalAction, QuietAction, Result, State
from rules.zaptrap.actions import parse_action
from rules.zaptrap.cards import GESTURES, TABLE_SIZE, best_set, sort_hand
from rules.zaptrap.options import ZapTrapOptions, options_to_json, parse_options
from rules.zaptrap.scoring import final_result, legacy_line, score_call
from rules.zaptrap.views import (
    CallView,
    GestureView,
    Phase,
    SetView,
    SignalRound,
    SwapView,
    ZapTrapView,
    copy_call,
    copy_round,
)

KEY = "zaptrap"  # the game's key: in custom_ids, the database, views and the stored state
RECENT = 20  # how many recent gestures and swaps a view carries


class ZapTrapState(State[ZapTrapView]):
    def __init__(self, players: int, options: ZapTrapOptions, seed: int) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.team_game = players in (4, 6)
        self.units = players // 2 if self.team_game else players
        self.round = 1
        self.phase: Phase = "signals"
        self.dealer = 0
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.table: list[str] = []
        self.deck: list[str] = []  # top first
        self.discards: list[str] = []  # oldest first
        self.cleared: list[str] = []
        self.shown: list[str] = []  # every card face up on the table this round
        self.seq = 0
        self.lulls = 0
        self.gestures: list[GestureView] = []
        self.swaps: list[SwapView] = []
        self.deals: list[int] = []
        self.choices: list[str | None] = [None] * self.units
        self.last_signals: list[str | None] = [None] * self.units
        self.signal_history: list[SignalRound] = []
        self.scores = [0] * self.units
        self.call: CallView | None = None
        self.void = False
        self.winners: list[int] = []
        self.team_win = False
        self.pending_deal: JSON | None = None
        self.opening_events: list[Event] = []

    # -- seats and sides ----------------------------------------------------------------------

    def unit_of(self, seat: int) -> int:
        return seat % self.units if self.team_game else seat

    def seats_of(self, unit: int) -> list[int]:
        return [s for s in range(self.players) if self.unit_of(s) == unit]

    def partner(self, seat: int) -> int | None:
        return (seat + self.players // 2) % self.players if self.team_game else None

    def left(self, seat: int) -> int:
        return (seat + 1) % self.players

    def right(self, seat: int) -> int:
        return (seat - 1) % self.players

    def watch_seat(self, seat: int) -> int:
        partner = self.partner(seat)
        return partner if partner is not None else self.right(seat)

    def signal_to(self, seat: int) -> int:
        partner = self.partner(seat)
        return partner if partner is not None else self.left(seat)

    def visible_units(self, seat: int) -> set[int]:
        """Units whose real signal this seat may know: its own, and the one it watches."""
        return {self.unit_of(seat), self.unit_of(self.watch_seat(seat))}

    def set_of(self, hand: list[str]) -> SetView | None:
        return best_set(hand, int(self.options.species or 0))

    def _rng(self, label: str) -> random.Random:
        # A fresh RNG per use, derived from the seed, keeps the JSON small and a reload exact.
        return random.Random(f"zaptrap:{self.seed}:{label}")

    # -- rounds -------------------------------------------------------------------------------

    def open_game(self, deal: JSON | None = None, signals: list[str] | None = None) -> None:
        """Set up a new game: the first dealer and round 1's signals phase, or with a scenario's
        ``deal`` (already checked) its fixed first deal, and with its ``signals`` round 1 in play."""
        self.dealer = self._rng("first_dealer").randrange(self.players)
        if deal is not None:
            self.pending_deal = {
                "hands": [list(h) for h in deal["hands"]],
                "table": list(deal["table"]),
                "deck": list(deal["deck"]),
            }
            if "dealer" in deal:
                self.dealer = int(deal["dealer"])
        data = {
            "players": self.players,
            "target": self.options.target,
            "team_game": self.team_game,
            "dealer": self.dealer,
        }
        events = [Event("game_start", seat=None, data=data)]
        events += self._open_signals()
        if signals is not None:
            for unit, gesture in enumerate(signals):
                self.choices[unit] = gesture
            events += self._start_play()
        self.opening_events = events

    def _open_signals(self) -> list[Event]:
        self.phase = "signals"
        self.choices = [None] * self.units
        self.hands = [[] for _ in range(self.players)]
        self.table, self.deck, self.discards, self.cleared, self.shown = [], [], [], [], []
        self.seq, self.lulls = 0, 0
        self.gestures, self.swaps, self.deals = [], [], []
        self.call, self.void = None, False
        data = {"round": self.round, "dealer": self.dealer, "team_game": self.team_game}
        return [Event("signals_open", seat=None, data=data)]

    def _start_play(self) -> list[Event]:
        self.signal_history.append({"round": self.round, "signals": list(self.choices)})
        self.last_signals = list(self.choices)
        size = int(self.options.hand_size or 0)
        if self.pending_deal is not None:
            deal, self.pending_deal = self.pending_deal, None
            hands = [list(h) for h in deal["hands"]]
            table = list(deal["table"])
            self.deck = list(deal["deck"])
        else:
            cards = self.options.deck()
            self._rng(f"round{self.round}").shuffle(cards)
            # Dealt one at a time round the table from the dealer's left, like at a real table.
            order = [(self.dealer + 1 + i) % self.players for i in range(self.players)]
            hands = [[] for _ in range(self.players)]
            for i in range(size * self.players):
                hands[order[i % self.players]].append(cards[i])
            rest = cards[size * self.players :]
            table, self.deck = rest[:TABLE_SIZE], rest[TABLE_SIZE:]
        self.hands = [sort_hand(h) for h in hands]
        self.table = table
        self.shown = list(table)
        self.phase = "play"
        return [
            Event(
                "deal",
                seat=None,
                data={
                    "round": self.round,
                    "dealer": self.dealer,
                    "table": list(table),
                    "hand_counts": [len(h) for h in self.hands],
                    "deck_count": len(self.deck),
                    "hand_size": size,
                },
            )
        ]

    def _lull_deal(self, seat: int | None) -> list[Event]:
        cleared = list(self.table)
        self.discards += cleared
        self.cleared = cleared
        self.table = []
        reshuffled = False
        events: list[Event] = []
        if len(self.deck) < TABLE_SIZE:
            # The four just cleared would come straight back: only older discards are reshuffled.
            older = self.discards[: -len(cleared)] if cleared else list(self.discards)
            if len(self.deck) + len(older) < TABLE_SIZE:
                return self._void_round()
            self.lulls += 1
            self._rng(f"reshuffle{self.round}-{self.lulls}").shuffle(older)
            self.deck += older
            self.discards = cleared
            reshuffled = True
        self.table, self.deck = self.deck[:TABLE_SIZE], self.deck[TABLE_SIZE:]
        self.shown += self.table
        self.seq += 1
        self.deals.append(self.seq)
        events.append(
            Event(
                "lull_deal",
                seat=seat,
                data={
                    "cleared": cleared,
                    "table": list(self.table),
                    "deck_count": len(self.deck),
                    "reshuffled": reshuffled,
                    "seq": self.seq,
                },
            )
        )
        return events

    def _void_round(self) -> list[Event]:
        self.void = True
        self.phase = "between"
        return [Event("void_round", seat=None, data={"round": self.round})]

    def _next_round(self) -> list[Event]:
        self.round += 1
        self.dealer = self.left(self.dealer)
        return self._open_signals()

    # -- queries ------------------------------------------------------------------------------

    def call_targets(self, seat: int, call: str) -> list[int]:
        others = [t for t in range(self.players) if t != seat]
        if not self.team_game and not self.options.refuse_wrong_targets:
            return others
        watched = self.watch_seat(seat)
        return [watched] if call == "ZAP" else [t for t in others if t != watched]

    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.phase == "over":
            return []
        if seat is not None and not 0 <= seat < self.players:
            return []
        if self.phase == "signals":
            return ["signals"] if seat is None else [f"signal-{g}" for g in GESTURES]
        if self.phase == "between":
            return ["next"]
        if seat is None:
            return ["deal"]
        actions = [f"S{give}-{take}" for give in self.hands[seat] for take in self.table]
        actions += [f"gesture-{g}" for g in GESTURES]
        actions += [f"ZAP-{t}" for t in self.call_targets(seat, "ZAP")]
        actions += [f"TRAP-{t}" for t in self.call_targets(seat, "TRAP")]
        if seat == self.dealer:
            actions.append("deal")
        return actions

    # -- actions ------------------------------------------------------------------------------

    def _check(self, seat: int | None, action: Action) -> None:
        """Raise IllegalAction with a reason if ``action`` is not allowed now; changes nothing."""
        if self.phase == "over":
            raise IllegalAction("game_over")
        if seat is not None and not 0 <= seat < self.players:
            raise IllegalAction("not_a_seat")
        kind, arg = parse_action(action)
        if kind == "signals":
            if seat is not None:
                raise IllegalAction("referee_closes_signals")
            if self.phase != "signals":
                raise IllegalAction("signals_closed")
            return
        if kind == "next":
            if self.phase != "between":
                raise IllegalAction("round_not_over")
            return
        if kind == "signal":
            if seat is None:
                raise IllegalAction("player_chooses_signal")
            if self.phase != "signals":
                raise IllegalAction("signal_too_late")
            return
        if kind == "gesture" and self.phase != "play":
            raise IllegalAction("gesture_not_in_play")
        if self.phase == "signals":
            raise IllegalAction("round_not_started")
        if self.phase == "between":
            raise IllegalAction("round_over")
        if kind == "deal":
            if seat is not None and seat != self.dealer:
                raise IllegalAction("dealer_only")
            return
        if seat is None:
            raise IllegalAction("player_only")
        if kind == "gesture":
            return
        if kind == "swap":
            give, take = arg.split("-")
            self._check_swap(seat, give, take)
            return
        self._check_call(seat, kind, int(arg))

    def _check_swap(self, seat: int, give: str, take: str) -> None:
        if give not in self.hands[seat]:
            raise IllegalAction("not_in_hand", card=give)
        if take in self.table:
            return
        if take in self.hands[seat]:
            raise IllegalAction("already_in_hand", card=take)
        if take in self.shown:
            if take in self.discards:
                raise IllegalAction("cleared", card=take)
            raise IllegalAction("taken", card=take)
        raise IllegalAction("not_on_table", card=take)

    def _check_call(self, seat: int, call: str, target: int) -> None:
        if not 0 <= target < self.players:
            raise IllegalAction("no_such_seat")
        if target == seat:
            raise IllegalAction("call_on_self", call=call)
        if target in self.call_targets(seat, call):
            return
        if self.team_game:
            if call == "ZAP":
                raise IllegalAction("zap_partner_only")
            raise IllegalAction("trap_partner")
        if call == "ZAP":
            raise IllegalAction("wrong_zap_refused")
        raise IllegalAction("wrong_trap_refused")

    def apply(self, seat: int | None, action: Action) -> list[Event]:
        self._check(seat, action)
        kind, arg = parse_action(action)
        if kind == "signals":
            return self._default_signals()
        if kind == "next":
            return self._next_round()
        if kind == "signal":
            assert seat is not None
            return self._choose_signal(seat, arg)
        if kind == "deal":
            return self._lull_deal(seat)
        assert seat is not None
        if kind == "gesture":
            self.seq += 1
            self.gestures.append({"seq": self.seq, "seat": seat, "gesture": arg})
            data = {"gesture": arg, "emoji": GESTURES[arg], "seq": self.seq}
            return [Event("gesture", seat=seat, data=data)]
        if kind == "swap":
            give, take = arg.split("-")
            self.hands[seat].remove(give)
            self.hands[seat] = sort_hand([*self.hands[seat], take])
            self.table[self.table.index(take)] = give
            self.shown.append(give)
            self.seq += 1
            self.swaps.append({"seq": self.seq, "seat": seat, "gave": give, "took": take})
            return [Event("swap", seat=seat, data={"gave": give, "took": take, "seq": self.seq})]
        return self._resolve_call(seat, kind, int(arg))

    def _choose_signal(self, seat: int, gesture: str) -> list[Event]:
        unit = self.unit_of(seat)
        self.choices[unit] = gesture
        events = [Event("signal_chosen", seat=seat, data={"unit": unit})]
        if all(c is not None for c in self.choices):
            events += self._start_play()
        return events

    def _default_signals(self) -> list[Event]:
        missing = [u for u, c in enumerate(self.choices) if c is None]
        for unit in missing:
            last = self.last_signals[unit]
            if last is None:
                last = self._rng(f"signal{self.round}-{unit}").choice(list(GESTURES))
            self.choices[unit] = last
        events = [Event("signals_default", seat=None, data={"units": missing, "team_game": self.team_game})]
        return events + self._start_play()

    # -- calls and scoring --------------------------------------------------------------------

    def _resolve_call(self, caller: int, call: str, target: int) -> list[Event]:
        hand = sort_hand(self.hands[target])
        found = self.set_of(hand)
        cu, tu = self.unit_of(caller), self.unit_of(target)
        correct = target in (
            [self.watch_seat(caller)]
            if call == "ZAP"
            else [t for t in range(self.players) if t not in (caller, self.watch_seat(caller))]
        )
        score = score_call(
            call,
            hand,
            found,
            self.hands[caller],
            team_game=self.team_game,
            units=self.units,
            caller_unit=cu,
            target_unit=tu,
            correct=correct,
        )
        case, scorers, value, lines = score.case, score.scorers, score.value, score.lines

        points = [value if u in scorers else 0 for u in range(self.units)]
        self.scores = [a + b for a, b in zip(self.scores, points, strict=True)]
        team_win = case == "A" and max(self.scores[cu], self.scores[tu]) >= self.options.target
        self.call = {
            "caller": caller,
            "target": target,
            "call": call,
            "case": case,
            "correct_target": correct or self.team_game,
            "hand": hand,
            "set": found,
            "lines": lines,
            "value": value,
            "scorers": scorers,
            "points": points,
            "team_win": team_win,
        }
        events = [Event("call", seat=caller, data=dict(self.call))]
        events.append(
            Event(
                "round_over",
                seat=None,
                data={"round": self.round, "points": points, "scores": list(self.scores)},
            )
        )
        self.phase = "between"
        self._check_win(team_win, [caller, target], events)
        return events

    def _check_win(self, team_win: bool, pair: list[int], events: list[Event]) -> None:
        if team_win:
            self.winners = sorted(pair)
            self.team_win = True
        else:
            reached = [u for u, s in enumerate(self.scores) if s >= self.options.target]
            if not reached:
                return
            top = max(self.scores[u] for u in reached)
            self.winners = [s for s in range(self.players) if self.scores[self.unit_of(s)] == top]
        self.phase = "over"
        events.append(
            Event(
                "game_over",
                seat=None,
                data={
                    "winners": list(self.winners),
                    "scores": list(self.scores),
                    "team_win": self.team_win,
                    "signals": [copy_round(h) for h in self.signal_history],
                },
            )
        )

    # -- what players see ---------------------------------------------------------------------

    def view(self, seat: int | None) -> ZapTrapView:
        data: ZapTrapView = {
            "game": KEY,
            "seat": seat,
            "players": self.players,
            "preset": self.options.preset,
            "species": int(self.options.species or 0),
            "hand_size": int(self.options.hand_size or 0),
            "target": self.options.target,
            "team_game": self.team_game,
            "team_of": [self.unit_of(s) for s in range(self.players)],
            "units": self.units,
            "scores": list(self.scores),
            "phase": self.phase,
            "round": self.round,
            "dealer": self.dealer,
            "signals_ready": [c is not None for c in self.choices],
            "table": list(self.table),
            "deck_count": len(self.deck),
            "discard_count": len(self.discards),
            "cleared": list(self.cleared),
            "hand_counts": [len(h) for h in self.hands],
            "seq": self.seq,
            "gestures": [g.copy() for g in self.gestures[-RECENT:]],
            "swaps": [s.copy() for s in self.swaps[-RECENT:]],
            "deals": list(self.deals),
            "palette": dict(GESTURES),
            "call": None if self.call is None else copy_call(self.call),
            "void": self.void,
            "winners": list(self.winners),
            "team_win": self.team_win,
        }
        if self.phase == "over":
            data["signal_history"] = [copy_round(h) for h in self.signal_history]
        if seat is not None:
            unit = self.unit_of(seat)
            watched = self.watch_seat(seat)
            data["hand"] = sort_hand(self.hands[seat])
            data["best_set"] = self.set_of(self.hands[seat])
            data["unit"] = unit
            data["partner"] = self.partner(seat)
            data["my_signal"] = self.choices[unit]
            data["last_signal"] = self.last_signals[unit]
            data["watch_seat"] = watched
            data["watch_signal"] = self.choices[self.unit_of(watched)]
            data["signal_to"] = self.signal_to(seat)
            data["can_deal"] = self.phase == "play" and seat == self.dealer
        return data

    def quiet_actions(self) -> list[QuietAction]:
        if self.phase == "signals":
            return [QuietAction("signals", "signals")]
        if self.phase == "play":
            return [QuietAction("lull" if self.options.lull == "auto" else "lull_fallback", "deal")]
        if self.phase == "between":
            return [QuietAction("next_round", "next")]
        return []

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        team_of = [self.unit_of(s) for s in range(self.players)]
        return final_result(team_of, self.scores, self.winners, self.team_win, self.team_game)

    # -- persistence --------------------------------------------------------------------------

    def to_json(self) -> JSON:
        return {
            "game": KEY,
            "version": 1,
            "players": self.players,
            "options": options_to_json(self.options),
            "seed": self.seed,
            "round": self.round,
            "phase": self.phase,
            "dealer": self.dealer,
            "hands": [list(h) for h in self.hands],
            "table": list(self.table),
            "deck": list(self.deck),
            "discards": list(self.discards),
            "cleared": list(self.cleared),
            "shown": list(self.shown),
            "seq": self.seq,
            "lulls": self.lulls,
            "gestures": [dict(g) for g in self.gestures],
            "swaps": [dict(s) for s in self.swaps],
            "deals": list(self.deals),
            "choices": list(self.choices),
            "last_signals": list(self.last_signals),
            "signal_history": [copy_round(h) for h in self.signal_history],
            "scores": list(self.scores),
            "call": None if self.call is None else copy_call(self.call),
            "void": self.void,
            "winners": list(self.winners),
            "team_win": self.team_win,
            "pending_deal": self.pending_deal,
            "opening_events": [e.to_json() for e in self.opening_events],
        }

    @classmethod
    def from_json(cls, data: JSON) -> ZapTrapState:
        if data.get("game") != KEY:
            raise ValueError(f"Not a Zap or Trap state: game is {data.get('game')!r}.")
        state = cls(data["players"], parse_options(data["options"]), data["seed"])
        state.round = data["round"]
        state.phase = data["phase"]
        state.dealer = data["dealer"]
        state.hands = [list(h) for h in data["hands"]]
        state.table = list(data["table"])
        state.deck = list(data["deck"])
        state.discards = list(data["discards"])
        state.cleared = list(data["cleared"])
        state.shown = list(data["shown"])
        state.seq = data["seq"]
        state.lulls = data["lulls"]
        # Stored JSON is trusted to have the shapes it was written with (to_json above).
        state.gestures = cast(list[GestureView], [dict(g) for g in data["gestures"]])
        state.swaps = cast(list[SwapView], [dict(s) for s in data["swaps"]])
        state.deals = list(data["deals"])
        state.choices = list(data["choices"])
        state.last_signals = list(data["last_signals"])
        state.signal_history = [copy_round(h) for h in data["signal_history"]]
        state.scores = list(data["scores"])
        state.call = None if data["call"] is None else copy_call(data["call"])
        if state.call is not None:  # stored before the lines were codes: English sentences
            state.call["lines"] = [legacy_line(line) for line in state.call["lines"]]
        state.void = data["void"]
        state.winners = list(data["winners"])
        state.team_win = data["team_win"]
        state.pending_deal = data["pending_deal"]
        state.opening_events = [_without_text(Event.from_json(e)) for e in data.get("opening_events", [])]
        return state


def _without_text(event: Event) -> Event:
    """An event as this engine writes it: stored before events were data, it held an English
    sentence as well (dropped: the cog words the data), and its game start and deal less data."""
    return Event(event.kind, seat=event.seat, data=event.data)
