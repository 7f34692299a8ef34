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
from cogs.drawings.spytrap_cards import FLAGS, card_label, country_name
from cogs.table.buttons import ActionButton, ActionSelect
from cogs.table.model import Table
from cogs.table.pictures import Sketch
from cogs.texts import N_, Texts, language
from cogs.words.spytrap import describe, file_sources
from rules.spytrap import COUNTRIES, SpyTrapState, card_type, country_of
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
    state = state_of(table)
    view = state.view(seat)
    legal = state.legal_actions(seat)
    identity = view["identity"]
    embed = discord.Embed(
        title=T.gettext(
            "You are the {country} spy {flag}",
            country=country_name(identity),
            flag=FLAGS.get(identity, ""),
        ),
        colour=discord.Colour.dark_red(),
    )
    lines = []
    if not view["active"][seat]:
        lines.append(T.gettext("You are out of the game — watch the rest unfold."))
    lines.append(
        T.gettext("🛡️ You still hold your Immunity card.")
        if view["immunity"][seat]
        else T.gettext("Immunity: used.")
    )
    hand = view["hand"]
    cards = ", ".join(card_label(c) for c in hand) or T.pgettext("hand", "empty")
    lines.append(T.gettext("**Hand:** {cards}", cards=cards))
    piles = [a for a in legal if a.startswith("pile-")]
    if piles:
        lines.append(_pile_so_far(_picked(hand, piles, nav), len(piles[0].split("-")) - 1))
    if view.get("my_pile"):
        pile = ", ".join(card_label(c) for c in view["my_pile"])
        lines.append(T.gettext("**Your pile (top first):** {cards}", cards=pile))
    received = view.get("received_id")
    if received:
        lines.append(T.gettext("You received the **{country}** ID card.", country=country_name(received)))
    for fact in view.get("learned") or []:
        lines.append(
            T.gettext(
                "You know {name} was the {country} spy.",
                name=table.name(fact["seat"]),
                country=country_name(fact["country"]),
            )
        )
    lines.append(T.gettext("**Your home area:** {files}", files=home_line(view, seat)))
    hint = view.get("legal_hint")
    if hint:
        lines.append("\n👉 " + _hint(view, hint))
    if note:
        lines.append(f"\n⚠️ {note}")
    embed.description = "\n".join(lines)[:4096]
    embed.set_footer(text=T.gettext("Round {round} · only you can see this panel", round=view["round"]))
    return embed, _controls(table, seat, view, legal, nav)


def panel_sketches(table: Table, seat: int, nav: str | None = None) -> list[Sketch]:
    """The seat's own cards as pictures, for its panel only: the hand (the cards that may go on
    the pile now raised and framed; none marked when no card can be played), the identity card
    with Immunity beside it while held, the pile laid face down (or, while it is being built,
    the cards picked so far: ``nav``), and the home area's Files. Keys name what each picture
    shows, by faces (two French Files look alike), never the seat."""
    state = state_of(table)
    view = state.view(seat)
    hand: list[str] = view["hand"]
    piles = [a for a in state.legal_actions(seat) if a.startswith("pile-")]
    chosen = _picked(hand, piles, nav) if piles else []
    # While building, the cards still to pick are the playable ones (a picked card is spent).
    playable = frozenset(c for a in piles for c in a[5:].split("-")) - set(chosen) if piles else None
    marks = None if playable is None else tuple(c in playable for c in hand)
    identity, immunity = view["identity"], view["immunity"][seat]
    lang = language()
    sketches = [
        Sketch(
            "spytrap-hand.png",
            ("spytrap-hand", tuple(_face_key(c) for c in hand), marks, lang),
            partial(
                spytrap_cards.hand_png,
                tuple(hand),
                None if playable is None else frozenset(playable),
                lang=lang,
            ),
            spytrap_cards.hand_alt(hand, playable),
        ),
        Sketch(
            "spytrap-identity.png",
            ("spytrap-identity", identity, immunity, lang),
            partial(spytrap_cards.identity_png, identity, immunity=immunity, lang=lang),
            spytrap_cards.identity_alt(identity, immunity=immunity),
        ),
    ]
    if chosen:
        sketches.append(_pile_sketch(chosen, spytrap_cards.pile_alt(chosen, so_far=True)))
    pile: list[str] = view.get("my_pile") or []
    if pile:
        sketches.append(_pile_sketch(pile, spytrap_cards.pile_alt(pile)))
    home = view["home"][seat]
    if home:
        sketches.append(
            Sketch(
                "spytrap-files.png",
                ("spytrap-files", tuple((_face_key(f["card"]), f["from"]) for f in home), lang),
                partial(spytrap_cards.files_png, tuple(home), lang=lang),
                spytrap_cards.files_alt(home, yours=True),
            )
        )
    return sketches


