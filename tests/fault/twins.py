"""Twin states for the model-based secrecy audit (tests/fault/test_twin_secrecy.py).

A *twin* of a game state, for an observer (a seat, or None for a spectator), keeps everything
that observer may know and deals everything else again: other hands, the deck, face-down piles,
identities, secret choices and signals, and the seed that decides future shuffles. Any output the
observer can see (the public table, the public posts, their own panel) must then come out exactly
the same from both states; whatever differs was drawn from a secret.

Twins are built on the engine's ``to_json()`` (plain dicts), so no private engine API is used.
What each game hides, read from its to_json and view:

- Zip Zap: other hands and the deck (each seat's own Zap card stays put: whether it is still held
  is public, ``zap_used``); the seed (next rounds' deals).
- Zap or Trap: other hands and the deck (not a hand a call has shown); secret signals: the
  current choices of the sides the observer may not watch, and every side's past signals but
  the observer's own (public only once the game is over); the seed.
- Spy Trap: other hands, other piles, the deck and the used pile; identities, except the
  observer's own, those it learned (ID cards it received) and, once over, all; the unused ID
  cards and an ID card waiting for someone else's keep/swap choice; other seats' learned facts
  (kept true to the re-dealt identities); the seed. Public "is not <country>" answers are
  respected when identities are re-dealt.
- GiftTRAP: other players' gives, Give More, Get More and tokens, except what the reveal has
  turned up; for players not yet ready, even how far they have got. The seed stays: the
  referee's default pack, drawn from it, is shown to everyone.
- Trap: everything is on the board. The one secret is the seed, which decides the quick setup's
  random arrows before they are placed and the referee's move for a player out of time.

Each twin is first checked against the engine itself: the observer's view, the spectator's view
and the observer's legal actions must be equal in both. A difference there means the twin moved
something public (a bug here) or the engine's view carries a secret; either is reported.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from types import SimpleNamespace
from typing import Any

import discord
from discord.ext import commands

from cogs.table.drawing import TableDrawing
from cogs.table.layout import Drawing
from cogs.table.model import SeatInfo, Table
from cogs.table.referee import Referee
from cogs.table.scheduler import Scheduler
from rules import get_game
from rules.base import JSON, Event
from rules.selfplay import play_game
from rules.zaptrap import GESTURES

GAME_KEYS = ("zipzap", "zaptrap", "spytrap", "gifttrap", "trap")
SEAT_NAMES = ("Ann", "Bea", "Cy", "Dot", "Eve", "Fay", "Gus", "Hal")
TABLE_ID = 77
VERSION = 4242  # panels' custom_ids carry it: the same in both twins


# --- twins ---------------------------------------------------------------------------------------


def _redistribute(groups: list[list[Any]], rng: random.Random) -> list[list[Any]]:
    """Shuffle the union of ``groups`` and deal it back into groups of the same sizes."""
    pool = [item for group in groups for item in group]
    rng.shuffle(pool)
    out, at = [], 0
    for group in groups:
        out.append(pool[at : at + len(group)])
        at += len(group)
    return out


def _fresh_seed(data: JSON, rng: random.Random) -> None:
    seed = data["seed"]
    while seed == data["seed"]:
        seed = rng.randrange(2**53)
    data["seed"] = seed


def _zipzap(data: JSON, observer: int | None, rng: random.Random) -> None:
    others = [s for s in range(data["players"]) if s != observer]
    zaps = {s: [c for c in data["hands"][s] if c.startswith("Z")] for s in others}
    loose = [[c for c in data["hands"][s] if not c.startswith("Z")] for s in others] + [data["deck"]]
    dealt = _redistribute(loose, rng)
    for s, cards in zip(others, dealt, strict=False):
        data["hands"][s] = zaps[s] + cards
    data["deck"] = dealt[-1]
    _fresh_seed(data, rng)


def _zaptrap(data: JSON, observer: int | None, rng: random.Random) -> None:
    players = data["players"]
    team = players in (4, 6)
    units = players // 2 if team else players

    def unit_of(seat: int) -> int:
        return seat % units if team else seat

    def watched(seat: int) -> int:
        return (seat + players // 2) % players if team else (seat - 1) % players

    shown = data["call"]["target"] if data["call"] is not None else None  # a call turns that hand up
    others = [s for s in range(players) if s not in (observer, shown)]
    dealt = _redistribute([data["hands"][s] for s in others] + [data["deck"]], rng)
    for s, cards in zip(others, dealt, strict=False):
        data["hands"][s] = cards
    data["deck"] = dealt[-1]
    if data["phase"] != "over":  # once over, every signal is revealed
        mine = {unit_of(observer)} if observer is not None else set()
        now = mine | ({unit_of(watched(observer))} if observer is not None else set())
        gestures = list(GESTURES)

        def again(signals: list[str | None], known: set[int]) -> list[str | None]:
            # Whether a side has chosen is public (signals_ready); which gesture is not.
            return [g if u in known or g is None else rng.choice(gestures) for u, g in enumerate(signals)]

        data["choices"] = again(data["choices"], now)
        data["last_signals"] = again(data["last_signals"], mine)
        for entry in data["signal_history"]:
            current = entry["round"] == data["round"] and data["phase"] != "signals"
            entry["signals"] = list(data["choices"]) if current else again(entry["signals"], mine)
    _fresh_seed(data, rng)


def _spytrap(data: JSON, observer: int | None, rng: random.Random) -> None:
    players = data["players"]
    others = [s for s in range(players) if s != observer]
    groups = [data["hands"][s] for s in others] + [data["piles"][s] for s in others]
    dealt = _redistribute([*groups, data["deck"], data["used"]], rng)
    for i, s in enumerate(others):
        data["hands"][s] = dealt[i]
        data["piles"][s] = dealt[len(others) + i]
    data["deck"], data["used"] = dealt[-2], dealt[-1]
    if data["phase"] != "over":  # once over, every identity is shown
        known: set[int] = set()
        prompt = data["prompt"]
        choosing = prompt is not None and prompt["seat"] == observer and prompt["kind"] in ("keep", "swap")
        if observer is not None:
            known = {observer} | {fact["seat"] for fact in data["learned"][observer]}
        slots = [s for s in range(players) if s not in known]
        pending = data["pending_id"] is not None and not choosing
        pool = [data["identity"][s] for s in slots] + data["id_discard"]
        pool += [data["pending_id"]] if pending else []
        denied = {(g["seat"], g["country"]) for g in data["wrong_guesses"]}
        for _ in range(100):
            rng.shuffle(pool)
            if not any((s, pool[i]) in denied for i, s in enumerate(slots)):
                break
        for i, s in enumerate(slots):
            data["identity"][s] = pool[i]
        rest = pool[len(slots) :]
        if pending:
            data["pending_id"] = rest.pop()
        data["id_discard"] = rest
        for s in others:
            for fact in data["learned"][s]:
                fact["country"] = data["identity"][fact["seat"]]
    _fresh_seed(data, rng)


def _gifttrap(data: JSON, observer: int | None, rng: random.Random) -> None:
    players = data["players"]
    spaces = len(data["layout"])
    if spaces == 0:
        return  # the pack is not picked yet: nobody has chosen anything
    cards = data["options"]["strategy_cards"]
    revealed = data["revealed"]
    shown = {(r["receiver"], r["giver"]) for r in revealed}
    choosing = data["phase"] == "choosing"
    for s in range(players):
        if s == observer:
            continue
        partial = choosing and not data["ready"][s]  # how far an unready player has got is theirs
        gives = data["gives"][s]
        fixed = {r: gives[r] for r in range(players) if (r, s) in shown}
        free = [n for n in range(1, spaces + 1) if n not in fixed.values()]
        rng.shuffle(free)
        for r in range(players):
            if r == s or r in fixed:
                continue
            given = gives[r] is not None if not partial else rng.random() < 0.6
            gives[r] = free.pop() if given else None
        if cards:
            if not any(r["giver"] == s and r["give_more"] for r in revealed):
                unseen = [r for r in range(players) if r != s and (r, s) not in shown]
                if unseen:
                    data["give_more"][s] = rng.choice([None, *unseen])
            if not any(r["receiver"] == s and r["get_more"] for r in revealed):
                unseen = [g for g in range(players) if g != s and (s, g) not in shown]
                if unseen:
                    data["get_more"][s] = rng.choice([None, *unseen])
        if not data["ranking_shown"][s]:
            tokens = list(data["ranks"][s])
            if partial:
                tokens = [t for t in ("great", "good", "ok", "noway") if rng.random() < 0.6]
            places = rng.sample(range(1, spaces + 1), len(tokens))
            data["ranks"][s] = dict(zip(tokens, places, strict=True))


def _trap(data: JSON, observer: int | None, rng: random.Random) -> None:
    _fresh_seed(data, rng)


REDEALS: dict[str, Callable[[JSON, int | None, random.Random], None]] = {
    "zipzap": _zipzap,
    "zaptrap": _zaptrap,
    "spytrap": _spytrap,
    "gifttrap": _gifttrap,
    "trap": _trap,
}


def twin(key: str, data: JSON, observer: int | None, rng: random.Random) -> JSON:
    """A state with everything ``observer`` may know kept and everything else dealt again."""
    copied = copy.deepcopy(data)
    REDEALS[key](copied, observer, rng)
    return copied


# --- sampled states from self-play ---------------------------------------------------------------


@dataclass
class Sample:
    """A state met in self-play, with the public events of the action that led to it."""

    key: str
    index: int
    state: JSON
    events: list[JSON] = field(default_factory=list)


def sample_states(
    key: str, players: int, options: JSON, seed: int, *, per_phase: int = 3, every: int = 10
) -> list[Sample]:
    """States along a seeded self-play game between the engine's computer players: the first
    ``per_phase`` of each moment (a phase, and in Spy Trap the decision it waits on), every
    ``every``-th state, and the final state."""
    game = get_game(key)
    samples: list[Sample] = []
    seen: dict[str, int] = {}
    count = [0]

    def keep(state: Any, _seat: int | None, _action: str, events: list[Event]) -> None:
        count[0] += 1
        moment = _moment(state)
        seen[moment] = seen.get(moment, 0) + 1
        if seen[moment] <= per_phase or count[0] % every == 0 or state.is_over():
            samples.append(Sample(key, count[0], state.to_json(), [e.to_json() for e in events]))

    first = game.new_game(players, game.parse_options(options), seed)
    samples.append(Sample(key, 0, first.to_json(), [e.to_json() for e in first.opening_events]))
    record = play_game(game, players, options, seed, list(game.computer_levels), on_action=keep)
    assert record.state.is_over(), f"the {key} self-play game at seed {seed} did not finish"
    return samples


def _moment(state: Any) -> str:
    moment = str(getattr(state, "phase", ""))
    prompt = getattr(state, "prompt", None)  # Spy Trap's pending decision
    if isinstance(prompt, dict):
        moment += f":{prompt.get('kind')}"
    return moment


# --- rendering through the real game UIs --------------------------------------------------------


class _Registrar:
    """Stands in for ``bot.referee`` while a cog's __init__ registers its GameUI."""

    def __init__(self) -> None:
        self.uis: dict[str, Any] = {}
        self.on_change: list[Any] = []

    def register(self, ui: Any) -> None:
        self.uis[ui.key] = ui


