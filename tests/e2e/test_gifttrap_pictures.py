"""GiftTRAP's pictures through the real bot (issue 23): a whole game of two people and two
computers, clicks only, and at every step the table message and each person's panel are read
back from SimCord and held against the engine.

- The table shows the round's gifts as one picture whose alt text lists every gift on its space
  (from the engine's layout of the round the message's title names), and from the reveal on a
  second picture of the gifts unwrapped so far, each with the token it met, by the people's names.
- Each panel shows the gifts with that seat's own tokens on them: its alt text names, for every
  gift, exactly the tokens that seat has placed there in its own engine view.
- A message attaches exactly the files its components refer to, each a PNG of at most 60 KB.
- Every picture was drawn off the event loop (``drawn_on_loop == 0``), and redraws of unchanged
  pictures came from the cache.

Seen to fail on broken versions: with ``panel_sketches`` passing None for the seat's tokens,
the panel check fails ("1. Trumpet (your GREAT +3)" missing from the alt text); with
``table_sketches`` putting seat 0's tokens on the table's picture, the table check fails on
"(your"; with the reveal picture dropped, no reveal is seen; with the referee's
``prepare_panel`` not drawing ahead (so panels draw on the loop), ``drawn_on_loop`` is 8, not 0.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import discord
import pytest

from cogs.drawings.gifttrap_cards import NO_MATCH_LABEL, TOKEN_LABELS
from rules.gifttrap import PRICES, TOKENS
from tests.e2e.gifttrap_driver import is_over, open_lobby, play_to_end
from tests.e2e.simhelpers import all_components, alt_texts, reply_text, title

MAX_BYTES = 60_000
ROUND = re.compile(r"GiftTRAP — round (\d+)")
LATEST = re.compile(r"^Unwrapped, the latest (\d+) of (\d+): ")


def referenced(message: Any) -> list[str]:
    """The files a message's components refer to (attachment://name as sent; Discord, and
    SimCord, hand them back as the attachment's URL)."""
    urls: list[str] = []

    def walk(components: Any) -> None:
        for c in components or []:
            if isinstance(c, dict):  # a response as sent (SimCord keeps those as dicts)
                media = [c.get("media"), c.get("file"), *(i.get("media") for i in c.get("items") or [])]
                urls.extend(str(m["url"]) for m in media if isinstance(m, dict))
                walk(c.get("components"))
                walk([c["accessory"]] if isinstance(c.get("accessory"), dict) else None)

    walk(getattr(message, "components", None))
    for c in all_components(message):
        if isinstance(c, discord.components.MediaGalleryComponent):
            urls += [item.media.url for item in c.items]
        elif isinstance(c, discord.components.ThumbnailComponent | discord.components.FileComponent):
            urls.append(c.media.url)
    return sorted(urls)


def attached_only_as_referred(message: Any) -> None:
    urls = sorted(a.url for a in message.attachments)
    assert urls == referenced(message), (urls, referenced(message))
    for attachment in message.attachments:
        assert attachment.filename.endswith(".png")
        assert 0 < attachment.size <= MAX_BYTES, (attachment.filename, attachment.size)


def gift_words(gift: dict[str, Any]) -> str:
    return f"{gift['space']}. {gift['name']}"


def round_of(table: Any, number: int) -> dict[str, Any]:
    """The engine's record of a round: the one being played, or one in the public history."""
    view = table.state.view(None)
    if view["round"] == number:
        return dict(view)
    return dict(next(r for r in view["history"] if r["round"] == number))


def check_table(message: Any, table: Any, seen: Counter[str]) -> None:
    attached_only_as_referred(message)
    alts = alt_texts(message)
    match = ROUND.match(title(message))
    # Every table title names its round ("GiftTRAP — round 2 · the $$ pack").
    assert match is not None, title(message)
    number = int(match.group(1))
    played = round_of(table, number)
    layout = played["layout"]
    if not layout:
        assert alts == [], "no gifts before the pack is picked, so no picture"
        seen["before the pack"] += 1
        return
    assert alts, f"round {number}'s gifts are out, but the table shows no picture of them"
    gifts_alt = alts[0]
    price = PRICES[played["pack"]]
    assert gifts_alt.startswith(f"The {price} gifts, {len(layout)} on the spaces: "), gifts_alt
    for gift in layout:
        assert gift_words(gift) in gifts_alt, (gift, gifts_alt)
    assert "(your" not in gifts_alt, "nobody's tokens on the public table"
    # Crossed out: only gifts GiftTRAP was shouted on (by now: a table message may lag behind).
    crossed = {g["space"] for g in layout if f"{gift_words(g)} (GiftTRAPped)" in gifts_alt}
    assert all(f"{gift_words(g)} (" not in gifts_alt for g in layout if g["space"] not in crossed)
    assert crossed <= {t["space"] for t in played["trapped"]}, (crossed, played["trapped"])
    seen["gifts crossed out"] += bool(crossed)
    seen["gifts"] += 1
    if len(alts) == 1:
        return
    assert len(alts) == 2, alts
    reveal = alts[1]
    latest = LATEST.match(reveal)
    count = int(latest.group(2)) if latest else reveal.count(" gave ")
    gifts = {g["space"]: g for g in layout}
    unwrapped = played["revealed"][:count]
    assert count >= 1 and len(unwrapped) == count, (reveal, len(played["revealed"]))
    for record in unwrapped[-8:]:
        token = NO_MATCH_LABEL if record["token"] is None else TOKEN_LABELS[record["token"]]
        giver = table.plain_name(record["giver"])
        receiver = table.plain_name(record["receiver"])
        gift = gifts[record["space"]]["name"]
        words = f"{giver} gave {receiver} the {gift} from space {record['space']} ({token}"
        assert words in reveal, (words, reveal)
    seen["reveal"] += 1


