"""Played games at a phone's width, measured: what tests/browser/test_phone_panels*.py assert and
``python -m tests.browser.phone_heights`` prints.

A person (alice) opens a table of a game in the offline page (`python bot.py --offline`, the real
bot against SimCord, tests/browser/browser.py), fills the other seats with computers, starts, opens
their panel and plays with a simple policy (``Policy``): the first enabled control of their newest
panel (a select: one of its choices at random), as a person who plays without thinking does;
Zip Zap to its end, the longer titles for ``PLAY_SECONDS`` (see ``Game.seconds``). The page is
laid out the whole time as a 360 px wide phone lays it out (Chrome's device emulation, mobile, as
tests/browser/screenshots.py takes the README's phone pictures), in a tall viewport so that a
whole message is laid out above the page's composer.

Every private message the person sees is measured each time it changes (its text or pictures),
once its pictures have loaded: the message element's height in CSS px, the page's own layout of
it. The public table message is measured the same way, and reported only.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from cogs.offline import preview_installed
from tests.browser.browser import BotProcess, Page, missing_browser
from tests.browser.screenshots import PHONE

# Each test file's skips: where a piece is missing, the test says which.
SKIPS = [
    pytest.mark.skipif(not preview_installed(), reason="the offline extra (simcord[preview]) is missing"),
    pytest.mark.skipif(missing_browser() is not None, reason=str(missing_browser())),
]

# The message area of a 360 x 780 phone screen (issue 33): a panel or answer taller than this
# needs scrolling before its last button can be reached.
LIMIT = 560.0

# Simulated seconds per real second (cogs/offline.py): computers' turns and timers four times as
# fast, so more of a game fits a CI run; the person's own clicks keep the page's real pace.
CLOCK_RATE = 4.0

# How long a game that cannot end in a CI run's time is played (see Game.seconds).
PLAY_SECONDS = 120.0

# Buttons the simple policy never presses: they end or leave the game, or open something beside
# it (a person who just plays does not press them), or only re-read the panel.
NOT_PLAYING = (
    "Refresh",
    "Resign",
    "draw",
    "Draw offer",
    "Leave",
    "History",
    "Rules",
    "What's this",
    "Help",
    "Stop",
    "Cancel",
    "Undo",
    "Hand by DM",
)


@dataclass(frozen=True)
class Game:
    """How to open and play one title in the offline page."""

    key: str
    title: str
    command: str
    options: dict[str, str]
    computers: int
    level: str
    hand: str  # the table's button that opens the person's panel
    # How long the person plays. Zip Zap's shortest game ends well within it and must; the others
    # last many minutes of real clicks even at CLOCK_RATE (a Trap game is 100+ moves), more than
    # CI can give: they are played for this long, which takes them through their opening phases
    # and into the main play (Trap: the drop, then moves; Zap or Trap: signals, then hands; Spy
    # Trap: piles and draws; GiftTRAP: a pack, choosing and unwrapping), and then left.
    seconds: float
    whole: bool = False  # the game must end within ``seconds``
    # Zip Zap is a race: computers four times as fast would play every card before the person
    # could, and the person would see one panel. Its game is short at a person's pace anyway.
    clock_rate: float = CLOCK_RATE


# The shortest ordinary game of each title: fewest seats, one round, fast timers where offered.
GAMES = (
    Game(
        "zipzap",
        "Zip Zap",
        "/zipzap new",
        {"seats": "2", "rounds": "1"},
        1,
        "casual",
        "My hand",
        240.0,
        whole=True,
        clock_rate=1.0,
    ),
    Game(
        "zaptrap",
        "Zap or Trap",
        "/zaptrap new",
        {"seats": "3", "speed": "fast"},
        2,
        "casual",
        "My hand & signal",
        PLAY_SECONDS,
    ),
    Game(
        "spytrap",
        "Spy Trap",
        "/spytrap new",
        {"seats": "3", "speed": "fast"},
        2,
        "casual",
        "My spy panel",
        PLAY_SECONDS,
    ),
    Game(
        "gifttrap",
        "GiftTRAP",
        "/gifttrap new",
        {"seats": "3", "speed": "fast"},
        2,
        "casual",
        "My gifts",
        PLAY_SECONDS,
    ),
    Game("trap", "Trap", "/trap new", {"speed": "fast"}, 1, "easy", "My moves", PLAY_SECONDS),
)
BY_KEY = {g.key: g for g in GAMES}


@dataclass(frozen=True)
class Seen:
    """One message as the person saw it at one moment."""

    kind: str  # "panel", "answer" (a private message without controls or pictures) or "table"
    state: str  # its first line and the next one's first words, numbers as # (``_state``)
    height: float  # CSS px
    text: str
    message_id: str


@dataclass
class Measured:
    """Everything measured over one played game."""

    game: Game
    seen: list[Seen] = field(default_factory=list)
    finished: bool = False
    actions: int = 0
    worst_png: Path | None = None

    def of(self, kind: str) -> list[Seen]:
        return [s for s in self.seen if s.kind == kind]

    def too_tall(self) -> list[Seen]:
        """Panels and answers over the limit, the tallest of each state once."""
        worst: dict[tuple[str, str], Seen] = {}
        for s in self.seen:
            if s.kind != "table" and s.height > LIMIT:
                key = (s.kind, s.state)
                if key not in worst or s.height > worst[key].height:
                    worst[key] = s
        return sorted(worst.values(), key=lambda s: -s.height)

    def summary(self) -> dict[str, Any]:
        """The figures the README's table and the JSON carry."""

        def heights(kind: str) -> list[float]:
            return [s.height for s in self.of(kind)]

        states: dict[str, float] = {}
        for s in self.of("panel"):
            states[s.state] = max(states.get(s.state, 0.0), s.height)
        panels, answers, tables = heights("panel"), heights("answer"), heights("table")
        return {
            "game": self.game.key,
            "title": self.game.title,
            "finished": self.finished,
            "panels_measured": len(panels),
            "panel_median": round(statistics.median(panels)) if panels else None,
            "panel_max": round(max(panels)) if panels else None,
            "states": {k: round(v) for k, v in sorted(states.items(), key=lambda kv: -kv[1])},
            "answer_max": round(max(answers)) if answers else None,
            "answers": sorted({s.state for s in self.of("answer")}),
            "table_median": round(statistics.median(tables)) if tables else None,
            "table_max": round(max(tables)) if tables else None,
        }