def _controls(
    table: Table, seat: int, view: SpyTrapView, legal: list[str], nav: str | None
) -> list[discord.ui.Item[Any]]:
    v = table.version
    items: list[discord.ui.Item[Any]] = []
    piles = [a for a in legal if a.startswith("pile-")]
    if piles:
        return _pile_builder(table, view, piles, nav)
    bids = sorted(int(a[4:]) for a in legal if a.startswith("bid-"))
    if bids:
        options = [
            discord.SelectOption(label=T.pgettext("option", "Bid {bid}", bid=b), value=str(b))
            for b in bids[:25]
        ]
        placeholder = T.pgettext("placeholder", "Your bid")
        items.append(ActionSelect(table.id, v, "bid-", options, placeholder=placeholder, row=0))
    own_guesses = [a for a in legal if re.fullmatch(r"guess-\d+-\w+", a)]
    if own_guesses:
        targets = sorted({int(a.split("-")[1]) for a in own_guesses})
        if nav and nav.startswith("t") and nav[1:].isdigit() and int(nav[1:]) in targets:
            target = int(nav[1:])
            countries = [a.split("-")[2] for a in own_guesses if a.split("-")[1] == str(target)]
            options = [
                discord.SelectOption(label=country_name(c), value=c, emoji=FLAGS.get(c)) for c in countries
            ]
            placeholder = T.pgettext("placeholder", "{name} is…", name=table.plain_name(target))
            items.append(
                ActionSelect(table.id, v, f"guess-{target}-", options, placeholder=placeholder, row=0)
            )
        for i, target in enumerate(targets):
            label = T.pgettext("button", "Guess {name}", name=table.plain_name(target))[:80]
            items.append(ActionButton(table.id, v, f"nav-t{target}", label=label, row=1 + i // 5))
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
        items.append(ActionSelect(table.id, v, prefix, options, placeholder=word, row=0))
    handled = set(piles) | {f"bid-{b}" for b in bids} | set(own_guesses) | set(free_guesses)
    rest = _one_steal_each([a for a in legal if a not in handled], view)
    kinds = Counter(a.split("-")[0] for a in rest if "-" in a)
    row = 2
    if len(rest) > 14 and kinds:
        # Rows 2–4 hold 15 buttons and Refresh takes one: the long choice of one kind (a steal
        # from a drawer holding many Files) is a select instead, and what else is offered (Steal
        # nothing) stays a button beside it, so every option stays offered.
        kind = kinds.most_common(1)[0][0]
        prefix = kind + "-"
        options = [
            discord.SelectOption(label=describe(table, a)[:100], value=a[len(prefix) :])
            for a in rest
            if a.startswith(prefix)
        ][:25]
        placeholder = T.pgettext("placeholder", "Choose one…")
        items.append(ActionSelect(table.id, v, prefix, options, placeholder=placeholder, row=2))
        rest = [a for a in rest if not a.startswith(prefix)]
        row = 3
    for i, action in enumerate(rest[: 5 * (5 - row) - 1]):
        items.append(
            ActionButton(
                table.id,
                v,
                action,
                label=describe(table, action)[:80],
                style=discord.ButtonStyle.primary,
                row=row + i // 5,
            )
        )
    items.append(
        ActionButton(table.id, v, "refresh", label=T.pgettext("button", "Refresh"), emoji="🔄", row=4)
    )
    return items


def _pile_so_far(chosen: list[str], size: int) -> str:
    """The pile being built, in the panel's text: the buttons alone never showed the picks."""
    if not chosen:
        return T.gettext("**Your new pile:** pick its top card below.")
    cards = ", ".join(card_label(c) for c in chosen)
    if len(chosen) < size:
        if size == 3:
            steps = (None, N_("middle"), N_("bottom"))
            step = steps[len(chosen)]
            assert step is not None
            return T.gettext(
                "**Your new pile so far (top first):** {cards}. Now pick the {step} card.",
                cards=cards,
                step=T.gettext(step),
            )
        return T.gettext(
            "**Your new pile so far (top first):** {cards}. Now pick the #{number} card.",
            cards=cards,
            number=len(chosen) + 1,
        )
    return T.gettext(
        "**Your new pile (top first):** {cards}. Press **Build** to lay it face down.", cards=cards
    )


def _pile_builder(
    table: Table, view: SpyTrapView, piles: list[str], nav: str | None
) -> list[discord.ui.Item[Any]]:
    """Pick the pile's cards one at a time, top first: panel-only steps, then one action."""
    v = table.version
    hand: list[str] = view["hand"]
    size = len(piles[0].split("-")) - 1
    chosen = _picked(hand, piles, nav)
    items: list[discord.ui.Item[Any]] = []
    if len(chosen) == size:
        action = "pile-" + "-".join(chosen)
        pile = ", ".join(card_label(c) for c in chosen)
        label = T.pgettext("button", "Build: {cards}", cards=pile)[:80]
        items.append(ActionButton(table.id, v, action, label=label, style=discord.ButtonStyle.success, row=0))
    else:
        position = spytrap_cards.pile_place(len(chosen), size)
        for i, card in enumerate(c for c in hand if c not in chosen):
            step = "_".join([*chosen, card])
            label = T.pgettext("button", "{place}: {card}", place=position, card=card_label(card))[:80]
            items.append(ActionButton(table.id, v, f"nav-{step}", label=label, row=i // 5))
    if chosen:
        items.append(ActionButton(table.id, v, "nav-start", label=T.pgettext("button", "Start over"), row=3))
    # Refresh redraws the same picks (a "nav" step to where the pile is), so it never throws
    # a half-built pile away; Start over does that.
    again = "nav-" + "_".join(chosen) if chosen else "refresh"
    items.append(ActionButton(table.id, v, again, label=T.pgettext("button", "Refresh"), emoji="🔄", row=4))
    return items


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


def _pile_sketch(cards: list[str], alt: str) -> Sketch:
    """A pile as its owner's panel shows it: the one being built, or the one laid face down."""
    lang = language()
    return Sketch(
        "spytrap-pile.png",
        ("spytrap-pile", tuple(_face_key(c) for c in cards), lang),
        partial(spytrap_cards.pile_png, tuple(cards), lang=lang),
        alt,
    )


def _hint(view: SpyTrapView, hint: str) -> str:
    """What the seat must do now (its view's ``legal_hint``) in words."""
    if hint == "draw":
        return T.gettext("Draw a card: {left} left.", left=view["draws_left"])
    label = HINTS.get(hint)
    return T.gettext(label) if label is not None else hint
