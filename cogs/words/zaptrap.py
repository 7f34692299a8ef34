"""Zap or Trap in words: what happened (the engine's events), what it refused, how a round was
called and how the game ended, worded from the engine's data in the language being drawn.

The cog (cogs/zaptrap.py) draws the table and the panels and hands the wording of what happened
here; the panel (cogs/drawings/zaptrap_panel.py) writes the secret signals with ``signal_text``.
The cards' own names are in cogs/drawings/zaptrap_words.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cogs.drawings.zaptrap_cards import SPECIAL_FACES
from cogs.drawings.zaptrap_words import SPECIAL_EMOJI, card_name, special_name, species_name
from cogs.table.model import Table
from cogs.texts import N_, Texts
from rules.base import Event, IllegalAction, Result
from rules.zaptrap import GESTURES, ZapTrapState, ZapTrapView
from rules.zaptrap.cards import BE_FREE, DANGEROUS_MISSION, ZIP_ZAP
from rules.zaptrap.scoring import (
    BACKFIRES,
    BONUS,
    DANGEROUS,
    FIVE_SET_LINE,
    ON_NO_SET,
    ON_SET,
    WRONG_TARGET_PENALTY,
    final_result,
    legacy_line,
)

T = Texts(__name__)
# The secret-signal gestures' names.
GESTURE_NAMES = {
    # Translators: a secret-signal gesture's name, shown beside its emoji.
    "think": N_("think"),
    # Translators: a secret-signal gesture's name, shown beside its emoji.
    "wink": N_("wink"),
    # Translators: a secret-signal gesture's name, shown beside its emoji.
    "yawn": N_("yawn"),
    # Translators: a secret-signal gesture's name, shown beside its emoji.
    "shush": N_("shush"),
    # Translators: a secret-signal gesture's name, shown beside its emoji.
    "smirk": N_("smirk"),
    # Translators: a secret-signal gesture's name, shown beside its emoji.
    "cool": N_("cool"),
    # Translators: a secret-signal gesture's name, shown beside its emoji.
    "eyeroll": N_("eyeroll"),
    # Translators: a secret-signal gesture's name, shown beside its emoji.
    "sneeze": N_("sneeze"),
}


def gesture_name(gesture: str) -> str:
    return T.gettext(GESTURE_NAMES[gesture]) if gesture in GESTURE_NAMES else gesture


def signal_text(gesture: str | None) -> str:
    """A secret signal as only its owners (and its watcher) ever see it: emoji and name."""
    if gesture is None:
        return T.gettext("not chosen yet")
    return f"{GESTURES[gesture]} {gesture_name(gesture)}"


def _view(table: Table) -> ZapTrapView:
    """The spectator view of the table's engine state: what every event and refusal is worded from."""
    assert isinstance(table.state, ZapTrapState)
    return table.state.view(None)


def side_seats(view: ZapTrapView) -> list[list[int]]:
    """The seats of each side (a team of two, or one player)."""
    sides: list[list[int]] = [[] for _ in range(int(view["units"]))]
    for seat, unit in enumerate(view["team_of"]):
        sides[unit].append(seat)
    return sides


def side_name(table: Table, view: ZapTrapView, unit: int) -> str:
    return " & ".join(table.name(s) for s in side_seats(view)[unit])


