"""Spy Trap's private panel: a spy's identity, Immunity, hand, pile and home area, what they must do
now, and the controls to do it (the pile builder, bids, guesses, steals and answers), drawn from the
seat's own view; and the pictures of their own cards beside it.

It lives apart from the cog (cogs/spytrap.py), which draws the public table and hands each seat's
panel here, because together they passed the size limits; the names of the panel's actions come
from cogs/words/spytrap.py. ``state_of`` and ``home_line`` (a home area's Files in words) are here
as the table draws them too.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import partial
from typing import Any

import discord

from cogs.drawings import spytrap_cards
from cogs.drawings.spytrap_cards import FLAGS, TYPE_EMOJI, card_name, country_name
from cogs.table.buttons import ActionButton, ActionSelect
from cogs.table.layout import FRESH_IDS
from cogs.table.model import Table
from cogs.table.pictures import Sketch
from cogs.texts import N_, Texts, language
from cogs.words.spytrap import describe, file_sources
from rules.spytrap import COUNTRIES, FILES_TO_WIN, SpyTrapState, card_type, country_of
from rules.spytrap.views import CountryTally, SpyTrapView

T = Texts(__name__)
# What a seat must do now (its view's legal_hint), in its panel.
HINTS = {
    # Translators: a pile is the 3 cards a spy lays face down each round (the game's own term).
    "pile": N_("Build your pile: choose its cards, top card first."),
    "open": N_("Open the bidding: bid at least 1."),
    "raise": N_("Raise the bid or pass."),
    # Translators: Evil Agent and File are the game's own names for its cards.
    "steal": N_("Your Evil Agent was drawn: steal a File from the drawer, or not."),
    "guess": N_("Your trap was sprung: make a free guess of the drawer's identity, or not."),
    # Translators: Immunity is the game's own name for the card that lets a spy not answer.
    "immunity": N_("Answer the guess, or play your Immunity card and stay silent."),
    "own_guess": N_("Your own trap: guess another spy's identity. If you are wrong, you are out."),
    "keep": N_("Keep your own identity or take the one you received."),
    "challenge": N_("Challenge the drawer's identity, or not. A wrong guess puts you out."),
    "swap": N_("Swap identities with the challenger you put out, or keep yours."),
}


def state_of(table: Table) -> SpyTrapState:
    """The table's engine state, typed, so its views are SpyTrapViews (a Spy Trap table holds one)."""
    assert isinstance(table.state, SpyTrapState)
    return table.state


def home_line(view: SpyTrapView, seat: int) -> str:
    """ "🇫🇷 French ×3 (1 from own pile) 🇩🇪 German ×1": Files drawn from your own pile do not count toward the
    ordinary win, so the line says how many of each country came from there."""
    tallies: dict[str, CountryTally] = view["tallies"][seat]
    parts = []
    for country in COUNTRIES:
        tally = tallies.get(country)
        if tally and tally["all"]:
            own, count = tally["all"] - tally["counting"], tally["all"]
            # The flag alone is a picture to a screen reader ("flag: France"): the word says it.
            flag, name = FLAGS[country], country_name(country)
            if own == 0:
                part = T.gettext("{flag} {country} ×{count}", flag=flag, country=name, count=count)
            elif own == count:
                part = T.ngettext(
                    "{flag} {country} ×{count} (from own pile)",
                    "{flag} {country} ×{count} (all from own pile)",
                    own,
                    flag=flag,
                    country=name,
                    count=count,
                )
            else:
                part = T.gettext(
                    "{flag} {country} ×{count} ({own} from own pile)",
                    flag=flag,
                    country=name,
                    count=count,
                    own=own,
                )
            parts.append(part)
    return " ".join(parts) or T.gettext("no Files yet")


