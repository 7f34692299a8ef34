"""The render level: whole recorded games of the five titles replayed through the referee's real
code, recording the JSON body of everything it would send to Discord.

A real ``Referee`` (spine, entry, lifecycle, drawing, panels, messages, announcer) is built with no
Discord and no database: the store is a stub that accepts every write, the scheduler's clock is a
virtual one, pictures are not drawn (``Unpainted``: each picture keeps its file name and alt text,
with no bytes), and what would reach Discord is caught where the referee hands it over (a post, a
line edit, an interaction's answer) and turned into the JSON body discord.py would send
(payloads.py). The game is driven as people drive it: the lobby is opened with ``open_table``,
people press **Join**, the host adds computers and presses **Start**, and every recorded action is
applied through ``Spine.act`` (Trap's people type theirs, ``/trap move``, through
``Entry.command_action``); at sampled moments each person presses **My hand**, follows the panel's
navigation buttons, presses a few illegal actions (the refusal they are shown), asks for
``/table status`` and the History, and the table message is drawn as the referee would edit it.

Each case's actions were recorded once by self-play (``rules.selfplay.play_game``) and are kept
with its golden data: the test replays them, so a change in how computers play does not move the
golden data; only a change in what people read does (or in the rules, which the replay reports).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord

from cogs.gifttrap import GiftTrapUI
from cogs.help import FullRulesButton, HelpCog, send_rules
from cogs.spytrap import SpyTrapUI
from cogs.table.common import NOBODY
from cogs.table.layout import Picture
from cogs.table.lifecycle import open_table_command
from cogs.table.messages import Post, table_message
from cogs.table.model import Table
from cogs.table.panels import over_drawing, panel_message
from cogs.table.pictures import Sketch
from cogs.table.referee import Referee
from cogs.table.scheduler import Scheduler
from cogs.tables import TablesCog
from cogs.texts import speaking
from cogs.trap import TrapUI
from cogs.zaptrap import ZapTrapUI
from cogs.zipzap import ZipZapUI
from db.ratings import ShownRating
from db.store import RatingChange
from rules import GAMES
from rules.base import Event, IllegalAction, State
from rules.selfplay import play_game
from tests.e2e.golden import RENDER, dumps, read
from tests.e2e.golden.payloads import JSON, FakeInteraction, channel_send, invoke, message_edit, run

GUILD = 1
CHANNEL = 2
TABLE = 3
FIRST_USER = 1000
FIRST_MESSAGE = 5000
# The virtual clock: the lobby opens at EPOCH, and each change comes STEP_SECONDS after the last
# (a Discord timestamp in the text, "<t:…:R>", is then the same every run).
EPOCH = datetime(2030, 1, 1, 12, tzinfo=UTC)
STEP_SECONDS = 7
# A Discord app locale of each language (tests/e2e/test_no_english_left.py plays in each).
LOCALES = {"es": "es-ES", "de": "de", "pt_BR": "pt-BR", "pl": "pl"}
NAMES = ("alice", "bob", "carol", "dan", "erin", "fay", "gus", "hana")
NONSENSE = "xyzzy"  # an action no game knows
NAVS_PER_PANEL = 2

Record = dict[str, Any]


@dataclass(frozen=True)
class Case:
    """One recorded game: who sits, with which options, and how its actions were made."""

    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    levels: tuple[str, ...]  # the computer levels that played it in self-play (seat order, repeated)
    speed: str = "relaxed"
    computers: int = 0  # the last seats are computer players at the table (no panels, no pings)
    names: tuple[str, ...] = NAMES
    samples: int = 14  # moments drawn in full, spread over the game (more where something new happens)
    timers: dict[str, float] = field(default_factory=dict)


CASES: tuple[Case, ...] = (
    Case("zipzap-2p-cards", "zipzap", 2, 3, {"rounds": 2}, ("sharp", "casual")),
    Case(
        "zipzap-4p-first-out",
        "zipzap",
        4,
        5,
        {"scoring": "first_out", "rounds": 2},
        ("casual", "sharp"),
        speed="fast",
        computers=1,
        names=("alice", "b_o*b", "Zoë ✨"),  # names are escaped in markdown, shown as typed in labels
    ),
    Case("zaptrap-4p-teams", "zaptrap", 4, 6, {}, ("sharp", "casual")),
    Case(
        "zaptrap-3p-classic",
        "zaptrap",
        3,
        4,
        {"preset": "kemps", "target": 4},
        ("sharp", "casual"),
        speed="off",
    ),
    Case(
        "zaptrap-5p-dealer",
        "zaptrap",
        5,
        2,
        {"target": 3, "lull": "dealer", "refuse_wrong_targets": True},
        ("sharp", "casual"),
        computers=1,
        timers={"lull": 20.0},
    ),
    Case("spytrap-3p", "spytrap", 3, 11, {}, ("sharp", "casual")),
    Case("spytrap-5p", "spytrap", 5, 12, {"round_limit": 12}, ("casual", "sharp"), speed="fast", computers=1),
    Case("gifttrap-4p-track-8", "gifttrap", 4, 7, {"track_length": 8}, ("thoughtful", "casual")),
    Case(
        "gifttrap-3p-no-cards",
        "gifttrap",
        3,
        7,
        {"track_length": 12, "strategy_cards": False},
        ("casual", "thoughtful"),
        speed="off",
    ),
    Case(
        "gifttrap-7p-track-5",
        "gifttrap",
        7,
        3,
        {"track_length": 5},
        ("casual",),
        computers=2,
        names=("alice", "bob", "carol <@1>", "@everyone", "**erin**"),
        samples=12,
    ),
    Case("trap-5-quick", "trap", 2, 3, {"quick_setup": True}, ("medium", "easy")),
    Case("trap-5-basic", "trap", 2, 5, {}, ("easy", "medium"), speed="fast"),
    Case("trap-6-king", "trap", 2, 4, {"variant": "king", "size": 6}, ("medium", "easy"), computers=1),
)


def record_actions(case: Case) -> list[list[Any]]:
    """The case's game, played by computers (self-play): its actions as [seat, action] pairs."""
    game = GAMES[case.game]
    played = play_game(game, case.players, case.options, case.seed, list(case.levels))
    assert played.state.is_over(), f"{case.id}: self-play did not finish"
    return [[seat, action] for seat, action in played.actions]