def _and(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c" (no comma before the "and", as these texts always had)."""
    if len(items) == 1:
        return items[0]
    # Translators: the end of a list of names: "alice, bob and carol".
    return T.gettext("{others} and {last}", others=", ".join(items[:-1]), last=items[-1])


def _side(table: Table, seats: list[int]) -> str:
    """A side by its players' names: "alice", or a team "alice & carol"."""
    return " & ".join(table.name(s) for s in seats)


def result_summary(table: Table, result: Result) -> str:
    """How the game was won (the engine's ``how`` and ``details``), with the seats' names now."""
    details = result.details
    if result.how == "team_zap":
        first, second = (table.name(s) for s in details["seats"])
        high, low = details["points"]
        return T.ngettext(
            "A successful ZAP wins it for {first} and {second} together ({high} and {n} point).",
            "A successful ZAP wins it for {first} and {second} together ({high} and {n} points).",
            low,
            first=first,
            second=second,
            high=high,
        )
    names = _and([_side(table, seats) for seats in details["sides"]])
    points = int(details["points"])
    if result.how == "shared":
        return T.ngettext(
            "{names} share the win with {n} point each.",
            "{names} share the win with {n} points each.",
            points,
            names=names,
        )
    if result.how == "team":
        return T.ngettext("{names} win with {n} point.", "{names} win with {n} points.", points, names=names)
    return T.ngettext("{names} wins with {n} point.", "{names} wins with {n} points.", points, names=names)


def score_line(line: str, call: str) -> str:
    """One line of a call's points (scoring.py's codes; a sentence stored by older code is read
    back as its code)."""
    line = legacy_line(line)
    if line == ON_SET:
        # Translators: {call} is ZAP or TRAP, the game's calls; a line of a call's points.
        return T.gettext("{call} on a set +1", call=call)
    if line == FIVE_SET_LINE:
        return T.gettext("five-set +1")
    if line == DANGEROUS:
        return T.gettext("Dangerous Mission in the target's hand +2")
    if line == BONUS:
        card = special_name(ZIP_ZAP if call == "ZAP" else BE_FREE)
        return T.gettext("{card} in the caller's hand +1", card=card)
    if line == ON_NO_SET:
        return T.gettext("{call} on a hand without a set +1", call=call)
    if line == BACKFIRES:
        return T.gettext("Dangerous Mission backfires +2")
    if call == "ZAP":
        return T.gettext("ZAP on the wrong player: penalty +{points}", points=WRONG_TARGET_PENALTY)
    return T.gettext(
        "TRAP on the player whose signal the caller watches: penalty +{points}", points=WRONG_TARGET_PENALTY
    )


# The engine's refusals without parameters, by code (state.py).
REFUSALS = {
    "game_over": N_("The game is over."),
    "not_a_seat": N_("That seat is not at this table."),
    "referee_closes_signals": N_("Only the referee closes the signal choice when time runs out."),
    "signals_closed": N_("Secret signals are chosen only before a round starts."),
    "round_not_over": N_("The next round starts only after this round has ended."),
    "player_chooses_signal": N_("Only a player chooses a secret signal."),
    "signal_too_late": N_("You can choose or change your secret signal only before a round starts."),
    "gesture_not_in_play": N_("Gestures are for while a round is in play."),
    "round_not_started": N_("The round has not started yet: secret signals are being chosen."),
    "round_over": N_("The round is over: a call ended it, so swaps and calls are frozen."),
    "dealer_only": N_("Only the dealer clears the table and deals four new cards."),
    "player_only": N_("Only a player can do that."),
    "no_such_seat": N_("There is no such seat at this table."),
    "zap_partner_only": N_("In the team game you can only ZAP your partner."),
    "trap_partner": N_("You can't TRAP your own partner: TRAP is for opponents."),
    "wrong_zap_refused": N_(
        "This table refuses wrong targets: you can only ZAP the player on your right, whose signal you watch."
    ),
    "wrong_trap_refused": N_(
        "This table refuses wrong targets: you can't TRAP the player on your right, whose signal you watch."
    ),
}


def between_text(table: Table, view: ZapTrapView, name: Callable[[int], str] | None = None) -> str:
    """How the round ended; ``name`` words a seat (the panel's short names), else ``table.name``."""
    call = view["call"]
    if view["void"] or call is None:
        return T.gettext("Round {round} was void: nobody scores.", round=view["round"])
    named = name or table.name
    return T.gettext(
        "**{caller}** called {call} on **{target}** — the reveal is posted below.",
        caller=named(call["caller"]),
        call=call["call"],
        target=named(call["target"]),
    )


def _cards(table: Table, codes: list[str]) -> str:
    """Face-up cards as an event names them: "Glorp; Zibble; Dangerous Mission; Mookah"."""
    view = _view(table)
    return "; ".join(card_name(c, view["preset"], int(view["species"])) for c in codes)


def event_line(table: Table, event: Event) -> str:
    """An engine event (data: state.py's docstring) in words, with the seats' names now.
    What an event stored by older code lacks (the table size, the target, the team game, the
    hand size) is the same for the whole game: the view says it."""
    kind, seat, data = event.kind, event.seat, event.data
    view = _view(table)
    name = table.name(seat) if seat is not None else ""
    team_game = bool(data.get("team_game", view["team_game"]))
    if kind == "gesture" and seat is not None:
        return f"**{name}**: {data.get('emoji', '')}"
    if kind == "call" and seat is not None:
        to = ", ".join(side_name(table, view, u) for u in data["scorers"])
        if len(data["scorers"]) > 1:
            return T.ngettext(
                "**{caller}** called {call} on **{target}**: {n} point each to {sides}.",
                "**{caller}** called {call} on **{target}**: {n} points each to {sides}.",
                int(data["value"]),
                caller=name,
                call=data["call"],
                target=table.name(data["target"]),
                sides=to,
            )
        return T.ngettext(
            "**{caller}** called {call} on **{target}**: {n} point to {sides}.",
            "**{caller}** called {call} on **{target}**: {n} points to {sides}.",
            int(data["value"]),
            caller=name,
            call=data["call"],
            target=table.name(data["target"]),
            sides=to,
        )
    if kind == "swap" and seat is not None:
        view_cards = view["preset"], int(view["species"])
        return T.gettext(
            "**{name}** swapped a {gave} for the {took}.",
            name=name,
            gave=card_name(data["gave"], *view_cards),
            took=card_name(data["took"], *view_cards),
        )
    if kind == "game_start":
        players = int(data.get("players", view["players"]))
        target = int(data.get("target", view["target"]))
        if team_game:
            return T.ngettext(
                "Zap or Trap for {players}: teams of two, partners opposite; first to {n} point wins.",
                "Zap or Trap for {players}: teams of two, partners opposite; first to {n} points wins.",
                target,
                players=players,
            )
        return T.ngettext(
            "Zap or Trap for {players}: everyone for themselves; first to {n} point wins.",
            "Zap or Trap for {players}: everyone for themselves; first to {n} points wins.",
            target,
            players=players,
        )
    if kind == "signals_open":
        dealer = table.name(data["dealer"])
        if team_game:
            return T.gettext(
                "Round {round}: each team chooses its secret signal. {dealer} deals.",
                round=data["round"],
                dealer=dealer,
            )
        return T.gettext(
            "Round {round}: each player chooses their secret signal. {dealer} deals.",
            round=data["round"],
            dealer=dealer,
        )
    if kind == "signal_chosen" and seat is not None:
        if team_game:
            return T.gettext("**{name}** has chosen their team's secret signal.", name=name)
        return T.gettext("**{name}** has chosen their secret signal.", name=name)
    if kind == "signals_default":
        if team_game:
            return T.gettext(
                "Time is up: every team still choosing keeps last round's secret signal "
                "(or gets a random one in the first round)."
            )
        return T.gettext(
            "Time is up: every player still choosing keeps last round's secret signal "
            "(or gets a random one in the first round)."
        )
    if kind == "deal":
        size = int(data.get("hand_size", view["hand_size"]))
        return T.ngettext(
            "Round {round} is dealt: {n} card each, and on the table {cards}. Go!",
            "Round {round} is dealt: {n} cards each, and on the table {cards}. Go!",
            size,
            round=data["round"],
            cards=_cards(table, data["table"]),
        )
    if kind == "lull_deal":
        cards = _cards(table, data["table"])
        if seat is not None:
            if data.get("reshuffled"):
                return T.gettext(
                    "**{name}** cleared the table and dealt {cards} "
                    "(the discards were shuffled into a new deck). Go!",
                    name=name,
                    cards=cards,
                )
            return T.gettext("**{name}** cleared the table and dealt {cards}. Go!", name=name, cards=cards)
        if data.get("reshuffled"):
            return T.gettext(
                "The table is cleared after a lull: {cards} "
                "(the discards were shuffled into a new deck). Go!",
                cards=cards,
            )
        return T.gettext("The table is cleared after a lull: {cards}. Go!", cards=cards)
    if kind == "void_round":
        return T.gettext(
            "The deck cannot supply four new cards: round {round} is void and nobody scores. "
            "The next dealer deals a new round.",
            round=data["round"],
        )
    if kind == "round_over":
        scores = ", ".join(f"{side_name(table, view, u)}: {score}" for u, score in enumerate(data["scores"]))
        return T.gettext("Round {round} is over. Scores: {scores}.", round=data["round"], scores=scores)
    if kind == "game_over":
        result = final_result(
            list(view["team_of"]),
            list(data["scores"]),
            list(data["winners"]),
            bool(data["team_win"]),
            team_game,
        )
        summary = result_summary(table, result)
        return T.gettext("The game is over. {summary} The secret signals are revealed.", summary=summary)
    return kind  # text: an event this cog does not know (a newer engine): its kind, as data


def refusal(table: Table, error: IllegalAction) -> str:
    """An engine refusal (its code and parameters) in words."""
    code, params = error.code, error.params
    if "card" in params:
        view = _view(table)
        card = params["card"]
        name = card_name(card, view["preset"], int(view["species"]))
        if code == "not_in_hand":
            return T.gettext("You don't hold a {name} ({code}).", name=name, code=card)
        if code == "already_in_hand":
            return T.gettext("The {name} ({code}) is already in your hand.", name=name, code=card)
        if code == "cleared":
            return T.gettext("The {name} ({code}) was cleared off the table.", name=name, code=card)
        if code == "taken":
            return T.gettext("Another player took the {name} ({code}) first.", name=name, code=card)
        if code == "not_on_table":
            return T.gettext("The {name} ({code}) is not on the table.", name=name, code=card)
    if code == "unknown_gesture":
        return T.gettext(
            "'{gesture}' is not one of the gestures: choose from {gestures}.",
            gesture=params.get("gesture", ""),
            gestures=", ".join(GESTURES),
        )
    if code == "bad_call":
        return T.gettext(
            "Write a call as '{call}-' and a seat number, such as '{call}-2'.",
            call=params.get("call", ""),
        )
    if code == "unknown_action":
        return T.gettext(
            "'{action}' is not a Zap or Trap action: swap with 'S3a-7c', gesture with 'gesture-wink', "
            "or call with 'ZAP-2' or 'TRAP-2'.",
            action=params.get("action", ""),
        )
    if code == "call_on_self":
        return T.gettext("You can't call {call} on yourself.", call=params.get("call", ""))
    sentence = REFUSALS.get(code)
    return T.gettext(sentence) if sentence is not None else code


def symbol_lines(options: Any) -> list[str]:
    """The quick start's "What you see" (cogs/symbols.py): the corner marks, doubles and special
    cards this table deals, one line each."""
    if options.preset == "kemps":  # plain playing cards: nothing a card player needs told
        return []
    lines = [
        T.gettext(
            "**3 {initial}** in a corner: the alien's number and initial (3 = {alien}). "
            "A set is 4 cards with the same number.",
            initial=species_name(3)[:1],
            alien=species_name(3),
        )
    ]
    if options.doubles:
        lines.append(T.gettext("**3+4**: a double card, it counts as either alien."))
    if options.specials:
        special = {
            ZIP_ZAP: T.gettext("+1 when your ZAP succeeds while you hold it."),
            BE_FREE: T.gettext("+1 when your TRAP succeeds while you hold it."),
            DANGEROUS_MISSION: T.gettext(
                "+2 for whoever scores a call on the hand holding it, even a failed call."
            ),
        }
        for code, meaning in special.items():
            name, letters = special_name(code), SPECIAL_FACES[code][2]  # "ZZ" on the card
            lines.append(f"{SPECIAL_EMOJI[code]} **{name}** ({letters}): {meaning}")
    return lines
