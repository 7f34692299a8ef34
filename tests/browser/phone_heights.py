"""The README's phone heights: every private panel of a whole game of each title, measured in real
Chromium at 360 px (tests/browser/phone_panels.py), as a Markdown table and as JSON.

    .venv/bin/python -m tests.browser.phone_heights                 # every game
    .venv/bin/python -m tests.browser.phone_heights trap zipzap --json heights.json

Per game: the states the person's panel went through with each one's tallest height, the median
and the tallest panel, the tallest short answer, and the table message's median and tallest
height. Needs Chromium and the offline extra (`make browser-test` installs both); about a minute
or two per game. A tool, not a test: test_phone_panels*.py assert the 560 px limit.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from tests.browser.browser import missing_browser
from tests.browser.phone_panels import GAMES, LIMIT, measure


def markdown(summaries: list[dict[str, Any]]) -> str:
    """One row per game, then each game's panel states (tallest first)."""
    rows = [
        "| game | panels measured | panel median | panel max | answers max | table median | table max |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for s in summaries:
        over = " ⚠" if (s["panel_max"] or 0) > LIMIT else ""
        rows.append(
            f"| {s['title']}{'' if s['finished'] else ' (unfinished)'} | {s['panels_measured']} | "
            f"{s['panel_median']} | {s['panel_max']}{over} | {s['answer_max']} | "
            f"{s['table_median']} | {s['table_max']} |"
        )
    rows.append("")
    for s in summaries:
        states = "; ".join(f"{name} {height}" for name, height in s["states"].items())
        rows.append(f"- {s['title']}: {states}")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games", nargs="*", help="game keys (default: all five)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    parser.add_argument("--artifacts", type=Path, default=Path(tempfile.gettempdir()) / "phone-heights")
    args = parser.parse_args()
    if (missing := missing_browser()) is not None:
        raise SystemExit(missing)
    wanted = [g for g in GAMES if not args.games or g.key in args.games]
    summaries = []
    with tempfile.TemporaryDirectory() as work:
        for game in wanted:
            summaries.append(measure(game, Path(work), args.artifacts).summary())
    print(markdown(summaries))
    if args.json is not None:
        args.json.write_text(json.dumps(summaries, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
