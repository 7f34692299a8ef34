"""``python -m cogs.texts update`` rewrites the templates and catalogs in locales/ from the code;
``python -m cogs.texts check`` says what is out of step and exits 1 if anything is."""

from __future__ import annotations

import sys

from cogs.texts.catalogs import check, update
from cogs.texts.sources import ROOT


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        for path in update():
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    if command == "check":
        problems = check()
        for problem in problems:
            print(problem)
        print(f"{len(problems)} problems" if problems else "the catalogs are in step with the code")
        return 1 if problems else 0
    print("usage: python -m cogs.texts [update|check]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
