"""GiftTRAP's words for what happened: the engine's events (the Latest lines), its refusals, how
the game ended and the names of actions, worded from the engine's data (kinds, codes, seats, gift
spaces, tokens) in the reader's language, through the ``gifttrap`` catalog. The cog
(cogs/gifttrap.py) draws the table and panels and hands these to the referee through GiftTrapUI's
one-line methods; History (drawn by the cog) shows an unwrapped gift as its event does, with
``gift_line``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cogs.drawings.gifttrap_cards import TOKEN_NAMES, gift_name, token_label
from cogs.drawings.gifttrap_panel import gift_text, state_of, token_line
from cogs.table.model import Table
from cogs.texts import N_, Texts, signed
from rules.base import Event, IllegalAction, Result
from rules.gifttrap import GIFTS, PRICES, TOKENS, parse_action

T = Texts(__name__)


def event_line(table: Table, event: Event) -> str:
    """A Latest line, worded from the event's data with the seats' names as they are now."""
    data = event.data
    who = f"**{table.name(event.seat)}**" if event.seat is not None else ""
    kind = event.kind
    if kind == "round_start":
        return T.gettext("Round {round}: {dealer} deals and picks the pack.", round=data["round"], dealer=who)
    if kind == "pack":
        count = len(data["layout"])
        if data["by_referee"]:
            return T.ngettext(
                "⏰ Time is up: the referee picks the {price} pack. {n} gift is out.",
                "⏰ Time is up: the referee picks the {price} pack. {n} gifts are out.",
                count,
                price=data["price"],
            )
        return T.ngettext(
            "{dealer} picks the {price} pack: {n} gift is on the table.",
            "{dealer} picks the {price} pack: {n} gifts are on the table.",
            count,
            dealer=who,
            price=data["price"],
        )
    if kind == "ready":
        return T.gettext("{name} is ready.", name=who)
    if kind == "filled":
        return T.gettext("⏰ {name} ran out of time: the referee completed their choices.", name=who)
    if kind == "reveal_start":
        return T.gettext("Everyone is ready: the gifts are revealed one at a time, the dealer's first.")
    if kind == "ranking":
        ranks, ids = data["ranks"], data.get("gifts")
        if ids is not None:  # the gifts the tokens were on, whichever round is on the table now
            layout = {ranks[t]: GIFTS[ids[t]].on_space(ranks[t]) for t in ranks}
        else:  # an older record: the gifts on the table now are that round's while it lasts
            layout = {g["space"]: g for g in state_of(table).view(None)["layout"]}
        parts = [token_line(t, layout.get(ranks[t]), short=True) for t in TOKENS if t in ranks]
        return T.gettext("{name} turns up their tokens: {tokens}", name=who, tokens=" · ".join(parts))
    if kind == "gift":
        return "🎁 " + gift_line(table, data)
    if kind == "gifttrap":
        space = data["space"]
        gift = GIFTS[data["gift"]].on_space(space) if data.get("gift") in GIFTS else None
        what = gift_text(gift) if gift else T.gettext("gift {space}", space=space)
        return T.gettext(
            "🪤 {name} shouts **GiftTRAP** on {gift}: nobody scores from it this round.",
            name=who,
            gift=what,
        )
    if kind == "round_over":
        return T.gettext("Round {round} is over.", round=data["round"])
    if kind == "game_over":
        # Older records' game_over has no round: it is the game's last, where the state is now.
        rounds = data.get("round", state_of(table).view(None)["round"])
        return T.gettext("The game is over. {how}", how=how(len(data["winners"]), rounds))
    return kind  # a kind not worded here (not one GiftTRAP makes)


def gift_line(table: Table, record: Mapping[str, Any]) -> str:
    """One unwrapped gift: who, what, the token, and both markers' moves."""
    # The gift by its id (an event names it so; its name and emoji are the gift's, worded here).
    known = GIFTS[record["gift"]]
    gift = {"space": record["space"], "gift": known.id, "emoji": known.emoji}
    said = {
        "receiver": table.name(record["receiver"]),
        "giver": table.name(record["giver"]),
        "gift": gift_text(gift),
        "token": token_label(record["token"]),
    }
    if record["trapped"]:
        return T.gettext(
            "**{receiver}** unwraps {gift} from **{giver}**: {token}, GiftTRAPped: nobody moves", **said
        )
    # Short: up to five of these lines sit in the table's Latest field (phones).
    get, give = signed(record["receiver_points"]), signed(record["giver_points"])
    if record["give_more"] and record["get_more"]:
        return T.gettext(
            "**{receiver}** unwraps {gift} from **{giver}**: {token} — GET {get}, GIVE {give} "
            "(Give More and Get More ×2)",
            get=get,
            give=give,
            **said,
        )
    if record["give_more"]:
        return T.gettext(
            "**{receiver}** unwraps {gift} from **{giver}**: {token} — GET {get}, GIVE {give} (Give More ×2)",
            get=get,
            give=give,
            **said,
        )
    if record["get_more"]:
        return T.gettext(
            "**{receiver}** unwraps {gift} from **{giver}**: {token} — GET {get}, GIVE {give} (Get More ×2)",
            get=get,
            give=give,
            **said,
        )
    return T.gettext(
        "**{receiver}** unwraps {gift} from **{giver}**: {token} — GET {get}, GIVE {give}",
        get=get,
        give=give,
        **said,
    )


