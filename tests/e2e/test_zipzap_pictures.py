"""Zip Zap's card art through the real bot: a whole game by clicks, checked against the engine.

At every committed version the test notes, from the engine's views, what the pictures must say:
the pile's top cards (spectator view) and each seat's hand with its playable cards (that seat's
own view and legal actions). After every step of play, each open panel's picture must carry the
alt text of the version its buttons were drawn at, naming the hand card by card; the table's
picture must be one the engine's pile had; every message attaches exactly the files its layout
refers to; and no picture is drawn on the event loop.
"""

from __future__ import annotations

from typing import Any

import pytest

from cogs.drawings.zipzap_cards import card_name
from tests.e2e.simhelpers import alt_texts, buttons
from tests.e2e.zipzap_driver import Player, is_over, open_lobby, play_to_end

HAND_SEATS = (0, 1)  # alice and bob; seat 2 is the computer


def expected_table_alt(view: dict[str, Any]) -> str | None:
    """The pile in words, written from the spectator view without the drawing module: the top
    card, the (up to three) under it, and how many more."""
    pile = view["played"]
    if not pile:
        return None
    shown = pile[-4:]
    if len(pile) == 1 and view["top"] == pile[0]:
        return f"Top of the pile: {card_name(pile[0])}."
    lead = "Top of the pile" if view["top"] == shown[-1] else "Last card played"
    text = f"{lead}: {card_name(shown[-1])}."
    if under := [card_name(c) for c in reversed(shown[:-1])]:
        text += f" Under it: {', '.join(under)}."
    return text + (f" {len(pile) - 4} more below." if len(pile) > 4 else "")


def hand_in_words(alt: str) -> tuple[list[str], list[str]]:
    """The cards an alt text names, and those it says are playable."""
    if alt == "Your hand is empty.":
        return [], []
    listed = alt.split(": ", 1)[1].removesuffix(" No card can be played now.").removesuffix(".")
    names = [n.strip() for n in listed.split(", ")]
    return [n.removesuffix(" (playable)") for n in names], [
        n.removesuffix(" (playable)") for n in names if n.endswith("(playable)")
    ]


def referred_files(message: Any) -> list[str]:
    """The attachment names a message's components refer to (SimCord stores the reference as
    the attachment's CDN address, which ends in its file name)."""
    found: list[str] = []

    def walk(components: Any) -> None:
        for c in components or []:
            if isinstance(c, dict):
                for m in [c.get("media"), *(i.get("media") for i in c.get("items") or [])]:
                    if isinstance(m, dict) and m.get("url"):
                        found.append(str(m["url"]).rsplit("/", 1)[-1])
                walk(c.get("components"))
                walk([c["accessory"]] if isinstance(c.get("accessory"), dict) else None)
            else:
                for m in [getattr(c, "media", None), *(i.media for i in getattr(c, "items", None) or [])]:
                    if getattr(m, "url", None):
                        found.append(str(m.url).rsplit("/", 1)[-1])
                walk(getattr(c, "children", None))
                accessory = getattr(c, "accessory", None)
                walk([accessory] if accessory is not None else None)

    walk(getattr(message, "components", None))
    return sorted(found)


def current(channel: Any, message: Any) -> Any:
    """The message as the channel holds it now (a message object is a snapshot)."""
    return next(m for m in channel.history() if m.id == message.id)


def attached(message: Any) -> list[str]:
    return sorted(a.filename for a in getattr(message, "attachments", None) or [])


def panel_version(panel: Any) -> int:
    ids = [b["custom_id"] for b in buttons(panel) if (b.get("custom_id") or "").startswith("ga:")]
    assert ids, "a panel always has its Refresh button"
    return int(ids[0].split(":")[2])


@pytest.mark.simcord(settle_timeout=20)
async def test_a_whole_game_shows_the_pile_and_each_hand_as_pictures_with_alt_text(simcord_env, simcord_bot):
    """Seen to fail: with the panel's marks taken from the spectator (no playable card marked),
    the playable words differed from the legal actions; with the table's sketch drawn from seat
    0's hand, the table's alt text was no pile the engine had; with ``Pictures.ready`` skipped in
    ``TableDrawing.ready``, drawn_on_loop was over 0."""
    env = simcord_env
    simcord_bot.referee.new_seed = lambda: 11
    t = await open_lobby(env, seats=3, rounds=2)
    channel, (alice, bob) = t["channel"], t["actors"]
    hands: dict[tuple[int, int], tuple[list[str], set[str], bool]] = {}
    piles: dict[int, str | None] = {}

    def note(table: Any, _events: list[Any]) -> None:
        if table.state is None:
            return
        piles[table.version] = expected_table_alt(table.state.view(None))
        for seat in HAND_SEATS:
            view = table.state.view(seat)
            legal = set(table.state.legal_actions(seat))
            hands[(table.version, seat)] = (list(view["hand"]), legal, view["phase"] == "play")

    simcord_bot.referee.on_change.append(note)
    await alice.click(t["lobby"], label="Start")
    table_message = t["lobby"]
    players = [Player(alice, channel, table_message), Player(bob, channel, table_message)]
    panels_checked = tables_checked = 0

    async def check_panel(seat: int, p: Player) -> None:
        nonlocal panels_checked
        if p.panel is None or is_over(channel):
            return
        version = panel_version(p.panel)
        if (version, seat) not in hands:
            return  # drawn before the first commit we saw (the Start)
        hand, legal, marking = hands[(version, seat)]
        alts = alt_texts(p.panel)
        assert attached(p.panel) == referred_files(p.panel)
        if not hand:
            assert alts == []
            return
        (alt,) = alts
        words, marked = hand_in_words(alt)
        assert words == [card_name(c) for c in hand], (alt, hand)
        names = {a.split("+")[0] for a in legal}
        can = [
            c
            for c in hand
            if c in names or (c.startswith("Z") and ("Z" in names or any("+Z" in a for a in legal)))
        ]
        assert marked == ([card_name(c) for c in can] if marking else []), (alt, sorted(legal))
        panels_checked += 1

    async def check_table(_steps: int) -> None:
        nonlocal tables_checked
        shown = current(channel, table_message)
        table_alts = alt_texts(shown)
        assert attached(shown) == referred_files(shown)
        if table_alts:
            assert table_alts[0] in set(piles.values()), table_alts
            tables_checked += 1

    await play_to_end(env, players, channel, on_player=check_panel, on_step=check_table)
    await env.advance_time(6)  # the last paced table edit
    table = simcord_bot.referee.messages.closed[1]
    final = expected_table_alt(table.state.view(None))
    shown = current(channel, table_message)
    assert alt_texts(shown) == ([final] if final else [])
    assert attached(shown) == referred_files(shown)
    assert panels_checked > 20 and tables_checked > 20, (panels_checked, tables_checked)
    art = simcord_bot.referee.drawing.art
    assert art.drawn_on_loop == 0
    assert art.pool.started and art.drawn_in_thread == 0, "every picture was drawn in a worker process"
    assert len(art.draw_seconds) == art.cache.misses, "each drawing timed in its worker"
    assert art.cache.hits > 0 and art.cache.misses > 0
    assert not env.errors
