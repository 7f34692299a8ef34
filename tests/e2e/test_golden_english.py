"""English must not change: everything the bot sends, for whole games of all five titles, byte for
byte as recorded in tests/e2e/golden/ (the guard for moving every text to gettext catalogs, where
engines emit message ids and parameters and the cogs render them through a catalog).

**What is compared.** The JSON body of each REST call the bot would make, as discord.py builds it
(Components V2 layouts, content, embeds, allowed mentions, the attachments' file names, each
picture's alt text; no picture bytes):

- *Render level* (``test_render``, one case per game, options and seats; tests/e2e/golden/render.py):
  a recorded game replayed through the referee's real code with no Discord: the lobby as posted and
  as each Join and computer changes it (with its note), the rules asked at the table, the start,
  every event's line at every step, every post (pings, turn lines and their edits in place, round
  results, the final results with ratings and their buttons), and at sampled moments (evenly spread,
  plus wherever an event of a new kind happens) the table message, each person's **My hand** and
  the refusals they get for a few illegal actions (chosen by legality alone, answered as to a
  public button), for one person in turn the panel's own steps ("nav-…") and a refusal on the panel
  (the panel with the reason), `/table status` and the History; the finished table, and the
  answers to buttons that no longer play. ``test_texts``: `/help`, and each game's quick start, full
  rules and house rulings away from a table.
- *Discord level* (``test_session``, tests/e2e/golden/sessions.py): short scripted SimCord
  sessions with the real bot, people only (nothing decided by timing): `/help` and every game's
  `/… rules`; a Zip Zap lobby opened, joined, refused, re-seated and started, its rules, a spectator
  refused, a whole game, the replay, leaderboard, record and history; a lobby cancelled, and a Trap
  game typed from the keyboard with a move out of turn, one by someone not playing, one off the
  board and one that isn't a move, the History, `/table status`, a refused and an accepted
  `/table stop`. Every REST call (method, path, query, JSON) is compared,
  with snowflakes and interaction tokens as ordinal placeholders, Discord timestamps and ISO times
  as fixed marks, and nonces dropped (sessions.py, ``Normaliser``).

**When the golden data may be written again.** Only for an intended change of English (a reworded
sentence, a fixed typo, a new text), and only after reading the diff: run ``python -m
tests.e2e.golden`` to see what differs, ``python -m tests.e2e.golden --write`` to write it, and
review ``git diff tests/e2e/golden`` before committing it with the change that caused it. Never to
make this test pass during the catalog move: there a difference is the bug. A change of the rules
or of a computer player does not move the data (each case replays its recorded actions); a case
added, or rules that make a recorded action illegal, need ``--write --new-games``.

**Seen failing.** One word of an engine's event text changed (Trap's drop, ``"dropped {what} on
{action}."`` → ``"placed …"`` in rules/trap/state.py) failed the three Trap cases (e.g. 39 of 446
records of trap-5-quick: the event line, the typed move's answer, the table's Latest lines, the
History, the move record) and the trap-keyboard session; one word of a panel text (Zip Zap's ``"Your
hand — 13 cards"`` → ``"Your cards — …"`` in cogs/zipzap.py) failed both Zip Zap cases (69 of 262
records of zipzap-2p-cards) and the zipzap-night session; one word of a refusal (Trap's "It is not
your turn: wait for the other player" → "… your opponent") failed the Trap cases and session too.
Each report names the case, step and surface (or REST call) of the first records that differ and
shows the changed line in a diff. The changes were reverted.

**Determinism.** The render level has no clock but its own (a virtual one) and no Discord; the
sessions use SimCord's virtual clock, fixed seeds and no computer players; both were run repeatedly,
in fresh processes (different hash seeds), with identical output. The sessions use the usual
database fixture (SQLite, or PostgreSQL with TEST_DATABASE_URL).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.e2e.golden import DISCORD, differences, dumps, read, write
from tests.e2e.golden.render import CASES, Case, golden_path, produce, produce_texts, recorded_actions
from tests.e2e.golden.sessions import SESSIONS

WRITING = os.environ.get("GOLDEN_WRITE") == "1"  # set by ``python -m tests.e2e.golden --write``


def check(name: str, expected: list[str], actual: list[str]) -> None:
    report = differences(name, expected, actual)
    if report is not None:
        pytest.fail(
            report + "\n\nIf this English change is intended, write the golden data again "
            "(python -m tests.e2e.golden --write) and review the diff.",
            pytrace=False,
        )


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_render(case: Case) -> None:
    actions = recorded_actions(case)
    assert actions is not None, (
        f"{case.id}: no recorded game (python -m tests.e2e.golden --write --new-games)"
    )
    check(case.id, read(golden_path(case.id)), produce(case, actions))


def test_texts() -> None:
    check("texts", read(golden_path("texts")), produce_texts())


@pytest.mark.parametrize("name", list(SESSIONS))
@pytest.mark.simcord(settle_timeout=20)
async def test_session(simcord_env: Any, simcord_bot: Any, name: str) -> None:
    session = await SESSIONS[name](simcord_env, simcord_bot)
    assert not simcord_env.errors, simcord_env.errors
    lines = [dumps(record) for record in session.records()]
    path = DISCORD / f"{name}.jsonl"
    if WRITING:
        write(path, lines)
        return
    check(name, read(path), lines)