def how(winners: int, rounds: int) -> str:
    """How the game ended (the result's ``gifted``): the winners and the round."""
    return T.ngettext(
        "One player has both markers on GIFTED after round {round} and wins.",
        "{n} players have both markers on GIFTED after round {round} and share the win.",
        winners,
        round=rounds,
    )


def result_text(result: Result) -> str:
    """The result's ``how`` in words (GiftTRAP's one way to end: ``gifted``)."""
    return how(len(result.details.get("winners", result.winners)), result.details["round"])


def refusal(table: Table, error: IllegalAction) -> str:
    """The sentence a player reads for an engine refusal (rules/gifttrap/checks.py's codes)."""
    code, p = error.code, error.params
    card = p.get("card")
    simple = REFUSALS.get(code)
    if simple is not None:
        return T.gettext(simple, **p)
    if code == "not_an_action":
        return T.gettext(
            "'{action}' is not a GiftTRAP action: try 'give-1-3', 'rank-great-2', 'ready' or 'gifttrap-4'.",
            action=p["action"],
        )
    if code == "card_not_played":
        if card == "give_more":
            return T.gettext("Your Give More card is not in play, so there is nothing to take back.")
        return T.gettext("Your Get More card is not in play, so there is nothing to take back.")
    if code == "card_on_self":
        if card == "give_more":
            return T.gettext("You can't put Give More on yourself: put it with the gift for another player.")
        return T.gettext("You can't put Get More on yourself: put it under the gift from another player.")
    if code == "card_already_there":
        if card == "give_more":
            return T.gettext("Your Give More card is already with the gift for that player.")
        return T.gettext("Your Get More card is already under the gift from that player.")
    if code == "token_already_there":
        return T.gettext(
            "Your {token} token is already on gift {space}.",
            token=token_label(p["token"]),
            space=p["space"],
        )
    if code == "gift_has_token":
        return T.gettext(
            "Your {token} token is already on gift {space}: each token goes on a different gift.",
            token=token_label(p["token"]),
            space=p["space"],
        )
    if code == "not_complete":
        return _not_complete(len(p["receivers"]), p["tokens"])
    return code  # a code not worded here (not one GiftTRAP's engine raises)


def _not_complete(gifts: int, tokens: Sequence[str]) -> str:
    """Ready refused: what is still missing."""
    give = T.ngettext("give {n} more gift", "give {n} more gifts", gifts) if gifts else ""
    place = ""
    if tokens:
        names = ", ".join(T.gettext(TOKEN_NAMES[t]) for t in tokens)
        place = T.ngettext(
            "place your {tokens} token", "place your {tokens} tokens", len(tokens), tokens=names
        )
    both = give and place
    missing = T.gettext("{give} and {place}", give=give, place=place) if both else give or place
    return T.gettext("Before you are ready, {missing}.", missing=missing)


