"""An edit keeps the pictures a message holds already: only a picture whose bytes changed is
uploaded again (issue 23: every edit of a table or a panel uploaded every picture).

Every call that sends or edits a message is recorded with what it uploaded and what the message
held before and after it, read from SimCord's stored attachments (``watch_uploads``), so these
tests see the bytes a message shows, not what the bot believes it sent.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.table.failures import Failure, classify
from tests.e2e.simhelpers import (
    Upload,
    buttons,
    held_pictures,
    message_text,
    playable,
    reply_text,
    watch_uploads,
)
from tests.e2e.zaptrap_driver import Person as ZapPerson
from tests.e2e.zaptrap_driver import current, custom_id_for, four_people_in_play
from tests.e2e.zipzap_driver import Player, open_lobby, play_to_end


def panel_version(panel: Any) -> int:
    ids = [b["custom_id"] for b in buttons(panel) if (b.get("custom_id") or "").startswith("ga:")]
    assert ids, "a panel always has its Refresh button"
    return int(ids[0].split(":")[2])


class DmPlayer:
    """A person who follows the table by DM and clicks there: the first card offered, else
    Refresh (a click is answered by editing that DM message, which it then follows through
    the click's interaction). Every sixth step they press **Hand by DM** again instead, so a
    fresh DM panel follows the table by the bot's own edits, watched for two steps before their next click."""

    def __init__(self, actor: Any, table_message: Any) -> None:
        self.actor = actor
        self.table_message = table_message
        self.steps = 0

    def panel(self) -> Any:
        return self.actor.user.dm_channel.history()[-1]

    async def step(self) -> None:
        self.steps += 1
        if self.steps % 6 == 1:
            answer = await self.actor.click(self.table_message, label="Hand by DM")
            assert "sent your hand to your DMs" in reply_text(answer)
            return
        if self.steps % 6 in (2, 3):
            return  # watching it follow the table
        panel = self.panel()
        offered = playable(panel)
        if offered:
            await self.actor.user.click(panel, custom_id=offered[0]["custom_id"])
            return
        refresh = [b for b in buttons(panel) if (b.get("custom_id") or "").endswith(":refresh")]
        if refresh:
            await self.actor.user.click(panel, custom_id=refresh[0]["custom_id"])


def pictures_of(env: Any, message: Any) -> dict[str, bytes]:
    """The bytes a message shows, by file name, as SimCord stores them."""
    channel_id = getattr(message, "channel_id", None) or message.channel.id
    return {name: data for name, (_, data) in held_pictures(env.backend, channel_id, message.id).items()}


async def table_pictures(bot: Any, table: Any) -> dict[str, bytes]:
    """A fresh drawing of the table message: what its pictures must be."""
    drawing = await bot.referee.drawing.ready(table)
    return {a.filename: a.data for a in drawing.layout.attached}


async def panel_pictures(bot: Any, table: Any, seat: int) -> dict[str, bytes]:
    """A fresh drawing of a seat's panel (with its panel-only steps): what its pictures must be."""
    referee = bot.referee
    nav = referee.panels.nav(table.id, seat)
    await referee.drawing.prepare_panel(table, seat, nav)
    drawing = referee.drawing.panel(table, seat, None, nav)
    return {a.filename: a.data for a in drawing.layout.attached}


def check_each_edit(uploads: list[Upload]) -> None:
    """Every edit that landed uploaded exactly the files whose bytes changed (or were new to
    the message) and kept every other by its attachment."""
    for u in uploads:
        if not u.edit or u.failed:
            continue
        assert not u.wasted, f"{u.method} {u.path} uploaded {sorted(u.wasted)} again, unchanged"
        assert set(u.files) == u.changed, (u.path, sorted(u.files), sorted(u.changed))
        assert set(u.after) - set(u.files) == u.kept, (u.path, sorted(u.after), sorted(u.kept))


@pytest.mark.simcord(settle_timeout=30)
async def test_over_a_game_an_edit_uploads_only_the_pictures_that_changed(simcord_env, simcord_bot):
    """A whole Zip Zap game: alice plays from her ephemeral panel, bob from his DM panel, a
    computer in the third seat. Every edit of the table message, of a panel by a click's answer,
    by the live refresh (an interaction's original response) and of the DM panel uploads only
    the pictures whose bytes changed; each kind of edit kept a picture at least once; and after
    every click each panel, and at the end the table, shows exactly the bytes a fresh drawing
    has.

    Seen to fail with nothing kept (``Layout.attachments`` uploading everything, as before
    this change): the first panel answer "uploaded ['zipzap-hand.png'] again, unchanged"; with
    ``message_of`` ignoring an interaction callback's resource (so a click's answer holds
    nothing), the same; with ``Layout.attachments`` keeping a picture by its name alone (the
    digest check removed), a panel showed the bytes of a hand it no longer had and the
    fresh-drawing check failed."""
    env, bot = simcord_env, simcord_bot
    bot.referee.new_seed = lambda: 11
    uploads, undo = watch_uploads(env)
    try:
        t = await open_lobby(env, seats=3, rounds=1)
        channel, (alice, bob) = t["channel"], t["actors"]
        await alice.click(t["lobby"], label="Start")
        table = bot.referee.tables[1]
        players: list[Any] = [Player(alice, channel, t["lobby"]), DmPlayer(bob, t["lobby"])]
        panels_checked = 0

        async def check_panel(seat: int, p: Any) -> None:
            nonlocal panels_checked
            panel = p.panel if seat == 0 else p.panel()
            if panel is None or table.status != "playing" or panel_version(panel) != table.version:
                return
            assert pictures_of(env, panel) == await panel_pictures(bot, table, seat)
            panels_checked += 1

        await play_to_end(env, players, channel, on_player=check_panel)
        await env.advance_time(6)  # the last paced table edit
    finally:
        undo()
    table = bot.referee.messages.closed[1]
    assert pictures_of(env, t["lobby"]) == await table_pictures(bot, table)
    assert panels_checked > 20, panels_checked
    check_each_edit(uploads)
    assert bot.referee.drawing.art.drawn_on_loop == 0, "every panel's pictures were drawn off the loop"

    def kind(u: Upload) -> str:
        if u.path.endswith("/callback"):
            return "answer on the table" if u.message_id == t["lobby"].id else "answer on a panel"
        if "/webhooks/" in u.path:
            return "live refresh"
        return "table edit" if u.message_id == t["lobby"].id else "DM panel edit"

    kept: dict[str, int] = {}
    for u in uploads:
        if u.edit and not u.failed:
            kept[kind(u)] = kept.get(kind(u), 0) + len(u.kept)
    for each in ("answer on a panel", "live refresh", "DM panel edit"):
        assert kept.get(each, 0) > 0, kept
    assert sum(len(u.files) for u in uploads if u.edit) < sum(len(u.after) for u in uploads if u.edit)
    assert not env.errors


# --- the table message: kept across edits, everything once after a restart, refusals ----------

QUIET = 1000.0  # computer players this slow never move within these tests


async def zaptrap_in_play(env: Any, bot: Any) -> tuple[dict[str, Any], list[ZapPerson], Any]:
    """Four people at Zap or Trap (nobody computer, so nothing moves unless someone acts), the
    signals chosen, the round dealt and drawn: the table shows the face-up cards as a picture."""
    bot.referee.computer_speed = QUIET
    t = await four_people_in_play(env, bot)
    table = t["table"]
    await env.advance_time(2)  # the deal is drawn with the table's next paced edit
    assert pictures_of(env, t["lobby"]) == await table_pictures(bot, table) != {}
    return t, t["people"], table


def on(uploads: list[Upload], message_id: int) -> list[Upload]:
    return [u for u in uploads if u.message_id == message_id]


@pytest.mark.simcord(settle_timeout=30)
async def test_a_table_edit_keeps_its_picture_and_after_a_restart_uploads_everything_once(
    simcord_env, simcord_bot, make_bot
):
    """A gesture on the table (answered by editing the table message) and a seat taken over by
    a computer (the bot's own edit) change the table's text, not its face-up cards: neither
    uploads the picture. After a restart nothing is known: the first table edit uploads it
    again, the first answer on a panel uploads all of the panel's, and both show exactly the
    bytes of a fresh drawing; from then on they are kept again.

    Seen to fail with what each message holds also kept in a cache outside the parts that own
    the messages (a module-level dict by message id, which a new bot object finds as the old
    one left it): the first table edit after the restart kept the picture ("after a restart it
    uploads everything")."""
    env, bot = simcord_env, simcord_bot
    t, people, table = await zaptrap_in_play(env, bot)
    alice, dave = people[0], people[3]
    message_id = t["lobby"].id
    uploads, undo = watch_uploads(env)
    try:
        assert await alice.gesture("think")
        (answer,) = on(uploads, message_id)
        assert answer.path.endswith("/callback") and not answer.failed
        assert answer.files == {} and answer.kept == set(answer.after) != set(), answer
        assert bot.referee.spine.drawing.latest(table, 1) == ["**alice**: 🤔"]

        del uploads[:]
        await dave.actor.slash(t["channel"], "table leave")
        await env.advance_time(2)
        (edit,) = on(uploads, message_id)
        assert edit.method == "PATCH" and not edit.failed
        assert edit.files == {} and edit.kept == set(edit.after) != set(), edit
        assert pictures_of(env, t["lobby"]) == await table_pictures(bot, table)

        del uploads[:]
        new_bot = make_bot()
        new_bot.referee.computer_speed = QUIET
        await env.restart_bot(new_bot)
        await env.advance_time(3)
        table = new_bot.referee.tables[1]
        first = on(uploads, message_id)[0]
        assert first.method == "PATCH" and not first.failed
        assert set(first.files) == set(first.after) != set(), "after a restart it uploads everything"
        assert pictures_of(env, t["lobby"]) == await table_pictures(new_bot, table)

        # Alice's panel from before the restart: its first answer (a swap from its select: in play
        # the panel has no Refresh) uploads all it shows.
        del uploads[:]
        swap = next(a for a in table.state.legal_actions(alice.seat) if a.startswith("S"))
        assert await alice.swap(*swap[1:].split("-"))
        (answer,) = on(uploads, alice.panel.id)
        assert set(answer.files) == set(answer.after) != set() and not answer.failed
        assert pictures_of(env, alice.panel) == await panel_pictures(new_bot, table, alice.seat)
        # Then it is kept again: bob's gesture changes her panel's text (its gestures line), not
        # its cards, and the live refresh that follows the table uploads nothing.
        del uploads[:]
        assert await people[1].gesture("wink")
        await env.advance_time(2)
        (edit,) = on(uploads, alice.panel.id)
        assert edit.files == {} and edit.kept == set(edit.after) != set(), "then it is kept again"

        del uploads[:]
        await env.advance_time(3.5)  # the gesture's cooldown
        assert await alice.gesture("think")
        (answer,) = on(uploads, message_id)
        assert answer.files == {} and answer.kept == set(answer.after) != set()
    finally:
        undo()
    assert pictures_of(env, t["lobby"]) == await table_pictures(new_bot, table)
    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_an_edit_refused_over_its_kept_pictures_is_sent_again_uploading_all(simcord_env, simcord_bot):
    """The table message is redrawn behind the bot's back (another process's edit uploads its
    pictures anew, so the attachments the bot holds are no longer the message's): the next
    gesture's answer keeps an attachment Discord no longer knows, SimCord refuses it (400,
    50035, "unknown attachment id") and the answer is sent once more with everything uploaded,
    so the click is answered and the table shows the gesture at once. Then the same refusal,
    injected, on the bot's own edit of the table (a seat taken over): it is sent again at once,
    uploading everything. Both times the message shows exactly the bytes of a fresh drawing.

    Seen to fail with ``keeping`` re-raising the refusal (no second try): the gesture's click
    went unanswered ("the click is answered": acknowledged false); and with ``_render`` alone
    sending the edit without ``keeping``, the injected refusal was the only edit (no second
    one uploading everything), the takeover not shown until the table's next change."""
    env, bot = simcord_env, simcord_bot
    t, people, table = await zaptrap_in_play(env, bot)
    alice, dave = people[0], people[3]
    channel, message_id = t["channel"], t["lobby"].id
    # Another process redraws the table message: the same pictures, uploaded anew.
    drawing = await bot.referee.drawing.ready(table)
    await (
        bot.get_partial_messageable(channel.id)
        .get_partial_message(message_id)
        .edit(attachments=drawing.files())
    )
    uploads, undo = watch_uploads(env)
    try:
        palette = current(channel, t["lobby"])
        think = custom_id_for(palette, "gesture-think")
        assert think is not None
        result = await alice.actor.click(palette, custom_id=think)
        assert result.acknowledged, "the click is answered"
        refused, answered = on(uploads, message_id)
        assert refused.failed and refused.files == {}, "it kept the attachment the bot held"
        assert not answered.failed and set(answered.files) == set(answered.after) != set()
        assert "🤔" in message_text(current(channel, t["lobby"])), "the table shows it at once"
        assert pictures_of(env, t["lobby"]) == await table_pictures(bot, table)

        del uploads[:]
        env.inject_error(
            "PATCH",
            f"/channels/{channel.id}/messages/{message_id}",
            status=400,
            code=50035,
            message="Invalid Form Body: attachments: unknown attachment id",
        )
        await dave.actor.slash(channel, "table leave")
        await env.advance_time(2)
        refused, edited = on(uploads, message_id)
        assert refused.failed and refused.files == {}
        assert not edited.failed and set(edited.files) == set(edited.after) != set()
        assert "computer" in message_text(current(channel, t["lobby"])).lower()
        assert pictures_of(env, t["lobby"]) == await table_pictures(bot, table)
    finally:
        undo()
    assert not env.errors


@pytest.mark.simcord(settle_timeout=30)
async def test_a_503_on_an_edit_keeping_pictures_is_retried_uploading_all(simcord_env, simcord_bot):
    """Discord's 503 on the bot's edit of the table (one that keeps the face-up picture): the
    edit is tried again (Effects' backoff), and as it is not known what a failed edit left, the
    retry uploads everything; the table then shows the change and exactly the bytes of a fresh
    drawing.

    Seen to fail with what the message holds kept after a failed edit (``_render`` not
    forgetting ``_shown``): the retry kept the picture (``files`` empty)."""
    env, bot = simcord_env, simcord_bot
    t, people, table = await zaptrap_in_play(env, bot)
    dave = people[3]
    channel, message_id = t["channel"], t["lobby"].id
    uploads, undo = watch_uploads(env)
    try:
        env.inject_error("PATCH", f"/channels/{channel.id}/messages/{message_id}", status=503, message="busy")
        await dave.actor.slash(channel, "table leave")
        await env.advance_time(1)
        failed = on(uploads, message_id)
        assert [u.failed for u in failed] == [True] and failed[0].files == {}, "the first try kept it"
        await env.advance_time(3)
        retried = on(uploads, message_id)[1:]
        assert retried and not retried[0].failed
        assert set(retried[0].files) == set(retried[0].after) != set()
    finally:
        undo()
    assert "computer" in message_text(current(channel, t["lobby"])).lower()
    assert pictures_of(env, t["lobby"]) == await table_pictures(bot, table)
    assert not env.errors


def form_refusal(field: str) -> discord.HTTPException:
    """Discord's 400 "Invalid Form Body" (50035) naming ``field``, as discord.py raises it (its
    text flattens the form errors: "In attachments.0.id: …")."""
    response = SimpleNamespace(status=400, reason="Bad Request")
    errors: dict[str, Any] = {"_errors": [{"code": "BASE_TYPE_INVALID", "message": "Invalid"}]}
    for part in reversed(field.split(".")):
        errors = {part: errors}
    body = {"code": 50035, "message": "Invalid Form Body", "errors": errors}
    return discord.HTTPException(response, body)  # type: ignore[arg-type]


def test_only_a_refusal_that_names_the_attachments_is_sent_again_uploading_all() -> None:
    """An edit is sent again with every picture uploaded only when Discord's refusal names the
    attachments (Discord's form errors, or SimCord's message); any other invalid form (a text
    too long) is no reason to upload anything, and stays what it was."""
    assert classify(form_refusal("attachments.0.id")) is Failure.ATTACHMENTS_REFUSED
    assert classify(form_refusal("components.0.components.1.content")) is Failure.OTHER
    response = SimpleNamespace(status=400, reason="Bad Request")
    simcord = {"code": 50035, "message": "Invalid Form Body: attachments: unknown attachment id 12"}
    assert classify(discord.HTTPException(response, simcord)) is Failure.ATTACHMENTS_REFUSED  # type: ignore[arg-type]
    assert (
        classify(discord.HTTPException(response, {"code": 50006, "message": "attachment"})) is Failure.OTHER
    )  # type: ignore[arg-type]


@pytest.mark.simcord(settle_timeout=30)
async def test_a_panel_refresh_refused_over_its_kept_pictures_or_met_by_a_503_uploads_all(
    simcord_env, simcord_bot
):
    """Alice's panel follows the table live (edits of her click's original response). A gesture
    changes what it says, not its picture (her hand above the face-up cards), so the refresh
    keeps it. Refused over them (injected 400, 50035 naming the attachments), it is sent again at
    once with both uploaded; met by a 503, it is tried again later (Effects), uploading both, as
    a failed edit leaves nothing known. Each time the panel then shows exactly the bytes of a
    fresh drawing, and the next refresh keeps them again.

    Seen to fail with ``Panels._refresh`` sending its edit without ``keeping`` (no second try:
    one refused edit, then nothing until the next change) and with ``panel.held`` left as it was
    after a failed edit (the 503's retry kept both pictures)."""
    env, bot = simcord_env, simcord_bot
    _t, people, table = await zaptrap_in_play(env, bot)
    alice, bob, carol = people[0], people[1], people[2]
    for p in people[1:]:
        bot.referee.panels.forget(table.id, p.seat)  # only alice's panel follows the table
    original = "/webhooks/*/messages/@original"
    uploads, undo = watch_uploads(env)
    try:
        env.inject_error(
            "PATCH",
            original,
            status=400,
            code=50035,
            message="Invalid Form Body: attachments: unknown attachment id",
        )
        assert await bob.gesture("wink")
        await env.advance_time(2)
        refused, refreshed = on(uploads, alice.panel.id)
        assert refused.failed and refused.files == {}, "the refresh kept both pictures"
        assert (
            not refreshed.failed
            and set(refreshed.files) == set(refreshed.after)
            and len(refreshed.after) == 1  # one picture: the hand above the face-up cards
        )
        assert pictures_of(env, alice.panel) == await panel_pictures(bot, table, alice.seat)

        del uploads[:]
        env.inject_error("PATCH", original, status=503, message="busy")
        assert await carol.gesture("think")
        await env.advance_time(1.2)
        (failed,) = on(uploads, alice.panel.id)
        assert failed.failed and failed.files == {}
        await env.advance_time(4)
        retried = on(uploads, alice.panel.id)[1]
        assert not retried.failed and set(retried.files) == set(retried.after) and len(retried.after) == 1
        assert pictures_of(env, alice.panel) == await panel_pictures(bot, table, alice.seat)

        del uploads[:]
        await env.advance_time(3)  # bob's gesture cooldown
        assert await bob.gesture("wink")
        await env.advance_time(2)
        (kept,) = on(uploads, alice.panel.id)
        assert not kept.failed and kept.files == {} and kept.kept == set(kept.after)
    finally:
        undo()
    assert not env.errors