def panel(
    table: Table, seat: int, note: str | None, nav: str | None = None
) -> tuple[discord.Embed, list[discord.ui.Item[Any]]]:
    """The seat's panel, short enough for one phone screen (issue 33): the title names the
    identity, the text says the round and only what the picture and the table cannot (the Files
    that count toward this spy's win, what this spy knows, what to do now); the cards are the one
    picture (``panel_sketches``, their list in its alt text), the choice the controls under it."""
    state = state_of(table)
    view = state.view(seat)
    legal = state.legal_actions(seat)
    identity = view["identity"]
    embed = discord.Embed(
        # One line on a phone: the round goes in the text's first line, with the home area.
        title=T.gettext("{flag} {country} spy", country=country_name(identity), flag=FLAGS.get(identity, "")),
        colour=discord.Colour.dark_red(),
    )
    lines = []
    if not view["active"][seat]:
        lines.append(T.gettext("You are out of the game — watch the rest unfold."))
    # The home area is the table's (every spy's, in words); what only this spy can know is how
    # many of those Files count toward their own win.
    tally = view["tallies"][seat].get(identity)
    lines.append(
        T.ngettext(
            "Round {round} · **{have} of {n}** File to win",
            "Round {round} · **{have} of {n}** Files to win",
            FILES_TO_WIN,
            round=view["round"],
            have=tally["counting"] if tally else 0,
        )
    )
    for fact in view.get("learned") or []:
        lines.append(
            T.gettext(
                "You know {name} was the {country} spy.",
                name=table.name(fact["seat"]),
                country=country_name(fact["country"]),
            )
        )
    hint = view.get("legal_hint")
    if hint:
        lines.append("👉 " + _hint(view, hint))
    if note:
        lines.append(f"⚠️ {note}")
    embed.description = "\n".join(lines)[:4096]
    return embed, _controls(table, seat, view, legal, nav)


def panel_sketches(table: Table, seat: int, nav: str | None = None) -> list[Sketch]:
    """The seat's own cards as one picture, for its panel only: the hand (while a pile is built,
    the cards still to pick framed), the pile top first (the one laid face down, or the cards
    picked so far: ``nav``), the identity card, Immunity while held and an ID card received. Its
    key names what it shows, by faces (two French Files look alike), never the seat."""
    state = state_of(table)
    view = state.view(seat)
    hand: list[str] = view["hand"]
    piles = [a for a in state.legal_actions(seat) if a.startswith("pile-")]
    chosen = _picked(hand, piles, nav) if piles else []
    pile: list[str] = chosen or list(view.get("my_pile") or [])
    size = len(piles[0].split("-")) - 1 if piles else len(pile)
    # While building, the cards still to pick are the playable ones (a picked card is on the pile).
    left = [c for c in hand if c not in chosen]
    playable = frozenset(left) if piles else None
    identity, immunity = view["identity"], view["immunity"][seat]
    received = view.get("received_id") or None
    lang = language()
    key = (
        "spytrap-panel",
        tuple(_face_key(c) for c in left),
        playable is not None,
        tuple(_face_key(c) for c in pile),
        size,
        identity,
        immunity,
        received,
        lang,
    )
    return [
        Sketch(
            "spytrap-hand.png",
            key,
            partial(
                spytrap_cards.panel_png,
                tuple(left),
                tuple(pile),
                identity,
                immunity=immunity,
                received=received,
                playable=playable,
                pile_size=size,
                lang=lang,
            ),
            spytrap_cards.panel_alt(
                left,
                pile,
                identity,
                immunity=immunity,
                received=received,
                playable=playable,
                so_far=bool(chosen),
            ),
        )
    ]


# The panel's controls fill at most three rows: a select or two for a long choice, then one row
# of short buttons ending with Refresh (a phone shows each row as one line, buttons last).
BUTTON_ROW = 4