def ui_class(key: str) -> type:
    """The class of the GameUI that the game's cog (cogs/<key>.py) registers with the referee."""
    module = import_module(f"cogs.{key}")
    cogs = [
        obj
        for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, commands.Cog) and obj.__module__ == module.__name__
    ]
    assert len(cogs) == 1, f"cogs/{key}.py should define one cog, found {cogs}"
    registrar = _Registrar()
    cogs[0](SimpleNamespace(referee=registrar))
    return type(registrar.uis[key])


def make_table(key: str, data: JSON) -> Table:
    """A playing table around this state: people and computers seated alternately."""
    game = get_game(key)
    state = game.from_json(data)
    levels = game.computer_levels
    seats = [
        SeatInfo(i, 1000 + i, SEAT_NAMES[i], computer_level=levels[i % len(levels)] if i % 2 else None)
        for i in range(state.players)
    ]
    return Table(
        id=TABLE_ID,
        guild_id=1,
        channel_id=2,
        game=game,
        host_id=1000,
        settings={"seats": state.players, "rules": data["options"]},
        speed="relaxed",
        seed=data["seed"],
        status="finished" if state.is_over() else "playing",
        seats=seats,
        state=state,
        version=VERSION,
    )


def component(item: discord.ui.Item[Any]) -> JSON:
    """A table or panel item as Discord receives it (label, custom_id, style, options …) and its row."""
    inner = getattr(item, "item", item)  # a DynamicItem wraps the real button or select
    data: JSON = inner.to_component_dict()  # type: ignore[attr-defined]
    data["row"] = inner.row
    return data


