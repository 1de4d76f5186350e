"""Shared fixtures: the GNU Backgammon oracle, run as a separate program."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pipgammon.gnubg import find_gnubg

ORACLE_DIR = Path(__file__).parent / "oracle"

# The oracle scripts run inside gnubg and import its module: never collect them.
collect_ignore_glob = ["oracle/gnubg_*.py"]


GnubgRunner = Callable[[str, list[dict[str, Any]]], list[dict[str, Any]]]


@pytest.fixture(scope="session")
def gnubg(tmp_path_factory: pytest.TempPathFactory) -> GnubgRunner:
    """Run one of tests/oracle/*.py inside gnubg over JSON-line cases; skip if gnubg is absent."""
    binary = find_gnubg()
    if binary is None:
        pytest.skip("GNU Backgammon is not installed (apt-get install gnubg); .ci/run installs it")
    workdir = tmp_path_factory.mktemp("gnubg")

    def run(script: str, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
        source, sink = workdir / f"{script}.in", workdir / f"{script}.out"
        source.write_text("".join(json.dumps(c) + "\n" for c in cases))
        env = dict(os.environ, PIPGAMMON_ORACLE_IN=str(source), PIPGAMMON_ORACLE_OUT=str(sink),
                   HOME=str(workdir))
        completed = subprocess.run(
            [binary, "-t", "-q", "-p", str(ORACLE_DIR / f"{script}.py")],
            env=env, cwd=workdir, capture_output=True, text=True, timeout=900, check=False,
        )
        if completed.returncode != 0 or not sink.exists():
            raise RuntimeError(f"gnubg failed ({completed.returncode}): {completed.stderr[-2000:]}")
        results = [json.loads(line) for line in sink.read_text().splitlines()]
        assert len(results) == len(cases), "gnubg answered fewer cases than it was given"
        return results

    return run
