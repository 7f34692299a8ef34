"""One phone screen for Spy Trap: see tests/browser/test_phone_panels.py (a file per title, so that
`make test`'s workers play two games at once)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.phone_panels import SKIPS, check

pytestmark = SKIPS


# Known and open (issue 33): most states are 408–528 px, but a "Too slow — the table moved on
# before your click (…)" notice quoting the news adds four or five lines (577 px, seen in CI on
# 29 November 2026). Not strict: a game that meets no such notice passes.
@pytest.mark.xfail(strict=False, reason="a Too slow notice pushes the panel past 560 px (issue 33)")
def test_spytrap_panels_fit_one_phone_screen(tmp_path: Path) -> None:
    check("spytrap", tmp_path)
