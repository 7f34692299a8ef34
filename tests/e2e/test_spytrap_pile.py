"""Spy Trap's pile building in the panel: one select picks the pile's cards top first, the panel's
one picture (and its alt text) shows the pile as built so far, and 🔄 Refresh keeps a half-built
pile (Start over is the way to drop it)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.drawings.spytrap_cards import card_name
from tests.e2e.simhelpers import ACTION, alt_texts, buttons, message_text
from tests.e2e.spytrap_driver import selects
from tests.e2e.test_spytrap_game import open_spytrap


def steps(panel: Any) -> dict[str, dict[str, Any]]:
    """The panel's enabled buttons by action ("nav-…", "pile-…", "refresh")."""
    found = {}
    for b in buttons(panel):
        m = ACTION.fullmatch(b.get("custom_id") or "")
        if m and not b.get("disabled"):
            found[m.group(3)] = b
    return found


def refresh(panel: Any) -> dict[str, Any]:
    return next(b for b in buttons(panel) if b.get("label") == "Refresh")


def picker(panel: Any) -> dict[str, Any]:
    """The pile builder's one select (its options the cards still to pick, each face once)."""
    (menu,) = selects(panel)
    return menu


async def pick(spy: Any, card: str | None = None) -> str:
    """Pick ``card`` (by default the first offered) as the pile's next card; returns it."""
    menu = picker(spy.panel)
    card = card or menu["options"][0]["value"]
    await spy.actor.select(spy.panel, [card], custom_id=menu["custom_id"])
    return card


@pytest.mark.simcord(settle_timeout=30)
async def test_the_panel_shows_the_pile_so_far_and_refresh_keeps_it(simcord_env, simcord_bot):
    """Alice picks her top card, presses Refresh (and bob builds meanwhile, so her panel's
    version is old), picks the rest, presses Refresh again and builds: the pile is exactly her
    picks. The picks are in the picture's alt text (the picture shows them on the pile), and the
    select asks for the next place. Seen to fail before issue 21: Refresh (the "refresh" action,
    drawn with no nav) showed an empty pile again."""
    env = simcord_env
    _guild, _channel, _lobby, table, spies = await open_spytrap(env, simcord_bot)
    alice = spies[0]
    await alice.open_panel()
    assert table.state.view(0)["phase"] == "pile"
    assert picker(alice.panel)["placeholder"] == "Pick the top card…"
    card = await pick(alice)
    so_far = "Your new pile so far, face down to the others, 1 card, top first: "
    assert f"{so_far}{card_name(card)}." in alt_texts(alice.panel)[0]
    assert picker(alice.panel)["placeholder"] == "Pick the middle card…"

    # Bob builds his pile: the table moves on. Alice's Refresh still keeps her pick.
    bob = spies[1]
    await bob.open_panel()
    for _ in range(3):
        await pick(bob)
    build = next(a for a in steps(bob.panel) if a.startswith("pile-"))
    await bob.actor.click(bob.panel, custom_id=steps(bob.panel)[build]["custom_id"])
    assert table.state.view(None)["piles_done"][1]
    await alice.actor.click(alice.panel, custom_id=refresh(alice.panel)["custom_id"])
    assert f"{so_far}{card_name(card)}." in alt_texts(alice.panel)[0]
    menu = picker(alice.panel)
    assert menu["placeholder"] == "Pick the middle card…"
    assert card not in [o["value"] for o in menu["options"]], "a picked card is not offered again"

    picks = [card]
    for _ in range(2):
        picks.append(await pick(alice))
    assert not selects(alice.panel), "a whole pile: only Build, Start over and Refresh"
    names = ", ".join(card_name(c) for c in picks)
    assert f"so far, face down to the others, 3 cards, top first: {names}." in alt_texts(alice.panel)[0]
    await alice.actor.click(alice.panel, custom_id=refresh(alice.panel)["custom_id"])
    assert f"3 cards, top first: {names}." in alt_texts(alice.panel)[0]
    build = next(a for a in steps(alice.panel) if a.startswith("pile-"))
    assert build == "pile-" + "-".join(picks)
    assert steps(alice.panel)[build]["label"] == "Build"
    await alice.actor.click(alice.panel, custom_id=steps(alice.panel)[build]["custom_id"])
    assert table.state.view(0)["my_pile"] == picks
    assert f"Your pile, face down to the others, 3 cards, top first: {names}." in alt_texts(alice.panel)[0]
    assert "Hand:" not in message_text(alice.panel)
    assert not env.errors