def _controls(
    table: Table, seat: int, view: SpyTrapView, legal: list[str], nav: str | None
) -> list[discord.ui.Item[Any]]:
    v = table.version
    piles = [a for a in legal if a.startswith("pile-")]
    if piles:
        return _pile_builder(table, view, piles, nav)
    selects: list[discord.ui.Item[Any]] = []
    bids = sorted(int(a[4:]) for a in legal if a.startswith("bid-"))
    if bids:
        options = [
            discord.SelectOption(label=T.pgettext("option", "Bid {bid}", bid=b), value=str(b))
            for b in bids[:25]
        ]
        placeholder = T.pgettext("placeholder", "Your bid")
        selects.append(ActionSelect(table.id, v, "bid-", options, placeholder=placeholder))
    own_guesses = [a for a in legal if re.fullmatch(r"guess-\d+-\w+", a)]
    if own_guesses:
        selects.extend(_own_guess(table, own_guesses, nav))
    free_guesses = [a for a in legal if re.fullmatch(r"(guess|challenge)-[A-Za-z]+", a)]
    if free_guesses:
        prefix = free_guesses[0].split("-")[0] + "-"
        options = [
            discord.SelectOption(
                label=country_name(a.split("-")[1]),
                value=a.split("-")[1],
                emoji=FLAGS.get(a.split("-")[1]),
            )
            for a in free_guesses
        ]
        word = (
            T.pgettext("placeholder", "Challenge: the drawer is…")
            if prefix == "challenge-"
            else T.pgettext("placeholder", "Guess: the drawer is…")
        )
        selects.append(ActionSelect(table.id, v, prefix, options, placeholder=word))
    handled = set(piles) | {f"bid-{b}" for b in bids} | set(own_guesses) | set(free_guesses)
    rest = _one_steal_each([a for a in legal if a not in handled], view)
    for kind, placeholder in (
        # Translators: the drawer's select of which pile to draw the next card from.
        ("draw", T.pgettext("placeholder", "Draw from a pile…")),
        # Translators: the select of which File to steal from the drawer's home area.
        ("steal", T.pgettext("placeholder", "Steal a File…")),
    ):
        chosen = [a for a in rest if a.startswith(kind + "-")]
        if len(chosen) > 1:
            # Each names a spy or a File with where it came from: as buttons they wrap to a line
            # each on a phone (six piles of long names filled the screen), as options one row.
            options = [
                discord.SelectOption(label=describe(table, a)[:100], value=a[len(kind) + 1 :]) for a in chosen
            ][:25]
            selects.append(ActionSelect(table.id, v, kind + "-", options, placeholder=placeholder))
            rest = [a for a in rest if a not in chosen]
    kinds = Counter(a.split("-")[0] for a in rest if "-" in a)
    if kinds and len(rest) > BUTTON_ROW:
        # More choices than one row of buttons holds beside Refresh (a steal from a drawer holding
        # many Files): the long choice of one kind is a select, what else is offered (Steal
        # nothing) stays a button, so every option stays offered.
        kind = kinds.most_common(1)[0][0]
        prefix = kind + "-"
        options = [
            discord.SelectOption(label=describe(table, a)[:100], value=a[len(prefix) :])
            for a in rest
            if a.startswith(prefix)
        ][:25]
        placeholder = T.pgettext("placeholder", "Choose one…")
        selects.append(ActionSelect(table.id, v, prefix, options, placeholder=placeholder))
        rest = [a for a in rest if not a.startswith(prefix)]
    items: list[discord.ui.Item[Any]] = []
    for row, select in enumerate(selects):
        select.row = row
        items.append(select)
    buttons = [
        ActionButton(
            table.id, v, action, label=describe(table, action)[:80], style=discord.ButtonStyle.primary
        )
        for action in rest
    ]
    buttons.append(ActionButton(table.id, v, "refresh", label=T.pgettext("button", "Refresh"), emoji="🔄"))
    for i, button in enumerate(buttons):
        button.row = len(selects) + i // 5
        items.append(button)
    return items


def _own_guess(table: Table, own_guesses: list[str], nav: str | None) -> list[discord.ui.Item[Any]]:
    """A guess after springing your own trap, in two selects: whose identity (a panel-only step),
    then, once a spy is picked, which country, placed first, where the choice goes on."""
    v = table.version
    targets = sorted({int(a.split("-")[1]) for a in own_guesses})
    target = int(nav[1:]) if nav and nav.startswith("t") and nav[1:].isdigit() else None
    items: list[discord.ui.Item[Any]] = []
    if target in targets:
        countries = [a.split("-")[2] for a in own_guesses if a.split("-")[1] == str(target)]
        options = [
            discord.SelectOption(label=country_name(c), value=c, emoji=FLAGS.get(c)) for c in countries
        ]
        placeholder = T.pgettext("placeholder", "{name} is…", name=table.plain_name(target))
        items.append(ActionSelect(table.id, v, f"guess-{target}-", options, placeholder=placeholder))
    options = [
        discord.SelectOption(label=table.plain_name(t)[:100], value=f"t{t}", default=t == target)
        for t in targets
    ]
    # Translators: the select of whose identity a spy guesses after springing their own trap.
    placeholder = T.pgettext("placeholder", "Whose identity?")
    items.append(ActionSelect(table.id, v, "nav-", options[:25], placeholder=placeholder))
    return items


