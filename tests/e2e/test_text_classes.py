"""Every text a person reads in whole self-played games of every title, checked for the classes
of slip a careful editor would correct (issue 21), not just the slips once quoted:

- a number that disagrees with its noun ("1 cards", "2 point");
- double spaces ("alice  🛡️");
- a negative number written with the hyphen (the project's minus is "−", as in "NO WAY −4");
- raw ids or mentions where a name belongs (``<@…>`` outside a line that pings, bare snowflakes,
  an engine's "seat 3");
- "None", Python reprs, booleans or custom_ids in text;
- a line that names nobody where it means someone ("Waiting on: nobody", "**** went out",
  " is ready.");
- and two the issue's quotes also showed: a range from a number to itself ("Raise (12 to 12)"),
  and jargon casual players don't use ("Ply 68", "plies").

What is read: the lobby, the table message (embed, Latest lines, clock, buttons) after every
action, each person's panel (and the panel steps its own buttons lead to), the pings, round and
final results, `/table status`, History, the final table and its files, a thread table's line,
and a stopped table. It is all drawn through the referee's real ``TableDrawing`` and each game's
real GameUI, from states of seeded self-play (rules/selfplay.py): the drawings the bot sends,
without the clicking, which is far quicker. People have snowflake-sized ids, so a leaked id shows.
/leaderboard and /stats are checked by the leaderboards' own tests.

Each check is seen to fail twice: on the slips quoted in the issue (``test_each_check_catches``),
and on a whole game drawn by a deliberately broken renderer (``test_a_broken_renderer_is_caught``).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from importlib import import_module
from typing import Any

import discord
import pytest

from cogs.table.layout import Drawing
from cogs.table.model import SeatInfo, Table
from cogs.table.notes import note
from cogs.table.referee import Referee
from cogs.table.scheduler import Scheduler
from rules import get_game
from rules.base import Event, State
from rules.selfplay import play_game
from tests.e2e.test_texts import ADJECTIVE, MANY_SINGULAR, NOUNS, ONE_PLURAL
from tests.fault.twins import ui_class

PEOPLE = ("alice", "bob", "carol", "dave", "erin", "fay", "gus", "hal")
USER_BASE = 412_345_678_901_234_500  # a real snowflake's size: a leaked one is caught
NOW = datetime(2026, 1, 1, tzinfo=UTC)

# --- the checks ------------------------------------------------------------------------------

MORE_NOUNS = "turn|capture|unwrap|game|win"
COUNT_ONE = re.compile(rf"(?<![\w.,+−-])1 {ADJECTIVE}(?:{MORE_NOUNS})s\b")
COUNT_MANY = re.compile(rf"(?<![\w.,+−-])(?:0|[2-9]|\d\d+) {ADJECTIVE}(?:{MORE_NOUNS})\b(?!s)")
DOUBLE_SPACE = re.compile(r"\S {2,}\S")
HYPHEN_MINUS = re.compile(r"(?<![\w\-−])-\d")
MENTION = re.compile(r"<@[!&]?\d+>")
SNOWFLAKE = re.compile(r"(?<![\d<@#:])\d{15,20}(?!\d)")
SEAT_NUMBER = re.compile(r"\b[Ss]eats? \d+\b")
REPR = re.compile(
    r"\bNone\b|\bTrue\b|\bFalse\b|\{'|\['|'\]|'\}|<[\w.]+ object at|\b[A-Z]\w+\(\w+=|dict_(?:keys|values)"
)
CUSTOM_ID = re.compile(
    r"\bg[atsr]:\d|\b(?:nav|pile|givemore|getmore|unrank|gesture|signal)-\w"
    r"|\b(?:bid|draw|give|pack|gifttrap|steal|guess|challenge|ZAP|TRAP)-\d"
)
EMPTY_NAME = re.compile(r"\*\*\s*\*\*|\*\*(?:nobody|None|someone|\?)\*\*")
NAMELESS_START = re.compile(
    r"^(?:went out|played|picks|is ready|deals|unwraps|wins|draws|bids|passed|passes|turns up|shouts|"
    r"swapped|swaps|takes|moved|dropped|ran out|has control|leads|called|calls|won|gives|is out)\b"
)
RANGE_TO_ITSELF = re.compile(r"(?<![\w.])(\d+) ?(?:to|–|-) ?\1(?![\w.])")
JARGON = re.compile(r"\b(?:ply|plies)\b", re.I)
WAITING_ON_NOBODY = re.compile(r"^(?:Waiting (?:on|for):?\s*)?(?:nobody)?\W*$")
DANGLING = re.compile(r"\b(?:by|from|vs|Winner:|Waiting (?:on|for):)\s*(?:[.,;)]|$)")


@dataclass
class Shown:
    """One line a person reads, where they read it, and whether it is a line meant to ping."""

    where: str
    text: str
    pings: bool = False
    field: str = ""  # the embed field it is in, if any


@dataclass
class Slip:
    kind: str
    found: str
    shown: Shown

    def __str__(self) -> str:
        return f"[{self.kind}] {self.found!r} in {self.shown.where}: {self.shown.text!r}"


def _count(line: str) -> Iterator[str]:
    for pattern in (ONE_PLURAL, MANY_SINGULAR, COUNT_ONE, COUNT_MANY):
        if match := pattern.search(line):
            yield match.group(0)


def _names_nobody(shown: Shown) -> Iterator[str]:
    line = shown.text
    if match := EMPTY_NAME.search(line) or DANGLING.search(line):
        yield match.group(0)
    start = re.sub(r"^[^\w*]*", "", line)
    if line.strip() and (match := NAMELESS_START.match(start)):
        yield match.group(0)
    if shown.field == "Waiting on" and WAITING_ON_NOBODY.match(line):
        yield line


def _ids(shown: Shown) -> Iterator[str]:
    if not shown.pings and (match := MENTION.search(shown.text)):
        yield match.group(0)
    if match := SNOWFLAKE.search(shown.text):
        yield match.group(0)
    # Seat numbers belong in the lobby (where seats are numbered and swapped), not in the game.
    if " lobby" not in shown.where and (match := SEAT_NUMBER.search(shown.text)):
        yield match.group(0)


CHECKS: dict[str, Callable[[Shown], Iterator[str]]] = {
    "count": lambda s: _count(s.text),
    "double space": lambda s: (m.group(0) for m in DOUBLE_SPACE.finditer(s.text)),
    "hyphen for minus": lambda s: (m.group(0) for m in HYPHEN_MINUS.finditer(s.text)),
    "raw id": _ids,
    "repr or custom_id": lambda s: (m.group(0) for p in (REPR, CUSTOM_ID) if (m := p.search(s.text))),
    "names nobody": _names_nobody,
    "range to itself": lambda s: (m.group(0) for m in RANGE_TO_ITSELF.finditer(s.text)),
    "jargon": lambda s: (m.group(0) for m in JARGON.finditer(s.text)),
}


def slips(lines: list[Shown]) -> list[Slip]:
    found = [Slip(kind, hit, s) for s in lines for kind, check in CHECKS.items() for hit in check(s)]
    unique: dict[tuple[str, str, str], Slip] = {}
    for slip in found:
        unique.setdefault((slip.kind, slip.found, slip.shown.text), slip)
    return list(unique.values())


# --- what a person reads -------------------------------------------------------------------------

CODE_BLOCK = re.compile(r"```.*?```", re.S)


def embed_lines(embed: discord.Embed | None, where: str) -> list[Shown]:
    """Every line of an embed, but for monospace blocks (Trap's text board), spaced on purpose."""
    if embed is None:
        return []
    data = embed.to_dict()
    out: list[Shown] = []

    def add(text: Any, name: str = "") -> None:
        for line in CODE_BLOCK.sub("", str(text or "")).splitlines():
            out.append(Shown(where, line, field=name))

    add(data.get("title"))
    add(data.get("description"))
    add((data.get("footer") or {}).get("text"))
    add((data.get("author") or {}).get("name"))
    for f in data.get("fields", []):
        add(f["name"])
        add(f["value"], f["name"])
    return out


def item_lines(items: list[discord.ui.Item[Any]], where: str) -> list[Shown]:
    out = []
    for item in items:
        inner = getattr(item, "item", item)  # a DynamicItem wraps the real button or select
        if isinstance(inner, discord.ui.Button):
            out.append(Shown(f"{where} button", inner.label or ""))
        elif isinstance(inner, discord.ui.Select):
            out.append(Shown(f"{where} select", inner.placeholder or ""))
            for option in inner.options:
                out.append(Shown(f"{where} option", option.label))
                if option.description:
                    out.append(Shown(f"{where} option", option.description))
    return [s for s in out if s.text]


def navs(items: list[discord.ui.Item[Any]]) -> list[str]:
    """The panel-only steps offered: "nav-…" buttons and a "nav-" select's options (GiftTRAP's)."""
    found = []
    for item in items:
        inner = getattr(item, "item", item)
        custom_id = str(getattr(inner, "custom_id", "") or "")
        action = custom_id.split(":", 3)[-1] if custom_id.startswith(("ga:", "gs:")) else ""
        if action.startswith("nav-") and custom_id.startswith("ga:"):
            found.append(action[4:])
        elif action.startswith("nav-"):
            found += [action[4:] + str(o.value) for o in getattr(inner, "options", [])]
    return found


@dataclass
class Reading:
    """Everything read in one game, and what it held (so a check is known to have had work)."""

    key: str
    lines: list[Shown] = field(default_factory=list)
    actions: int = 0
    # Every message drawn, as sent (a V2 layout: cogs/table/layout.py), for tests/e2e/test_v2_limits.py.
    drawings: list[tuple[str, Drawing]] = field(default_factory=list)

    def text(self) -> str:
        return "\n".join(s.text for s in self.lines)


class Reader:
    """Plays one game by self-play and reads every drawing after every action, as the spine
    would draw them (table message, panels, pings, posts, status, History)."""

    def __init__(self, key: str, players: int, options: dict[str, Any], seed: int, panels_every: int) -> None:
        self.key, self.players, self.seed = key, players, seed
        self.game = get_game(key)
        self.options = options
        self.ui = ui_class(key)()
        self.referee = Referee(None, None, Scheduler())  # type: ignore[arg-type]  # draws only
        self.referee.register(self.ui)
        self.drawing = self.referee.drawing
        self.reading = Reading(key)
        self.panels_every = panels_every
        levels = self.game.computer_levels
        # People and computers alternate, people first: the host is a person.
        self.seats = [
            SeatInfo(s, USER_BASE + s, PEOPLE[s])
            if s % 2 == 0
            else SeatInfo(s, None, f"Robo {s // 2 + 1} ({levels[0]})", computer_level=levels[0])
            for s in range(players)
        ]
        self.table = Table(
            id=17, guild_id=1, channel_id=2, game=self.game, host_id=USER_BASE,
            settings={"seats": players, "rules": options}, speed="relaxed", seed=seed, seats=self.seats,
        )  # fmt: skip

    def read(self, where: str, lines: list[Shown]) -> None:
        self.reading.lines += [replace(s, where=f"{self.key} {s.where or where}") for s in lines]

    def drawn(self, where: str, drawing: Drawing) -> Drawing:
        """A message as it is sent: kept, and its pictures' alt text read like any text."""
        self.reading.drawings.append((f"{self.key} {where} v{self.table.version}", drawing))
        self.read(where, [Shown(f"{where} alt text", p.alt) for p in drawing.pictures])
        return drawing

    def play(self) -> Reading:
        table = self.table
        self.read("lobby", embed_lines(self.drawing.lobby.embed(table), "lobby"))
        self.read("lobby", item_lines(self.drawing.lobby.items(table), "lobby"))
        self.drawn("lobby", self.drawing.draw(table))
        self.read("thread line", [Shown("thread line", self.drawing.thread_line(table))])
        started = [False]

        def on_action(state: State[Any], _seat: int | None, _action: str, events: list[Event]) -> None:
            if not started[0]:
                started[0] = True
                self.start()
            self.after(state, events)

        record = play_game(
            self.game, self.players, self.options, self.seed, list(self.game.computer_levels[:1]),
            on_action=on_action,
        )  # fmt: skip
        assert record.state.is_over(), f"the {self.key} game did not finish"
        self.finish()
        return self.reading

    def start(self) -> None:
        """Start: the same deal self-play starts from (same seed), with its opening news."""
        table = self.table
        table.state = self.game.new_game(self.players, table.options, self.seed)
        opening = list(getattr(table.state, "opening_events", []))
        table.status = "playing"
        table.add_log([f"The game begins with {self.players} players."] + [self.line(e) for e in opening])
        hook = getattr(self.ui, "on_change", None)
        if hook is not None:
            hook(table, opening)
        self.draw_all(opening)
        self.read("thread line", [Shown("thread line", self.drawing.thread_line(table))])

    def line(self, event: Event) -> str:
        return str(self.ui.event_line(self.table, event))

    def after(self, state: State[Any], events: list[Event]) -> None:
        table = self.table
        table.state = state
        table.version += 1
        self.reading.actions += 1
        hook = getattr(self.ui, "on_change", None)  # the spine's hook after a commit (Trap's record)
        if hook is not None:
            hook(table, events)
        deal = next((i for i, e in enumerate(events) if e.kind == "deal"), None)
        lines = [self.line(e) for e in (events if deal is None else events[deal:])]
        table.add_log(lines, fresh=deal is not None)
        self.read("event", [Shown("event line", text) for text in lines])
        quiet = state.quiet_actions()
        seconds = table.timer_seconds(quiet[0].timer) if quiet else None
        table.deadline_at = NOW + timedelta(seconds=seconds) if seconds is not None else None
        table.deadline_action = quiet[0].action if quiet and seconds is not None else None
        for event in events:
            if event.kind == "round_over":
                self.read("round post", embed_lines(self.ui.round_embed(table, event), "round post"))
        if state.is_over():
            table.status = "finished"
        else:
            self.draw_all(events)

    def draw_all(self, events: list[Event]) -> None:
        table = self.table
        announce = getattr(self.ui, "announcements", None)
        if announce is not None:
            # A ping is a text, or an announcement carrying its text (and whom it pings).
            pings = [str(getattr(a, "text", a)) for a in announce(table, events)]
            self.read("ping", [Shown("ping", text, pings=True) for text in pings])
        self.read("table", embed_lines(self.drawing.table_embed(table), "table"))
        self.read("table", item_lines(self.drawing.table_items(table), "table"))
        self.drawn("table", self.drawing.draw(table))
        status = self.drawn("/table status", self.drawing.status_drawing(table))
        self.read(
            "status",
            [
                *embed_lines(status.embed, "/table status"),
                Shown("/table status", self.drawing.waiting_text(table), field="Waiting on"),
            ],
        )
        if table.version % self.panels_every == 0 or table.version < 3:
            self.read_panels()
            history = getattr(self.ui, "history", None)
            if history is not None:
                self.read("history", [Shown("History", line) for line in history(table).splitlines()])

    def read_panels(self) -> None:
        table = self.table
        for seat in (s.seat for s in table.seats if not s.is_computer):
            panel = self.drawn("panel", self.drawing.panel(table, seat, None, None))
            self.read("panel", embed_lines(panel.embed, "panel") + item_lines(panel.items, "panel"))
            steps = navs(panel.items)
            for _depth in range(3):  # the steps a panel's own buttons lead to (a pile's three cards)
                deeper: list[str] = []
                for nav in steps[:6]:
                    step = self.drawn("panel step", self.drawing.panel(table, seat, None, nav))
                    self.read(
                        "panel step",
                        embed_lines(step.embed, "panel step") + item_lines(step.items, "panel step"),
                    )
                    deeper += [n for n in navs(step.items) if n != nav and n.startswith(nav)]
                steps = deeper

    def finish(self) -> None:
        table = self.table
        self.read("final post", embed_lines(self.ui.final_embed(table), "final post"))
        self.read("final table", embed_lines(self.drawing.table_embed(table), "final table"))
        self.read("final table", item_lines(self.drawing.table_items(table), "final table"))
        self.drawn("final table", self.drawing.draw(table))
        for file in self.drawing.files(table):
            if file.filename.endswith(".txt"):
                fp = file.fp
                assert isinstance(fp, io.IOBase)
                text = bytes(fp.read()).decode()  # type: ignore[arg-type]
                self.read("file", [Shown(f"file {file.filename}", line) for line in text.splitlines()])
        history = getattr(self.ui, "history", None)
        if history is not None:
            self.read("history", [Shown("final History", line) for line in history(table).splitlines()])
        self.read("thread line", [Shown("thread line", self.drawing.thread_line(table))])
        stopped = replace(table, status="stopped", closed_note=note("stopped_by", name=PEOPLE[0]))
        closed = self.drawn("stopped table", self.drawing.draw(stopped))
        self.read("stopped table", embed_lines(closed.embed, "stopped table"))


def read_game(
    key: str, players: int, options: dict[str, Any], seed: int, *, panels_every: int = 1
) -> Reading:
    return Reader(key, players, options, seed, panels_every).play()


# --- the games -----------------------------------------------------------------------------------

GAMES = [
    ("zipzap", 3, {"rounds": 2}, 3, 1),
    ("zipzap", 2, {"rounds": 1, "scoring": "first_out"}, 5, 1),
    ("zaptrap", 4, {"target": 3}, 4, 2),
    ("zaptrap", 3, {"target": 2, "preset": "kemps"}, 6, 2),
    ("spytrap", 3, {}, 11, 1),
    ("spytrap", 4, {"round_limit": 5}, 12, 2),
    ("gifttrap", 4, {"track_length": 8}, 7, 3),
    ("gifttrap", 3, {"track_length": 5, "strategy_cards": False}, 2, 3),
    ("trap", 2, {"quick_setup": True}, 3, 2),
    ("trap", 2, {"variant": "king", "size": 6}, 4, 8),
]


@pytest.mark.parametrize(("key", "players", "options", "seed", "every"), GAMES)
def test_no_text_in_a_whole_game_has_a_slip(
    key: str, players: int, options: dict[str, Any], seed: int, every: int
) -> None:
    reading = read_game(key, players, options, seed, panels_every=every)
    assert reading.actions > 10 and len(reading.lines) > 500, (reading.actions, len(reading.lines))
    found = [str(s) for s in slips(reading.lines)]
    assert found == [], "\n".join(found[:40])


def test_the_games_showed_what_the_checks_look_for() -> None:
    """A check that never meets its subject proves nothing: over these games the texts did show
    singular and plural counts, negative numbers, names at the start of lines, pings and the
    waiting line, all of which the checks above judged."""
    texts = {key: read_game(key, p, o, s, panels_every=e) for key, p, o, s, e in GAMES[::2]}
    every = "\n".join(r.text() for r in texts.values())
    assert re.search(rf"(?<![\w.,+−-])1 (?:{NOUNS})\b", every) and re.search(
        rf"\b[2-9] (?:{NOUNS})s\b", every
    )
    assert "−" in texts["gifttrap"].text()  # negative numbers were shown
    assert any(s.pings for r in texts.values() for s in r.lines)
    assert any(s.field == "Waiting on" for r in texts.values() for s in r.lines)
    assert re.search(r"^\*\*alice\*\* ", every, re.M)  # lines that start with a name


# --- each check can fail --------------------------------------------------------------------------

CAUGHT = {
    "count": ["— 1 cards", "hand 2 card", "1 rounds played", "Turn 3 · 1 moves without a capture"],
    "double space": ["alice  🛡️", "**alice**  went out"],
    "hyphen for minus": ["NO WAY −4 — GET -4, GIVE -4", "GET 5 (-2)"],
    "raw id": [f"1. **alice** · <@{USER_BASE}>", f"alice ({USER_BASE})", "seat 3 draws a card"],
    "repr or custom_id": ["Top card: None", "['R4', 'G5']", "Seat(seat=0)", "ga:17:4:R4", "nav-p_c3"],
    "names nobody": ["Waiting on: ", "**** went out", " is ready.", "**nobody** went out — Zip Zap!", "by ."],
    "range to itself": ["Raise (12 to 12) or pass on the table.", "bid from 3 to 3"],
    "jargon": ["Ply 68 · 34/100 plies without a capture"],
}
SIX = ["count", "double space", "hyphen for minus", "raw id", "repr or custom_id", "names nobody"]
FINE = [
    "1 card",
    "12 cards · 3 points",
    "Raise to 12 or pass on the table.",
    "GREAT +3 → 3. 🧸",
    "NO WAY −4 — GET −4, GIVE −4",
    "c3>c4 · a1–e5",
    "Pile building ends <t:1767225600:R>",
    "**alice** went out in the final round.",
    "anyone: play as soon as you can",
    "nobody: the referee unwraps the gifts one by one",
]


@pytest.mark.parametrize("kind", list(CHECKS))
def test_each_check_catches_the_slips_it_is_for(kind: str) -> None:
    """Each class's check flags the slips quoted in issue 21 (and ones like them) and passes the
    fixed texts: seen to fail by each of the CAUGHT lines, one by one."""
    for text in CAUGHT[kind]:
        field = "Waiting on" if text.startswith("Waiting") else ""
        assert kind in {s.kind for s in slips([Shown("test", text, field=field)])}, text
    for text in FINE:
        assert slips([Shown("test", text, field="Waiting on" if "anyone" in text else "")]) == [], text


def _broken(monkeypatch: pytest.MonkeyPatch, kind: str) -> tuple[str, int, dict[str, Any], int]:
    """Break one renderer the way issue 21 found it broken, or as close as a patch can; returns
    the game to play."""
    # The modules the renderers run in now: discord.py's load_extension (in the e2e tests that ran
    # before) puts fresh module objects in sys.modules, which ``import cogs.x`` would not see.
    gifttrap, spytrap, zipzap = (import_module(f"cogs.{key}") for key in ("gifttrap", "spytrap", "zipzap"))
    gifttrap_words = import_module("cogs.words.gifttrap")  # GiftTRAP's events, refusals and result

    if kind == "count":  # Zip Zap's counts always in the plural form, whatever the number
        plural = lambda singular, many, n, /, **params: many.format(n=n, **params)  # noqa: E731
        monkeypatch.setattr(zipzap.T, "ngettext", plural)
        return "zipzap", 3, {"rounds": 2}, 3
    if kind == "hyphen for minus":  # GiftTRAP's old f"{n:+d}"
        for module in (gifttrap, gifttrap_words):  # the round's embed, and the unwrapped gifts' lines
            monkeypatch.setattr(module, "signed", lambda n: f"{n:+d}")
        return "gifttrap", 4, {"track_length": 8}, 7
    if kind == "double space":  # the old "alice  🛡️" join, on the pile line
        real = spytrap.SpyTrapUI._status
        monkeypatch.setattr(
            spytrap.SpyTrapUI, "_status", lambda self, t, v: real(self, t, v).replace(" ", "  ", 1)
        )
        return "spytrap", 3, {}, 11
    if kind == "raw id":  # the lobby's old "<@id>" beside each name, everywhere a name is shown
        monkeypatch.setattr(
            Table, "name", lambda self, seat: "The referee" if seat is None else f"<@{USER_BASE + seat}>"
        )
        return "trap", 2, {"quick_setup": True}, 3
    if kind == "repr or custom_id":  # a card shown by its Python repr
        monkeypatch.setattr(spytrap, "card_label", lambda card: repr([card]))
        return "spytrap", 3, {}, 11
    # "names nobody": the dealer's name missing
    monkeypatch.setattr(Table, "name", lambda self, seat: "" if seat == 1 else "alice")
    return "gifttrap", 4, {"track_length": 8}, 7


@pytest.mark.parametrize("kind", SIX)
def test_a_broken_renderer_is_caught(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole-game scan, on a deliberately broken renderer: it must report that class."""
    key, players, options, seed = _broken(monkeypatch, kind)
    reading = read_game(key, players, options, seed, panels_every=3)
    assert kind in {s.kind for s in slips(reading.lines)}


# --- the texts issue 21 quoted, one by one ----------------------------------------------------------


def test_a_raise_with_one_bid_left_names_that_bid() -> None:
    """ "Raise (12 to 12) or pass on the table." (quoted in issue 21) now reads "Raise to 12"."""
    from cogs.spytrap import SpyTrapUI

    table = Reader("spytrap", 3, {}, 11, 1).table
    ui = SpyTrapUI()
    view: Any = {"min_bid": 12, "max_bid": 12, "high_bidder": 1, "high_bid": 11}
    # Bids are made in the bidder's panel only (issue 33: one way to do one thing).
    assert "Raise to 12 or pass in" in ui._turn_text(table, view, "bid")
    view |= {"max_bid": 14}
    assert "Raise (12 to 14) or pass in" in ui._turn_text(table, view, "bid")
    view |= {"high_bidder": None, "min_bid": 3, "max_bid": 3}
    assert "bid 3 in" in ui._turn_text(table, view, "bid")


def test_zip_zaps_finished_table_says_who_went_out_in_the_final_round() -> None:
    """ "alice went out last round." on a finished game (quoted in issue 21) read as the round
    before the last."""
    reading = read_game("zipzap", 3, {"rounds": 2}, 3)
    final = [s.text for s in reading.lines if s.where == "zipzap final table"]
    assert any("went out in the final round." in line for line in final), final
    assert "last round" not in reading.text()
