"""The process test_sigkill.py kills: the real bot on SimCord and a SQLite file, in a burst of clicks.

python tests/fault/sigkill_child.py <database url> <seed> [--graceful]

With --graceful the burst runs under bot.run_until_stopped, the way `python bot.py` runs the bot,
so test_sigterm.py can stop it with SIGTERM; after the clean stop it prints
``CLOSED <same|different>``: whether the table message shows the last committed state.

It migrates the database, opens a Zip Zap table (three people and a sharp computer player) and
keeps clicking cards with no pause. It prints, flushed, one line per event the parent watches:

    TABLE <id>                          the table is started
    BEGIN <seq>                         a commit of action <seq> is about to start
    ACK <seq> <user id> <action>        <user id>'s click was answered, and it had applied <seq>

An ACK line is printed as soon as the clicker's answer (their fresh panel) has been sent, which
the referee does only after the action's commit: every ACK'd action must survive the kill.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402

from bot import Settings, create_bot, run_until_stopped  # noqa: E402
from cogs.table.panels import Panels  # noqa: E402
from cogs.table.spine import Spine  # noqa: E402
from db.engine import migrate  # noqa: E402
from db.store import Store  # noqa: E402
from tests.e2e.simhelpers import texts  # noqa: E402
from tests.e2e.zipzap_driver import Player, is_over, open_lobby  # noqa: E402


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def watch_commits() -> None:
    """Announce every commit before it starts, and every click's answer once it has been sent
    (for a click that applied an action: its seq, the clicker and the action)."""
    commit = Store.write
    act = Spine.act
    answer = Panels.answer
    answer_over = Panels.answer_over
    applied: dict[int, tuple[int, str]] = {}  # clicker -> (seq, action) not yet answered

    async def announced_commit(self: Store, game_id: int, **kw: Any) -> None:
        if kw.get("action") is not None:
            say(f"BEGIN {kw['version']}")
        await commit(self, game_id, **kw)

    async def recorded_act(self: Spine, table: Any, seat: int | None, action: str, actor: int | None) -> Any:
        events = await act(self, table, seat, action, actor)
        if actor is not None:
            applied[actor] = (table.version, action)
        return events

    async def announced_answer(self: Panels, interaction: Any, *args: Any, **kw: Any) -> bool:
        done = applied.pop(interaction.user.id, None)
        answered = await answer(self, interaction, *args, **kw)
        if done is not None and answered:
            say(f"ACK {done[0]} {interaction.user.id} {done[1]}")
        return answered

    async def announced_answer_over(self: Panels, interaction: Any, *args: Any, **kw: Any) -> None:
        done = applied.pop(interaction.user.id, None)
        await answer_over(self, interaction, *args, **kw)
        if done is not None:
            say(f"ACK {done[0]} {interaction.user.id} {done[1]}")

    Store.write = announced_commit  # type: ignore[method-assign]
    Spine.act = recorded_act  # type: ignore[method-assign]
    Panels.answer = announced_answer  # type: ignore[method-assign]
    Panels.answer_over = announced_answer_over  # type: ignore[method-assign]


async def burst(url: str, seed: int, graceful: bool = False) -> None:
    watch_commits()
    bot = create_bot(Settings(token=None, database_url=url, computer_speed=0.3))
    bot.referee.new_seed = lambda: seed
    async with simcord.run(bot, check_errors=False, settle_timeout=30) as env:
        t = await open_lobby(
            env, seats=4, cpu="sharp", people=("alice", "bob", "carol"), speed="fast", rounds=20
        )
        await t["host"].click(t["lobby"], label="Start")
        table_id = bot.referee.by_channel[t["channel"].id]
        say(f"TABLE {table_id}")
        players = [Player(a, t["channel"], t["lobby"]) for a in t["actors"]]

        async def play() -> None:
            while not is_over(t["channel"]):
                for p in players:
                    await p.step()
                await env.advance_time(0.3)
            say("OVER")

        if not graceful:
            await play()
            return
        await run_until_stopped(bot, play())
        table = bot.referee.table_or_closed(table_id)
        assert table is not None
        shown = next(m for m in t["channel"].history() if m.id == table.table_message_id)
        drawn = bot.referee.drawing.draw(table).layout
        same = texts(shown) and texts(shown) == texts({"components": drawn.components})
        say(f"CLOSED {'same' if same else 'different'}")


if __name__ == "__main__":
    database_url, seed_text = sys.argv[1], sys.argv[2]
    migrate(database_url)  # Alembic runs its own event loop, so before ours
    asyncio.run(burst(database_url, int(seed_text), "--graceful" in sys.argv[3:]))
