"""The card art is drawn in worker processes (cogs/table/pictures.py on the healing pool of
cogs/table/workers.py), and a picture is never lost: a worker killed while idle or with a picture
in hand, a pool that cannot start, a draw function that cannot be sent, a stuck worker, a pool
shut down; each time the picture is still drawn (in a fresh pool, or in the pictures' own
threads) with the right bytes, and the pool heals.

Real worker processes throughout (no stand-in for the pool); the draw functions that misbehave
are in tests/fault/picture_jobs.py, and misbehave only in a worker, never in this process.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator
from functools import partial
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any

import pytest

from cogs.drawings import gifttrap_cards, spytrap_cards, zaptrap_cards, zipzap_cards
from cogs.table import pictures as pictures_module
from cogs.table import workers
from cogs.table.pictures import Pictures, Sketch
from rules.gifttrap.gifts import PACK_GIFTS, PRICES
from rules.spytrap.cards import COUNTRIES
from tests.e2e.simhelpers import alt_texts
from tests.e2e.zipzap_driver import Player, open_lobby
from tests.fault.fault_helpers import count_pool_starts
from tests.fault.picture_jobs import broken, die_in_worker, die_once_in_worker, stuck_in_worker, where_drawn


def _gifts() -> Any:
    pack, gifts = next(iter(PACK_GIFTS.items()))
    return partial(
        gifttrap_cards.gifts_png, [g.on_space(i + 1) for i, g in enumerate(gifts[:6])], PRICES[pack]
    )


# One picture of each game's art, as the games sketch them: partials of module-level functions.
ART = {
    "zipzap hand": partial(zipzap_cards.hand_png, ("R4", "G9", "Z1"), ("R4",)),
    "zaptrap face-up": partial(zaptrap_cards.face_up_png, ("1a", "2a"), "zaptrap", 10),
    "spytrap hand": partial(spytrap_cards.hand_png, ("FAM1", "EA1"), frozenset({"EA1"})),
    "spytrap identity": partial(spytrap_cards.identity_png, COUNTRIES[0], immunity=True),
    "gifttrap gifts": _gifts(),
}


def sketch(key: str, draw: Any) -> Sketch:
    return Sketch(f"{key}.png", key, draw, key)


@pytest.fixture
def art() -> Iterator[Pictures]:
    """Pictures with one worker, shut down after the test so no worker outlives it."""
    found = Pictures(workers=1)
    yield found
    found.shutdown()


def worker_pids(art: Pictures) -> list[int]:
    pool = art.pool._pool
    assert pool is not None, "the pool has started"
    return list(pool._processes)  # type: ignore[attr-defined]


def kill(art: Pictures, pid: int) -> None:
    """SIGKILL a worker and wait for its death, without reaping it (the pool's thread does)."""
    process = art.pool._pool._processes[pid]  # type: ignore[union-attr]
    os.kill(pid, signal.SIGKILL)
    assert wait([process.sentinel], timeout=30), "the killed worker is still alive"


async def test_a_picture_drawn_in_a_worker_process_is_the_one_drawn_here(art: Pictures) -> None:
    """Every game's art drawn in the worker process gives exactly the bytes drawn in this process
    (the secrecy audit and the content cache rely on the same bytes), timed in the worker; and
    the worker is another process.

    Seen to fail with ``Pictures._draw`` drawing in the thread again (``where_drawn`` gave this
    process's own pid: "assert (20157 != 20157)")."""
    sketches = [sketch(k, d) for k, d in ART.items()] + [sketch("where", where_drawn)]
    await art.ready(sketches)
    for key, draw in ART.items():
        assert art.cache.peek(key) == draw(), key
    worker = int(art.cache.peek("where") or b"0")
    assert worker != os.getpid() and worker in worker_pids(art)
    assert art.drawn_in_thread == 0 and art.drawn_on_loop == 0
    assert len(art.draw_seconds) == len(sketches) and all(s > 0 for s in art.draw_seconds)


@pytest.mark.simcord(settle_timeout=30)
async def test_a_worker_killed_while_the_bot_runs_is_replaced_and_the_next_picture_drawn(
    simcord_env: Any, simcord_bot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Zip Zap game through the real bot: once the hands are drawn, the pictures' worker is
    SIGKILLed while idle. The next click's pictures (the hand that changed, the pile) are still
    drawn, in a fresh pool (not in a thread: the pool heals), and match the engine; later ones
    use that same pool.

    Seen to fail with ``WorkerPool.run`` not retrying after ``BrokenProcessPool`` (the broken
    pool dropped, the picture drawn in a thread: "drawn in the fresh pool", "assert (1 == 0)" on
    ``drawn_in_thread``), and with neither the retry nor the thread (``PoolUnavailable`` not
    caught in ``_drawn``): the click's pictures were never drawn and the panel kept its old hand
    ("Your hand, 13 cards: …" where the engine's hand had 12)."""
    env, referee = simcord_env, simcord_bot.referee
    art = referee.drawing.art
    starts = count_pool_starts(monkeypatch, "pictures")
    t = await open_lobby(env, seats=2, cpu=None, speed="off", rounds=1)
    await t["host"].click(t["lobby"], label="Start")
    players = [Player(actor, t["channel"], t["lobby"]) for actor in t["actors"]]
    for player in players:
        await player.open_hand()
    assert starts == [1] and art.pool.started and art.drawn_in_thread == 0
    old_pool, (old_worker,) = art.pool._pool, worker_pids(art)

    kill(art, old_worker)
    table = referee.tables[referee.by_channel[t["channel"].id]]
    before = table.version
    for _ in range(5):  # a playable card of alice's or bob's (a refresh if none)
        if any([await p.step() for p in players]) and table.version > before:
            break
    assert table.version > before, "someone played a card"
    for seat, player in enumerate(players):
        hand = table.state.view(seat)["hand"]
        assert alt_texts(player.panel)[0].startswith(f"Your hand, {len(hand)} cards"), alt_texts(player.panel)
    assert art.drawn_in_thread == 0 and art.drawn_on_loop == 0, "drawn in the fresh pool"
    assert art.pool._pool is not old_pool and len(starts) == 2
    assert old_worker not in worker_pids(art)
    assert not env.errors


async def test_a_worker_that_dies_with_the_picture_in_hand_is_replaced_and_draws_it(
    art: Pictures, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The worker drawing a picture is SIGKILLed with it in hand: the picture is drawn again in
    one fresh pool, which later pictures use. A picture that kills every worker is tried in one
    fresh pool only (no endless restarts), then drawn in the pictures' thread; the one after it
    is drawn in a worker again.

    Seen to fail with the retry removed from ``WorkerPool.run`` (the first picture went to the
    thread: "assert (1 == 0)"), and with the retry unbounded (the picture that kills every
    worker started pool after pool, 60 of them, until its 10 s budget sent it to the thread:
    "[1, 1, 1, 1, 1, 1, ...] == [1, 1, 1]")."""
    starts = count_pool_starts(monkeypatch, "pictures")
    marker = tmp_path / "died"
    await art.ready([sketch("once", partial(die_once_in_worker, str(marker), b"drawn"))])
    assert art.cache.peek("once") == b"drawn" and marker.exists()
    assert art.drawn_in_thread == 0 and starts == [1, 1]
    assert int(marker.read_text()) not in worker_pids(art)

    await asyncio.wait_for(art.ready([sketch("always", partial(die_in_worker, b"in a thread"))]), 60)
    assert art.cache.peek("always") == b"in a thread"
    assert art.drawn_in_thread == 1 and starts == [1, 1, 1], "one fresh pool for it, no more"
    await art.ready([sketch("where", where_drawn)])
    assert int(art.cache.peek("where") or b"0") in worker_pids(art) and art.drawn_in_thread == 1
    assert starts == [1, 1, 1, 1], "the next picture started a pool again"


async def test_a_pool_that_fails_to_start_draws_in_the_thread_and_starts_after_the_backoff(
    art: Pictures, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool's first start fails (out of processes): that picture is drawn in the pictures'
    thread, and so is every picture until the backoff (1 s, on a clock the test moves) has
    passed; the next one starts a pool and is drawn in its worker.

    Seen to fail with the backoff removed (``_retry_at`` never set: the second picture started a
    pool at once, "assert ([1, 1] == [1]"), and with no thread to fall back to
    (``PoolUnavailable`` not caught in ``_drawn``: the first ``ready`` raised "PoolUnavailable:
    the pictures pool could not start (BlockingIOError(11, …))", the picture lost)."""
    now = [1000.0]
    monkeypatch.setattr(workers, "_clock", lambda: now[0])
    starts = count_pool_starts(monkeypatch, "pictures", fail_first=True)
    await art.ready([sketch("first", where_drawn)])
    assert int(art.cache.peek("first") or b"0") == os.getpid(), "drawn here, in the thread"
    assert starts == [1] and not art.pool.started and art.drawn_in_thread == 1
    now[0] += 0.5
    await art.ready([sketch("second", partial(stuck_in_worker, 0, b"second"))])
    assert art.cache.peek("second") == b"second"
    assert starts == [1] and art.drawn_in_thread == 2, "no start within the backoff"
    now[0] += 0.6
    await art.ready([sketch("third", where_drawn)])
    assert starts == [1, 1] and art.pool.started
    assert int(art.cache.peek("third") or b"0") in worker_pids(art) and art.drawn_in_thread == 2


async def test_a_draw_that_cannot_be_sent_is_drawn_in_the_thread(art: Pictures) -> None:
    """A lambda (or a closure) cannot be pickled to a worker: it is drawn in the thread, with its
    bytes; the pool is not touched. An error of the drawing itself is the drawing's: it reaches
    is recorded (the message goes out without that picture: tests/e2e/test_picture_fails.py), is not
    cached, and is not drawn again in the thread.

    Seen to fail with the draw function handed to the pool as it is (pickled by the pool's
    feeder thread, not in ``_drawn``): its pickling error reached the asker as if the drawing
    had failed ("AttributeError: Can't pickle local object '…<locals>.<lambda>'")."""
    await art.ready([sketch("lambda", lambda: zipzap_cards.hand_png(("R4",), None))])
    assert art.cache.peek("lambda") == zipzap_cards.hand_png(("R4",), None)
    assert art.drawn_in_thread == 1 and not art.pool.started
    await art.ready([sketch("broken", partial(broken, b"X9"))])
    assert "no such card" in art.failed["broken"]
    assert "broken" not in art.cache and art.drawn_in_thread == 1 and art.pool.started


async def test_a_stuck_worker_holds_no_table_up_past_the_budget(
    art: Pictures, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that hangs with a picture in hand: after the budget (here 0.3 s) the picture is
    drawn in the thread, and so is the one queued behind it, each within its own budget.

    Seen to fail with the budget removed (``asyncio.timeout(None)`` in ``_drawn``): the ``ready``
    waited for the worker's 3 s, and the test's 2 s limit ran out ("TimeoutError")."""
    await art.ready([sketch("warm", where_drawn)])  # the pool is up: only the drawing is timed
    # The budget only from here: on a loaded machine the warm-up itself could take 0.3 s.
    monkeypatch.setattr(pictures_module, "DRAW_BUDGET_SECONDS", 0.3)
    asked = art.ready([sketch("stuck", partial(stuck_in_worker, 3.0, b"late"))])
    await asyncio.wait_for(asked, 2)
    assert art.cache.peek("stuck") == b"late" and art.drawn_in_thread == 1


async def test_after_shutdown_no_worker_is_left_and_pictures_are_still_drawn(art: Pictures) -> None:
    """The referee's shutdown stops the workers; a picture asked after it (a last edit) is drawn
    in the thread.

    Seen to fail with ``Pictures.shutdown`` not stopping the pool (the worker still alive after
    30 s: "the worker stopped"), and with ``PoolClosed`` not caught in ``_drawn`` (the picture
    lost: "PoolClosed: the pictures pool is shut down")."""
    await art.ready([sketch("before", where_drawn)])
    pool = art.pool._pool
    assert pool is not None
    processes = list(pool._processes.values())  # type: ignore[attr-defined]
    art.shutdown()
    assert wait([p.sentinel for p in processes], timeout=30), "the worker stopped"
    await art.ready([sketch("after", where_drawn)])
    assert int(art.cache.peek("after") or b"0") == os.getpid() and art.drawn_in_thread == 1


async def test_pictures_queued_when_the_pool_shuts_down_are_still_drawn(art: Pictures) -> None:
    """The referee shuts the pool down while its one worker is busy and pictures wait behind
    it: the pool cancels the jobs it had not started, and those pictures are drawn in the thread
    instead; none is lost and no asker sees the cancel.

    Seen to fail without the ``CancelledError`` branch in ``Pictures._drawn`` (the cancelled
    jobs' askers got "asyncio.exceptions.CancelledError")."""
    await art.ready([sketch("warm", where_drawn)])
    busy = asyncio.ensure_future(art.ready([sketch("busy", partial(stuck_in_worker, 1.0, b"busy"))]))
    queued = [sketch(f"queued {i}", partial(stuck_in_worker, 0, f"queued {i}".encode())) for i in range(4)]
    waiting = asyncio.ensure_future(art.ready(queued))
    await asyncio.sleep(0.3)  # every job is with the pool (real time: the worker sleeps in it)
    art.shutdown()
    await asyncio.wait_for(asyncio.gather(busy, waiting), 10)
    assert art.cache.peek("busy") == b"busy"
    assert [art.cache.peek(s.key) for s in queued] == [f"queued {i}".encode() for i in range(4)]
    assert art.drawn_in_thread >= 1, "the jobs the pool had not started were drawn in the thread"
