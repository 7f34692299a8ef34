"""The bench's CPU sampler gives each sample to the right owner (bench/cpu.py).

Real stacks, caught deterministically: a profile hook stops inside a library or standard-library
call made from the bot's own code, and the sampler's attribution is run on that live frame."""

from __future__ import annotations

import asyncio
import selectors
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import discord

from bench.cpu import BOT, DISCORD, IDLE, OTHER, Sampler
from cogs.table.buttons import ActionButton
from cogs.table.layout import Drawing


def sample_inside(target: Callable[[FrameType], bool], run: Callable[[], Any]) -> Sampler:
    """Run ``run`` and take one sample at the first call whose frame ``target`` picks (the
    profile hook sees the call before its first line: the frame is live, its callers above it)."""
    sampler = Sampler()
    taken: list[bool] = []

    def hook(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call" and not taken and target(frame):
            taken.append(True)
            sampler._take(frame, 1.0, wall=1.0)

    sys.setprofile(hook)
    try:
        run()
    finally:
        sys.setprofile(None)
    assert taken, "the target call never happened"
    return sampler


def test_a_standard_library_frame_counts_for_the_bot_code_that_called_it() -> None:
    """json.dumps called by the bot's layout fingerprint is the bot's time, in its self time.

    Seen to fail when the sample went to the innermost frame's owner whatever its file (it went to
    asyncio/other)."""
    embed = discord.Embed(title="hand")
    sampler = sample_inside(
        lambda f: f.f_code.co_name == "dumps" and f.f_code.co_filename.endswith("json/__init__.py"),
        lambda: Drawing(embed).fingerprint(),
    )
    report = sampler.report()
    assert report["owners"][BOT] == 1.0
    assert report["bot_self"][0]["function"].startswith("cogs/table/layout.py:")
    assert report["bot_self"][0]["function"].endswith(" Layout.fingerprint")


def test_discord_py_time_is_listed_under_the_bot_function_that_called_it() -> None:
    """discord.py's Button constructor, called from ActionButton.__init__, is discord.py's time,
    listed as ActionButton.__init__ → Button.__init__, and inclusive time of the bot function.

    Seen to fail when discord.py's files were not recognised as discord.py's (the sample went to
    the bot, as ActionButton.__init__'s self time)."""
    sampler = sample_inside(
        lambda f: f.f_code.co_qualname == "Button.__init__" and "discord/ui/" in f.f_code.co_filename,
        lambda: ActionButton(1, 2, "R4", label="4"),
    )
    report = sampler.report()
    assert report["owners"][DISCORD] == 1.0
    entry = report["library_called_by_bot"][0]
    assert entry["owner"] == DISCORD
    caller, callee = entry["function"].split(" → ")
    assert caller.endswith("ActionButton.__init__") and callee.endswith("Button.__init__")
    assert any(r["function"].endswith("ActionButton.__init__") for r in report["bot_inclusive"])


def test_the_selector_waiting_is_idle_and_a_frame_with_no_owner_is_asyncio() -> None:
    """A sample in the selector's select is idle, outside the busy shares; a sample in asyncio's
    own code with nothing owned before the loop's frames is asyncio/other (not the bench that
    started the loop, further out).

    Seen to fail without the stop at the loop's frames: the sample went to "bench" (this test's
    own frames lie beyond the loop, and tests/ counts as the bench's harness)."""
    with selectors.DefaultSelector() as selector:
        idle = sample_inside(lambda f: f.f_code.co_name == "select", lambda: selector.select(0))
    assert idle.report()["owners_s"][IDLE] == 1.0
    assert idle.report()["busy_s"] == 0

    async def main() -> None:
        await asyncio.sleep(0)

    # A sample in Handle._run, the loop running a callback: beyond it lie only the loop and
    # this test, which started it.
    loop = sample_inside(
        lambda f: f.f_code.co_name == "_run" and f.f_code.co_filename.endswith("asyncio/events.py"),
        lambda: asyncio.run(main()),
    )
    assert loop.report()["owners"][OTHER] == 1.0
