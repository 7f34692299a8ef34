"""Spy Trap's words for what happened: the engine's events (the Latest lines), its refusals, how the
game ended (the Latest line and the final embed's title and put-out lines) and the names of a
panel's actions, worded from the engine's data (kinds, codes, seats, cards, countries) in the
reader's language, through the ``spytrap`` catalog. The cog (cogs/spytrap.py) draws the table and
hands these to the referee through SpyTrapUI's one-line methods; the panel
(cogs/drawings/spytrap_panel.py) labels its buttons with ``describe``."""

from __future__ import annotations

from typing import Any

from cogs.drawings.spytrap_cards import FLAGS, card_label, card_name, card_with_article, country_name
from cogs.table.model import Table
from cogs.texts import N_, Texts, ordinal
from rules.base import Event, IllegalAction, Placement
from rules.spytrap import FILES_TO_WIN, HAND_SIZE, SpyTrapState
from rules.spytrap.views import SpyTrapView

T = Texts(__name__)
# What a refusal says while a prompt waits for its seat's answer (code "answer_prompt").
PROMPT_REFUSALS = {
    "steal": N_("Take one File from the drawer's home area ('steal-<card>') or decline with 'nosteal'."),
    "guess": N_("Guess the drawer's identity ('guess-French') or decline with 'noguess'."),
    "immunity": N_("Answer the guess with 'noimmunity' or play your Immunity card with 'immunity'."),
    "own_guess": N_("You must guess another spy's identity, such as 'guess-2-French'."),
    "keep": N_("Keep your own identity ('keep-own') or take the new one ('keep-new')."),
    "challenge": N_("Guess the drawer's identity ('challenge-French') or let it go with 'nochallenge'."),
    "swap": N_("Swap identities with the player you put out ('swap') or keep yours ('noswap')."),
}
# Refusals with no parameters, by code.
REFUSALS = {
    "game_over": N_("The game is over."),
    "referee_default_only": N_("The referee only applies the timer's default action."),
    "no_such_seat": N_("That seat is not at this table."),
    "out_of_game": N_("You are out of the game."),
    "referee_only": N_("Only the referee makes a choice for a player whose time ran out."),
    "piles_now": N_("Everyone is building a pile now: choose the cards for yours."),
    "pile_already_built": N_("Your pile is already built for this round."),
    "same_card_twice": N_("You named the same card twice."),
    "bidding_now": N_("The bidding is on: bid a number of cards or pass."),
    "not_your_bid": N_("It is not your turn to bid."),
    "pass_format": N_("Write a pass as 'pass'."),
    "opener_must_bid": N_("You open the bidding, so you must bid at least 1."),
    "bid_format": N_("A bid is a whole number of cards, such as 'bid-3'."),
    "your_draw": N_("It is your draw: choose a pile, such as 'draw-0'."),
    "drawer_drawing": N_("Nothing is waiting on you now: the drawer is drawing."),
    "not_drawer": N_("Only the player who won the bidding draws."),
    "pile_format": N_("Name a pile by its seat, such as 'draw-0'."),
    "answer_to_your_draw": N_("Wait: another player is answering a card you drew."),
    "another_answers_first": N_("Another player must answer first."),
    "guess_target": N_("You can only guess the identity of another spy still in the game."),
    "steal_not_file": N_("That card is not a File in the drawer's home area."),
}
# A seat that ran out of time, by the referee's action for them (event "timeout"), after the name.
TIMEOUTS = {
    "auto-pile": N_("**{name}** ran out of time: the referee built their pile."),
    "auto-guess": N_("**{name}** ran out of time: the referee guesses for them."),
    # An auto-draw names the pile (below); one stored before its data held the pile cannot.
    "auto-draw": N_("**{name}** ran out of time: the referee draws for them."),
    "bid-1": N_("**{name}** ran out of time: the referee opens the bidding at 1 for them."),
    "pass": N_("**{name}** ran out of time and passes."),
    "nosteal": N_("**{name}** ran out of time and steals nothing."),
    "noguess": N_("**{name}** ran out of time and makes no guess."),
    "immunity": N_("**{name}** ran out of time: the referee plays their Immunity card for them."),
    "keep-own": N_("**{name}** ran out of time: the referee settles their identity cards for them."),
    "nochallenge": N_("**{name}** ran out of time and does not challenge."),
    "noswap": N_("**{name}** ran out of time: the referee settles their identity cards for them."),
}
# Events worded the same whatever their data, by kind.
PLAIN_EVENTS = {
    "pass": N_("**{name}** passes."),
    "challenge_over": N_("Nobody guessed right; the drawing goes on."),
    "nosteal": N_("**{name}** steals nothing."),
    "noguess": N_("**{name}** makes no guess."),
    "immunity": N_("**{name}** plays their Immunity card and does not answer the guess."),
    "nochallenge": N_("**{name}** does not challenge."),
    "identity_choice": N_("**{name}** keeps one ID card and discards the other unseen."),
    "short_hands": N_("The deck and the used pile are empty: some hands stay short this round."),
}
AGENT_EFFECTS = {
    "own_pile": N_("The Evil Agent came from the drawer's own pile: it does nothing."),
    "inert": N_("The Evil Agent does nothing: its pile's owner is out of the game."),
    "nothing_to_steal": N_("The Evil Agent finds no File to steal in the drawer's home area."),
    "steal_offer": N_("The Evil Agent lets {owner} steal a File from the drawer."),
}
TRAP_EFFECTS = {
    "own_pile": N_("The trap is sprung from the drawer's own pile: they must guess another spy's identity."),
    "inert": N_("The trap does nothing: its pile's owner is out of the game."),
    "free_guess": N_("The trap is sprung: {owner} may make a free guess of the drawer's identity."),
}
# How a game ended (the result's ``how``), after "The game is over.": {name} is the winner's.
GAME_OVER = {
    "files": N_("The game is over. {name} collected {files} Files of their identity."),
    "challenge": N_("The game is over. {name} survived the challenge with {files} Files of their identity."),
    "last_spy": N_("The game is over. {name} is the last spy standing."),
    "round_limit": N_(
        "The game is over. The round limit was reached, so the spies still in are ranked by their "
        "counting Files."
    ),
    "no_cards": N_(
        "The game is over. No cards were left, so the spies still in are ranked by their counting Files."
    ),
}
# The same ending in the final embed's title, after the winner's name.
WINS = {
    "files": N_("Spy Trap — {name} wins with four Files of their own country"),
    "challenge": N_("Spy Trap — {name} wins by surviving the challenge"),
    "last_spy": N_("Spy Trap — {name} wins as the last spy standing"),
    "round_limit": N_("Spy Trap — {name} wins on Files when the round limit came"),
    "no_cards": N_("Spy Trap — {name} wins on Files when the cards ran out"),
}
# The actions a panel offers as buttons, by their action code.
ACTION_LABELS = {
    "pass": N_("Pass"),
    "nosteal": N_("Steal nothing"),
    "noguess": N_("Make no guess"),
    # Short, so both fit one line of a phone's panel beside each other: the hint above says it whole.
    "immunity": N_("Play Immunity"),
    "noimmunity": N_("Answer"),
    "keep-own": N_("Keep your own identity"),
    "keep-new": N_("Take the new identity"),
    "nochallenge": N_("Do not challenge"),
    "swap": N_("Swap identities"),
    "noswap": N_("Keep your identity"),
}


