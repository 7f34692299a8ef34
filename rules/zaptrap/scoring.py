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
from rules.zaptrap.cards import BE_FREE, DANGEROUS_MISSION, FIVE_SET, ZIP_ZAP, special_kind
from rules.zaptrap.views import SetView

WRONG_TARGET_PENALTY = 2
DANGEROUS_MISSION_BONUS = 2

# How a call's points are explained, one code per line (the cog words them; the call says whether
# it was a ZAP or a TRAP, and so which special card the "bonus" line means):
ON_SET = "on_set"  # the call on a set +1
FIVE_SET_LINE = "five_set"  # five-set +1
DANGEROUS = "dangerous"  # Dangerous Mission in the target's hand +2 (one line per card)
BONUS = "bonus"  # Zip Zap (ZAP) or Be Free (TRAP) in the caller's hand +1 (one line per card)
ON_NO_SET = "on_no_set"  # the call on a hand without a set +1
BACKFIRES = "backfires"  # Dangerous Mission backfires +2 (one line per card)
WRONG_TARGET = "wrong_target"  # the call on the wrong player: the penalty
LINES = (ON_SET, FIVE_SET_LINE, DANGEROUS, BONUS, ON_NO_SET, BACKFIRES, WRONG_TARGET)


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

    success_lines = [ON_SET]
    if five:
        success_lines.append(FIVE_SET_LINE)
    success_lines += [DANGEROUS] * dangerous
    success_lines += [BONUS] * bonus
    failure_lines = [ON_NO_SET]
    failure_lines += [BACKFIRES] * dangerous
    success = 1 + int(five) + DANGEROUS_MISSION_BONUS * dangerous + bonus
    failure = 1 + DANGEROUS_MISSION_BONUS * dangerous
    penalty_line = [WRONG_TARGET]

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
    ``scores`` each unit's score. How it was won (``how``, ``details``): "team_zap" (a successful
    ZAP: ``seats`` the caller and the target, more points first, and their ``points``), or by
    reaching the target: "player" (one player), "team" (one team) or "shared" (several sides
    level), with ``sides`` (each winning side's seats) and ``points`` (their score)."""
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
    if team_win:
        # The caller and the target together; the one with more points first.
        pair = sorted(winners, key=lambda s: -seat_scores[s])
        details = {"seats": pair, "points": [seat_scores[s] for s in pair]}
        return Result(tuple(placements), how="team_zap", details=details)
    units = sorted({team_of[s] for s in winners})
    sides = [[s for s in range(players) if team_of[s] == u] for u in units]
    how = "shared" if len(sides) > 1 else ("team" if team_game else "player")
    return Result(tuple(placements), how=how, details={"sides": sides, "points": top})


def legacy_line(line: str) -> str:
    """A line of a call stored before lines were codes (an English sentence), as its code."""
    if line in LINES:
        return line
    for ending, code in (
        (" on a set +1", ON_SET),  # text: a stored line read back
        ("five-set +1", FIVE_SET_LINE),  # text: a stored line read back
        ("in the target's hand +2", DANGEROUS),  # text: a stored line read back
        ("in the caller's hand +1", BONUS),  # text: a stored line read back
        (" on a hand without a set +1", ON_NO_SET),  # text: a stored line read back
        ("backfires +2", BACKFIRES),  # text: a stored line read back
    ):
        if line.endswith(ending):
            return code
    return WRONG_TARGET