def describe(table: Table, action: str) -> str:
    """A player-readable name for an action ("give gift 1 (🦆 Rubber duck) to Bea")."""
    state = state_of(table)
    try:
        move = parse_action(action)
    except IllegalAction:
        return action
    verb = move.verb
    if verb == "pack":
        return T.gettext("pick the {price} pack", price=PRICES.get(move.pack or 0, "?"))
    if verb in ("give", "rank", "unrank", "gifttrap") and (
        move.space is None or not 1 <= move.space <= state.spaces
    ):
        return action
    gift = ""
    if move.space is not None:
        laid = GIFTS[state.layout[move.space - 1]]
        gift = T.gettext(
            "gift {space} ({emoji} {name})", space=move.space, emoji=laid.emoji, name=gift_name(laid.id)
        )
    if move.seat is not None and not 0 <= move.seat < len(table.seats):
        return action
    other = table.plain_name(move.seat) if move.seat is not None else ""
    if verb == "give":
        return T.gettext("give {gift} to {name}", gift=gift, name=other)
    if verb == "rank":
        assert move.token is not None
        return T.gettext("put {token} on {gift}", token=token_label(move.token), gift=gift)
    if verb == "unrank":
        return T.gettext("take your token off {gift}", gift=gift)
    if verb == "gifttrap":
        return T.gettext("shout GiftTRAP on {gift}", gift=gift)
    if verb == "givemore":
        if move.seat is None:
            return T.gettext("take back your Give More card")
        return T.gettext("put Give More with your gift for {name}", name=other)
    if verb == "getmore":
        if move.seat is None:
            return T.gettext("take back your Get More card")
        return T.gettext("put Get More under the gift from {name}", name=other)
    return {
        "ready": T.gettext("lock in your choices"),
        "next": T.gettext("start the next round"),
        "fill": T.gettext("fill in the choices of everyone not ready"),
        "reveal": T.gettext("reveal the next gift"),
    }[verb]


# Refusals worded by one sentence (their details are numbers); the others are in refusal above.
REFUSALS: dict[str, str] = {
    "game_over": N_("The game is over."),
    "referee_only": N_("Only the referee fills in choices or turns up the next gift."),
    "nothing_to_fill": N_("There is nothing to fill in now."),
    "nothing_to_reveal": N_("There is nothing to reveal now."),
    "not_at_table": N_("That seat is not at this table."),
    "round_going": N_("The round is still going: the next round starts after the reveal."),
    "players_only": N_("Only a player can do that."),
    "not_laid_out": N_("The gifts are not laid out yet: the dealer is picking the pack."),
    "reveal_begun": N_("The reveal has begun: choices are locked in until the next round."),
    "round_over": N_("The round is over: choices open again when the next round's gifts are laid out."),
    "locked_in": N_("You are ready: your choices are locked in for this round."),
    "no_strategy_cards": N_("Strategy cards are not in play at this table."),
    "no_token": N_("You have no token on gift {space}."),
    "pack_picked": N_("The pack for this round is already picked."),
    "dealer_only": N_("Only the dealer picks the pack this round."),
    "no_such_pack": N_("Pick pack 1, 2, 3 or 4 ($ to $$$$)."),
    "no_such_gift": N_("There is no gift {space}: the gifts are numbered 1 to {spaces}."),
    "give_to_self": N_("You can't give a gift to yourself: give one to each other player."),
    "no_such_seat": N_("There is no such seat at this table."),
    "already_giving": N_("You are already giving that player gift {space}."),
    "gift_given": N_(
        "You already give gift {space} to another player: you can give each gift only once. "
        "Give that player a different gift first."
    ),
    "gifttrap_used": N_("You have already used your GiftTRAP card: it is once a game."),
    "no_gifts_out": N_("GiftTRAP goes on a gift on the table: wait for the next round's gifts."),
    "already_trapped": N_("Gift {space} already has a GiftTRAP card on it."),
}


def symbol_lines(options: Any) -> list[str]:
    """The quick start's "What you see" (cogs/symbols.py): the tokens on the panel's picture and
    the strategy cards, one line each. Issue 33: the panel explained Give More, Get More and the
    GiftTRAP card at length every time it was drawn; they are told once here instead."""
    lines = [
        T.gettext(
            "**Tokens** on the gifts in **My gifts** are yours alone: GREAT a star, GOOD a circle, "
            "OK a square, NO WAY a cross."
        )
    ]
    if options.strategy_cards:
        lines.append(
            T.gettext(
                "💝 **Give More** doubles your GIVE move for one gift you give, 🔍 **Get More** your GET "
                "move for one gift you receive: once a round each."
            )
        )
        lines.append(
            T.gettext(
                "🪤 **GiftTRAP**: a button on the table, once a game: nobody scores from that gift this "
                "round. 🪤 by a name or on your panel: that card is still to play."
            )
        )
    return lines
