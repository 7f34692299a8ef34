"""How points are won (RULINGS.md §1): what a ZAP or TRAP scores and who gets it, and the final places.

Team game (4 or 6 players), by what the target's hand shows:
- "zap_set" / "trap_set": the caller's team scores the success value;
- "zap_miss": every other team scores the failure value; "trap_miss": the target's team does.
Individual game (3 or 5 players), where a ZAP belongs on the player on your right (whose signal you
watch) and a TRAP on anyone else:
- "A" a correct ZAP on a set: caller and target both score the success value;
- "B" a correct ZAP without a set: everyone but caller and target scores the failure value;
- "C" a ZAP on the wrong player: everyone but the caller scores the flat penalty;
- "D" a correct TRAP on a set: the caller alone scores the success value;
- "E" a correct TRAP without a set: the target alone scores the failure value;
- "F" a TRAP on the wrong player: everyone but the caller scores the flat penalty.
Success is 1, +1 for a five-set, +2 for each Dangerous Mission in the target's hand and +1 for each
Zip Zap (on a ZAP) or Be Free (on a TRAP) in the caller's hand; failure is 1, +2 for each
Dangerous Mission in the target's hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.base import Placement, Result
from rules.words import plural
from rules.zaptrap.cards import BE_FREE, DANGEROUS_MISSION, FIVE_SET, SPECIAL_NAMES, ZIP_ZAP, special_kind
from rules.zaptrap.views import SetView

WRONG_TARGET_PENALTY = 2
DANGEROUS_MISSION_BONUS = 2


@dataclass(frozen=True)
class CallScore:
    """What one call scores: ``value`` points to each unit in ``scorers``."""

    case: str
    scorers: list[int]
    value: int
    lines: list[str]


def score_call(
    call: str,
    hand: list[str],
    found: SetView | None,
    caller_hand: list[str],
    *,
    team_game: bool,
    units: int,
    caller_unit: int,
    target_unit: int,
    correct: bool,
) -> CallScore:
    """Score ``call`` ("ZAP" or "TRAP") on the target's ``hand``, whose best set is ``found``;
    ``correct`` says whether the individual game's target was the right one."""
    five = found is not None and found["count"] >= FIVE_SET
    dangerous = sum(1 for c in hand if special_kind(c) == DANGEROUS_MISSION)
    bonus_card = ZIP_ZAP if call == "ZAP" else BE_FREE
    bonus = sum(1 for c in caller_hand if special_kind(c) == bonus_card)

    word = call
    success_lines = [f"{word} on a set +1"]
    if five:
        success_lines.append("five-set +1")
    success_lines += ["Dangerous Mission in the target's hand +2"] * dangerous
    success_lines += [f"{SPECIAL_NAMES[bonus_card]} in the caller's hand +1"] * bonus
    failure_lines = [f"{word} on a hand without a set +1"]
    failure_lines += ["Dangerous Mission backfires +2"] * dangerous
    success = 1 + int(five) + DANGEROUS_MISSION_BONUS * dangerous + bonus
    failure = 1 + DANGEROUS_MISSION_BONUS * dangerous
    penalty_line = [
        f"{word} on the wrong player: penalty +{WRONG_TARGET_PENALTY}"
        if call == "ZAP"
        else f"TRAP on the player whose signal the caller watches: penalty +{WRONG_TARGET_PENALTY}"
    ]

    cu, tu = caller_unit, target_unit
    has_set = found is not None
    if team_game:
        case = ("zap_" if call == "ZAP" else "trap_") + ("set" if has_set else "miss")
        if has_set:
            scorers, value, lines = [cu], success, success_lines
        elif call == "ZAP":
            scorers, value, lines = [u for u in range(units) if u != cu], failure, failure_lines
        else:
            scorers, value, lines = [tu], failure, failure_lines
    elif call == "ZAP":
        if not correct:
            case, value, lines = "C", WRONG_TARGET_PENALTY, penalty_line
            scorers = [u for u in range(units) if u != cu]
        elif has_set:
            case, scorers, value, lines = "A", [cu, tu], success, success_lines
        else:
            case, value, lines = "B", failure, failure_lines
            scorers = [u for u in range(units) if u not in (cu, tu)]
    elif not correct:
        case, value, lines = "F", WRONG_TARGET_PENALTY, penalty_line
        scorers = [u for u in range(units) if u != cu]
    elif has_set:
        case, scorers, value, lines = "D", [cu], success, success_lines
    else:
        case, scorers, value, lines = "E", [tu], failure, failure_lines
    return CallScore(case, scorers, value, lines)


def final_result(
    team_of: list[int], scores: list[int], winners: list[int], team_win: bool, team_game: bool
) -> Result:
    """Every seat's place and points once the game is over; ``team_of`` gives each seat's unit and
    ``scores`` each unit's score."""
    players = len(team_of)
    seat_scores = [scores[team_of[s]] for s in range(players)]
    placements = []
    for seat in range(players):
        if seat in winners:
            place = 1
        elif team_win:
            others = [s for s in range(players) if s not in winners]
            place = 1 + len(winners) + sum(1 for o in others if seat_scores[o] > seat_scores[seat])
        else:
            # Partners share one score, so places count sides, not seats.
            place = 1 + sum(1 for score in scores if score > seat_scores[seat])
        placements.append(Placement(seat, place, seat_scores[seat]))
    top = seat_scores[winners[0]]
    # Sides as "seat N" / "seats N and M" (a team), which every renderer turns into names.
    if team_win:
        pair = sorted(winners, key=lambda s: -seat_scores[s])
        high, low = seat_scores[pair[0]], seat_scores[pair[1]]
        summary = (
            f"A successful ZAP wins it for seat {pair[0] + 1} and seat {pair[1] + 1} together "
            f"({high} and {plural(low, 'point')})."
        )
    else:
        units = sorted({team_of[s] for s in winners})
        sides = [_side_text([s for s in range(players) if team_of[s] == u]) for u in units]
        verb = "share the win" if len(sides) > 1 else ("win" if team_game else "wins")
        each = "" if len(sides) == 1 else " each"
        names = sides[0] if len(sides) == 1 else ", ".join(sides[:-1]) + " and " + sides[-1]
        summary = f"{names[:1].upper()}{names[1:]} {verb} with {plural(top, 'point')}{each}."
    return Result(tuple(placements), summary)


def _side_text(seats: list[int]) -> str:
    if len(seats) == 1:
        return f"seat {seats[0] + 1}"
    return "seats " + " and ".join(str(s + 1) for s in seats)


def sides_text(units: list[int], sides: list[list[int]], team_game: bool) -> str:
    """The units that scored, as the call's text names them ("the team of seats 1 and 3", "seat 2");
    ``sides`` lists each unit's seats."""
    if team_game:
        names = ["the team of seats " + " and ".join(str(s + 1) for s in sides[u]) for u in units]
    else:
        names = [f"seat {u + 1}" for u in units]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def scores_text(scores: list[int], sides: list[list[int]], team_game: bool) -> str:
    """Every unit's score, as the end of a round lists them ("seats 1 & 3: 5, seats 2 & 4: 2")."""
    if team_game:
        return ", ".join(
            "seats " + " & ".join(str(s + 1) for s in sides[u]) + f": {score}"
            for u, score in enumerate(scores)
        )
    return ", ".join(f"seat {u + 1}: {score}" for u, score in enumerate(scores))
