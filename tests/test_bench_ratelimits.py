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


def test_two_processes_share_one_tokens_budget(tmp_path: Path) -> None:
    """``--limits-processes 2``: two bot processes at once, each with half the token's limit (as
    shards 0 and 1 of 2). Each one's budget is half, and the sum of each one's most in any 1 s
    (which bounds what the token served in any 1 s) stays within Discord's 50. Seen failing with
    the shard's share not applied (each budget 45/s: the combined budget 90/s)."""
    result = e2e_limits.run_processes(
        sizes=[(4, 4, 2)], runs=1, processes=2, progress=lambda _line: None, workdir=tmp_path
    )
    run = result["rate_limits"]["2 processes × 4"]["runs"][0]
    assert "error" not in run, run
    limits = run["limits"]
    assert [p["limits"]["budget_rate"] for p in run["processes"]] == [22.5, 22.5]
    assert limits["budget_rate"] == 45.0
    assert limits["global_429s"] == 0 and limits["lost_draws"] == 0 and limits["lost_posts"] == 0
    assert all(m <= 25 for m in limits["max_served_in_1s_each"]), limits["max_served_in_1s_each"]
    assert limits["max_served_in_1s"] <= 50 and limits["answers"] > 0
    printed = e2e_limits.tables(result)[0].render()
    assert "2 processes × 4" in printed