def laid_out(drawing: Drawing) -> JSON:
    """A drawing as Discord receives it: the V2 layout (cogs/table/layout.py: every text, button,
    and picture's alt text) and the bytes of each file it attaches."""
    layout = drawing.layout
    return {
        "components": layout.components,
        "attached": [(a.filename, a.data, getattr(a, "alt", None)) for a in layout.attached],
    }


def drawing_of(cls: type) -> TableDrawing:
    """The referee's own drawing of a table, with a fresh GameUI of this class."""
    referee = Referee(None, None, Scheduler())  # type: ignore[arg-type]  # never started: draws only
    referee.register(cls())
    return referee.drawing


def render_public(cls: type, key: str, data: JSON, events: list[JSON]) -> JSON:
    """Everything public drawn from this state: the table message (its V2 layout through the
    referee's drawing, and its pictures' bytes and alt text), the game's embed and buttons as
    it draws them, the log lines and pings for the events that led here, the round and final
    posts."""
    table = make_table(key, data)
    ui = cls()
    out: JSON = {
        "table_embed": ui.table_embed(table).to_dict(),
        "table_items": [component(i) for i in ui.table_items(table)],
        "table_message": laid_out(drawing_of(cls).draw(make_table(key, data))),
    }
    happened = [Event.from_json(e) for e in events]
    out["event_lines"] = [cls().event_line(table, e) for e in happened]
    announce = getattr(ui, "announcements", None)
    if announce is not None and table.status == "playing":
        out["announcements"] = cls().announcements(table, happened)
    for e in happened:
        if e.kind == "round_over":
            embed = cls().round_embed(table, e)
            out.setdefault("round_embeds", []).append(None if embed is None else embed.to_dict())
    if table.status == "finished":
        out["final_embed"] = cls().final_embed(table).to_dict()
    # What anyone may ask for privately: `/table status` (the referee's own drawing, with whom
    # the table waits on) and the History button.
    out["table_status"] = laid_out(drawing_of(cls).status_drawing(make_table(key, data)))
    if getattr(ui, "history", None) is not None:  # GiftTRAP's stays on the final table
        out["history"] = cls().history(table)
    return out