# One call reads every message the page shows: which are private, their text, height and whether
# their pictures have loaded (a picture still loading would measure short).
READ = """
return Array.from(document.querySelectorAll('#channel-message-list article.channel-message')).map(m => ({
  id: m.dataset.messageId || '',
  private: !!m.querySelector('.message-ephemeral-note'),
  text: m.innerText,
  height: m.getBoundingClientRect().height,
  loaded: Array.from(m.querySelectorAll('img')).every(i => i.complete && i.naturalWidth > 0),
  pictures: m.querySelectorAll('img').length,
  controls: m.querySelectorAll('button.component-button, .select-trigger').length,
}));
"""
NUMBER = re.compile(r"\d+")
# The offline page's header line of every message: the bot's name, its BOT tag and a time.
HEADER = re.compile(r"^(Game-night referee|TestBot)\b")
TIME = re.compile(r"^(\d+/\d+/\d+, |Today at )?\d{1,2}:\d{2}( [AP]M)?( \(edited\))?$")


def _heading(text: str) -> str:
    """A message's first line of its own, as shown (see ``_state``)."""
    for line in text.splitlines():
        line = line.strip()
        if not line or HEADER.match(line) or line in ("BOT", "APP", "(edited)") or " used /" in line:
            continue
        if "Only you can see this" in line or TIME.search(line):
            continue
        return line
    return ""


