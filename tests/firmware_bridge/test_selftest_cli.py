"""``pipgammon bridge ...``: the fault-injection self-test and the other bridge commands."""

from __future__ import annotations

import io
import json
import types
from pathlib import Path

import pytest

from engine.lights import GREEN, Light, LightPlan
from firmware_bridge.firmware import board, wire
from firmware_bridge.framing import encode_lights
from firmware_bridge.simulator import SimulatedBoard
from pipgammon.cli import main

REQUIRED = {"frames", "delivered", "lost", "duplicated", "corrupt_detected", "retries", "p50_ms", "p99_ms"}


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(argv, out), out.getvalue()


def test_selftest_under_faults_and_unplugs_loses_nothing() -> None:
    # Two unplugs: a short one, and one that outlasts the firmware's 2 s watchdog.
    code, text = run(["bridge", "selftest", "--faults", "0.05", "--frames", "1500", "--unplugs", "2",
                      "--seed", "4", "--json"])
    report = json.loads(text)
    assert report.keys() >= REQUIRED
    assert code == 0, report
    assert (report["frames"], report["delivered"], report["lost"], report["duplicated"]) == (1500, 1500, 0, 0)
    # At least: a box slowed down by other jobs may also time a link out now and then.
    assert report["converged"] and report["reconnects"] >= 2 and report["offline_shown"] >= 1
    assert report["corrupt_detected"] > 0 and report["retries"] > 0
    assert report["buttons_pressed"] == report["buttons_received"] > 0
    assert report["buttons_lost"] == report["buttons_doubled"] == 0
    assert 0 < report["p50_ms"] <= report["p99_ms"]


def test_selftest_fails_when_the_firmware_applies_a_state_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    # Sabotage the firmware's stale-frame check: every copy of a frame is applied.
    # (No button presses: the sabotage breaks their acks too, and the test would wait.)
    sloppy = types.SimpleNamespace(**{**vars(wire), "newer": lambda a, b: True})
    monkeypatch.setattr(board, "wire", sloppy)
    code, text = run(["bridge", "selftest", "--faults", "0.2", "--frames", "300", "--unplugs", "0",
                      "--press-every", "0", "--json"])
    assert code == 1 and json.loads(text)["duplicated"] > 0


def test_selftest_prints_a_summary_without_json() -> None:
    code, text = run(["bridge", "selftest", "--frames", "50", "--unplugs", "0"])
    assert code == 0
    assert text.startswith("50 states shown, 50 applied, 0 superseded, 0 lost") and "median" in text


@pytest.mark.parametrize(("argv", "message"), [
    (["--frames", "0"], "--frames must be at least 1"),
    (["--faults", "1.5"], "--faults must be in [0, 1)"),
    (["--window", "0"], "--window must be at least 1"),
])
def test_bad_selftest_options_are_one_line(argv: list[str], message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["bridge", "selftest", *argv])[0] == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "--seconds", "-1"], "bridge simulate: argument --seconds: expected seconds from 0"),
    (["simulate", "--seconds", "nan"], "argument --seconds: expected seconds from 0"),
    # nan never returned: Condition.wait_for waited for ever.
    (["show", "--port", "loop://", "--timeout", "nan", "plan.json"],
     "bridge show: argument --timeout: expected seconds above 0 and at most 86400 (a day), got 'nan'"),
    (["show", "--port", "loop://", "--timeout", "-1", "plan.json"], "argument --timeout: expected"),
    (["show", "--port", "loop://", "--timeout", "0", "plan.json"], "argument --timeout: expected"),
])
def test_a_time_that_is_not_a_number_of_seconds_is_one_line(argv: list[str], message: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["bridge", *argv])[0] == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_show_sends_a_plan_file_to_the_board(sim: SimulatedBoard, tmp_path: Path) -> None:
    plan = LightPlan.dark().with_points({13: Light.blink(GREEN)})
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(plan.to_dict()))
    code, text = run(["bridge", "show", "--port", sim.path, str(path)])
    assert code == 0
    assert text.startswith("shown on board 53494d424f415244 (firmware 1.0.0, 57 LEDs): 1 lamp lit")
    assert sim.board.plan == encode_lights(plan)


def test_show_reports_a_bad_port_or_plan_in_one_line(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "plan.json"
    path.write_text('{"point-1": {"pattern": "glow", "colour": "#00ff00"}}')
    assert run(["bridge", "show", "--port", "/nonexistent/tty", str(path)])[0] == 2
    assert "plan.json: not a light plan" in capsys.readouterr().err
    path.write_bytes(b'{"point-1": "\xff"}')
    assert run(["bridge", "show", "--port", "/nonexistent/tty", str(path)])[0] == 2
    assert "plan.json: not UTF-8 text" in capsys.readouterr().err
    path.write_text("{}")
    assert run(["bridge", "show", "--port", "/nonexistent/tty", "--timeout", "0.2", str(path)])[0] == 2
    err = capsys.readouterr().err
    assert err.startswith("pipgammon: bridge show: no hello reply") and "cannot open /nonexistent/tty" in err


def test_simulate_prints_the_pty_path() -> None:
    code, text = run(["bridge", "simulate", "--seconds", "0.05"])
    assert code == 0 and text.startswith("/dev/pts/")
