"""The rate-limited bench scaled down (bench/ratelimits.py under the real bot in SimCord,
bench/e2e_limits.py's figures): a few Zip Zap tables played for a few virtual seconds over the
Discord-like layer, then drained. What must hold at any size: no global 429 (the bot's own budget
keeps it under the layer's 50/s), no second of more than 50 calls, every table message drawn and
every post served after the drain, and the figures the bench prints are there. (At this size
the budget is never short; the full sizes are measured, bench/README.md.)"""

from __future__ import annotations

from pathlib import Path

from bench import e2e_limits


def test_a_few_tables_inside_discords_budgets(tmp_path: Path) -> None:
    result = e2e_limits.run(
        workdir=tmp_path,
        sizes=[(4, 4, 2)],
        burst=10,
        step=0.25,
        games=["zipzap"],
        settle_timeout=120,
        progress=lambda _line: None,
        runs=1,
        drain=4.0,
    )
    run = result["rate_limits"]["4"]["runs"][0]
    assert "error" not in run, run.get("trace")
    limits = run["limits"]
    assert limits["global_429s"] == 0
    assert limits["max_served_in_1s"] <= 50
    assert limits["served_per_s"] > 0 and limits["wanted_per_s"] >= limits["served_per_s"] * 0.5
    assert limits["staleness"]["n"] > 0 and limits["staleness"]["max_s"] is not None
    assert limits["answers"] > 0 and limits["answers_over_3s"] == 0
    assert limits["lost_draws"] == 0 and limits["lost_posts"] == 0
    printed = e2e_limits.tables(result)[0].render()
    assert "global 429/min" in printed and "stale p99 s" in printed