def _state(text: str) -> str:
    """A message's state label: its first line of its own (not the page's author line, the
    command it answers, its time or the "Only you can see this" note) and the first words of
    the next, numbers as #, so that one state groups across turns and rounds ("Trap — you play
    red (A) · Your turn: drop…")."""
    lines = [line.strip() for line in text.splitlines()]
    own = [
        line
        for line in lines
        if line
        and not HEADER.match(line)
        and line not in ("BOT", "APP", "(edited)")
        and " used /" not in line
        and "Only you can see this" not in line
        and not TIME.search(line)
    ]
    if not own:
        return "(empty)"
    label = own[0][:60]
    if len(own) > 1:
        label += " · " + " ".join(own[1].split()[:3]) + "…"
    return NUMBER.sub("#", label)


class Meter:
    """Reads the page after every step and keeps each message's heights as they change; the
    tallest panel or answer so far is photographed when it is seen (it may change later)."""

    def __init__(self, page: Page, game: Game, measured: Measured, artifacts: Path) -> None:
        self.page = page
        self.game = game
        self.measured = measured
        self.artifacts = artifacts
        self.last: dict[str, str] = {}  # message id -> the text last measured
        self.tallest = 0.0

    def read(self) -> list[dict[str, Any]]:
        return list(self.page.driver.execute_script(READ))

    def look(self, *, settle: float = 3.0) -> None:
        """Measure what changed, once its pictures have loaded: a person looks at the panel
        before pressing anything, so the next click waits for them (at most ``settle`` s)."""
        deadline = time.monotonic() + settle
        messages = self.read()
        while not all(m["loaded"] for m in messages) and time.monotonic() < deadline:
            time.sleep(0.1)
            messages = self.read()
        for m in messages:
            if not m["loaded"] or self.last.get(m["id"]) == m["text"]:
                continue
            if m["private"]:
                kind = "panel" if m["controls"] or m["pictures"] else "answer"
            elif m["controls"] and (self.game.hand in m["text"] or "Rematch" in m["text"]):
                # The table message carries the panel's button (a turn line only names it).
                kind = "table"
            else:
                continue  # the lobby, turn lines, results posts: not what this measures
            self.last[m["id"]] = m["text"]
            seen = Seen(kind, _state(m["text"]), float(m["height"]), m["text"], m["id"])
            self.measured.seen.append(seen)
            if kind != "table" and seen.height > self.tallest:
                self.tallest = seen.height
                self.shoot(seen)

    def shoot(self, seen: Seen) -> None:
        found = self.page._css(f'article.channel-message[data-message-id="{seen.message_id}"]')
        if not found:
            return
        self.artifacts.mkdir(parents=True, exist_ok=True)
        path = self.artifacts / f"{self.game.key}-tallest-panel.png"
        try:
            found[0].screenshot(str(path))  # Chromium draws the whole element, however tall
        except Exception:  # the message was redrawn meanwhile: the next tallest will be taken
            return
        self.measured.worst_png = path


# The person's newest private message with an enabled control: its text, and its enabled
# controls in order (buttons the policy never presses left out), found in one read of the page.
CONTROLS = """
const skip = arguments[0].map(s => s.toLowerCase());
const messages = Array.from(document.querySelectorAll('#channel-message-list article.channel-message'));
for (const m of messages.reverse()) {
  if (!m.querySelector('.message-ephemeral-note')) continue;
  const controls = Array.from(m.querySelectorAll('button.component-button, .select-trigger'))
    .filter(c => !c.disabled && !c.closest('.select-list'))
    .filter(c => c.matches('.select-trigger') || (c.innerText.trim()
      && !skip.some(s => c.innerText.toLowerCase().includes(s))));
  if (!controls.length) continue;
  return {text: m.innerText, controls: controls.map(c => ({
    element: c, select: c.matches('.select-trigger'),
    name: c.matches('.select-trigger') ? (c.closest('.preview-select')?.dataset.controlKey || '')
      : c.innerText.trim()}))};
}
return null;
"""
# The newest public message's enabled button whose label ends with arguments[0].
TABLE_BUTTON = """
const messages = Array.from(document.querySelectorAll('#channel-message-list article.channel-message'));
for (const m of messages.reverse()) {
  if (m.querySelector('.message-ephemeral-note')) continue;
  const b = Array.from(m.querySelectorAll('button.component-button'))
    .find(b => !b.disabled && b.innerText.trim().endsWith(arguments[0]));
  if (b) return b;
}
return null;
"""