def event_line(table: Table, event: Event) -> str:
    """An engine event in words (state.py lists the kinds and their data), names as they are now."""
    kind, data = event.kind, event.data
    name = table.name(event.seat) if event.seat is not None else ""
    plain = PLAIN_EVENTS.get(kind)
    if plain is not None:
        return T.gettext(plain, name=name)
    if kind == "deal":
        return T.ngettext(
            "Each spy gets a secret identity, an Immunity card and {n} card.",
            "Each spy gets a secret identity, an Immunity card and {n} cards.",
            HAND_SIZE,
        )
    if kind == "round_start":
        return T.gettext(
            "Round {round}: build your piles. {name} opens the bidding.",
            round=data["round"],
            name=table.name(data["opener"]),
        )
    if kind == "pile_built":
        return T.ngettext(
            "**{name}** built a pile of {n} card.",
            "**{name}** built a pile of {n} cards.",
            data["size"],
            name=name,
        )
    if kind == "timeout":
        if data.get("action") == "auto-draw" and "pile" in data:
            return T.gettext(
                "**{name}** ran out of time: the referee draws from {owner}'s pile.",
                name=name,
                owner=table.name(data["pile"]),
            )
        timeout = TIMEOUTS.get(data.get("action", ""))
        if timeout is not None:
            return T.gettext(timeout, name=name)
        return T.gettext("**{name}** ran out of time.", name=name)
    if kind == "piles_ready":
        if "max_bid" not in data:
            return T.gettext("Nobody has a card left to put in a pile.")
        return T.ngettext(
            "Every pile is built ({n} card in all). The bidding starts.",
            "Every pile is built ({n} cards in all). The bidding starts.",
            data["max_bid"],
        )
    if kind == "bid":
        return T.gettext("**{name}** bids {bid}.", name=name, bid=data["bid"])
    if kind == "bid_won":
        return T.ngettext(
            "**{name}** wins the bidding and draws {n} card.",
            "**{name}** wins the bidding and draws {n} cards.",
            data["bid"],
            name=name,
        )
    if kind == "draw":
        card = card_with_article(data["card"])
        if data["pile"] == event.seat:
            return T.gettext("**{name}** draws {card} from their own pile.", name=name, card=card)
        return T.gettext(
            "**{name}** draws {card} from {owner}'s pile.",
            name=name,
            card=card,
            owner=table.name(data["pile"]),
        )
    if kind in ("agent", "trap"):
        effects = AGENT_EFFECTS if kind == "agent" else TRAP_EFFECTS
        return T.gettext(effects[data["effect"]], owner=table.name(data["pile"]))
    if kind == "challenge_start":
        return T.gettext(
            "**{name}** now holds {files} {country} Files, the 4th from their own pile: "
            "each other spy in turn may challenge by guessing their identity.",
            name=name,
            files=FILES_TO_WIN,
            country=country_name(data["country"]),
        )
    if kind == "win":
        if data["how"] == "files":
            return T.gettext(
                "**{name}** holds {files} Files of their own identity and wins!",
                name=name,
                files=FILES_TO_WIN,
            )
        if data["how"] == "challenge":
            return T.gettext(
                "**{name}** survives the challenge holding {files} Files of their identity and wins!",
                name=name,
                files=FILES_TO_WIN,
            )
        return T.gettext("**{name}** is the last spy standing and wins!", name=name)
    if kind == "steal":
        return T.gettext(
            "**{name}** steals the {card} from {owner}'s home area.",
            name=name,
            card=card_name(data["card"]),
            owner=table.name(data["from_seat"]),
        )
    if kind == "guess":
        return T.gettext(
            "**{name}** guesses that the drawer is {country}.",
            name=name,
            country=country_name(data["country"]),
        )
    if kind == "answer":
        country = country_name(data["country"])
        if data["right"]:
            return T.gettext("**{name}** is {country}: the guess is right.", name=name, country=country)
        return T.gettext("**{name}** is not {country}.", name=name, country=country)
    if kind == "own_guess":
        params = {
            "name": name,
            "target": table.name(data["target"]),
            "country": country_name(data["country"]),
        }
        if data["right"]:
            return T.gettext("**{name}** guesses that {target} is {country}: right.", **params)
        return T.gettext("**{name}** guesses that {target} is {country}: wrong.", **params)
    if kind == "challenge":
        country = country_name(data["country"])
        if data["right"]:
            return T.gettext(
                "**{name}** challenges: the drawer is {country}? The guess is right.",
                name=name,
                country=country,
            )
        return T.gettext(
            "**{name}** challenges: the drawer is {country}? The guess is wrong.", name=name, country=country
        )
    if kind == "eliminated":
        return T.gettext(
            "**{name}** is out of the game; {by} receives their ID card.",
            name=name,
            by=table.name(data["by"]),
        )
    if kind == "round_over":
        return T.gettext("Round {round} is over.", round=data["round"])
    if kind == "reshuffle":
        return T.ngettext(
            "The deck is empty: the {n} used card is shuffled into a new deck.",
            "The deck is empty: the {n} used cards are shuffled into a new deck.",
            data["cards"],
        )
    if kind == "game_over":
        over = GAME_OVER.get(data.get("reason") or "")
        if over is None:
            return T.gettext("The game is over.")
        winner = data.get("winner")
        return T.gettext(over, name=table.name(winner if winner is not None else 0), files=FILES_TO_WIN)
    return kind


