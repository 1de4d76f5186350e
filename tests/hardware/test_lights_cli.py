"""``pipgammon lights``: the wiring walk and the plan viewer, on gpiozero's mock pins."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import tomllib
from collections.abc import Callable
from pathlib import Path

import cv2
import pytest
from gpiozero.pins.mock import MockFactory

from engine.lights import GREEN, RED, Light, LightPlan
from pipgammon.cli import main

EXAMPLE = Path(__file__).parents[2] / "hardware" / "pins.example.toml"
History = Callable[[MockFactory, int], list[float]]


def run(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(args, out), out.getvalue()


@pytest.fixture
def small_build(tmp_path: Path) -> Path:
    """The example's direct-GPIO build as its own pin map file."""
    section = tomllib.loads(EXAMPLE.read_text())["small-build"]["hardware"]
    lines = ["[hardware]", f'backend = "{section["backend"]}"', f"buses = {json.dumps(section['buses'])}"]
    for table in ("lamps", "buttons", "buzzer"):
        lines.append(f"[hardware.{table}]")
        lines += [f"{key} = {json.dumps(value)}" for key, value in section[table].items()]
    path = tmp_path / "small.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_walk_lights_every_wired_lamp_once_and_reports_a_button(
    pwm_factory: MockFactory, history: History, small_build: Path
) -> None:
    end_turn = pwm_factory.pin(5)

    class Player(io.StringIO):
        """The output, and a player who presses end turn when asked to."""

        def write(self, text: str) -> int:
            if text.startswith("press each button"):
                end_turn.drive_low()
                threading.Timer(0.1, end_turn.drive_high).start()
            return super().write(text)

    out = Player()
    code = main(["lights", "--test", "--pins", str(small_build), "--seconds-per-lamp", "0",
                 "--duration", "0.6"], out)
    assert code == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "lamp  1/18: point-1    GPIO 4"
    assert lines[17] == "lamp 18/18: status     GPIO 25"
    assert lines[18] == "buzzer: played accept on GPIO 13"
    assert lines[-1] == "button end-turn:short"
    for pin in (4, 17, 27, 22, 10, 9, 11, 26, 19, 20, 21, 12, 7, 8, 18, 23, 24, 25):
        assert history(pwm_factory, pin) == [0.0, 1.0, 0.0], pin  # each lamp lit exactly once


def test_the_walk_on_a_595_chain_names_chip_and_output(pwm_factory: MockFactory) -> None:
    code, text = run(["lights", "--test", "--seconds-per-lamp", "0", "--duration", "0"])
    assert code == 0
    assert "lamp 25/30: bar        chip 3 QA" in text.splitlines()