def render_panel(cls: type, key: str, data: JSON, seat: int) -> JSON:
    """A seat's private panel, and each page its own navigation buttons lead to."""
    drawing = drawing_of(cls).panel(make_table(key, data), seat, None, None)
    navs = _navs(drawing.items)
    out: JSON = {"panel": laid_out(drawing)}
    for nav in navs:
        out[f"panel nav-{nav}"] = laid_out(drawing_of(cls).panel(make_table(key, data), seat, None, nav))
    return out


def _navs(items: list[discord.ui.Item[Any]]) -> list[str]:
    """The panel-only steps offered: "nav-…" buttons, and every option of a "nav-" select
    (GiftTRAP's steps)."""
    navs = []
    for item in items:
        inner = getattr(item, "item", item)
        custom_id = str(getattr(inner, "custom_id", "") or "")
        action = custom_id.split(":", 3)[-1] if custom_id.startswith(("ga:", "gs:")) else ""
        if not action.startswith("nav-"):
            continue
        if custom_id.startswith("ga:"):
            navs.append(action[4:])
        else:
            navs += [action[4:] + str(o.value) for o in getattr(inner, "options", [])]
    return navs


# --- the audit ----------------------------------------------------------------------------------


def differences(before: JSON, after: JSON, where: str) -> list[str]:
    """Every output that is not identical: where it first differs, and both versions there."""
    found = []
    for name in sorted(set(before) | set(after)):
        a, b = before.get(name), after.get(name)
        if a != b:
            path, x, y = _first_difference(a, b, name)
            found.append(f"{where} {path}: {_short(x)} ≠ twin {_short(y)}")
    return found


