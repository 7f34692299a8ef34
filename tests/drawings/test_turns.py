"""Turns at the picture workers: the drawings a click waits for go before the background's (a
table's redraw, another seat's panel refresh), each kind in the order asked, and a drawing that
gives up its place (its task cancelled) never holds a turn nobody takes."""

from __future__ import annotations

import asyncio

from cogs.table.pictures import Turns


async def _hold(turns: Turns, for_click: bool, name: str, order: list[str], gate: asyncio.Event) -> None:
    async with turns.turn(for_click):
        order.append(name)
        await gate.wait()


async def test_a_clicks_drawing_goes_before_the_background_queued_earlier() -> None:
    """Seen to fail (["first", "table", "panel", "click", "click 2"]) with every waiter pushed at
    one priority, the first-come order a process pool's own queue has."""
    turns = Turns(1)
    order: list[str] = []
    gate = asyncio.Event()
    first = asyncio.create_task(_hold(turns, False, "first", order, gate))
    await asyncio.sleep(0)
    waiting = [
        asyncio.create_task(_hold(turns, for_click, name, order, gate))
        for name, for_click in (("table", False), ("panel", False), ("click", True), ("click 2", True))
    ]
    await asyncio.sleep(0)
    assert order == ["first"] and turns.waiting == 4 and turns.busy == 1
    gate.set()
    await asyncio.gather(first, *waiting)
    assert order == ["first", "click", "click 2", "table", "panel"]
    assert turns.busy == 0 and turns.waiting == 0


async def test_a_cancelled_waiter_gives_its_turn_on() -> None:
    """A drawing cancelled while waiting (its asker's task cancelled by a shutdown) is skipped,
    and one cancelled just as its turn came passes it on: nothing waits for ever behind a turn
    nobody holds. Seen to fail (the last waiter never ran: TimeoutError) with ``turn`` not
    passing on a turn handed to a cancelled waiter."""
    turns = Turns(1)
    order: list[str] = []
    gate = asyncio.Event()
    tasks: dict[str, asyncio.Task[None]] = {}

    async def first() -> None:
        await _hold(turns, False, "first", order, gate)
        # Its turn was just handed to "late", which has not run yet: cancel it now.
        tasks["late"].cancel()

    tasks["first"] = asyncio.create_task(first())
    await asyncio.sleep(0)
    for name, for_click in (("gone", True), ("late", True), ("last", False)):
        tasks[name] = asyncio.create_task(_hold(turns, for_click, name, order, gate))
    await asyncio.sleep(0)
    tasks["gone"].cancel()  # cancelled while waiting: skipped
    await asyncio.sleep(0)
    gate.set()
    async with asyncio.timeout(2):
        await tasks["last"]
    assert order == ["first", "last"]
    assert tasks["gone"].cancelled() and tasks["late"].cancelled()
    assert turns.busy == 0 and turns.waiting == 0


async def test_up_to_size_drawings_go_at_once() -> None:
    turns = Turns(2)
    order: list[str] = []
    gate = asyncio.Event()
    tasks = [asyncio.create_task(_hold(turns, False, str(i), order, gate)) for i in range(3)]
    await asyncio.sleep(0)
    assert order == ["0", "1"] and turns.busy == 2 and turns.waiting == 1
    gate.set()
    await asyncio.gather(*tasks)
    assert order == ["0", "1", "2"] and turns.busy == 0
