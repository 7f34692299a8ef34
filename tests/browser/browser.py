"""A person at the offline page: the real bot process (`python bot.py --offline`) and Debian's
headless Chromium driven by Selenium, clicking what a person would click.

Nothing here reaches into the bot or SimCord: the test sees what a person sees (the page) and what
the terminal shows (the bot's stdout and stderr). To count what the page sent and what it was told,
a recorder wraps the page's ``fetch`` before the page's own scripts run (Chrome DevTools'
``Page.addScriptToEvaluateOnNewDocument``); it observes and changes nothing.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[2]
URL = re.compile(r"(http://127\.0\.0\.1:\d+/#\S+)")
T = TypeVar("T")

# Every wait is bounded; a whole game is bounded by the test.
START_SECONDS = 60.0
STEP_SECONDS = 20.0

# What the page sent to /api/action and what it was answered; reads that the page abandoned.
RECORDER = """
(() => {
  const actions = [];
  const reads = {sent: 0, abandoned: 0};
  window.__offlineActions = actions;
  window.__offlineReads = reads;
  const original = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input.url;
    if (url.endsWith("/api/state")) {
      reads.sent += 1;
      try { return await original(input, init); }
      catch (error) { if (error && error.name === "AbortError") reads.abandoned += 1; throw error; }
    }
    if (!url.endsWith("/api/action")) return original(input, init);
    let body = {};
    try { body = JSON.parse(init.body); } catch (_) {}
    const entry = {kind: body.kind || "?", revision: body.published_revision, done: false};
    actions.push(entry);
    try {
      const response = await original(input, init);
      entry.status = response.status;
      try {
        const receipt = await response.clone().json();
        entry.rejected = receipt.rejected === true;
        entry.settlement = receipt.settlement;
        entry.acknowledgement = receipt.acknowledgement;
        entry.codes = (receipt.diagnostics || []).map((d) => d.code);
      } catch (_) { entry.codes = ["unreadable-receipt"]; }
      return response;
    } catch (error) {
      entry.status = 0; entry.codes = [String(error)];
      throw error;
    } finally { entry.done = true; }
  };
})();
"""

# Labels the page shows while it is still working on something (SimCord's actions.js); a click
# made then is dropped by the page itself, so the person waits for the page like a person would.
BUSY = ("Completing action", "Updating", "Loading", "Sending", "Switching", "Opening")


def missing_browser() -> str | None:
    """Why the browser test cannot run here, or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "Selenium is not installed (make browser-test installs it)"
    for program in ("chromium", "chromedriver"):
        if _program(program) is None:
            return f"{program} is not installed (make browser-test installs chromium and chromium-driver)"
    return None


def _program(name: str) -> str | None:
    found = shutil.which(name)
    if found is None and name == "chromium":
        found = shutil.which("chromium-browser")
    return found