def refusal(error: IllegalAction) -> str:
    """An engine refusal in words (state.py lists the codes and their parameters)."""
    code, params = error.code, error.params
    plain = REFUSALS.get(code)
    if plain is not None:
        return T.gettext(plain)
    if code == "pile_size":
        return T.ngettext(
            "Your pile must have exactly {n} card.", "Your pile must have exactly {n} cards.", params["size"]
        )
    if code == "card_not_held":
        # The card as it was written, quoted: "You don't hold the card 'FAM1'."
        return T.gettext("You don't hold the card {card}.", card=repr(params["card"]))
    if code == "bid_too_low":
        return T.gettext("You must bid more than the standing bid of {bid}.", bid=params["high_bid"])
    if code == "bid_too_high":
        return T.ngettext(
            "There are only {n} card in all the piles: you cannot bid more.",
            "There are only {n} cards in all the piles: you cannot bid more.",
            params["max_bid"],
        )
    if code == "pile_empty":
        cards = T.ngettext("{n} card", "{n} cards", params["left"])
        draws = T.ngettext("{n} draw", "{n} draws", params["draws_left"])
        return T.gettext(
            "That pile is empty now: draw from another one ({cards} left in the piles, {draws} to go).",
            cards=cards,
            draws=draws,
        )
    if code == "answer_prompt":
        label = PROMPT_REFUSALS.get(params.get("kind", ""))
        if label is not None:
            return T.gettext(label)
    return code


