"""GiftTRAP's choices stay secret until the reveal: a wire-level audit of every REST call.

What is hidden, per seat, while a round runs (tests/e2e/secrecy.py's audience logic decides who
could see each call: a public channel message, a DM, an ephemeral reply or edit):
- the gift it gives each other player, until that gift is unwrapped;
- its four tokens, until they are turned up with its first received gift;
- the player its Give More card backs, until that gift is unwrapped;
- the giver its Get More card sits under, until that giver's gift to it is unwrapped.

Gift names are public (they lie on the table); what is secret is who gave which gift to whom and
which token lies where. So a choice is "shown" when a line (or a " · " part of one) writes the
relation the way our drawing does ("**bob** 3. …", "GREAT +3 → 3. …", "Give More: with your gift
for **bob**", "Get More: under the gift from **alice**") while naming no third player, when a
select is drawn with that choice preselected, or when the panel's step select (its checklist)
lists it: a step "g<seat>" or "t<token>" described by its gift, "gm"/"km" by its player.
``sightings`` counts those relations seen by their owner, proving the patterns match what the
panel really draws.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from cogs.drawings.gifttrap_cards import TOKEN_LABELS
from cogs.table.model import Table
from rules.gifttrap import TOKENS
from tests.e2e.gifttrap_driver import is_over, open_lobby, play_to_end
from tests.e2e.secrecy import Audit

Fact = tuple[str, Any, Any]  # ("give", receiver, space) · ("rank", token, space) · ("givemore", r, None) …
SELECT = re.compile(r"gs:\d+:\d+:(give-(\d+)-|rank-([a-z]+)-|givemore-|getmore-)$")
STEPS = re.compile(r"gs:\d+:\d+:nav-")
DESCRIBED = re.compile(r"(\d+)\. ")  # a step's description: its gift, "3. 🧸 Teddy bear"


@dataclass
class ChoiceSnapshot:
    request_index: int
    names: dict[int, str]
    hidden: dict[int, set[Fact]]
    chosen: dict[int, set[Fact]]  # revealed or not: a line matching one's own choice is one's own


def hidden_choices(state: Any, *, everything: bool = False) -> dict[int, set[Fact]]:
    """Every seat's choices that the reveal has not shown yet (read from the engine's state);
    ``everything``: this round's choices, shown or not."""
    hidden: dict[int, set[Fact]] = {s: set() for s in range(state.players)}
    if state.phase not in ("choosing", "reveal"):
        return hidden
    unwrapped = set() if everything else {(r["giver"], r["receiver"]) for r in state.revealed}
    for s in range(state.players):
        for r, space in enumerate(state.gives[s]):
            if space is not None and (s, r) not in unwrapped:
                hidden[s].add(("give", r, space))
        if everything or not state.ranking_shown[s]:
            hidden[s] |= {("rank", token, space) for token, space in state.ranks[s].items()}
        r = state.give_more[s]
        if r is not None and (s, r) not in unwrapped:
            hidden[s].add(("givemore", r, None))
        g = state.get_more[s]
        if g is not None and (g, s) not in unwrapped:
            hidden[s].add(("getmore", g, None))
    return hidden


def fact_pattern(fact: Fact, names: dict[int, str]) -> re.Pattern[str]:
    kind, key, space = fact
    if kind == "give":
        return re.compile(rf"(?:→ )?\**{re.escape(names[key])}\**:? {space}\. ")
    if kind == "rank":
        return re.compile(rf"{re.escape(TOKEN_LABELS[key])} → {space}\. ")
    if kind == "givemore":
        return re.compile(rf"Give More: with your gift for \**{re.escape(names[key])}\**")
    return re.compile(rf"Get More: under the gift from \**{re.escape(names[key])}\**")


def fact_others(fact: Fact) -> set[int]:
    """The players a line may name besides the owner and still be about this choice."""
    kind, key, _ = fact
    return set() if kind == "rank" else {key}


