"""Zap or Trap's card art through the real bot: a whole team game played by clicks, checking at
every step that the table message shows the face-up cards and every open panel the seat's hand
as pictures whose alt text names exactly the cards the engine's view holds (the table's from the
spectator view, the hand's from the seat's own view, the swappable cards marked), that only the
files a component refers to are attached, and that no picture was drawn on the event loop."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from cogs.drawings.zaptrap_words import card_name
from rules.zaptrap import ZapTrapView
from tests.e2e.simhelpers import alt_texts
from tests.e2e.zaptrap_driver import Person, current, custom_id_for, is_over, open_lobby, panel_version

TABLE_HEAD = "Face up on the table"
HAND_HEAD = "Your hand"


def named(view: ZapTrapView, cards: list[str]) -> list[str]:
    return [card_name(c, view["preset"], int(view["species"])) for c in cards]


def says(alt: str, head: str, names: list[str]) -> bool:
    """Whether an alt text lists exactly these card names, in order, after its head ("Your hand,
    5 cards: A, B (can swap), …."). Whole-string, as a card's own name may hold a comma."""
    if not names:
        return alt.startswith(head) and ":" not in alt
    count = f"{len(names)} card" + ("" if len(names) == 1 else "s")
    return alt == f"{head}, {count}: " + ", ".join(names) + "."


def split_panel_alt(alt: str) -> tuple[str, str | None]:
    """A panel picture's alt text in its two halves: the hand's, and the face-up cards' that
    follows it in play (one picture holds both), or None."""
    cut = alt.rfind(f" {TABLE_HEAD}")
    return (alt, None) if cut < 0 else (alt[:cut], alt[cut + 1 :])


def media_names(message: Any) -> list[str]:
    """The attachment:// names the message's components refer to (gallery items, thumbnails),
    whether the message holds them as discord.py components or as dicts."""
    names: list[str] = []

    def url(media: Any) -> str:
        return str(media["url"] if isinstance(media, dict) else media.url).rsplit("/", 1)[-1]

    def walk(components: Any) -> None:
        for c in components or []:
            if isinstance(c, dict):
                names.extend(url(item["media"]) for item in c.get("items") or [])
                if c.get("type") == 11:
                    names.append(url(c["media"]))
                walk(c.get("components"))
                walk([c["accessory"]] if isinstance(c.get("accessory"), dict) else None)
            else:
                if isinstance(c, discord.components.MediaGalleryComponent):
                    names.extend(url(item.media) for item in c.items)
                if isinstance(c, discord.components.ThumbnailComponent):
                    names.append(url(c.media))
                walk(getattr(c, "children", None))
                accessory = getattr(c, "accessory", None)
                walk([accessory] if accessory is not None else None)

    walk(getattr(message, "components", None))
    return sorted(names)


def check_files(message: Any) -> None:
    attached = sorted(a.filename for a in message.attachments)
    assert attached == media_names(message), "attached files are exactly the ones the layout shows"


def check_table(message: Any, view: ZapTrapView) -> bool:
    """The table message against the spectator view; True if it showed face-up cards."""
    check_files(message)
    pictures = [a for a in alt_texts(message) if a.startswith(TABLE_HEAD)]
    if not view["table"]:
        assert pictures == []
        return False
    (alt,) = pictures
    assert says(alt, TABLE_HEAD, named(view, view["table"])), alt
    return True


def check_panel(panel: Any, view: ZapTrapView, legal: list[str]) -> bool:
    """A panel against its seat's own view; True if it marked swappable cards."""
    check_files(panel)
    alts = alt_texts(panel)
    hands = [a for a in alts if a.startswith(HAND_HEAD)]
    if view["phase"] == "over" or not view["hand"]:
        assert hands == [], "no hand picture after the game nor before the deal"
        return False
    assert len(hands) == 1, alts
    givable = {a[1:].split("-")[0] for a in legal if a.startswith("S")}
    expected = [
        name + (" (can swap)" if view["phase"] == "play" and code in givable else "")
        for code, name in zip(view["hand"], named(view, view["hand"]), strict=True)
    ]
    hand, table = split_panel_alt(hands[0])
    assert says(hand, HAND_HEAD, expected), (hand, expected)
    assert not [a for a in alts if a.startswith(TABLE_HEAD)], "the face-up cards are in the hand's picture"
    if view["phase"] == "play" and view["table"]:
        assert len(alts) == 1, "one picture: the hand above the face-up cards"
        assert table is not None and says(table, TABLE_HEAD, named(view, view["table"])), table
    else:
        assert table is None
    return bool(givable) and view["phase"] == "play"


SIGNALS = ("smirk", "wink", "think")


@pytest.mark.parametrize(
    ("seats", "people", "cpus", "preset"),
    [(4, ("alice", "bob"), ("casual", "casual"), "zaptrap"), (3, ("alice", "bob", "carol"), (), "kemps")],
    ids=["team-aliens", "three-kemps"],
)
@pytest.mark.simcord(settle_timeout=20)
async def test_a_whole_game_shows_its_cards_as_pictures_with_their_words(
    simcord_env, simcord_bot, seats, people, cpus, preset
):
    """Model-based: each picture's alt text is compared with the engine's view at that moment.

    Seen to fail on broken versions: with the hand sketched without its swappable cards
    (``playable = None``) the hand's alt text lacks "(can swap)"; with a sketch key that changes
    between the table's drawing off the loop and its drawing of the message (a counter in the
    key) ``drawn_on_loop`` is 65, not 0."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 1
    t = await open_lobby(env, seats=seats, people=people, cpus=cpus, preset=preset, target=2, lull=5)
    channel, actors = t["channel"], t["actors"]
    await actors[0].click(t["lobby"], label="Start")
    players = [Person(env, a, channel, t["lobby"], SIGNALS[i]) for i, a in enumerate(actors)]
    table = simcord_bot.referee.tables[1]
    seen = {"table": 0, "marked panels": 0, "panels": 0}
    steps = 0
    while not is_over(channel):
        assert steps < 600, "the game did not finish"
        for p in players:
            if is_over(channel):
                break
            await p.step()
            # A panel answered at the table's current version is of the state now: compare.
            if p.panel is not None and panel_version(p.panel) == table.version:
                seen["panels"] += 1
                state = table.state
                seen["marked panels"] += check_panel(p.panel, state.view(p.seat), state.legal_actions(p.seat))
        await env.advance_time(1.0)
        for p in players:
            p.clock += 1.0
        if table.status == "playing":
            # The table message's edits are spaced out; draw the booked one now (as at shutdown)
            # so that the message is of the state the engine holds.
            await simcord_bot.referee.messages.flush()
            seen["table"] += check_table(current(channel, t["lobby"]), table.state.view(None))
        steps += 1
    final_table = current(channel, t["lobby"])
    check_files(final_table)
    assert seen["table"] > 10 and seen["panels"] > 10 and seen["marked panels"] > 5, seen
    assert simcord_bot.referee.drawing.art.drawn_on_loop == 0, "every picture was drawn off the loop"
    assert simcord_bot.referee.drawing.art.drawn_in_thread == 0, "every picture was drawn in a worker process"


@pytest.mark.simcord(settle_timeout=20)
async def test_a_swap_whose_answer_is_lost_shows_the_new_hand_on_reopening(simcord_env, simcord_bot):
    """alice swaps, and Discord loses the click's answer (10062: the 3-second window passed), so
    her panel still shows the old hand. The swap counted; her **My hand & signal** shows the new hand picture
    with its words, taken from the picture cache (drawn once, off the loop, for the lost answer)
    without drawing it again. Seen to fail with a sketch key that changes on every sketch (a
    counter in the hand's key): the refresh drew the hand again (misses grew)."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 1
    t = await open_lobby(env, seats=4, target=2, lull=60)
    channel, (alice, bob) = t["channel"], t["actors"]
    await alice.click(t["lobby"], label="Start")
    people = [Person(env, alice, channel, t["lobby"], "smirk"), Person(env, bob, channel, t["lobby"], "wink")]
    table = simcord_bot.referee.tables[1]
    me = people[0]
    for _ in range(30):
        for p in people:
            await p.step()
        if table.state.view(me.seat)["phase"] == "play":
            break
        await env.advance_time(1.0)
    await me.open_hand()
    state = table.state
    swap = next(a for a in state.legal_actions(me.seat) if a.startswith("S"))
    give = swap[1:].split("-")[0]
    before, art = table.version, simcord_bot.referee.drawing.art
    env.inject_error("POST", "/interactions/*/callback", status=404, code=10062, times=1)
    assert await me.swap(give, swap.split("-")[1])
    assert table.version == before + 1, "the swap counted"
    view = table.state.view(me.seat)
    (old,) = [a for a in alt_texts(me.panel) if a.startswith(HAND_HEAD)]
    old_hand = split_panel_alt(old)[0]
    assert not says(old_hand, HAND_HEAD, named(view, view["hand"])), "the old panel still shows the old hand"
    misses = art.cache.misses
    # In play the panel has no Refresh (it follows the table): she opens it again from the table.
    assert custom_id_for(me.panel, "refresh") is None
    await me.open_hand()
    view = table.state.view(me.seat)
    assert check_panel(me.panel, view, table.state.legal_actions(me.seat))
    assert art.cache.misses == misses, "the new hand was drawn once, for the lost answer"
    assert art.drawn_on_loop == 0
