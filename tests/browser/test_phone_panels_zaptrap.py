"""One phone screen for Zap or Trap: see tests/browser/test_phone_panels.py (a file per title, so that
`make test`'s workers play two games at once)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.phone_panels import SKIPS, check

pytestmark = SKIPS


# Known and open (issue 33): in play and while signals are chosen, a panel that also carries a
# notice ("Too slow — …") or three long computer names grows to 565–631 px (measured 29 November
# 2026; most states are 420–550). Not strict: a game that meets none of those states passes.
@pytest.mark.xfail(strict=False, reason="Zap or Trap's panel exceeds 560 px in some states (issue 33, open)")
def test_zaptrap_panels_fit_one_phone_screen(tmp_path: Path) -> None:
    check("zaptrap", tmp_path)
