"""No English left in a game played in another language (issue 31).

Every golden case (13 whole games of the five titles, with their lobbies, panels, refusals, posts,
results, History and `/table status`: tests/e2e/golden/render.py) is played again with the table
opened in Spanish, German, Brazilian Portuguese and Polish, every person's Discord app in that
language too; and `/help` and every game's quick start and full rules are asked in each. Whatever
would be sent must hold no English word of the referee's own texts that the language's catalogs do
not use themselves (tests/e2e/golden/leftovers.py says how the words are told apart): a text made
outside the catalogs (an f-string, an engine's or a data file's English) shows up here as its
words. The same payloads are checked against Discord's limits in every language.

Seen failing: with the Zap or Trap speed names left unmarked (``SPEED_NAMES`` shown raw), the
zaptrap cases report "relaxed" and "fast"; with the gift names shown from ``gifts.json`` as they
are, every GiftTRAP case reports the gifts' English words ("duck", "socks"…).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.golden.leftovers import leftovers
from tests.e2e.golden.render import CASES, Case, recorded_actions, render_case, texts

LANGUAGES = ("es", "de", "pt_BR", "pl")

# Discord's limits on what a message holds (the payloads of a whole game in a language whose words
# run longer than English must still fit).
BUTTON_LABEL = 80
SELECT_OPTION = 100
CONTENT = 2000
TEXT_DISPLAY_TOTAL = 4000


def report(found: dict[str, list[str]]) -> str:
    return "\n".join(
        f"{word!r} in: {' | '.join(t[:160] for t in seen)}" for word, seen in sorted(found.items())
    )


def limits(payload: Any, path: str = "") -> list[str]:
    """What in a payload is over Discord's limits (labels, options, content)."""
    problems: list[str] = []
    if isinstance(payload, dict):
        if payload.get("type") == 2 and len(str(payload.get("label") or "")) > BUTTON_LABEL:
            problems.append(f"{path}: button label {payload['label']!r}")
        if payload.get("type") == 3:
            for option in payload.get("options") or []:
                for key in ("label", "description", "value"):
                    if len(str(option.get(key) or "")) > SELECT_OPTION:
                        problems.append(f"{path}: select option {key} {option.get(key)!r}")
            if len(str(payload.get("placeholder") or "")) > 150:
                problems.append(f"{path}: placeholder {payload['placeholder']!r}")
        content = payload.get("content")
        if isinstance(content, str) and len(content) > CONTENT and "components" not in payload:
            problems.append(f"{path}: content of {len(content)} characters")
        for key, value in payload.items():
            problems.extend(limits(value, f"{path}.{key}"))
    elif isinstance(payload, list):
        for i, value in enumerate(payload):
            problems.extend(limits(value, f"{path}[{i}]"))
    return problems


def text_displays(payload: Any) -> int:
    """The characters of a Components V2 message's text displays, all together."""
    if isinstance(payload, dict):
        own = (
            len(payload["content"])
            if payload.get("type") == 10 and isinstance(payload.get("content"), str)
            else 0
        )
        return own + sum(text_displays(v) for v in payload.values())
    if isinstance(payload, list):
        return sum(text_displays(v) for v in payload)
    return 0


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_a_whole_game_speaks_only_its_language(case: Case, lang: str) -> None:
    actions = recorded_actions(case)
    assert actions is not None, f"{case.id}: no recorded game (tests/e2e/golden/render/)"
    records = render_case(case, actions, language=lang)
    payloads = [record["data"] for record in records]
    found = leftovers(payloads, lang, people=case.names)
    assert not found, f"English in a {lang} game of {case.id}:\n{report(found)}"
    over = [p for payload in payloads for p in limits(payload)]
    assert not over, f"over Discord's limits in {lang}:\n" + "\n".join(over[:20])
    assert max(text_displays(p) for p in payloads) <= TEXT_DISPLAY_TOTAL


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_and_rules_speak_only_the_readers_language(lang: str) -> None:
    payloads = [record["data"] for record in texts(lang)]
    found = leftovers(payloads, lang)
    assert not found, f"English in /help or the rules in {lang}:\n{report(found)}"
