"""python -m rules, run as a user would: self-play, replays, scenarios with expectations."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from zipzap_helpers import make_deal

from rules.__main__ import main
from rules.replay import replay

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def scenario(expect: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "game": "zipzap",
        "players": 2,
        "options": {"rounds": 1},
        "seed": 1,
        "deal": make_deal([["R4"], ["R5", "W5", "G9"]], deck=["R3"]),
        "actions": actions,
        "expect": expect,
    }


def test_selfplay_prints_a_line_per_game_and_records_the_first(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    done = run_cli(
        "selfplay", "zipzap", "--games", "3", "--players", "3", "--seed", "5",
        "--levels", "casual,sharp", "--record", str(record),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["game 1 seed 5", "game 2 seed 6", "game 3 seed 7"]
    assert "virtual minutes" in lines[0] and "wins per level" in done.stdout
    data = json.loads(record.read_text())
    assert data["game"] == "zipzap" and data["seed"] == 5 and data["actions"]

    replayed = run_cli("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert "Seat " in replayed.stdout and "place 1" in replayed.stdout
    # The same file through the CLI's own code path gives the final state self-play reached.
    outcome = replay(data)
    assert outcome.ok and outcome.state.is_over()


def test_replay_of_a_scenario_meeting_its_expectations(tmp_path: Path) -> None:
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(scenario({"scores": [0, 10], "phase": "over", "winners": [0]},
                                        [{"seat": 0, "action": "R4+Z"}])))  # fmt: skip
    assert main(["replay", str(path)]) == 0


def test_a_failing_expectation_exits_1_with_a_diff(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(scenario({"scores": [0, 99]}, [{"seat": 0, "action": "R4+Z"}])))
    done = run_cli("replay", str(path))
    assert done.returncode == 1
    assert "scores: expected [0, 99], got [0, 10]" in done.stdout


def test_an_illegal_action_exits_1_with_its_reason_and_index(tmp_path: Path) -> None:
    path = tmp_path / "illegal.json"
    actions = [{"seat": 1, "action": "W5"}, {"seat": 0, "action": "R4"}]
    path.write_text(json.dumps(scenario({}, actions)))
    done = run_cli("replay", str(path))
    assert done.returncode == 1
    # The refusal as data: its code and parameters (the table words them for people).
    assert "Illegal action #0" in done.stdout
    assert 'does_not_follow {"card": "W5", "top": "R3"}' in done.stdout


def test_an_unfinished_scenario_prints_the_state(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "open.json"
    path.write_text(json.dumps(scenario({"control": None, "top": "R3"}, [])))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert 'flip {"card": "R3"}' in out and "Not over" in out