def _pile_builder(
    table: Table, view: SpyTrapView, piles: list[str], nav: str | None
) -> list[discord.ui.Item[Any]]:
    """Pick the pile's cards one at a time, top first, from one select (panel-only steps), then
    one action: Build, with Start over and Refresh beside it in one row. The picture shows the
    picks on the pile; the select offers each face once (two Evil Agents are one choice)."""
    v = table.version
    hand: list[str] = view["hand"]
    size = len(piles[0].split("-")) - 1
    chosen = _picked(hand, piles, nav)
    items: list[discord.ui.Item[Any]] = []
    row = 0
    if len(chosen) < size:
        faces: dict[str, str] = {}
        for card in hand:
            if card not in chosen:
                faces.setdefault(_face_key(card), card)
        step = "nav-" + "".join(f"{c}_" for c in chosen)
        options = [
            discord.SelectOption(label=card_name(card), value=card, emoji=_emoji(card))
            for card in faces.values()
        ]
        place = spytrap_cards.pile_place(len(chosen), size)
        # Translators: the pile builder's select: which card goes at this place ("top card…").
        placeholder = T.pgettext("placeholder", "Pick the {place} card…", place=place)
        # A new component id at each step (and round): a client keeps a pick per id while the
        # message is edited (the offline page does), which showed the last pick where the
        # select asks for the next card.
        fresh = FRESH_IDS + 8 * view["round"] + len(chosen)
        items.append(
            ActionSelect(
                table.id, v, step, options[:25], placeholder=placeholder, row=row, component_id=fresh
            )
        )
        row += 1
    else:
        action = "pile-" + "-".join(chosen)
        label = T.pgettext("button", "Build")
        items.append(
            ActionButton(table.id, v, action, label=label, style=discord.ButtonStyle.success, row=row)
        )
    if chosen:
        items.append(
            ActionButton(table.id, v, "nav-start", label=T.pgettext("button", "Start over"), row=row)
        )
    # Refresh redraws the same picks (a "nav" step to where the pile is), so it never throws
    # a half-built pile away; Start over does that.
    again = "nav-" + "_".join(chosen) if chosen else "refresh"
    items.append(ActionButton(table.id, v, again, label=T.pgettext("button", "Refresh"), emoji="🔄", row=row))
    return items


def _emoji(card: str) -> str:
    """A card's emoji in a select's option: its country's flag, or its type's."""
    country = country_of(card)
    return FLAGS.get(country, "📁") if country is not None else TYPE_EMOJI[card_type(card)]


def _one_steal_each(actions: list[str], view: SpyTrapView) -> list[str]:
    """The steals offered once per country and source (the same choice to a player: six French Files
    drawn from a pile are six equal buttons otherwise); every other action as it is."""
    sources = file_sources(view)
    seen: set[tuple[str, str]] = set()
    kept = []
    for action in actions:
        if action.startswith("steal-"):
            card = action[6:]
            key = (card[:3], sources.get(card, ""))
            if key in seen:
                continue
            seen.add(key)
        kept.append(action)
    return kept


def _picked(hand: list[str], piles: list[str], nav: str | None) -> list[str]:
    """The cards picked so far for the pile, top first, from the panel's "nav" step ("A_B"):
    only cards still in hand, each once, at most a pile's worth."""
    size = len(piles[0].split("-")) - 1
    chosen = [c for c in (nav or "").split("_") if c in hand]
    return list(dict.fromkeys(chosen))[:size]


def _face_key(card: str) -> str:
    """What a card's face shows, for a picture's key: a File's country (two French Files look
    alike), or the card's type; never the card's own code, so equal pictures share one key."""
    return country_of(card) or card_type(card)


def _hint(view: SpyTrapView, hint: str) -> str:
    """What the seat must do now (its view's ``legal_hint``) in words."""
    if hint == "draw":
        return T.gettext("Draw a card: {left} left.", left=view["draws_left"])
    label = HINTS.get(hint)
    return T.gettext(label) if label is not None else hint
