"""The README's screenshots: each game's table and a player's panel in the offline page, taken in a
real browser at desktop width and at a phone's 360 px.

    .venv/bin/python -m tests.browser.screenshots            # every game, into docs/screenshots/
    .venv/bin/python -m tests.browser.screenshots trap zipzap --out /tmp/shots

It starts `python bot.py --offline` the way a person does (tests/browser/browser.py), opens a table
of each game with computer players in the other seats, starts it, opens **My hand**, lets the game
run a few moves and photographs the newest table message and the newest private panel. The phone
pictures use Chrome's device emulation (360 px wide, a phone's pixel ratio), as a phone's browser
would lay the page out. It needs the offline extra and Chromium (`make browser-test` installs both).
This is a tool, not a test: nothing is asserted beyond the page answering.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.browser.browser import ROOT, BotProcess, Page, missing_browser


@dataclass(frozen=True)
class Shot:
    """How to bring a game to a table worth showing."""

    key: str
    command: str
    options: dict[str, str]
    computers: int  # seats the computers fill ("Add computer: <level>" pressed this often)
    level: str
    settle: float  # seconds of play before the picture, so the table shows a game under way
    hand: str  # the table's button that opens a player's panel
    then: tuple[str, ...] = ()  # table buttons to press first, where the person must act (a pack)


SHOTS = (
    Shot("zipzap", "/zipzap new", {"seats": "3", "rounds": "1"}, 2, "casual", 4.0, "My hand"),
    # Fast speed: signal choosing ends after 25 s, and the hands are played from then on.
    Shot("zaptrap", "/zaptrap new", {"seats": "4", "speed": "fast"}, 3, "casual", 30.0, "My hand & signal"),
    Shot("spytrap", "/spytrap new", {"seats": "4"}, 3, "casual", 4.0, "My spy panel"),
    Shot("gifttrap", "/gifttrap new", {"seats": "3"}, 2, "casual", 3.0, "My gifts", ("$$ pack",)),
    Shot("trap", "/trap new", {}, 1, "easy", 3.0, "My moves"),
)

# Tall viewports, so that a whole message fits above the page's composer (which floats at the bottom).
PHONE = {"width": 360, "height": 2400, "deviceScaleFactor": 2, "mobile": True}
DESKTOP_WIDTH = 1280


def _with_button(page: Page, label: str, *, private: bool) -> tuple[Any, Any] | None:
    """The newest message with an enabled button ending in ``label``, and that button (a turn line
    may name the button without carrying it)."""
    for message in reversed(page.messages()):
        if label not in message.text:
            continue
        if bool(message.find_elements("css selector", ".message-ephemeral-note")) != private:
            continue
        for button in page.buttons(message):
            if page.label(button).endswith(label) and button.is_enabled():
                return message, button
    return None


def _button(page: Page, label: str, *, private: bool = False) -> Any:
    found = _with_button(page, label, private=private)
    return found[1] if found is not None else None


def _message(page: Page, label: str, *, private: bool = False) -> Any:
    found = _with_button(page, label, private=private)
    return found[0] if found is not None else None


def _panel(page: Page) -> Any:
    """The newest private message with controls (buttons or a select: Trap's panel may offer only
    its select of moves): the player's panel."""
    for message in reversed(page.messages()):
        controls = message.find_elements("css selector", "button.component-button, .select-trigger")
        if message.find_elements("css selector", ".message-ephemeral-note") and controls:
            return message
    return None


def _snap(page: Page, element: Any, path: Path) -> None:
    page.driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", element)
    loaded = (
        "return Array.from(arguments[0].querySelectorAll('img')).every(i => i.complete && i.naturalWidth > 0)"
    )
    page.wait(lambda: page.driver.execute_script(loaded, element), "the message's pictures to load")
    time.sleep(0.3)  # and be painted
    element.screenshot(str(path))


def take(shot: Shot, out: Path, work: Path) -> list[Path]:
    """Both widths of one game's table and panel; returns the files written."""
    bot = BotProcess(work / f"{shot.key}.sqlite3")
    written: list[Path] = []
    try:
        url = bot.start()
        with Page.open(url, work / f"profile-{shot.key}") as page:
            page.type_command(shot.command, shot.options)
            for _ in range(shot.computers):
                page.click(
                    lambda: _button(page, f"Add computer: {shot.level}"),
                    f"Add computer: {shot.level}",
                )
            page.click(lambda: _button(page, "Start"), "Start")
            hand = shot.hand
            for label in shot.then:
                page.wait(lambda: _button(page, hand), "the table")
                if _button(page, label) is not None:
                    page.click(lambda label=label: _button(page, label), label)
            page.click(lambda: _button(page, hand), hand)
            time.sleep(shot.settle)
            if _button(page, "Refresh", private=True) is not None:  # a panel on its turn needs none
                page.click(lambda: _button(page, "Refresh", private=True), "Refresh")
            for width, metrics in (("desktop", None), ("phone", PHONE)):
                if metrics is not None:
                    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
                else:
                    page.driver.set_window_size(DESKTOP_WIDTH, 2400)
                time.sleep(1.0)  # the page re-lays itself out
                table = page.wait(lambda: _message(page, hand), "the table message")
                panel = page.wait(lambda: _panel(page), "the panel")
                for part, element in (("table", table), ("panel", panel)):
                    path = out / f"{shot.key}-{part}-{width}.png"
                    _snap(page, element, path)
                    written.append(path)
    finally:
        bot.stop()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games", nargs="*", help="game keys (default: all five)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    if (missing := missing_browser()) is not None:
        raise SystemExit(missing)
    args.out.mkdir(parents=True, exist_ok=True)
    wanted = [s for s in SHOTS if not args.games or s.key in args.games]
    with tempfile.TemporaryDirectory() as work:
        for shot in wanted:
            for path in take(shot, args.out, Path(work)):
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


if __name__ == "__main__":
    main()