# --- the referee's surroundings, without Discord or a database --------------------------------------


class Clock:
    def __init__(self) -> None:
        self.at = EPOCH

    def now(self) -> datetime:
        return self.at

    def tick(self) -> None:
        self.at += timedelta(seconds=STEP_SECONDS)


class Unpainted:
    """The pictures of a drawing without drawing them: each sketch's file name and alt text (what a
    person reads), no bytes (what Pillow paints is not text, and drawing them would take minutes)."""

    async def ready(self, sketches: list[Sketch], *, for_click: bool = False, counted: bool = True) -> None:
        return None

    def foresee(self, sketches: list[Sketch]) -> None:
        return None

    def unavailable(self, sketches: list[Sketch]) -> list[str]:
        return []  # nothing is drawn, so no drawing fails

    def pictures(self, sketches: list[Sketch]) -> list[Picture]:
        return [Picture(s.filename, b"", s.alt, small=s.small) for s in sketches]

    def shutdown(self) -> None:
        return None


class Store:
    """Takes every write; the ratings under the results are made up (the numbers are not words:
    the Discord-level sessions show real ones), one of each sign."""

    def __init__(self) -> None:
        self.table: Table | None = None

    async def create_table(self, **_: Any) -> int:
        return TABLE

    async def set_table_message(self, *_: Any) -> None:
        return None

    async def write(self, *_: Any, **__: Any) -> None:
        return None

    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        table = self.table
        assert table is not None and table.state is not None
        result = table.state.result()
        assert result is not None
        changes = []
        for p in sorted(result.placements, key=lambda p: (p.place, p.seat)):
            seat = table.seats[p.seat]
            if seat.user_id is None:
                continue
            after = 1500 + 16 * (2 - p.place)  # +16, ±0, −16, −32…
            changes.append(
                RatingChange(
                    p.seat, seat.user_id, seat.chosen_name, p.place, seat.left_at is not None,
                    ShownRating(1500, True), ShownRating(after, after > 1500),
                )
            )  # fmt: skip
        return changes


@dataclass
class Message:
    id: int
    ephemeral: bool = False

    @property
    def flags(self) -> SimpleNamespace:
        return SimpleNamespace(ephemeral=self.ephemeral)


@dataclass
class User:
    id: int
    display_name: str
    guild_permissions: Any = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