def _first_difference(a: Any, b: Any, path: str) -> tuple[str, Any, Any]:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if a.get(k) != b.get(k):
                return _first_difference(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return path, a, b


def _short(value: Any, limit: int = 240) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _views_agree(key: str, data: JSON, other: JSON, observer: int | None) -> list[str]:
    """What the engine itself tells the observer (and everyone) must be the same in both twins:
    else the twin changed public information (or the engine's view leaks a secret)."""
    game = get_game(key)
    a, b = game.from_json(data), game.from_json(other)
    found = []
    for who in {None, observer}:
        if a.view(who) != b.view(who):
            diff = sorted(k for k in a.view(who) if a.view(who)[k] != b.view(who).get(k))
            found.append(f"engine view({who}) differs between twins in {diff}")
        if who is not None and a.legal_actions(who) != b.legal_actions(who):
            found.append(f"legal actions of seat {who} differ between twins")
    return found


@dataclass
class AuditReport:
    states: int = 0
    twins: int = 0
    # State fields the twins really dealt again, and how often: proof the twins hid something.
    moved: Counter[str] = field(default_factory=Counter)
    differences: list[str] = field(default_factory=list)


def audit_sample(sample: Sample, rng: random.Random, report: AuditReport, cls: type | None = None) -> None:
    """For each observer (the spectator, then every seat), build a twin and compare everything
    that observer sees: the public outputs, and the observer's own panel."""
    key, data = sample.key, sample.state
    cls = cls or ui_class(key)
    report.states += 1
    public = render_public(cls, key, data, sample.events)
    playing = not get_game(key).from_json(data).is_over()
    for observer in [None, *range(data["players"])]:
        other = twin(key, data, observer, rng)
        report.twins += 1
        report.moved.update(k for k in data if data[k] != other[k])
        where = f"{key} #{sample.index} ({data.get('phase')}) observer {observer}:"
        broken = _views_agree(key, data, other, observer)
        if broken:
            report.differences += [f"{where} {b}" for b in broken]
            continue
        report.differences += differences(public, render_public(cls, key, other, sample.events), where)
        if observer is not None and playing:
            mine = render_panel(cls, key, data, observer)
            report.differences += differences(mine, render_panel(cls, key, other, observer), where)


def audit_game(key: str, players: int, options: JSON, seed: int, **sampling: int) -> AuditReport:
    report = AuditReport()
    rng = random.Random(f"twins:{key}:{seed}")
    cls = ui_class(key)
    for sample in sample_states(key, players, options, seed, **sampling):
        audit_sample(sample, rng, report, cls)
    return report
