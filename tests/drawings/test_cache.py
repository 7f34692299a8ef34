"""The picture cache: one drawing per content key even when asked concurrently, drawn off the event
loop, bounded in bytes (least recently used goes first), hits and misses counted, errors not cached.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from cogs.drawings import zipzap_cards
from cogs.drawings.cache import PictureCache


class Drawer:
    """A draw function that counts its calls and can be held until released, from any thread."""

    def __init__(self, data: bytes = b"x" * 10) -> None:
        self.data = data
        self.calls = 0
        self.threads: list[int] = []
        self.release = threading.Event()
        self.release.set()
        self.started = threading.Event()

    def __call__(self) -> bytes:
        self.calls += 1
        self.threads.append(threading.get_ident())
        self.started.set()
        self.release.wait()
        return self.data


async def test_concurrent_asks_draw_once() -> None:
    """Seen to fail (3 drawings) with the ``pending`` branch of PictureCache.get removed."""
    cache = PictureCache()
    draw = Drawer()
    draw.release.clear()
    key = ("zipzap-hand", ("R4", "G9"), ("R4",))
    asks = [asyncio.create_task(cache.get(key, draw)) for _ in range(3)]
    await asyncio.to_thread(draw.started.wait)
    draw.release.set()
    assert await asyncio.gather(*asks) == [draw.data] * 3
    assert draw.calls == 1
    assert (cache.misses, cache.hits) == (1, 2)
    assert await cache.get(key, draw) == draw.data
    assert draw.calls == 1
    assert cache.hits == 3
    assert cache.hit_rate == 0.75


async def test_drawing_happens_off_the_event_loop() -> None:
    cache = PictureCache()
    draw = Drawer()
    await cache.get("k", draw)
    assert draw.threads != [threading.get_ident()]


async def test_least_recently_used_goes_first_within_the_budget() -> None:
    """Seen to fail with the eviction loop in ``_store`` removed (size grows past the budget)."""
    cache = PictureCache(budget=25)
    await cache.get("a", Drawer(b"a" * 10))
    await cache.get("b", Drawer(b"b" * 10))
    await cache.get("a", Drawer())  # a is now the most recent
    await cache.get("c", Drawer(b"c" * 10))  # 30 bytes > 25: b, the least recent, goes
    assert "a" in cache and "c" in cache and "b" not in cache
    assert cache.size == 20 <= cache.budget
    again = Drawer(b"b" * 10)
    await cache.get("b", again)
    assert again.calls == 1  # evicted, so drawn again
    # Something bigger than the whole budget is handed out but not kept.
    big = await cache.get("big", Drawer(b"z" * 100))
    assert len(big) == 100 and "big" not in cache and cache.size <= cache.budget


async def test_a_failed_drawing_is_not_cached_and_every_asker_hears_of_it() -> None:
    cache = PictureCache()
    gate = threading.Event()
    calls = 0

    def broken() -> bytes:
        nonlocal calls
        calls += 1
        gate.wait()
        raise ValueError("no such card")

    asks = [asyncio.create_task(cache.get("bad", broken)) for _ in range(2)]
    await asyncio.sleep(0)
    gate.set()
    results = await asyncio.gather(*asks, return_exceptions=True)
    assert [type(r) for r in results] == [ValueError, ValueError]
    assert calls == 1 and "bad" not in cache
    with pytest.raises(ValueError):
        await cache.get("bad", broken)
    assert calls == 2


async def test_an_asker_giving_up_does_not_cancel_the_drawing_for_others() -> None:
    """Seen to fail (the second asker cancelled too) when ``get`` awaited the task unshielded."""
    cache = PictureCache()
    draw = Drawer()
    draw.release.clear()
    first = asyncio.create_task(cache.get("k", draw))
    second = asyncio.create_task(cache.get("k", draw))
    await asyncio.to_thread(draw.started.wait)
    first.cancel()
    draw.release.set()
    assert await second == draw.data
    with pytest.raises(asyncio.CancelledError):
        await first
    assert "k" in cache and draw.calls == 1


async def test_a_real_hand_through_the_cache() -> None:
    cache = PictureCache()
    cards, playable = ("R4", "G9", "Z1"), ("R4",)
    key = ("zipzap-hand", cards, playable)
    data = await cache.get(key, lambda: zipzap_cards.hand_png(cards, playable))
    assert data == zipzap_cards.hand_png(cards, playable)
    assert await cache.get(key, lambda: b"never drawn") == data


async def test_a_foreseen_picture_is_drawn_once_and_counted_as_its_first_ask() -> None:
    """A picture foreseen while a change commits: the ask after the commit waits for that drawing
    (or finds it made) and draws nothing; the drawing counts as that ask's miss, not as a hit.
    Seen to fail (2 drawings) with ``foresee`` not registering its task in ``_drawing``, and with
    hits == 1 when the first ask of a foreseen key counted as a hit."""
    cache = PictureCache()
    draw = Drawer()
    draw.release.clear()
    cache.foresee("hand", draw)
    cache.foresee("hand", draw)  # already under way: nothing more
    await asyncio.to_thread(draw.started.wait)
    ask = asyncio.create_task(cache.get("hand", draw))
    await asyncio.sleep(0)
    draw.release.set()
    assert await ask == draw.data
    assert draw.calls == 1
    assert (cache.misses, cache.hits) == (1, 0)
    assert await cache.get("hand", draw) == draw.data  # a second ask is a hit
    assert (cache.misses, cache.hits) == (1, 1)
    # Foreseen and finished before the ask: the ask takes it, still as its miss.
    other = Drawer(b"y" * 10)
    cache.foresee("pile", other)
    while "pile" not in cache:
        await asyncio.sleep(0.001)
    assert cache.take("pile") == other.data
    assert (cache.misses, cache.hits, other.calls) == (2, 1, 1)
    cache.foresee("pile", other)  # drawn already: nothing
    assert other.calls == 1


async def test_a_foreseen_drawing_that_fails_is_drawn_again_when_asked() -> None:
    """Seen to fail (the ask raising the foreseen error) with ``foresee`` caching failures."""
    cache = PictureCache()
    calls = 0

    def flaky() -> bytes:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("Pillow fell over")
        return b"ok"

    cache.foresee("k", flaky)
    while calls == 0 or "k" in cache._drawing:
        await asyncio.sleep(0.001)
    assert await cache.get("k", flaky) == b"ok"
    assert calls == 2 and not cache._foreseen


async def test_an_ask_that_finds_the_drawing_just_done_leaves_it_cached() -> None:
    """A drawing's task can be done while its own callback (which stores the bytes) has not run
    yet: an ask in between must still leave the bytes in the cache, since the panel drawn right
    after it takes them from there without awaiting (else they are drawn again on the event
    loop: ``drawn_on_loop`` in test_kept_pictures). Seen to fail (peek None) with ``get``
    awaiting the done task without storing it."""

    async def at_once(draw: Any) -> bytes:
        return draw()

    cache = PictureCache(drawer=at_once)
    cache.foresee("hand", lambda: b"hand")
    await asyncio.sleep(0)  # the drawing's task runs and ends; its callback is only scheduled
    pending = cache._drawing.get("hand")
    assert pending is not None and pending.done() and "hand" not in cache, "the window under test"
    assert await cache.get("hand", lambda: b"again") == b"hand"
    assert cache.peek("hand") == b"hand"
    await asyncio.sleep(0)  # the callback runs after all: nothing stored twice
    assert cache.size == len(b"hand") and not cache._drawing


async def test_an_ask_again_is_not_counted() -> None:
    """A redraw asks for its pictures before taking the table's lock and again under it
    (cogs/table/messages.py): the second ask is not a hit of the content cache. Seen to fail
    (hits 1) with ``take`` counting regardless of ``counted``."""
    cache = PictureCache()
    await cache.get("pile", Drawer())
    assert cache.take("pile", counted=False) is not None
    assert (cache.misses, cache.hits) == (1, 0)
    assert cache.take("pile") is not None
    assert (cache.misses, cache.hits) == (1, 1)