def test_the_walk_runs_on_a_laptop_with_the_mock_pin_factory() -> None:
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock")
    env.pop("GPIOZERO_MOCK_PIN_CLASS", None)
    done = subprocess.run(
        [sys.executable, "-m", "pipgammon", "lights", "--test", "--seconds-per-lamp", "0",
         "--duration", "0.1"],
        env=env, capture_output=True, text=True, timeout=60, check=False, cwd=Path(__file__).parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\nlamp ") == 29 and done.stdout.startswith("lamp  1/30: point-1")


def test_show_prints_the_board_and_draws_it(tmp_path: Path) -> None:
    plan = LightPlan.dark().with_points({8: Light.steady(GREEN), 6: Light.blink(RED)})
    source, picture = tmp_path / "plan.json", tmp_path / "board.png"
    source.write_text(json.dumps(plan.to_dict()))
    code, text = run(["lights", "--show", str(source), "--backend", "sim", "--png", str(picture)])
    assert code == 0
    assert "R!" in text and " G " in text
    image = cv2.imread(str(picture))
    assert image is not None and image.shape[:2] == (620, 1000)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--show", "missing.json", "--backend", "sim"], "missing.json: cannot read it"),
        (["--show", "{plan}", "--backend", "595", "--png", "x.png"], "--png draws the simulated board"),
        (["--test", "--backend", "sim", "--png", "x.png"],
         "lights: --png draws the plan of --show; --test has no picture to draw"),
        (["--show", "{plan}", "--backend", "sim", "--seconds-per-lamp", "1"],
         "--seconds-per-lamp paces --test"),
        (["--show", "{plan}", "--backend", "sim", "--at", "1"], "--at is the moment --png draws"),
        (["--test", "--backend", "sim", "--at", "1"], "--at is the moment --png draws"),
        (["--show", "{bad}", "--backend", "sim"],
         "bad.json: not a light plan (lamp 'point-1': {'pattern': 'flash', 'colour': '#ffffff'} is not a "
         "pattern (off, steady, blink, pulse) and a colour ('#rrggbb'))"),
        (["--show", "{listed}", "--backend", "sim"],
         'listed.json: not a light plan (it holds a list; a plan is a JSON object of lamps, e.g. '
         '{"point-1": {"pattern": "steady", "colour": "#00c800"}})'),
        (["--show", "{binary}", "--backend", "sim"], "binary.json: not UTF-8 text (at byte offset 1)"),
        (["--show", "{deep}", "--backend", "sim"], "deep.json: not a light plan (nested too deeply)"),
        (["--test", "--pins", "{conflict}"], "hardware.lamps.bar and hardware.buttons.mode both use GPIO 16"),
        (["--test", "--backend", "gpio"], "the gpio backend needs [hardware.lamps]"),
        (["--test", "--seconds-per-lamp", "-1"],
         "lights: argument --seconds-per-lamp: expected seconds from 0 to 86400 (a day), got '-1'"),
        (["--test", "--backend", "sim", "--seconds-per-lamp", "nan"], "--seconds-per-lamp: expected"),
        (["--show", "{plan}", "--backend", "sim", "--duration", "nan"], "argument --duration: expected"),
        (["--show", "{plan}", "--backend", "sim", "--duration", "-1"], "argument --duration: expected"),
        (["--show", "{plan}", "--backend", "sim", "--at", "nan"], "argument --at: expected"),
        (["--show", "{plan}", "--backend", "sim", "--at", "inf"], "argument --at: expected"),
        (["--show", "{plan}", "--backend", "sim", "--duration", "1e300"], "argument --duration: expected"),
        (["--show", "{plan}", "--backend", "sim", "--png", "out.xyz"],
         "argument --png: expected a file name ending .png, got 'out.xyz'"),
        (["--show", "{plan}", "--backend", "sim", "--png", "{folder}"], "shots.png is a folder"),
        (["--show", "{plan}", "--backend", "sim", "--png", "{nowhere}"],
         "board.png: cannot write the picture (No such file or directory)"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    files = {"plan": tmp_path / "plan.json", "bad": tmp_path / "bad.json", "conflict": tmp_path / "pins.toml",
             "folder": tmp_path / "shots.png", "nowhere": tmp_path / "no" / "board.png",
             "binary": tmp_path / "binary.json", "deep": tmp_path / "deep.json",
             "listed": tmp_path / "listed.json"}
    files["folder"].mkdir()
    files["binary"].write_bytes(b"{\xff}")
    files["deep"].write_text("[" * 100000 + "]" * 100000)
    files["plan"].write_text("{}")
    files["listed"].write_text('[{"point-1": {"pattern": "steady", "colour": "#00c800"}}]')
    files["bad"].write_text('{"point-1": {"pattern": "flash", "colour": "#ffffff"}}')
    files["conflict"].write_text(
        '[hardware]\nbackend = "gpio"\nlamps = { bar = 16 }\nbuttons = { mode = 16 }\n')
    code, _ = run(["lights", *(a.format(**{k: str(v) for k, v in files.items()}) for a in args)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("pipgammon: ") and message in err and err.count("\n") == 1