@dataclass
class ChoiceAudit(Audit):
    choice_snapshots: list[ChoiceSnapshot] = field(default_factory=list)
    sightings: int = 0
    kinds: set[str] = field(default_factory=set)  # which kinds of choice were sighted

    def hook(self, table: Table, _events: Any) -> None:
        assert table.state is not None
        self.seat_users = {s.seat: (None if s.is_computer else s.user_id) for s in table.seats}
        names = {s.seat: s.name for s in table.seats}
        self.choice_snapshots.append(
            ChoiceSnapshot(
                len(self.env.http_requests),
                names,
                hidden_choices(table.state),
                hidden_choices(table.state, everything=True),
            )
        )

    def audience(self, entry: Any) -> int | None:
        """As secrecy.Audit, except that a click answered in a DM (a DM panel's select or tab)
        is seen by that DM's person only; the shared audit would call such an answer public."""
        match = re.match(r"/(?:interactions/\d+|webhooks/\d+)/([^/]+)", entry.path)
        if match:
            backend = self.env.backend
            record = backend.interactions[backend.interaction_tokens[match.group(1)]]
            if record.guild_id is None:
                return int(record.user_id)
        return super().audience(entry)

    def _choices_at(self, index: int) -> ChoiceSnapshot | None:
        chosen = None
        for snap in self.choice_snapshots:
            if snap.request_index <= index:
                chosen = snap
            else:
                break
        return chosen

    def leaks(self) -> list[str]:
        found: list[str] = []
        self.sightings = 0
        for index, entry in enumerate(self.env.http_requests):
            if entry.method not in ("POST", "PATCH") or entry.json is None:
                continue
            snap = self._choices_at(index)
            if snap is None:
                continue
            viewer = self.audience(entry)
            mine = next((s for s, u in self.seat_users.items() if viewer is not None and u == viewer), None)
            own = snap.chosen.get(mine, set()) if mine is not None else set()
            name_words = {s: re.compile(rf"(?<!\w){re.escape(n)}(?!\w)") for s, n in snap.names.items()}
            lines = _text(entry.json).split("\n")
            # The panel's summary gives "**bob** 3. 🧸 · **carol** 5. 🎸" on one line: a gift is
            # judged by its own part (a token line names its owner once, for all its parts).
            parts = [part for line in lines for part in line.split(" · ")]
            preset = set(_preselected(entry.json, snap.names))
            who = "public" if viewer is None else f"user {viewer}"
            for seat, facts in snap.hidden.items():
                for fact in facts:
                    pattern = fact_pattern(fact, snap.names)
                    allowed = {seat} | fact_others(fact)
                    shown = fact in preset or any(
                        pattern.search(line)
                        and all(s in allowed for s, word in name_words.items() if word.search(line))
                        for line in (parts if fact[0] == "give" else lines)
                    )
                    if not shown:
                        continue
                    if seat == mine:
                        self.sightings += 1
                        self.kinds.add(fact[0])
                    elif fact not in own:  # the same choice as the viewer's own reads as theirs
                        found.append(
                            f"request {index} {entry.method} {entry.path} ({who}) shows seat {seat}'s {fact}"
                        )
        return found


def _text(data: Any) -> str:
    """What a person reads, without custom_ids and without select options (every gift select
    lists every gift; a preselected option is checked separately)."""
    if isinstance(data, dict):
        return "\n".join(_text(v) for k, v in data.items() if k not in ("custom_id", "options"))
    if isinstance(data, list):
        return "\n".join(_text(v) for v in data)
    return str(data) if data is not None else ""


def _steps(data: dict[str, Any], names: dict[int, str]) -> list[Fact]:
    """The choices the step select lists: a gift or token step by its gift, a card by its player."""
    out: list[Fact] = []
    seats = {name: seat for seat, name in names.items()}
    for option in data.get("options") or []:
        value, about = str(option.get("value")), str(option.get("description") or "")
        gift = DESCRIBED.match(about)
        if value[:1] == "g" and value[1:].isdigit() and gift:
            out.append(("give", int(value[1:]), int(gift.group(1))))
        elif value[:1] == "t" and gift:
            out.append(("rank", value[1:], int(gift.group(1))))
        elif value in ("gm", "km"):
            named = [seat for name, seat in seats.items() if about.endswith(f" {name}")]
            if named:
                out.append(("givemore" if value == "gm" else "getmore", named[0], None))
    return out


def _preselected(data: Any, names: dict[int, str]) -> list[Fact]:
    """Choices drawn as already made: a give/rank/card select with a default option, and the
    choices the step select lists."""
    out: list[Fact] = []
    if isinstance(data, dict):
        if STEPS.match(str(data.get("custom_id") or "")) and data.get("type") == 3:
            out += _steps(data, names)
        match = SELECT.match(str(data.get("custom_id") or ""))
        if match and data.get("type") == 3:
            for option in data.get("options") or []:
                value = str(option.get("value"))
                if not option.get("default") or not value.isdigit():
                    continue
                if match.group(2) is not None:
                    out.append(("give", int(match.group(2)), int(value)))
                elif match.group(3) is not None:
                    out.append(("rank", match.group(3), int(value)))
                else:
                    kind = match.group(1).rstrip("-")
                    out.append((kind, int(value), None))
        for v in data.values():
            out += _preselected(v, names)
    elif isinstance(data, list):
        for v in data:
            out += _preselected(v, names)
    return out


