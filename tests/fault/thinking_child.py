"""The process test_thinking_pool.py stops with Ctrl-C: the real bot on SimCord, a SQLite file, and
a hard Trap computer thinking in its worker pool.

python tests/fault/thinking_child.py <database url> <seed>

It opens a Trap table (quick setup, no move clock) against the hard computer and plays it under
``bot.run_until_stopped``, the way `python bot.py` runs the bot: alice types a move whenever it is
her turn and the computer thinks in the pool. It prints, flushed, one line per event the parent
watches:

    WORKERS <pid> …     the pool's worker processes, once the computer has thought in them
    POOL <whole|broken> when the bot shuts its pool down: whether every worker was still there
    OVER                the game ended (the bot keeps serving until it is stopped)
    STOPPED             run_until_stopped returned: the bot closed
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402

from bot import Settings, create_bot, run_until_stopped  # noqa: E402
from db.engine import migrate  # noqa: E402
from tests.e2e.trap_driver import open_table  # noqa: E402


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def game_night(url: str, seed: int) -> None:
    bot = create_bot(Settings(token=None, database_url=url, computer_speed=0.01))
    bot.referee.new_seed = lambda: seed
    async with simcord.run(bot, check_errors=False, settle_timeout=30) as env:
        t = await open_table(env, cpu="hard", quick_setup=True, speed="off")
        alice, channel = t["host"], t["channel"]
        await alice.click(t["lobby"], label="Start")
        table = bot.referee.tables[bot.referee.by_channel[channel.id]]
        thinker = bot.referee.thinker
        shutdown = thinker.shutdown

        def reported_shutdown() -> None:
            if thinker._pool is not None:
                say(f"POOL {'broken' if thinker._pool._broken else 'whole'}")  # type: ignore[attr-defined]
            shutdown()

        thinker.shutdown = reported_shutdown  # type: ignore[method-assign]
        rng = random.Random(seed)

        async def play() -> None:
            told = False
            assert table.state is not None
            while not table.state.is_over():
                if table.state.view(None)["to_move"] == 0:
                    move = rng.choice(sorted(table.state.legal_actions(0)))
                    await alice.slash(channel, "trap move", move=move)
                await env.advance_time(1)
                if not told and thinker.started:
                    say("WORKERS " + " ".join(str(pid) for pid in thinker._pool._processes))  # type: ignore[union-attr]
                    told = True
            say("OVER")
            await asyncio.Event().wait()  # a bot serves until it is stopped

        await run_until_stopped(bot, play())
        say("STOPPED")


if __name__ == "__main__":
    database_url, seed_text = sys.argv[1], sys.argv[2]
    migrate(database_url)  # Alembic runs its own event loop, so before ours
    asyncio.run(game_night(database_url, int(seed_text)))