def _table_button(page: Page, label: str) -> Any:
    return page.driver.execute_script(TABLE_BUTTON, label)


def _over(page: Page) -> bool:
    """The game has ended: a public message offers Rematch."""
    return _table_button(page, "Rematch") is not None


OPEN_CHOICES = (
    ".preview-select.is-open .select-option:not([aria-disabled='true']):not([aria-selected='true'])"
)


def _choose_in_select(page: Page, trigger: Any, rng: random.Random) -> bool:
    """Open a select and take one of its choices (at random: the first may be one the game
    refuses every time, as GiftTRAP's gift already given). A multi-select is applied by
    pressing its opener again, as a person closes it."""
    trigger.click()
    options = [
        o
        for o in page.wait(lambda: page._css(OPEN_CHOICES), "the select's choices", seconds=5)
        if o.is_displayed()
    ]
    if not options:
        return False
    before = page._count()
    rng.choice(options).click()
    for attempt in range(2):
        try:
            page.wait(lambda: page._count() > before, "the choice to be sent", seconds=2)
            page.wait(lambda: page.in_flight() == 0, "the answer to the choice")
            return True
        except AssertionError:
            if attempt == 0 and page._css(".preview-select.is-open .select-trigger"):
                page._css(".preview-select.is-open .select-trigger")[0].click()
    page.driver.find_element("tag name", "body").send_keys("\ue00c")  # Escape: closed unchosen
    return False


class Policy:
    """The simple player: the first enabled control of their newest panel (a select: one of its
    choices at random), skipping a control that was just tried on the same panel and changed
    nothing (a tab already open, a choice refused), so that the next one is tried."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.rng = random.Random(33)
        self.futile: set[tuple[str, str]] = set()  # (panel text, control) that changed nothing
        self.chosen: set[tuple[str, str]] = set()  # (panel heading, select) chosen already

    def panel(self) -> dict[str, Any] | None:
        found = self.page.driver.execute_script(CONTROLS, list(NOT_PLAYING))
        return dict(found) if found else None

    def act(self) -> bool:
        """One move. True if something was sent."""
        panel = self.panel()
        if panel is None:
            return False
        text = panel["text"]
        heading = _heading(text)
        tried = [
            c
            for c in panel["controls"]
            if (text, c["name"]) not in self.futile and (heading, c["name"]) not in self.chosen
        ]
        if not tried:
            self.futile = {f for f in self.futile if f[0] != text}  # round again, choices differ
            return False
        control = tried[0]
        if control["select"]:
            sent = _choose_in_select(self.page, control["element"], self.rng)
            # Once per select while the panel shows the same step ("Your gifts — round 1"): a
            # person sets a choice and goes on to the button that confirms it.
            self.chosen.add((heading, control["name"]))
        else:
            self.page.click(lambda: self._find(control["name"]), f"{control['name']!r} in the panel")
            sent = True
        # The panel's redraw (the page reads twice a second): what the click changed, if anything.
        deadline = time.monotonic() + 2.0
        after = self.panel()
        while after is not None and after["text"] == text and time.monotonic() < deadline:
            time.sleep(0.1)
            after = self.panel()
        if after is not None and after["text"] == text:
            self.futile.add((text, control["name"]))
        return sent

    def _find(self, name: str) -> Any:
        panel = self.panel()
        for c in panel["controls"] if panel else []:
            if c["name"] == name and not c["select"]:
                return c["element"]
        return None


def play(page: Page, game: Game, artifacts: Path) -> Measured:
    """One whole game at a phone's width; returns its measurements."""
    measured = Measured(game)
    meter = Meter(page, game, measured, artifacts)
    policy = Policy(page)
    from selenium.common.exceptions import WebDriverException

    # The composer's send button is hidden at a phone's width: type at desktop width, then play
    # (and measure) at the phone's.
    page.type_command(game.command, game.options)
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    for _ in range(game.computers):
        page.click(lambda: _table_button(page, f"Add computer: {game.level}"), "Add computer")
    page.click(lambda: _table_button(page, "Start"), "Start")
    page.click(lambda: _table_button(page, game.hand), game.hand)
    deadline = time.monotonic() + game.seconds
    idle_since = time.monotonic()
    while not _over(page):
        if time.monotonic() > deadline:
            break
        meter.look()
        try:
            acted = policy.act()
        except (AssertionError, WebDriverException):
            acted = False  # the panel changed under the click: look again
        if acted:
            measured.actions += 1
            idle_since = time.monotonic()
            continue
        # The person's move may wait on a table button (GiftTRAP's packs), on the others, or on
        # a panel that went quiet: a person presses the table's button, or opens the panel anew.
        if time.monotonic() - idle_since > 8.0:
            for label in ("pack", game.hand):
                if _table_button(page, label) is not None:
                    with contextlib.suppress(AssertionError):
                        page.click(partial(_table_button, page, label), label)
                    break
            idle_since = time.monotonic()
        time.sleep(0.3)
    measured.finished = _over(page)
    time.sleep(1.0)  # the final panel and table edits
    meter.look()
    # The short answers a person meets beside the game: /settings.
    page.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    for _ in range(3):  # the composer's list may be redrawn under the typing: type again
        try:
            # A person who may not change the server's language is told so: a refusal, and
            # one of /settings' answers.
            page.type_command("/settings language", {})
            break
        except (AssertionError, WebDriverException):
            page.driver.find_element("id", "channel-composer-input").clear()
            time.sleep(1.0)
    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    time.sleep(1.0)  # the page re-lays itself out
    meter.last.clear()  # every message again, at the phone's width
    meter.look()
    return measured


