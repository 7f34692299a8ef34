"""The golden English data: check it, or write it again.

    python -m tests.e2e.golden                 # compare, print what differs (exit 1 if anything does)
    python -m tests.e2e.golden --write         # write what the code produces now (review the git diff!)
    python -m tests.e2e.golden --write --new-games   # ... and play every case's game afresh
    python -m tests.e2e.golden --write --only zipzap-2p-cards texts

Write only for an intended change of English, and read the diff before committing it (see
tests/e2e/test_golden_english.py). A case's game is replayed from the actions in its golden file;
``--new-games`` plays it again by self-play (needed when a case is added or the rules change what
its actions mean). The Discord-level sessions run under pytest (they need SimCord's fixtures): this
runs ``pytest tests/e2e/test_golden_english.py -k session`` with GOLDEN_WRITE=1.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from tests.e2e.golden import DISCORD, differences, read, write
from tests.e2e.golden.render import (
    CASES,
    golden_path,
    produce,
    produce_texts,
    record_actions,
    recorded_actions,
)
from tests.e2e.golden.sessions import SESSIONS

TEST = Path(__file__).parents[1] / "test_golden_english.py"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.golden", description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="write the golden data the code produces now")
    parser.add_argument("--new-games", action="store_true", help="play every case's game again (self-play)")
    parser.add_argument("--only", nargs="*", default=None, help="case or session names (default: all)")
    args = parser.parse_args(argv)
    wanted = set(args.only) if args.only else None
    differ = 0

    def handle(name: str, path: Path, lines: list[str]) -> None:
        nonlocal differ
        report = differences(name, read(path), lines)
        if report is None:
            return
        differ += 1
        print(report, end="\n\n")
        if args.write:
            write(path, lines)
            print(f"wrote {path}", end="\n\n")

    for case in CASES:
        if wanted is None or case.id in wanted:
            actions = None if args.new_games else recorded_actions(case)
            handle(case.id, golden_path(case.id), produce(case, actions or record_actions(case)))
    if wanted is None or "texts" in wanted:
        handle("texts", golden_path("texts"), produce_texts())
    sessions = [name for name in SESSIONS if wanted is None or name in wanted]
    if sessions:
        # Under pytest, for SimCord's fixtures: the test compares, or writes (GOLDEN_WRITE).
        before = {name: read(DISCORD / f"{name}.jsonl") for name in sessions}
        env = dict(os.environ, **({"GOLDEN_WRITE": "1"} if args.write else {}))
        chosen = " or ".join(f"session and {name}" for name in sessions)
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(TEST), "-k", chosen]
        failed = subprocess.run(command, env=env, check=False).returncode != 0
        for name in sessions:
            path = DISCORD / f"{name}.jsonl"
            report = differences(name, before[name], read(path)) if args.write else None
            if report is not None:
                differ += 1
                print(report, end=f"\n\nwrote {path}\n\n")
        differ += failed and not args.write
    written = " (written)" if args.write else ""
    print("golden data:", f"{differ} file(s) differ{written}" if differ else "no differences")
    return 0 if args.write or not differ else 1


if __name__ == "__main__":
    sys.exit(main())
