"""One phone screen for Zap or Trap: see tests/browser/test_phone_panels.py (a file per title, so that
`make test`'s workers play two games at once)."""

from __future__ import annotations

from pathlib import Path

from tests.browser.phone_panels import SKIPS, check

pytestmark = SKIPS


def test_zaptrap_panels_fit_one_phone_screen(tmp_path: Path) -> None:
    check("zaptrap", tmp_path)
