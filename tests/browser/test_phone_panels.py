"""One phone screen (issue 33): every private panel a person sees while playing each title,
laid out by the offline page in real Chromium at a 360 px wide phone viewport, is at most 560 CSS
px tall (the message area of a 360 x 780 screen), so its buttons are reached without scrolling.

How a game is played and measured: tests/browser/phone_panels.py (the real bot, `python bot.py
--offline`, a person clicking the first thing their panel offers against computer seats; every
private message measured each time it changes). One file per title (this one is Zip Zap's;
test_phone_panels_<game>.py the others'), since `make test`'s pytest-xdist ``--dist loadfile``
spreads files, not tests, over its workers.

Which states count ("common states"): every panel and every short private answer the person met:
the hand or moves panel in every phase the game went through (Zip Zap's whole game, to the panel
after it ended; the longer titles for PLAY_SECONDS: their opening phases and main play, not their
last rounds or end), the retired panel ("This hand moved to a newer panel."), a refusal and a
/settings answer. Nothing met is left out. The public table message is measured and printed, never
asserted: it is not a panel, and a tall table scrolls like any channel message.

Seen failing on the main of 29 Nov 2026 for every title: Zip Zap (a hand panel of 744 px), Zap or
Trap (1227), Spy Trap (1354), GiftTRAP (1187) and Trap (1044): the hand shown three times, a
disabled button per card. On a failure the tallest panel's picture is in the artifacts folder
the message names.

Skipped, with the reason, where Chromium, chromedriver, Selenium or the offline extra is missing.
"""

from __future__ import annotations

from pathlib import Path

from tests.browser.phone_panels import SKIPS, check

pytestmark = SKIPS


def test_zipzap_panels_fit_one_phone_screen(tmp_path: Path) -> None:
    check("zipzap", tmp_path)
