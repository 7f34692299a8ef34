"""Secrecy by twin states, for every game: nothing anyone sees depends on what they may not know.

The string-matching audits (tests/e2e/secrecy.py and the games' own) look for the secrets they
were told about, written the way they expect. This audit needs no such list. For states sampled
along seeded self-play games (the engines' own computer players), and for each observer in turn
(a spectator, then every seat), tests/fault/twins.py builds a twin: the same state with everything
that observer may not know dealt again (other hands, piles, identities, secret choices, signals,
the seed behind future shuffles). From both it renders, through the GameUI each cog registers,
the public table message (embed, buttons, board image), the log lines, pings, round and final
posts, and the observer's own panel with every page its navigation buttons open. They must be
identical, byte for byte; anything that differs was drawn from a secret. Over all observers this
renders every seat's panel against twins where every other seat's secrets moved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
import pytest

from cogs.drawings.spytrap_cards import FLAGS
from cogs.drawings.spytrap_cards import card_label as spy_card
from cogs.drawings.zaptrap_words import card_label as zap_card
from cogs.table.layout import Picture
from cogs.table.model import Table
from cogs.texts import speaking
from tests.fault.twins import audit_game, ui_class

# (players, options, seed) per game: small games that still reach every phase. Spy Trap's seeds
# reach every decision between them (steal, guess, immunity, keep, challenge, swap); Zap or Trap
# plays both the team game and the individual one; Trap both setups.
GAMES: dict[str, list[tuple[int, dict[str, Any], int]]] = {
    "zipzap": [(4, {"rounds": 2}, 5), (3, {"rounds": 2, "scoring": "first_out"}, 11)],
    "zaptrap": [(4, {"target": 3}, 5), (5, {"target": 3}, 11)],
    "spytrap": [(4, {"round_limit": 10}, 31), (3, {"round_limit": 10}, 7)],
    "gifttrap": [(4, {"track_length": 8}, 5), (5, {"track_length": 6, "strategy_cards": False}, 11)],
    "trap": [(2, {"quick_setup": True}, 5), (2, {"variant": "king"}, 11)],
}
# What each game's twins must have dealt again at least once: proof the twins hide something.
SECRETS = {
    "zipzap": {"hands", "deck", "seed"},
    "zaptrap": {"hands", "deck", "choices", "last_signals", "signal_history", "seed"},
    "spytrap": {"hands", "piles", "deck", "used", "identity", "id_discard", "learned", "pending_id", "seed"},
    "gifttrap": {"gives", "ranks", "give_more", "get_more"},
    "trap": {"seed"},  # everything else in Trap is on the board
}
CASES = [
    pytest.param(key, players, options, seed, id=f"{key}-{players}p-seed{seed}")
    for key, runs in GAMES.items()
    for players, options, seed in runs
]


@pytest.mark.parametrize(("key", "players", "options", "seed"), CASES)
def test_nothing_shown_depends_on_a_secret(
    key: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """Twins of sampled states render identically for the spectator and for every seat.

    Seen to fail (throwaway runs, each leak a line added to a real renderer, patched in by a
    pytest plugin) on exactly that game's two cases: a Zip Zap panel that also listed the next
    seat's hand, and a Zip Zap table footer naming the deck's top card; a Zap or Trap panel
    listing every side's signal choice; a Spy Trap panel naming the next seat's identity; a
    GiftTRAP panel with the next seat's gives; a Trap table footer showing the seed (which
    decides the quick setup's arrows and the referee's moves). The leak tests below keep three
    table leaks for good."""
    report = audit_game(key, players, options, seed)
    assert report.differences == [], "\n".join(report.differences[:5])
    assert report.states >= 8, "too few states sampled to mean anything"
    expected = set(SECRETS[key])
    if options.get("strategy_cards") is False:
        expected -= {"give_more", "get_more"}  # no Give More or Get More cards at this table
    missing = expected - set(report.moved)
    assert not missing, f"the twins never dealt these again: {missing}"


POLISH_CASES = [
    pytest.param(key, *runs[0], id=f"{key}-{runs[0][0]}p-seed{runs[0][2]}-pl") for key, runs in GAMES.items()
]


@pytest.mark.parametrize(("key", "players", "options", "seed"), POLISH_CASES)
def test_nothing_shown_depends_on_a_secret_in_polish(
    key: str, players: int, options: dict[str, Any], seed: int
) -> None:
    """The same audit with everything drawn in Polish (issue 31): a translation is text too, and
    one that put a secret in (a plural chosen by a hidden count, a name of a hidden card) would show
    here. Seen to fail in Polish with the Zap or Trap hands leak below (``leaky_zaptrap_hands``
    patched in): 150 differences, the hands worded in Polish ("podwójna Splunt-Yarrowax")."""
    with speaking("pl"):
        report = audit_game(key, players, options, seed)
    assert report.differences == [], "\n".join(report.differences[:5])
    assert report.states >= 8


# --- the audit catches what the string audits miss ----------------------------------------------


def leaky_spytrap_piles(embed: discord.Embed, table: Table) -> None:
    """Spy Trap's table with every spy's hand and face-down pile printed under it."""
    state: Any = table.state
    for seat in table.seats:
        hand = ", ".join(spy_card(c) for c in state.hands[seat.seat]) or "—"
        pile = ", ".join(spy_card(c) for c in state.piles[seat.seat]) or "—"
        embed.add_field(name=f"{seat.name}'s cards", value=f"Hand: {hand}\nPile: {pile}"[:1024])


def leaky_spytrap_flags(embed: discord.Embed, table: Table) -> None:
    """Spy Trap's table with each spy's identity as a flag beside their name."""
    state: Any = table.state
    for i, embed_field in enumerate(embed.fields[: len(table.seats)]):
        flag = FLAGS[state.identity[i]]
        embed.set_field_at(
            i, name=f"{flag} {embed_field.name}", value=embed_field.value, inline=bool(embed_field.inline)
        )


def leaky_zaptrap_hands(embed: discord.Embed, table: Table) -> None:
    """Zap or Trap's table with every player's hand printed under it."""
    state: Any = table.state
    view = state.view(None)
    hands = [f"{s.name}: " + " · ".join(zap_card(c, view) for c in state.hands[s.seat]) for s in table.seats]
    embed.add_field(name="Hands", value="\n".join(hands)[:1024], inline=False)


Leak = Callable[[discord.Embed, Table], None]
LEAKS: dict[str, tuple[str, Leak]] = {
    "spytrap-piles": ("spytrap", leaky_spytrap_piles),
    "spytrap-flags": ("spytrap", leaky_spytrap_flags),
    "zaptrap-hands": ("zaptrap", leaky_zaptrap_hands),
}


def leak_into(monkeypatch: pytest.MonkeyPatch, cls: type, leak: Leak) -> None:
    """Make ``cls.table_embed`` draw as before, plus the leak."""
    drawn = cls.table_embed  # type: ignore[attr-defined]

    def table_embed(self: Any, table: Table) -> discord.Embed:
        embed = drawn(self, table)
        leak(embed, table)
        return embed

    monkeypatch.setattr(cls, "table_embed", table_embed)


@pytest.mark.parametrize("leak", list(LEAKS))
def test_the_audit_reports_a_leaky_table(monkeypatch: pytest.MonkeyPatch, leak: str) -> None:
    """The three leaks of issue 11 that every string-matching audit let through, put into the
    real game UI's table_embed: the twin audit reports each, on the public table.

    The string audits were run once against each of these renderers (a throwaway pytest plugin
    wrapping Referee.register, so every bot's freshly loaded cog drew the leak; the leak was seen
    in the table message): tests/fault/test_secrecy_many_games.py, tests/e2e/test_spytrap_game.py
    and tests/e2e/test_zaptrap_secrecy.py, 14 tests, all passed with each leak in place. They
    look for "the <country> spy" and for signals, never for cards or flags."""
    key, renderer = LEAKS[leak]
    # The class the cog registers now: each bot's load_extension imports the cog module afresh.
    leak_into(monkeypatch, ui_class(key), renderer)
    players, options, seed = GAMES[key][0]
    report = audit_game(key, players, options, seed, per_phase=1, every=40)
    assert report.differences, f"the {leak} leak went unnoticed"
    # `/table status` draws the same table embed, so the leak shows there too, and nowhere else.
    elsewhere = [
        d
        for d in report.differences
        if not any(f" {part}." in d for part in ("table_embed", "table_status", "table_message"))
    ]
    assert not elsewhere, elsewhere[:3]
    spectator = [d for d in report.differences if "observer None:" in d]
    assert spectator, "the leak should show to a spectator too"


@pytest.mark.parametrize("leaks_in", ["alt", "bytes"])
def test_the_audit_reports_a_picture_that_shows_a_secret(
    monkeypatch: pytest.MonkeyPatch, leaks_in: str
) -> None:
    """A picture on Zap or Trap's table (``GameUI.table_pictures``, laid out by
    cogs/table/layout.py) whose alt text, or whose bytes alone, are drawn from the hands: the
    twin audit reports it on the table message and in `/table status`, which both show the
    table's pictures. Before the audit rendered through the layouts it compared the game's
    embed only, and this leak was invisible to it: both seen to fail with ``laid_out`` in
    tests/fault/twins.py returning nothing, and the bytes one with only the attached bytes
    left out of it."""
    cls = ui_class("zaptrap")

    def table_pictures(self: Any, table: Table) -> list[Picture]:
        hands = str(getattr(table.state, "hands", ""))
        alt = "The table." + (f" Hands: {hands}" if leaks_in == "alt" else "")
        data = b"PNG" + (hands.encode() if leaks_in == "bytes" else b"")
        return [Picture("table.png", data, alt)]

    monkeypatch.setattr(cls, "table_pictures", table_pictures, raising=False)
    players, options, seed = GAMES["zaptrap"][0]
    report = audit_game("zaptrap", players, options, seed, per_phase=1, every=40)
    assert any(" table_message." in d for d in report.differences), report.differences[:3]
    assert any(" table_status." in d for d in report.differences), report.differences[:3]
    elsewhere = [d for d in report.differences if " table_message." not in d and " table_status." not in d]
    assert not elsewhere, elsewhere[:3]
