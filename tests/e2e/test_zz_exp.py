from __future__ import annotations

from typing import Any

import pytest

from bench.heap import kind, saved_garbage, split
from tests.e2e.zipzap_driver import Player, open_lobby


@pytest.mark.simcord(settle_timeout=20)
async def test_experiment(simcord_env: Any, simcord_bot: Any) -> None:
    env = simcord_env
    simcord_bot.collector.stop()
    with saved_garbage() as garbage:
        t = await open_lobby(env, seats=2, cpu=None, rounds=1)
        await t["host"].click(t["lobby"], label="Start")
        players = [Player(a, t["channel"], t["lobby"]) for a in t["actors"]]
        for p in players:
            await p.open_hand()
        table = next(iter(simcord_bot.referee.tables.values()))
        for _ in range(200):
            for p in players:
                await p.step()
            await env.advance_time(1.0)
            if table.status != "playing":
                break
        from tests.e2e.simhelpers import buttons, emit_click
        for _ in range(3):
            for p in players:
                for b in buttons(p.panel):
                    emit_click(p.actor, p.panel, b["custom_id"])
                emit_click(p.actor, t["lobby"], f"gt:{table.id}:hand")
            await env.settle()
            await env.advance_time(1.0)
        env.backend.transcript.clear()
        await env.advance_time(5.0)
    counted = split(garbage)
    print("COUNTED", counted["bot"], counted["bot_kinds"])