def check_panel(message: Any, table: Any, seat: int, seen: Counter[str]) -> None:
    attached_only_as_referred(message)
    view = table.state.view(seat)
    alts = alt_texts(message)
    if not view["layout"]:
        assert alts == []
        return
    assert len(alts) == 1, alts
    alt = alts[0]
    ranks = view["my"]["ranks"]
    trapped = {t["space"] for t in view["trapped"]}
    for gift in view["layout"]:
        notes = ["GiftTRAPped"] if gift["space"] in trapped else []
        mine = [TOKEN_LABELS[t] for t in TOKENS if ranks.get(t) == gift["space"]]
        if mine:
            notes.append(f"your {' and '.join(mine)}")
        words = gift_words(gift) + (f" ({'; '.join(notes)})" if notes else "")
        assert f"{words}," in alt or f"{words}." in alt, (words, alt)
    seen["panel crossed out"] += bool(trapped)
    seen["panel with tokens" if ranks else "panel"] += 1


def table_message(channel: Any, message_id: int) -> Any:
    return next(m for m in channel.history() if m.id == message_id)


@pytest.mark.simcord(settle_timeout=30)
async def test_the_table_and_every_panel_show_the_gifts_as_pictures_whose_words_match_the_engine(
    simcord_env, simcord_bot
):
    env = simcord_env
    t = await open_lobby(env, simcord_bot, seed=5, track_length=6)
    table, channel, lobby = t["table"], t["channel"], t["lobby"]
    people = t["people"]
    seen: Counter[str] = Counter()

    async def look(_step: int) -> None:
        state = table.state
        if state.phase == "choosing" and not state.trap_used[0]:
            # alice shouts GiftTRAP on gift 1: the pictures cross it out from then on.
            await people[0].actor.click(lobby, custom_id=f"gt:{table.id}:act:gifttrap-1")
            assert table.state.trap_used[0], "the shout was applied"
        check_table(table_message(channel, lobby.id), table, seen)
        for person in people:
            # A panel drawn at the current version shows the current view; an older one is
            # refreshed by the driver before its next click.
            if person.panel is not None and person.panel_version() == table.version:
                check_panel(person.panel, table, person.seat, seen)

    await play_to_end(env, people, table, channel, on_step=look)
    assert is_over(channel)
    check_table(table_message(channel, lobby.id), table, seen)
    # Every kind of moment was seen, not only the easy ones.
    assert seen["gifts"] and seen["reveal"] and seen["panel with tokens"], seen
    assert seen["gifts crossed out"] and seen["panel crossed out"], seen
    art = simcord_bot.referee.drawing.art
    assert art.drawn_on_loop == 0, "a picture was drawn on the event loop"
    assert art.drawn_in_thread == 0, "every picture was drawn in a worker process"
    assert art.cache.hits > 0, "unchanged pictures are not drawn again"


@pytest.mark.simcord(settle_timeout=20)
async def test_a_gifttrap_table_needs_attach_files_and_says_so(simcord_env, simcord_bot):
    """GiftTRAP's table message now carries its gifts as a picture: in a channel where the bot may
    not attach files, `/gifttrap new` must say what is missing and open nothing (as `/trap new`
    does), or every table edit with the picture would be refused by Discord. Seen to fail while the
    shared check looked only for ``table_pictures``/``table_downloads``: the table opened."""
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel(
        "no-files", overwrites={bot.user: discord.PermissionOverwrite(attach_files=False)}
    )
    alice = guild.add_member(env.create_user("alice"))
    refused = await alice.slash(channel, "gifttrap new")
    assert refused.ephemeral and "Attach Files" in reply_text(refused)
    assert channel.history() == [] and bot.referee.tables == {}


@pytest.mark.simcord(settle_timeout=30)
async def test_a_table_edit_with_the_gifts_picture_that_fails_is_made_again(simcord_env, simcord_bot):
    """Discord refuses (500, then 502) the table edits that would first show the round's gifts:
    the pack stays picked, and the next edit shows the gifts picture with its words; choosing goes
    on. Seen to fail with the edit fault left on (``times=None``): the table never shows the gifts'
    picture, and ``check_table`` says so."""
    env = simcord_env
    t = await open_lobby(env, simcord_bot, seed=5, track_length=6)
    table, channel, lobby = t["table"], t["channel"], t["lobby"]
    alice = t["people"][0]
    env.inject_error("PATCH", f"/channels/{channel.id}/messages/*", status=500, times=1)
    env.inject_error("POST", "/interactions/*/callback", status=502, times=1)
    await alice.actor.click(lobby, custom_id=f"gt:{table.id}:act:pack-2")
    assert table.state.phase == "choosing", "the pick stands"
    await env.advance_time(5)
    env.errors.clear()  # read: the refused edits were logged, as they should be
    seen: Counter[str] = Counter()
    check_table(table_message(channel, lobby.id), table, seen)
    assert seen["gifts"] == 1, "the table shows the gifts after all"
    await alice.open_panel()
    check_panel(alice.panel, table, alice.seat, seen)
    assert seen["panel"] == 1
