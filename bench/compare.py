"""5. ``--compare REV``: the engine figures of another commit, measured by this same harness.

The commit is checked out with ``git worktree add`` into a temp folder (removed afterwards) and
``python -m bench --only engines --json -`` runs there with the same interpreter. The current
bench/ is copied into that worktree first, so both sides are measured by identical code (an older
commit may have no bench, or a different one) and only the engines differ. Games the other
commit does not have are listed as new, not compared.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import ROOT, Table

BENCH = Path(__file__).resolve().parent


def previous_engines(rev: str, engine_args: list[str], progress: Callable[[str], None]) -> dict[str, Any]:
    sha = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if sha.returncode != 0:
        raise RuntimeError(f"git does not know the revision {rev!r}: {sha.stderr.strip()}")
    commit = sha.stdout.strip()
    temp = Path(tempfile.mkdtemp(prefix="referee-bench-compare-"))
    tree = temp / "tree"
    try:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit],
            check=True,
            capture_output=True,
            text=True,
        )
        shutil.copytree(
            BENCH, tree / "bench", dirs_exist_ok=True, ignore=shutil.ignore_patterns("results", "__pycache__")
        )
        progress(f"compare: engines at {rev} ({commit[:10]}) in {tree}")
        env = dict(os.environ, PYTHONPATH=str(tree))
        child = subprocess.run(
            [sys.executable, "-m", "bench", "--only", "engines", "--json", "-", *engine_args],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
        )
        if child.returncode != 0:
            raise RuntimeError(f"the bench failed at {rev}:\n{child.stderr[-2000:]}")
        data = json.loads(child.stdout)
    finally:
        # Remove the worktree even after a failure, so no stray checkout or registration is left.
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
            capture_output=True,
            text=True,
        )
        subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], capture_output=True, text=True)
        shutil.rmtree(temp, ignore_errors=True)
    engines = data["results"]["engines"]
    # Guard against measuring the current tree twice (an import path leaking in from here).
    if not str(engines.get("rules_path", "")).startswith(str(tree)):
        raise RuntimeError(f"the child imported rules from {engines.get('rules_path')}, not from {tree}")
    return {"rev": rev, "commit": commit, "run_commit": data.get("commit"), "engines": engines}


def _ratio(now: Any, before: Any) -> float | None:
    if not isinstance(now, int | float) or not isinstance(before, int | float) or not before:
        return None
    return round(now / before, 3)


def ratios(current: dict[str, Any], previous: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    before = previous["engines"]["games"]
    for key, now in current["games"].items():
        then = before.get(key)
        if then is None:
            out[key] = {"status": "new (not in the other commit)"}
            continue
        if "error" in now or "error" in then:
            out[key] = {"status": "error", "current": now.get("error"), "previous": then.get("error")}
            continue
        out[key] = {
            "status": "compared",
            "actions_per_s": _ratio(now["actions_per_s"], then["actions_per_s"]),
            "games_per_s": _ratio(now["games_per_s"], then["games_per_s"]),
            "actions_per_cpu_s": _ratio(now["actions_per_cpu_s"], then["actions_per_cpu_s"]),
            "games_per_cpu_s": _ratio(now["games_per_cpu_s"], then["games_per_cpu_s"]),
            "decision_p50": {
                level: _ratio(d["p50_ms"], then["decision"].get(level, {}).get("p50_ms"))
                for level, d in now["decision"].items()
            },
            "decision_p99": {
                level: _ratio(d["p99_ms"], then["decision"].get(level, {}).get("p99_ms"))
                for level, d in now["decision"].items()
            },
        }
    gone = [k for k in before if k not in current["games"]]
    return {"games": out, "only_in_previous": gone}


def tables(result: dict[str, Any]) -> list[Table]:
    t = Table(
        f"Compare: current / {result['rev']} ({result['commit'][:10]}) — throughput >1 is faster now,"
        " decision time >1 is slower now",
        ["game", "actions/s", "games/s", "actions/cpu-s", "games/cpu-s", "decision p50 per level"],
    )
    for key, r in result["ratios"]["games"].items():
        if r["status"] != "compared":
            t.add(key, r["status"], "", "", "", "")
            continue
        levels = ", ".join(f"{lv} {v if v is not None else '—'}" for lv, v in r["decision_p50"].items())
        t.add(key, r["actions_per_s"], r["games_per_s"], r["actions_per_cpu_s"], r["games_per_cpu_s"], levels)
    if result["ratios"]["only_in_previous"]:
        t.notes.append(f"only in {result['rev']}: {', '.join(result['ratios']['only_in_previous'])}")
    t.notes.append("both sides measured by the current bench/ code; wall-clock ratios move with machine load")
    return [t]