@dataclass
class BotProcess:
    """`python bot.py --offline` as a person starts it, with its terminal captured."""

    database: Path
    # Simulated seconds per wall-clock second (cogs/offline.py, OFFLINE_CLOCK_RATE); 1 as a person.
    clock_rate: float = 1.0
    process: subprocess.Popen[str] | None = None
    stdout: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    url: str | None = None
    _seen_url: threading.Event = field(default_factory=threading.Event)

    def start(self) -> str:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.database.parent),
            "PYTHONUNBUFFERED": "1",
            "OFFLINE_DATABASE_URL": f"sqlite+aiosqlite:///{self.database}",
            "OFFLINE_CLOCK_RATE": str(self.clock_rate),
        }
        self.process = subprocess.Popen(
            [sys.executable, "bot.py", "--offline"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for stream, lines in ((self.process.stdout, self.stdout), (self.process.stderr, self.stderr)):
            threading.Thread(target=self._read, args=(stream, lines), daemon=True).start()
        if not self._seen_url.wait(START_SECONDS) or self.url is None:
            raise AssertionError(f"the offline bot printed no address; it said:\n{self.terminal()}")
        return self.url

    def _read(self, stream: Any, lines: list[str]) -> None:
        for line in stream:
            lines.append(line.rstrip("\n"))
            if (found := URL.search(line)) is not None and self.url is None:
                self.url = found.group(1)
                self._seen_url.set()
        self._seen_url.set()

    def stop(self) -> int:
        """Ctrl-C's twin (SIGTERM): the bot finishes what it is doing and exits."""
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(timeout=10)

    def terminal(self) -> str:
        return "stdout:\n" + "\n".join(self.stdout) + "\nstderr:\n" + "\n".join(self.stderr)


@dataclass
class Sent:
    """One action the page sent, and its answer."""

    kind: str
    status: int
    rejected: bool
    settlement: str | None
    acknowledgement: str | None
    codes: list[str]

    @property
    def refused(self) -> bool:
        return self.status != 200 or self.rejected or self.settlement != "settled"


class Page:
    """The offline page in headless Chromium, used the way a person uses it."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver
        self.dropped = 0  # clicks the page itself ignored (it was busy), counted by click()

    @classmethod
    @contextmanager
    def open(cls, url: str, profile: Path) -> Iterator[Page]:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service

        options = Options()
        options.binary_location = _program("chromium") or "chromium"
        for argument in (
            "--headless=new",
            "--no-sandbox",  # CI runs as root
            "--disable-dev-shm-usage",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,1000",
            f"--user-data-dir={profile}",
        ):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service(_program("chromedriver")), options=options)
        try:
            driver.set_page_load_timeout(START_SECONDS)
            driver.set_script_timeout(STEP_SECONDS)
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
            driver.get(url)
            page = cls(driver)
            page.wait(lambda: page.status() not in ("", "Loading preview…"), "the page to load")
            yield page
        finally:
            driver.quit()

    # --- reading the page --------------------------------------------------------------------------

    def status(self) -> str:
        return str(self.driver.find_element("id", "action-status").text)

    def timeline_text(self) -> str:
        return str(self.driver.find_element("id", "channel-message-list").text)

    def sent(self) -> list[Sent]:
        raw = self.driver.execute_script("return window.__offlineActions || []")
        return [
            Sent(
                kind=a.get("kind", "?"),
                status=int(a.get("status") or 0),
                rejected=bool(a.get("rejected")),
                settlement=a.get("settlement"),
                acknowledgement=a.get("acknowledgement"),
                codes=list(a.get("codes") or []),
            )
            for a in raw
            if a.get("done")
        ]

    def reads(self) -> dict[str, int]:
        return dict(self.driver.execute_script("return window.__offlineReads || {sent: 0, abandoned: 0}"))

    def _count(self) -> int:
        return int(self.driver.execute_script("return (window.__offlineActions || []).length"))

    def _sent_since(self, before: int) -> bool:
        return self._count() > before

    def in_flight(self) -> int:
        script = "return (window.__offlineActions || []).filter((a) => !a.done).length"
        return int(self.driver.execute_script(script))

    def _css(self, selector: str) -> list[Any]:
        return list(self.driver.find_elements("css selector", selector))

    def idle(self) -> bool:
        return self.in_flight() == 0 and not any(self.status().startswith(b) for b in BUSY)

    def messages(self) -> list[Any]:
        return self._css("#channel-message-list article.channel-message")

    def buttons(self, message: Any) -> list[Any]:
        return list(message.find_elements("css selector", "button.component-button"))

    @staticmethod
    def label(button: Any) -> str:
        return str(button.text).strip()

    def last_message_with(self, text: str, *, private: bool | None = None) -> Any | None:
        for message in reversed(self.messages()):
            if text not in message.text:
                continue
            note = message.find_elements("css selector", ".message-ephemeral-note")
            if private is None or bool(note) == private:
                return message
        return None

    # --- waiting and acting --------------------------------------------------------------------------

    def wait(self, condition: Callable[[], T], what: str, seconds: float = STEP_SECONDS) -> T:
        """Wait until ``condition()`` is truthy (page elements redrawn meanwhile count as not yet)."""
        from selenium.common.exceptions import StaleElementReferenceException

        deadline = time.monotonic() + seconds
        while True:
            try:
                value = condition()
            except StaleElementReferenceException:
                value = None  # the page redrew that element; look again
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {seconds:.0f} s for {what}; the page says {self.status()!r}")
            time.sleep(0.05)

    def click(self, find: Callable[[], Any], what: str) -> Sent:
        """Click what ``find()`` returns once the page is idle, as a person does, and wait for the
        page's answer. A click the page did not send (it was busy after all) counts as dropped
        and is made again."""
        from selenium.common.exceptions import StaleElementReferenceException

        for _ in range(5):
            self.wait(self.idle, f"the page to be ready before {what}")
            before = self._count()
            try:
                target = self.wait(find, what)
                target.click()
            except StaleElementReferenceException:
                continue  # redrawn between finding and clicking: find it again
            try:
                self.wait(partial(self._sent_since, before), f"the page to send {what}", seconds=3)
            except AssertionError:
                self.dropped += 1
                continue
            self.wait(lambda: self.in_flight() == 0, f"the answer to {what}")
            return self.sent()[before]
        raise AssertionError(f"the page never sent {what}")

    def type_command(self, command: str, options: dict[str, str]) -> Sent:
        """Type a slash command in the composer, pick it, fill its options and send it."""
        self.wait(self.idle, "the page to be ready for typing")
        box = self.wait(lambda: self.driver.find_element("id", "channel-composer-input"), "the composer")
        box.click()
        box.send_keys(command)
        entry = f'.command-entry[data-entry-key$=":{command.strip("/").replace(" ", ".")}"]'
        found = self.wait(lambda: self._css(entry), f"{command} in the command list")
        # Enter takes the list's first entry, which for "/trap new" is "/gifttrap new": pick it by name.
        found[0].click()
        for name, value in options.items():
            suggestion = f'.command-suggestion[data-value="{name}"]'
            more = self._css("button.command-ghost")
            if more and not self._css(suggestion):
                more[0].click()  # "+4 more": the option list again
            self.wait(partial(self._css, suggestion), f"option {name}")[0].click()
            box_of = f'input.command-option-input[data-option="{name}"]'
            self.wait(partial(self._css, box_of), f"the {name} box")[0].send_keys(value)
        return self.click(lambda: self.driver.find_element("id", "send-message"), f"the {command} command")

    def screenshot(self, folder: Path, name: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(folder / f"{name}.png"))
        (folder / f"{name}.html").write_text(self.driver.page_source)
