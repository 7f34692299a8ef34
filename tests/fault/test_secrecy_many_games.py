"""Secrecy over many seeded games of every game: no user ever sees another seat's hidden
information in any message, edit or DM (a wire-level audit of every REST call).

Each game's own audit is reused from its e2e tests (tests/e2e/secrecy.py's Audit for Zip Zap
hands, Spy Trap's IdentityAudit, Zap or Trap's SignalAudit, GiftTRAP's ChoiceAudit), as are their
scripted players; here they run over more seeds, each game played to its end. The default run
plays two Zip Zap games and one of each other game, at seeds their own tests do not use; the
soak run plays many more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.e2e import gifttrap_driver, spytrap_driver, zaptrap_driver
from tests.e2e.secrecy import Audit
from tests.e2e.simhelpers import message_text
from tests.e2e.test_gifttrap_secrecy import ChoiceAudit
from tests.e2e.test_spytrap_game import IdentityAudit, identity_patterns, open_spytrap
from tests.e2e.test_zaptrap_secrecy import SignalAudit
from tests.e2e.test_zaptrap_secrecy import _game as zaptrap_game
from tests.e2e.zipzap_driver import Player, is_over, open_lobby, play_to_end

SOAK = pytest.mark.soak
LEAK = re.compile(r"request (\d+) .* \(user (\d+)\) shows (\w+) of seat (\d+)$")


@dataclass
class LearnedIdentityAudit(IdentityAudit):
    """Spy Trap's IdentityAudit, plus one rule of the game it does not know: a spy who knocks
    another out receives that spy's ID card, so from then on that one person may see that
    identity ("You know alice was the Russian spy"; the engine's private ``learned`` facts).
    Likewise the spy knocked out, whose ID card the other spy took: both now hold the same
    country, and the knocked-out spy's panel naming their own identity is no leak. The e2e
    test's own seed never reaches such an elimination before the end; seeds 23 and 61 do, and
    the plain audit reports those panels as leaks."""

    learned_at: list[tuple[int, dict[int, set[tuple[int, str]]]]] = field(default_factory=list)

    def hook(self, table: Any, events: Any) -> None:
        super().hook(table, events)
        learned = {
            seat: {(fact["seat"], fact["country"]) for fact in facts}
            for seat, facts in enumerate(table.state.learned)
        }
        self.learned_at.append((len(self.env.http_requests), learned))

    def _learned(self, index: int) -> dict[int, set[tuple[int, str]]]:
        known: dict[int, set[tuple[int, str]]] = {}
        for at, learned in self.learned_at:
            if at > index:
                break
            known = learned
        return known

    def leaks(self) -> list[str]:
        kept = []
        for leak in super().leaks():
            m = LEAK.match(leak)
            if m:
                index, viewer, country, seat = int(m[1]), int(m[2]), m[3], int(m[4])
                mine = [s for s, user in self.seat_users.items() if user == viewer]
                if mine and (seat, country) in self._learned(index).get(mine[0], set()):
                    continue  # the viewer received that ID card: theirs to know
                if mine and country in (self._hidden_at(index) or {}).get(mine[0], set()):
                    continue  # the viewer's own identity, which another spy took over from them
            kept.append(leak)
        return kept


def needs(bot: Any, key: str) -> None:
    if key not in bot.referee.uis:
        pytest.skip(f"the {key} cog is not loaded")


@pytest.mark.simcord(settle_timeout=30)
@pytest.mark.parametrize(
    ("seed", "rounds"),
    [(101, 1), (202, 1), *[pytest.param(s, None, marks=SOAK) for s in (303, 404, 505, 606, 707, 808)]],
)
async def test_zipzap_hands_stay_hidden(
    simcord_env: Any, simcord_bot: Any, seed: int, rounds: int | None
) -> None:
    """Two people and a computer (bob takes the DM route) play a whole game at this seed; no
    request ever shows a card of another seat's hand, or of the deck, to anyone else.

    Seen failing (a throwaway run, seed 101) with a Zip Zap panel that also listed the next
    seat's hand: leaks from the first panel on ("… (user …) shows R5 of seat 2")."""
    env, bot = simcord_env, simcord_bot
    audit = Audit(env)
    audit.attach(bot)
    bot.referee.new_seed = lambda: seed
    options = {} if rounds is None else {"rounds": rounds}
    t = await open_lobby(env, seats=3, cpu="casual", **options)
    await t["host"].click(t["lobby"], label="Start")
    players = [Player(a, t["channel"], t["lobby"]) for a in t["actors"]]
    await players[1].actor.click(t["lobby"], label="Hand by DM")
    await play_to_end(env, players, t["channel"])
    assert is_over(t["channel"])
    assert len(audit.snapshots) > 10
    leaks = audit.leaks()
    assert leaks == [], leaks[:5]
    # bob's DM panel did show him his own hand: the audit looked at the DMs too.
    # (It is "This hand moved to a newer panel." by the end if he pressed My hand after it: one live
    # panel per person.)
    assert any(
        "Your hand" in message_text(m) or "moved to a newer panel" in message_text(m)
        for m in players[1].actor.user.dm_channel.history()
    )


@pytest.mark.simcord(settle_timeout=30)
@pytest.mark.parametrize("seed", [23, *[pytest.param(s, marks=SOAK) for s in (31, 47, 59, 61, 73)]])
async def test_spytrap_identities_stay_hidden(
    simcord_env: Any, simcord_bot: Any, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """Two people and a sharp computer; nobody else's identity ("the <country> spy") reaches
    anyone before the game is over.

    Seen failing (a throwaway run, seed 23) with the table embed listing every identity. (With
    the e2e IdentityAudit as it is, it also fails on seed 23 on a rule that audit does not know:
    see LearnedIdentityAudit.)"""
    env, bot = simcord_env, simcord_bot
    needs(bot, "spytrap")
    audit = LearnedIdentityAudit(env)
    audit.attach(bot)
    monkeypatch.setattr("tests.e2e.secrecy.card_patterns", identity_patterns)
    _guild, channel, _lobby, table, spies = await open_spytrap(env, bot, seed=seed, max_rounds=6)
    await spytrap_driver.play_to_end(env, spies, table, channel)
    assert spytrap_driver.is_over(channel)
    assert len(audit.snapshots) > 10
    leaks = audit.leaks()
    assert leaks == [], leaks[:5]


@pytest.mark.simcord(settle_timeout=30)
@pytest.mark.parametrize(
    ("seed", "people"),
    [
        (8, ("alice", "bob", "carol", "dave")),
        *[pytest.param(s, ("alice", "bob", "carol"), marks=SOAK) for s in (9, 12, 15)],
        *[pytest.param(s, ("alice", "bob", "carol", "dave", "erin"), marks=SOAK) for s in (10, 13)],
    ],
)
async def test_zaptrap_signals_stay_hidden(
    simcord_env: Any, simcord_bot: Any, seed: int, people: tuple[str, ...]
) -> None:
    """People in every seat (the second takes the DM route) play to the end; no side's real
    signal reaches anyone who may not watch for it before the reveal.

    Seen failing (a throwaway run, seed 8) with a panel that also told each person the next
    side's signal: leaks on the clickers' own ephemeral answers ("… shows smirk")."""
    env, bot = simcord_env, simcord_bot
    needs(bot, "zaptrap")
    audit = SignalAudit(env)
    audit.attach(bot)
    t = await zaptrap_game(env, bot, len(people), people, seed=seed)
    await t["people"][1].actor.click(t["lobby"], label="Hand by DM")
    await zaptrap_driver.play_to_end(env, t["people"], t["channel"])
    assert zaptrap_driver.is_over(t["channel"])
    leaks = audit.leaks()
    assert leaks == [], leaks[:5]
    assert audit.sightings > 5, "the audit never recognised a signal shown to its owners"


@pytest.mark.simcord(settle_timeout=30)
@pytest.mark.parametrize("seed", [9, *[pytest.param(s, marks=SOAK) for s in (14, 21, 33, 42)]])
async def test_gifttrap_choices_stay_hidden(simcord_env: Any, simcord_bot: Any, seed: int) -> None:
    """Two people and two computers (bob takes the DM route); nobody sees another player's gifts,
    tokens or strategy cards before the reveal shows them.

    Seen failing (a throwaway run, seed 9) with the e2e test's leaky panel that also draws the
    next seat's choices (tests/e2e/test_gifttrap_secrecy._leak_panel)."""
    env, bot = simcord_env, simcord_bot
    needs(bot, "gifttrap")
    audit = ChoiceAudit(env)
    audit.attach(bot)
    t = await gifttrap_driver.open_lobby(env, bot, seed=seed, track_length=6)
    await t["people"][1].take_dm_route()
    await gifttrap_driver.play_to_end(env, t["people"], t["table"], t["channel"])
    assert gifttrap_driver.is_over(t["channel"])
    leaks = audit.leaks()
    assert leaks == [], leaks[:5]
    assert audit.sightings > 10, "the audit never recognised a choice shown to its owner"