def final_title(table: Table, how: str, winner: int | None) -> str:
    """The final embed's title: the winner and how they won (the result's ``how``)."""
    wins = WINS.get(how)
    if winner is None:
        return T.gettext("Spy Trap — game over")
    if wins is None:
        return T.gettext("Spy Trap — {name} wins", name=table.name(winner))
    return T.gettext(wins, name=table.name(winner))


def placement_line(
    table: Table, placement: Placement, identities: list[str], out: list[int], winner: int | None
) -> str:
    """A final embed's line of one spy: their place, name and identity, and how their game ended
    (put out, the winner, or their counting Files)."""
    p = placement
    country = identities[p.seat] if p.seat < len(identities) else "?"
    medal = "🏆" if p.place == 1 else T.gettext("{place}.", place=p.place)
    spy = T.gettext("the {country} spy", country=country_name(country))
    spy = f"{spy} {FLAGS.get(country, '')}".strip()
    name = table.name(p.seat)
    if p.seat in out:
        return put_out_line(medal, name, spy, out.index(p.seat) + 1)
    if p.seat == winner:
        return T.gettext("{medal} **{name}** — {spy}", medal=medal, name=name, spy=spy)
    return T.ngettext(
        "{medal} **{name}** — {spy} · {n} counting File",
        "{medal} **{name}** — {spy} · {n} counting Files",
        p.points,
        medal=medal,
        name=name,
        spy=spy,
    )


def put_out_line(medal: str, name: str, spy: str, order: int) -> str:
    """A final line of a spy put out, the ``order``-th: "3. **bob** — the French spy 🇫🇷 · put out 1st"."""
    return T.gettext(
        "{medal} **{name}** — {spy} · put out {order}", medal=medal, name=name, spy=spy, order=ordinal(order)
    )


def describe(table: Table, action: str) -> str:
    """A button's (or a long choice's option's) label for a panel action."""
    if action.startswith("steal-"):
        card = card_label(action[6:])
        source = file_sources(_state(table).view(None)).get(action[6:])
        if source:
            how = T.gettext(STEAL_SOURCE[source])
            return T.pgettext("button", "Steal the {card} ({how})", card=card, how=how)
        return T.pgettext("button", "Steal the {card}", card=card)
    state = _state(table)
    if action.startswith("draw-"):
        # The panel is redrawn in answer to each click, so its counts are always current.
        pile = int(action[5:])
        size = state.view(None)["pile_sizes"][pile]
        return T.npgettext(
            "button",
            "Draw from {name}'s pile ({n} card)",
            "Draw from {name}'s pile ({n} cards)",
            size,
            name=table.plain_name(pile),
        )
    label = ACTION_LABELS.get(action)
    if label is not None:
        return T.gettext(label)  # marked with N_ above, without a context
    return _action_words(table, action)


def _action_words(table: Table, action: str) -> str:
    """A panel action with no fixed label in words ("Bid 3", "Guess that bob is French")."""
    head, _, rest = action.partition("-")
    try:
        if head == "pile":
            cards = ", ".join(card_name(c) for c in rest.split("-"))
            return T.pgettext("button", "Build a pile of {cards} (top first)", cards=cards)
        if head == "bid":
            return T.pgettext("button", "Bid {bid}", bid=int(rest))
        if head == "challenge":
            return T.pgettext("button", "Challenge: {country}", country=country_name(rest))
        if head == "guess" and "-" in rest:
            target, country = rest.split("-")
            name = table.plain_name(int(target))
            return T.pgettext(
                "button", "Guess that {name} is {country}", name=name, country=country_name(country)
            )
        if head == "guess":
            return T.pgettext("button", "Guess {country}", country=country_name(rest))
    except (ValueError, KeyError, IndexError):
        return action
    return action


# Where a File in a home area came from, as a steal offers it: it decides whether the File counted
# toward its holder's win, so two Files of a country differ only in this.
STEAL_SOURCE = {
    "own": N_("from their own pile"),
    "opponent": N_("counts for them"),
    "stolen": N_("stolen, counts for them"),
}


def file_sources(view: SpyTrapView) -> dict[str, str]:
    """Each File in a home area and where it came from (public: home areas are face up)."""
    return {f["card"]: f["from"] for home in view["home"] for f in home}


def _state(table: Table) -> SpyTrapState:
    """The table's engine state, typed (as the panel's ``state_of``, which imports this module)."""
    assert isinstance(table.state, SpyTrapState)
    return table.state


def symbol_lines(options: Any) -> list[str]:
    """The quick start's "What you see" (cogs/symbols.py): what a counting File is."""
    return [
        T.gettext(
            "**Counting Files:** Files of your country drawn from other spies' piles or stolen. "
            "4 of them win. A File from your own pile doesn't count, but a 4th one starts a challenge."
        )
    ]
