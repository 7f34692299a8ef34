"""The lobby says what a computer seat is worth in the rating (issue 33: "games against computers
are rated against a fixed, documented rating per computer level ... said on the lobby").

Seen failing on the main of 29 Nov 2026: the lobby named "Robo 1 (casual)" and nothing else, so a
person learnt what the game did to their rating only from the results."""

from __future__ import annotations

from typing import Any

import pytest

from db.ratings import COMPUTER_RATINGS, PROVISIONAL_GAMES, computer_rating, shown_rating
from tests.e2e.simhelpers import texts
from tests.e2e.zipzap_driver import open_lobby


def lobby_text(message: Any) -> str:
    return "\n".join(texts(message))


def test_a_computer_rating_is_shown_as_a_settled_person_rating() -> None:
    """The lobby's number is the one the results and /stats would show for that strength (the one
    mapping, shown_rating), never provisional: a computer's rating does not move."""
    for level, (mu, sigma) in COMPUTER_RATINGS.items():
        shown = computer_rating(level)
        assert shown == shown_rating(mu, sigma, PROVISIONAL_GAMES)
        assert not shown.provisional and "?" not in str(shown)
    assert str(computer_rating("casual")) == "1300"
    assert str(computer_rating("hard")) == "1700"


@pytest.mark.simcord(settle_timeout=20)
async def test_the_lobby_says_each_seated_computer_levels_fixed_rating(simcord_env: Any) -> None:
    t = await open_lobby(simcord_env, seats=4, cpu=None, people=("alice",))
    before = lobby_text(t["channel"].last_message)
    assert "fixed rating" not in before, "no computer sits yet: nothing to say"

    await t["host"].click(t["lobby"], label="Add computer: casual")
    await t["host"].click(t["lobby"], label="Add computer: casual")
    await t["host"].click(t["lobby"], label="Add computer: sharp")
    after = lobby_text(t["channel"].last_message)
    assert "🤖 casual computers play at a fixed rating of 1300" in after
    assert "🤖 sharp computers play at a fixed rating of 1620" in after
    assert after.count("casual computers play") == 1, "one line per level, not per seat"


@pytest.mark.simcord(settle_timeout=20)
async def test_the_line_speaks_the_tables_language(simcord_env: Any) -> None:
    t = await open_lobby(simcord_env, seats=3, cpu=None, people=("alice",), language="de")
    await t["host"].click(t["lobby"], label="Computer: locker")
    text = lobby_text(t["channel"].last_message)
    assert "1300" in text and "fixed rating" not in text, text
