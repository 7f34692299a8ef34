"""Spy Trap's pile building in the panel: the text lists the pile as built so far, and 🔄 Refresh
keeps a half-built pile (Start over is the way to drop it)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.drawings.spytrap_cards import card_label
from tests.e2e.simhelpers import ACTION, buttons, message_text
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


@pytest.mark.simcord(settle_timeout=30)
async def test_the_panel_lists_the_pile_so_far_and_refresh_keeps_it(simcord_env, simcord_bot):
    """Alice picks her top card, presses Refresh (and bob builds meanwhile, so her panel's
    version is old), picks the rest, presses Refresh again and builds: the pile is exactly her
    picks. Seen to fail before issue 21: the text never named the picks, and Refresh (the
    "refresh" action, drawn with no nav) showed an empty pile again."""
    env = simcord_env
    _guild, _channel, _lobby, table, spies = await open_spytrap(env, simcord_bot)
    alice = spies[0]
    await alice.open_panel()
    assert table.state.view(0)["phase"] == "pile"
    assert "pick its top card" in message_text(alice.panel)
    top = next(a for a in steps(alice.panel) if a.startswith("nav-"))
    card = top[4:]
    await alice.actor.click(alice.panel, custom_id=steps(alice.panel)[top]["custom_id"])
    text = message_text(alice.panel)
    assert f"so far (top first):** {card_label(card)}. Now pick the middle card." in text

    # Bob builds his pile: the table moves on. Alice's Refresh still keeps her pick.
    bob = spies[1]
    await bob.open_panel()
    for _ in range(3):
        pick = next(a for a in steps(bob.panel) if a.startswith("nav-") and a != "nav-start")
        await bob.actor.click(bob.panel, custom_id=steps(bob.panel)[pick]["custom_id"])
    build = next(a for a in steps(bob.panel) if a.startswith("pile-"))
    await bob.actor.click(bob.panel, custom_id=steps(bob.panel)[build]["custom_id"])
    assert table.state.view(None)["piles_done"][1]
    await alice.actor.click(alice.panel, custom_id=refresh(alice.panel)["custom_id"])
    assert f"so far (top first):** {card_label(card)}." in message_text(alice.panel)
    offered = [b["label"] for a, b in steps(alice.panel).items() if a.startswith("nav-") and a != "nav-start"]
    offered.remove("Refresh")  # its action is now a step to the same picks
    assert offered and all(label.startswith("middle: ") for label in offered), offered

    picks = [card]
    for _ in range(2):
        step = next(a for a in steps(alice.panel) if a.startswith("nav-") and a.count("_") == len(picks))
        picks.append(step.rsplit("_", 1)[-1])
        await alice.actor.click(alice.panel, custom_id=steps(alice.panel)[step]["custom_id"])
    labels = ", ".join(card_label(c) for c in picks)
    assert f"**Your new pile (top first):** {labels}. Press **Build**" in message_text(alice.panel)
    await alice.actor.click(alice.panel, custom_id=refresh(alice.panel)["custom_id"])
    assert f"**Your new pile (top first):** {labels}." in message_text(alice.panel)
    build = next(a for a in steps(alice.panel) if a.startswith("pile-"))
    assert build == "pile-" + "-".join(picks)
    await alice.actor.click(alice.panel, custom_id=steps(alice.panel)[build]["custom_id"])
    assert table.state.view(0)["my_pile"] == picks
    assert not env.errors
