"""Spy Trap's card art through the real bot: a whole game in which every table message and every
panel a person opens carries the pictures the state calls for, each with alt text that says the
same cards in words as the engine's view, attachments only where a component refers to them, and
nothing drawn on the event loop."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.drawings.spytrap_cards import card_name
from tests.e2e.simhelpers import all_components, alt_texts, buttons
from tests.e2e.spytrap_driver import is_over
from tests.e2e.test_spytrap_game import open_spytrap, play_until_a_person_draws


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def referenced(message: Any) -> list[str]:
    """The file names the message's pictures refer to (MediaGallery items and Thumbnails)."""
    found = []
    for c in all_components(message):
        if isinstance(c, discord.components.MediaGalleryComponent):
            found.extend(item.media.url for item in c.items)
        elif isinstance(c, discord.components.ThumbnailComponent):
            found.append(c.media.url)
    return sorted(url.rsplit("/", 1)[-1] for url in found)


def attached(message: Any) -> list[str]:
    return sorted(a.filename for a in message.attachments)


def thumbnails(message: Any) -> int:
    return sum(isinstance(c, discord.components.ThumbnailComponent) for c in all_components(message))


def expected_table_alt(table: Any) -> str | None:
    """The table picture's words, from the spectator's view: the round's drawn cards in order,
    each with whose pile it came from."""
    drawn = table.state.view(None)["drawn"]
    if not drawn:
        return None
    items = [f"{card_name(d['card'])} from {table.plain_name(d['pile'])}'s pile" for d in drawn]
    return f"Drawn this round, {plural(len(drawn), 'card')}: " + ", ".join(items) + "."


def expected_panel_alts(table: Any, seat: int) -> list[str]:
    """The panel picture's words, from the seat's own view: one picture (issue 33: the hand shown
    once), its alt the hand (the cards that may go on the pile now), the pile, the identity. The
    home area's Files are the panel's text (and the table's), not a picture."""
    view = table.state.view(seat)
    piles = [a for a in table.state.legal_actions(seat) if a.startswith("pile-")]
    playable = {c for a in piles for c in a[5:].split("-")}
    hand = [card_name(c) + (" (can play)" if c in playable else "") for c in view["hand"]]
    alt = (
        f"Your hand, {plural(len(hand), 'card')}: " + ", ".join(hand) + "." if hand else "Your hand is empty."
    )
    if view.get("my_pile"):
        pile = [card_name(c) for c in view["my_pile"]]
        alt += (
            f" Your pile, face down to the others, {plural(len(pile), 'card')}, top first: {', '.join(pile)}."
        )
    alt += f" Your secret identity: {view['identity']} spy."
    alt += " You still hold your Immunity card." if view["immunity"][seat] else ""
    if view.get("received_id"):
        alt += f" You received the {view['received_id']} ID card."
    return [alt]


@pytest.mark.simcord(settle_timeout=30)
async def test_every_table_and_panel_of_a_whole_game_shows_its_cards(simcord_env, simcord_bot):
    """Two people and a computer play to the end. Whenever the table is at rest (no change for
    two simulated seconds, so the coalesced edit has landed), the table message's alt text is the
    round's drawn cards in words from the spectator view (a Thumbnail for one card, a gallery
    picture for several, nothing when none), and each person's freshly opened panel shows their
    hand, identity, pile and Files with alt text equal to their own view in words.

    Seen to fail: with table_sketches returning [] (no table alt text where cards were drawn),
    with the hand's playable marks left out (panel_sketches passing None: "(can play)" missing
    while piles are built), and with the pile picture dropped (its alt text missing)."""
    env = simcord_env
    _guild, channel, lobby, table, spies = await open_spytrap(env, simcord_bot, max_rounds=8)
    art = simcord_bot.referee.drawing.art
    checked_tables = checked_panels = single = several = building = 0
    for _ in range(3000):
        if table.status != "playing":
            break
        acted = False
        for spy in spies:
            acted = await spy.step(table) or acted
        version = table.version
        await env.advance_time(2)
        if table.version != version or table.status != "playing":
            continue  # a computer moved meanwhile: check at the next rest
        message = next(m for m in channel.history() if m.id == lobby.id)
        want = expected_table_alt(table)
        assert alt_texts(message) == ([want] if want else []), table.state.view(None)["drawn"]
        assert attached(message) == referenced(message) == (["spytrap-drawn.png"] if want else [])
        drawn = len(table.state.view(None)["drawn"])
        assert thumbnails(message) == (1 if drawn == 1 else 0)
        single += drawn == 1
        several += drawn > 1
        checked_tables += 1
        for spy in spies:
            if not table.state.view(None)["active"][spy.seat]:
                continue
            opened = await spy.actor.click(lobby, label="My spy panel")
            if table.version != version:
                break
            panel = opened.response
            assert alt_texts(panel) == expected_panel_alts(table, spy.seat)
            # One picture, whatever the panel holds (issue 33: hand, pile and identity together).
            assert attached(panel) == referenced(panel.message) == ["spytrap-hand.png"]
            building += any(a.startswith("pile-") for a in table.state.legal_actions(spy.seat))
            checked_panels += 1
            spy.panel = panel
        if not acted:
            await env.advance_time(1)
    await env.advance_time(2)
    assert is_over(channel)
    assert checked_tables > 20 and checked_panels > 20, (checked_tables, checked_panels)
    assert single and several and building, (single, several, building)
    assert art.drawn_on_loop == 0
    assert art.drawn_in_thread == 0, "every picture was drawn in a worker process"
    assert art.cache.hits > 0


@pytest.mark.simcord(settle_timeout=30)
async def test_a_draw_whose_answer_with_its_picture_fails_still_shows_the_card(simcord_env, simcord_bot):
    """A draw clicked on the table is answered by redrawing the table message, now with the drawn
    card's picture attached. When Discord fails that answer (500), the draw stands (committed
    first), the person sees no error of ours, and the table message catches up through the bot's
    own edit: the drawn card's picture, its alt text from the spectator view, only that file
    attached, and nothing drawn on the event loop.

    Seen to fail with the table's picture one draw behind (table_sketches drawing drawn[:-1]):
    the caught-up message's alt text lacked the card just drawn."""
    env = simcord_env
    _guild, channel, lobby, table, spies = await open_spytrap(env, simcord_bot, max_rounds=12)
    await play_until_a_person_draws(env, table, spies)
    await env.advance_time(2)
    view = table.state.view(None)
    assert view["phase"] == "draw" and view["drawer"] in (0, 1) and view["prompt"] is None
    drawer = spies[view["drawer"]]
    message = next(m for m in channel.history() if m.id == lobby.id)
    draw = next(b for b in buttons(message) if ":act:draw-" in (b.get("custom_id") or ""))
    before, drawn_before = table.version, len(view["drawn"])
    env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    await drawer.actor.click(message, custom_id=draw["custom_id"])
    assert table.version == before + 1, "the draw counted"
    await env.advance_time(2)
    if table.version != before + 1:
        pytest.skip("a computer moved before the table caught up")  # never with this seed
    now = table.state.view(None)
    assert len(now["drawn"]) == drawn_before + 1
    caught_up = next(m for m in channel.history() if m.id == lobby.id)
    assert alt_texts(caught_up) == [expected_table_alt(table)]
    assert attached(caught_up) == referenced(caught_up) == ["spytrap-drawn.png"]
    assert simcord_bot.referee.drawing.art.drawn_on_loop == 0
    assert not env.errors, env.errors  # the failed answer is classified and handled, not raised