def measure(game: Game, work: Path, artifacts: Path) -> Measured:
    """Start the offline bot and Chromium, play ``game`` whole, stop both."""
    bot = BotProcess(work / f"{game.key}.sqlite3", clock_rate=game.clock_rate)
    try:
        url = bot.start()
        with Page.open(url, work / f"profile-{game.key}") as page:
            try:
                return play(page, game, artifacts)
            except BaseException:
                page.screenshot(artifacts, f"{game.key}-page")
                raise
    finally:
        bot.stop()


def _artifacts() -> Path:
    """BROWSER_TEST_ARTIFACTS, or a fresh folder under the system's temporary folder."""
    folder = os.environ.get("BROWSER_TEST_ARTIFACTS")
    if folder:
        return Path(folder)
    return Path(tempfile.gettempdir()) / "referee-phone-panels" / time.strftime("%Y%m%d-%H%M%S")


def report(measured: Measured) -> str:
    summary = measured.summary()
    return (
        f"{measured.game.title}: {summary['panels_measured']} panels measured, median "
        f"{summary['panel_median']} px, max {summary['panel_max']} px; answers max "
        f"{summary['answer_max']} px; table median {summary['table_median']} px, max "
        f"{summary['table_max']} px; {measured.actions} actions, finished: {measured.finished}"
    )


def check(key: str, tmp_path: Path) -> None:
    artifacts = _artifacts()
    measured = measure(BY_KEY[key], tmp_path, artifacts)
    print("\n" + report(measured))
    assert measured.of("panel"), "the person never saw a panel"
    if measured.game.whole:
        assert measured.finished, f"the game did not end in {measured.game.seconds:.0f} s: {report(measured)}"
    too_tall = measured.too_tall()
    if too_tall:
        lines = "\n".join(f"  {s.kind} {s.height:.0f} px: {s.state!r}" for s in too_tall)
        raise AssertionError(
            f"{measured.game.title}: {len(too_tall)} state(s) taller than {LIMIT:.0f} CSS px at 360 px:\n"
            f"{lines}\nthe tallest panel's picture: {measured.worst_png}"
        )