@pytest.mark.simcord(settle_timeout=30)
async def test_nobody_sees_another_players_choices_before_the_reveal(simcord_env, simcord_bot):
    """Two people and two computers play a whole game (bob takes the DM route); every REST call
    is judged against what its audience may know at that moment.

    Seen failing against the two leaky variants below: a public table listing who gives what
    to whom (193 public leaks in the first round) and a panel that also draws the next seat's
    choices (123 leaks, all on the clicker's own ephemeral answers). While it was being written it
    also failed on bob's DM panel, which the shared audit judged public (an interaction answered
    in a DM): ``ChoiceAudit.audience`` gives such answers to the DM's person."""
    env = simcord_env
    audit = ChoiceAudit(env)
    audit.attach(simcord_bot)
    t = await open_lobby(env, simcord_bot, seed=4, track_length=8)
    bob = t["people"][1]
    await bob.take_dm_route()
    await play_to_end(env, t["people"], t["table"], t["channel"])
    assert is_over(t["channel"])
    leaks = audit.leaks()
    assert leaks == [], leaks[:5]
    assert audit.sightings > 20, "the audit never recognised a choice shown to its owner"
    assert audit.kinds == {"give", "rank", "givemore", "getmore"}, audit.kinds
    # Each revealed choice did reach the public table once the reveal showed it (in the table's
    # Latest lines, which later lines push out: so every public post and edit counts).
    channel_path = f"/channels/{t['channel'].id}/messages"
    public = "\n".join(str(r.json) for r in env.http_requests if r.path.startswith(channel_path))
    assert "unwraps" in public and "turns up their tokens" in public
    assert "→ **" not in public, "a give line of a panel reached the channel"


def _leak_table(ui_class: Any, monkeypatch: Any) -> None:
    original = ui_class.table_embed

    def leaky(self: Any, table: Table) -> Any:
        embed = original(self, table)
        state: Any = table.state
        gifts = {g["space"]: g for g in state.view(None)["layout"]}
        lines = [
            f"{table.name(s)} → **{table.name(r)}**: {space}. {gifts[space]['emoji']}"
            for s in range(state.players)
            for r, space in enumerate(state.gives[s])
            if space is not None
        ]
        if lines:
            embed.add_field(name="debug", value="\n".join(lines)[:1024])
        return embed

    monkeypatch.setattr(ui_class, "table_embed", leaky)


def _leak_panel(ui_class: Any, monkeypatch: Any, how: str) -> None:
    original = ui_class.panel

    def leaky(self: Any, table: Table, seat: int, note: Any, nav: Any = None) -> Any:
        embed, items = original(self, table, seat, note, nav)
        state: Any = table.state
        view = state.view((seat + 1) % state.players)
        if view["phase"] in ("choosing", "reveal") and how == "panel":
            gifts = {g["space"]: g for g in view["layout"]}
            given = [
                f"**{table.name(r)}** {space}. {gifts[space]['emoji']}"
                for r, space in enumerate(view["my"]["gives"])
                if space is not None
            ]
            if given:
                embed.add_field(name="psst", value=" · ".join(given)[:1024])
        elif view["phase"] == "choosing" and how == "steps":  # the next seat's checklist for one's own
            steps = self.panels._steps_select(table, view, self.panels.steps(view)[0])
            steps.item.custom_id += "z"  # beside one's own, which must keep its id
            steps.item.row = 3
            items.append(steps)
        return embed, items

    monkeypatch.setattr(ui_class, "panel", leaky)


@pytest.mark.simcord(settle_timeout=30)
@pytest.mark.parametrize("where", ["table", "panel", "steps"])
async def test_the_audit_catches_a_leaky_renderer(simcord_env, simcord_bot, monkeypatch, where):
    """The audit can fail: a public table that lists who gives what to whom, or a panel that
    also draws the next seat's choices (as a line of gifts, or its step select)."""
    # discord.py loads extensions as fresh module objects, so patch the class the bot really uses.
    ui_class = type(simcord_bot.referee.uis["gifttrap"])
    if where == "table":
        _leak_table(ui_class, monkeypatch)
    else:
        _leak_panel(ui_class, monkeypatch, where)
    env = simcord_env
    audit = ChoiceAudit(env)
    audit.attach(simcord_bot)
    t = await open_lobby(env, simcord_bot, seed=4)
    table = t["table"]
    for _ in range(30):
        for p in t["people"]:
            await p.step(table)
        await env.advance_time(1.5)
        if table.state.phase == "reveal":
            break
    leaks = audit.leaks()
    assert leaks, "the audit did not notice choices shown to the wrong people"
    if where != "table":
        assert all("(user " in leak for leak in leaks), leaks[:3]
    else:
        assert any("(public)" in leak for leak in leaks), leaks[:3]


def test_hidden_choices_cover_every_kind() -> None:
    """The audit's notion of hidden matches the engine: all four kinds, gone once revealed."""
    from rules.gifttrap import GiftTrap

    game = GiftTrap()
    state = game.new_game(3, {"track_length": 5}, 1)
    state.apply(0, "pack-1")
    for seat in range(3):
        others = [r for r in range(3) if r != seat]
        for i, r in enumerate(others):
            state.apply(seat, f"give-{r}-{i + 1}")
        for i, token in enumerate(TOKENS):
            state.apply(seat, f"rank-{token}-{i + 1}")
        state.apply(seat, f"givemore-{others[0]}")
        state.apply(seat, f"getmore-{others[1]}")
    kinds = {fact[0] for facts in hidden_choices(state).values() for fact in facts}
    assert kinds == {"give", "rank", "givemore", "getmore"}
    for seat in range(3):
        state.apply(seat, "ready")
    while state.phase == "reveal":
        state.apply(None, "reveal")
    assert all(not facts for facts in hidden_choices(state).values())