class Channel:
    """The table's channel, as ``open_table`` posts the lobby to it (the table's later posts go
    through ``TableMessages``): what is sent is kept, as the JSON body of the call."""

    def __init__(self, sink: Callable[[str, JSON], None], ids: Iterator[int]) -> None:
        self.id = CHANNEL
        self._sink = sink
        self._ids = ids

    async def send(self, **kwargs: Any) -> Message:
        self._sink("lobby", channel_send(**kwargs))
        return Message(next(self._ids))


# --- one case, replayed -----------------------------------------------------------------------------


class Replay:
    def __init__(self, case: Case, language: str | None = None) -> None:
        """``language``: the table's (the `language` option of `/… new`), which every person's
        Discord app speaks too; None: the English golden data, made with no language given."""
        self.case = case
        self.language = language
        self.locale = discord.Locale(LOCALES[language]) if language is not None else None
        self.game = GAMES[case.game]
        self.clock = Clock()
        self.step = 0
        self.records: list[Record] = []
        self.ids = iter(range(FIRST_MESSAGE, FIRST_MESSAGE + 10**6))
        scheduler = Scheduler()
        scheduler.now = self.clock.now  # type: ignore[method-assign]
        self.store = Store()
        self.referee = Referee(None, self.store, scheduler)  # type: ignore[arg-type]
        spine = self.spine = self.referee.spine
        trap = TrapUI()
        for ui in (ZipZapUI(), ZapTrapUI(), SpyTrapUI(), GiftTrapUI(), trap):
            spine.register(ui)
        spine.on_change.append(trap.on_change)  # as the Trap cog does
        spine.on_change.append(self.on_change)
        spine.drawing.art = Unpainted()  # type: ignore[assignment]
        # What would reach Discord, caught where the referee hands it over.
        spine.messages.spawn = run  # type: ignore[method-assign, assignment]
        spine.messages._queue = self._queue  # type: ignore[method-assign]
        spine.messages.edit_line = self._edit_line  # type: ignore[method-assign]
        spine.messages.delete_line = self._delete_line  # type: ignore[method-assign]
        spine.messages.request = lambda table: None  # type: ignore[method-assign]  # drawn at samples
        spine.computers.plan = lambda table: None  # type: ignore[method-assign]  # the recording plays
        self.referee.lifecycle.new_seed = lambda: case.seed
        self.channel = Channel(self.keep, self.ids)
        self.users = [User(FIRST_USER + s, case.names[s]) for s in range(case.players - case.computers)]
        self.table: Table | None = None
        self.vocabulary: set[str] = set()  # every action the game is known to take
        self.changed: list[Event] | None = None  # the latest change's events
        self.draws = 0  # moments drawn in full so far
        self.tables_cog = TablesCog(SimpleNamespace(referee=self.referee))  # `/table status`

    # --- what is sent -------------------------------------------------------------------------

    def keep(self, surface: str, data: Any) -> None:
        self.records.append({"case": self.case.id, "step": self.step, "surface": surface, "data": data})

    async def _queue(self, table: Table, post: Post) -> discord.Message | None:
        """TableMessages._send_posts, without Discord: the post as sent, and it lands."""
        self.keep("post", channel_send(allowed_mentions=post.allowed, **post.kwargs))
        if post.landed is not None:
            post.landed(Message(next(self.ids)))  # type: ignore[arg-type]
        return None

    async def _edit_line(self, table: Table, message_id: int, text: str) -> bool:
        """TableMessages.edit_line: the announcement line edited in place."""
        self.keep("line-edit", message_edit(content=text, allowed_mentions=NOBODY))
        return True

    async def _delete_line(self, table_id: int, channel_id: int, message_id: int) -> None:
        """TableMessages.delete_line: a turn line a newer, pinging one replaced."""
        self.keep("line-delete", {"message_id": message_id})

    def on_change(self, table: Table, events: list[Event]) -> None:
        """Every change's events, as the lines the table logs (the start's opening ones too)."""
        self.changed = list(events)
        self.keep("events", [self.spine.line(table, e) for e in events])

    def interaction(self, user: User | None, message: Message | None = None) -> FakeInteraction:
        who = user or User(FIRST_USER + 99, "zed")  # someone watching, not seated
        return FakeInteraction(
            client=SimpleNamespace(referee=self.referee), id=next(self.ids), user=who, message=message,
            channel_id=CHANNEL, guild_id=GUILD, locale=self.locale,
        )  # fmt: skip

    def answer(self, surface: str, interaction: FakeInteraction) -> None:
        for body in interaction.sent:
            self.keep(surface, body)

    # --- the game -----------------------------------------------------------------------------

    def play(self, actions: list[list[Any]]) -> list[Record]:
        case = self.case
        self.open_lobby()
        table = self.table
        assert table is not None
        self.step = 1
        self.clock.tick()
        host = self.interaction(self.users[0], Message(table.table_message_id or 0))
        run(self.referee.entry.on_table_button(host.typed, table.id, "start", None))
        self.answer("start", host)
        self.store.table = table
        assert table.status == "playing" and table.state is not None, "the game did not start"
        sampled = self.sampled(actions)
        self.draw_all()
        kinds: set[str] = set()
        for seat, action in actions:
            self.step += 1
            self.clock.tick()
            events = self.act(seat, action)
            new = {e.kind for e in events} - kinds
            kinds |= new
            if self.step in sampled or new or table.status != "playing":
                self.draw_all()
        assert table.status == "finished", f"{case.id}: the recorded actions did not finish the game"
        self.after_the_end()
        return self.records

    def sampled(self, actions: list[list[Any]]) -> set[int]:
        """The steps drawn in full besides those where something new happens: spread evenly."""
        every = max(1, len(actions) // self.case.samples)
        return {2 + i for i in range(0, len(actions), every)}

    def open_lobby(self) -> None:
        """`/<game> new` by the host (what every game's command calls), the rules asked in the
        lobby, the others' **Join** and the host's computers, each answered with the lobby."""
        case = self.case
        host = self.users[0]
        opener = self.interaction(host)
        opener.channel = self.channel
        rules = self.game.options_to_json(self.game.parse_options(case.options))
        run(
            open_table_command(
                opener.typed, case.game, seats=case.players, speed=case.speed, rules=rules, thread=False,
                timers=dict(case.timers) or None,
                **({"language": self.language} if self.language is not None else {}),
            )
        )  # fmt: skip
        self.answer("opened", opener)
        table = self.table = self.spine.table_in(CHANNEL)
        assert table is not None and table.table_message_id is not None, f"{case.id}: no lobby"
        lobby = Message(table.table_message_id)
        self.rules()
        for user in self.users[1:]:
            click = self.interaction(user, lobby)
            run(self.referee.entry.on_table_button(click.typed, table.id, "join", None))
            self.answer("join", click)
        for n in range(case.computers):
            level = self.game.computer_levels[n % len(self.game.computer_levels)]
            click = self.interaction(host, lobby)
            run(self.referee.entry.on_table_button(click.typed, table.id, "cpu", level))
            self.answer("add-computer", click)

    def rules(self) -> None:
        """`/<game> rules` at this table (its options, its seats), and its Full rules button."""
        asked = self.interaction(self.users[0])
        run(send_rules(asked.typed, self.game))
        self.answer("rules", asked)
        full = self.interaction(self.users[0])
        run(FullRulesButton(self.game.key).callback(full.typed))
        self.answer("full-rules", full)

    def act(self, seat: int | None, action: str) -> list[Event]:
        """One recorded action, as its seat takes it: a person's by their click (Trap's people
        type theirs), a computer's or the referee's (a timer) by the spine itself."""
        table = self.table
        assert table is not None
        person = self.person(seat)
        self.changed = None
        if person is not None and self.case.game == "trap":
            typed_move = self.interaction(person)
            run(self.referee.entry.command_action(typed_move.typed, action))
            self.answer("typed", typed_move)
        else:
            run(table.lock.acquire())
            try:
                run(self.spine.act(table, seat, action, person.id if person else None))
            finally:
                table.lock.release()
        assert self.changed is not None, f"{self.case.id}: {action!r} by seat {seat} was not taken"
        return self.changed

    def person(self, seat: int | None) -> User | None:
        table = self.table
        assert table is not None
        if seat is None or table.seats[seat].user_id is None:
            return None
        return next(u for u in self.users if u.id == table.seats[seat].user_id)

    # --- everything drawn at a sampled moment ---------------------------------------------------

    def draw_all(self) -> None:
        """The table message as the referee edits it; and while the game is on, every person's
        **My hand** and the refusals of a few illegal actions, and for one person in turn (a
        different one each time) the panel's own steps and a refusal on the panel (the panel, with
        the reason); every other time, `/table status` and the History."""
        table = self.table
        assert table is not None
        drawing = self.spine.drawing.draw(table)
        self.keep("table", message_edit(**table_message(drawing), allowed_mentions=NOBODY))
        if table.status != "playing":
            return
        people = [seat for seat in range(len(table.seats)) if self.person(seat) is not None]
        focus = people[self.draws % len(people)]
        for seat in people:
            self.panels(seat, focus=seat == focus)
        if self.draws % 2 == 0:
            asked = self.interaction(self.users[0])
            invoke(TablesCog.status, self.tables_cog, asked)
            self.answer("status", asked)
            if getattr(self.spine.uis[table.game.key], "history", None) is not None:
                watcher = self.interaction(None, Message(table.table_message_id or 0))
                run(self.referee.entry.on_table_button(watcher.typed, table.id, "history", None))
                self.answer("history", watcher)
        self.draws += 1

    def panels(self, seat: int, *, focus: bool) -> None:
        """**My hand**, and a few illegal actions pressed as public buttons (the refusal is the
        answer); in ``focus``, also each panel-only step the panel offers (one deep, a few) and the
        first illegal action clicked on the panel (the panel answers, with the reason)."""
        table = self.table
        user = self.person(seat)
        assert table is not None and user is not None
        hand = self.interaction(user, Message(table.table_message_id or 0))
        run(self.referee.entry.on_table_button(hand.typed, table.id, "hand", None))
        self.answer(f"panel:{seat}", hand)
        refused = self.illegal(seat, nonsense=focus)
        for action in refused:
            pressed = self.interaction(user, Message(table.table_message_id or 0))
            run(self.referee.entry.on_table_button(pressed.typed, table.id, "act", action))
            self.answer(f"refusal:{seat}:{action}", pressed)
        if focus:
            panel = Message(next(self.ids), ephemeral=True)
            for nav in navs(hand.sent)[:NAVS_PER_PANEL]:
                click = self.interaction(user, panel)
                run(self.referee.entry.on_action_button(click.typed, table.id, table.version, nav))
                self.answer(f"panel:{seat}:{nav}", click)
            for action in refused[:1]:
                click = self.interaction(user, panel)
                run(self.referee.entry.on_action_button(click.typed, table.id, table.version, action))
                self.answer(f"refused:{seat}:{action}", click)
        self.spine.panels.forget(table.id, seat)

    def illegal(self, seat: int, *, nonsense: bool) -> list[str]:
        """Up to three actions the engine refuses from ``seat`` now: the first another seat may
        take now (out of turn, or someone else's choice), one of every action the game is known to
        take (picked at random, seeded), and with ``nonsense`` one no game knows. Which ones
        depends only on what is legal, never on the reasons' words, so a rewording cannot change
        the choice; each is tried on a copy first, so nothing legal ever reaches the table."""
        table = self.table
        assert table is not None and table.state is not None
        state = table.state
        legal = set(state.legal_actions(seat))
        others = [a for s in range(len(table.seats)) if s != seat for a in state.legal_actions(s)]
        known = sorted(self.vocabulary - legal)
        random.Random(f"{self.case.id}:{self.step}:{seat}").shuffle(known)
        found: list[str] = []
        probe = self.copy(state)
        for group in ([a for a in others if a not in legal], known, [NONSENSE] if nonsense else []):
            for action in group:
                if action in found:
                    continue
                try:
                    probe.apply(seat, action)
                except IllegalAction:
                    found.append(action)
                    break
                probe = self.copy(state)  # legal after all (not listed): never sent to the table
        return found

    def copy(self, state: State[Any]) -> State[Any]:
        copied: State[Any] = self.game.from_json(state.to_json())
        return copied

    def after_the_end(self) -> None:
        """The finished table: a panel's last word, the buttons that no longer play, History."""
        table = self.table
        assert table is not None
        self.keep("panel-over", message_edit(**panel_message(over_drawing()), allowed_mentions=NOBODY))
        user = self.users[-1]
        late = self.interaction(user, Message(table.table_message_id or 0))
        run(self.referee.entry.on_table_button(late.typed, table.id, "hand", None))
        self.answer("hand-after-the-end", late)
        stale = self.interaction(user, Message(next(self.ids), ephemeral=True))
        run(self.referee.entry.on_action_button(stale.typed, table.id, table.version - 1, "refresh"))
        self.answer("click-after-the-end", stale)
        if getattr(self.spine.uis[table.game.key], "history", None) is not None:
            watcher = self.interaction(None, Message(table.table_message_id or 0))
            run(self.referee.entry.on_table_button(watcher.typed, table.id, "history", None))
            self.answer("history", watcher)


def navs(answers: list[JSON]) -> list[str]:
    """The panel-only steps ("nav-…") a panel's answer offers, enabled only, in order: its buttons'
    actions, and each select's first choice that is a step."""
    found: list[str] = []

    def walk(components: list[JSON]) -> None:
        for c in components:
            custom_id = str(c.get("custom_id") or "")
            if c.get("type") == 2 and not c.get("disabled"):
                action = custom_id.split(":", 3)[3] if custom_id.startswith("ga:") else ""
                if action.startswith("nav-"):
                    found.append(action)
            elif c.get("type") == 3 and custom_id.startswith("gs:") and c.get("options"):
                prefix = custom_id.split(":", 3)[3]
                # The first choice that is a step (Trap's selects mix actions and steps: a page).
                steps = [prefix + str(o["value"]) for o in c["options"]]
                found.extend([a for a in steps if a.startswith("nav-")][:1])
            walk(c.get("components") or [])
            if isinstance(c.get("accessory"), dict):
                walk([c["accessory"]])

    for body in answers:
        walk((body.get("data") or body).get("components") or [])
    return list(dict.fromkeys(found))


def render_case(case: Case, actions: list[list[Any]], language: str | None = None) -> list[Record]:
    replay = Replay(case, language)
    replay.vocabulary = {str(a) for _, a in actions}
    # The real bot sets each interaction's task to its person's language where the interaction
    # comes in (the command tree's check, every button's ``Spoken``), which this replay calls
    # past; every person here speaks the table's language.
    with speaking(language):
        return replay.play(actions)


def header(case: Case, actions: list[list[Any]]) -> Record:
    """A case's first golden record: how its game is set up, and its recorded actions."""
    game = {
        "game": case.game, "players": case.players, "seed": case.seed, "options": case.options,
        "levels": list(case.levels), "speed": case.speed, "computers": case.computers,
        "names": list(case.names[: case.players - case.computers]), "timers": case.timers,
        "actions": actions,
    }  # fmt: skip
    return {"case": case.id, "step": -1, "surface": "recorded-game", "data": game}


def golden_path(case_id: str) -> Path:
    return RENDER / f"{case_id}.jsonl"


def recorded_actions(case: Case) -> list[list[Any]] | None:
    """The actions recorded for ``case`` in its golden file, if it has one."""
    lines = read(golden_path(case.id))
    if not lines:
        return None
    first = json.loads(lines[0])
    if first.get("surface") != "recorded-game" or first.get("case") != case.id:
        return None
    return list(first["data"]["actions"])


def produce(case: Case, actions: list[list[Any]]) -> list[str]:
    """The golden lines of ``case`` as the code draws them now."""
    return [dumps(header(case, actions)), *(dumps(r) for r in render_case(case, actions))]


def produce_texts() -> list[str]:
    return [dumps(r) for r in texts()]


def texts(language: str | None = None) -> list[Record]:
    """What is the same at every table: `/help`, and each game's `/… rules` away from a table."""
    records: list[Record] = []

    def keep(surface: str, interaction: FakeInteraction) -> None:
        records.extend({"case": "texts", "step": 0, "surface": surface, "data": b} for b in interaction.sent)

    nowhere = SimpleNamespace(referee=SimpleNamespace(table_in=lambda _channel_id: None))
    locale = discord.Locale(LOCALES[language]) if language is not None else None
    asked = FakeInteraction(client=nowhere, locale=locale)
    with speaking(language):  # as the command tree's check sets it (see render_case)
        invoke(HelpCog.show_help, HelpCog(None), asked)
    keep("help", asked)
    for key, game in GAMES.items():
        asked = FakeInteraction(client=nowhere, locale=locale)
        with speaking(language):
            run(send_rules(asked.typed, game))
        keep(f"rules:{key}", asked)
        asked = FakeInteraction(client=nowhere, locale=locale)
        with speaking(language):
            run(FullRulesButton(key).callback(asked.typed))
        keep(f"full-rules:{key}", asked)
    return records
