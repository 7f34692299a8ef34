"""``python -m bench --only cards`` measures real pictures: a quick run of its parts."""

from __future__ import annotations

from bench import cards


def test_bench_cards_measures_drawing_and_the_cache() -> None:
    result = cards.run(runs=2, repeat=2, games=("spytrap",), progress=lambda _: None)
    draw = result["draw"]["zipzap hand 13"]
    assert len(draw["runs"]) == 2 and all(r["p50_ms"] > 0 for r in draw["runs"])
    assert 0 < draw["bytes"] <= 60 * 1024
    spy = result["cache"]["spytrap"]
    # Every action asks for 4 hands and the table; most of them did not change.
    assert spy["asks"] == 5 * spy["actions"]
    assert 0 < spy["drawn"] < spy["asks"] and 0 < spy["hit_rate"] < 1
    assert spy["bytes_max"] <= 60 * 1024
    rendered = [t.render() for t in cards.tables(result)]
    assert "hit rate" in rendered[1]
