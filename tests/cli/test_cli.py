"""The command line per CONTRACT.md: main(argv) called directly, and once as a real process."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from engine.events import Event
from engine.gnubg_id import position_from_id
from engine.lights import AMBER, RED, Light, LightPlan
from engine.position import Position
from hardware.sim import HEIGHT, WIDTH, _geometry
from pipgammon.cli import main
from pipgammon.demo import Moment, _picture


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    out = io.StringIO()
    code = main(argv, out)
    return code, out.getvalue(), capsys.readouterr().err


def test_moves_json_follows_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["moves", "--position", "4HPwATDgc/ABMA", "--dice", "3-1", "--json"], capsys)
    assert code == 0 and err == ""
    answer = json.loads(out)
    assert {"position", "dice", "variant", "plays"} <= set(answer)
    assert answer["stage"] == "3-1"
    assert answer["position"] == "4HPwATDgc/ABMA" and answer["dice"] == [3, 1]
    assert answer["variant"] == "standard" and len(answer["plays"]) == 16
    assert {"moves": "8/5 6/5", "position": "4HPwATCwZ/ABMA"} in answer["plays"]
    for play in answer["plays"]:
        position_from_id(play["position"])  # every result is a valid ID


def test_moves_with_no_legal_play_is_an_empty_list(capsys: pytest.CaptureFixture[str]) -> None:
    text = "W 12:5 17:3 19:6 bar:1 | B 1:2 2:2 3:2 4:2 5:2 6:5"
    code, out, _ = run(["moves", "--position", text, "--dice", "6-5", "--json"], capsys)
    assert code == 0 and json.loads(out)["plays"] == []


@pytest.mark.parametrize(
    ("variant", "position", "dice", "header", "play"),
    [("standard", "start", "6-6", "4HPwATDgc/ABMA 6-6 (standard): 11 legal plays\n", "13/7(4)"),
     ("standard", "W 1:1 off:14 | B 24:1 off:14", "6-5", "6-5 (standard): 1 legal play\n", "24/13"),
     # The stage is the roll called acey-deucey: the variant is named once, not twice.
     ("acey-deucey", "start", "1-2", "W pool:15 | B pool:15 1-2 (acey-deucey): 2 legal plays\n",
      "in/24 in/23"),
     # Puff plays the smaller die first, so the stage gives 4-2 in that order.
     ("puff", "start", "4-2", "W pool:15 | B pool:15 2-4 (puff): 1 legal play\n", "in/23 in/21")],
)
def test_moves_text_output_names_the_stage_the_variant_and_the_count(
    variant: str, position: str, dice: str, header: str, play: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["moves", "--variant", variant, "--position", position, "--dice", dice], capsys)
    assert code == 0 and out.splitlines(keepends=True)[0].endswith(header) and play in out


def test_batch_answers_each_line_in_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "cases.jsonl"
    batch.write_text(
        '{"position": "4HPwATDgc/ABMA", "dice": [6, 5]}\n\n'
        '{"position": "4HPwATDgc/ABMA", "dice": "2-2"}\n'
    )
    code, out, _ = run(["moves", "--batch", str(batch)], capsys)
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [line["dice"] for line in lines] == [[6, 5], [2, 2]]


def test_variants_json_lists_standard(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["variants", "--json"], capsys)
    variants = json.loads(out)
    assert code == 0 and variants[0]["name"] == "standard"
    assert {"name", "title", "summary"} <= set(variants[0])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["moves", "--position", "nonsense", "--dice", "3-1"], "not a gnubg Position ID"),
        # Text, not an ID: what the text lacks is named (once it was "not a gnubg Position ID").
        (["moves", "--position", "W 1:2", "--dice", "3-1"], "position text 'W 1:2' has no '| B ...' part"),
        (["moves", "--position", "B", "--dice", "3-1"], "position text 'B' has no '| W ...' part"),
        (["moves", "--variant", "puff", "--position", "W pool:15", "--dice", "3-1"],
         "position text 'W pool:15' has no '| B ...' part"),
        (["moves", "--position", "4HPwATDgc/ABMA", "--dice", "9-1"], "not a roll"),
        # The ID and the text of the board with every checker off are refused alike.
        (["moves", "--position", "AAAAAAAAAAAAAA", "--dice", "3-1"], "both sides have borne off"),
        (["moves", "--position", "W | B", "--dice", "3-1"], "both sides have borne off"),
        (["moves", "--position", "4HPwATDgc/ABMA"], "give --position ID and --dice"),
        (["moves", "--batch", "/no/such/file"], "cannot read batch file"),
        (["moves", "--position", "start", "--dice", "3-1", "--variant", "chess"], "unknown variant"),
        (["moves", "--position", "W 1:16 | B 2:1", "--dice", "3-1"], "white has 16"),
        (["frobnicate"], "pipgammon: argument command: invalid choice"),
        (["variants", "--frobnicate"], "pipgammon: unrecognized arguments: --frobnicate"),
        (["moves", "--dice"], "pipgammon: moves: argument --dice: expected one argument"),
        # argparse takes a value beginning with '-' for an option: the way round it is named.
        (["read", "--corners", "-5,880,949,140,372,288,480,919", "x.png"],
         "read: argument --corners: expected one argument (if its value begins with '-', write "
         "--corners=VALUE)"),
        (["selfplay", "--match-to", "0"],
         "selfplay: argument --match-to: expected a whole number of points from 1 to 64, got '0'"),
        (["selfplay", "--match-to", "65"], "argument --match-to: expected"),
        (["selfplay", "--match-to", "-3"], "argument --match-to: expected"),
        (["moves", "--position", "start", "--dice", "6-4", "--player", "green"],
         "moves: argument --player: not a player: 'green' (expected 'white' or 'black')"),
        (["moves", "--batch", "-", "--player", "green"], "argument --player: not a player"),
        # The batch's own positions and dice would silently win over these.
        (["moves", "--batch", "cases.jsonl", "--position", "start"],
         "moves: give --batch FILE or --position ID and --dice A-B, not both"),
        (["moves", "--batch", "cases.jsonl", "--dice", "6-4"], "not both"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("pipgammon: ") and not err.startswith("pipgammon: pipgammon")


@pytest.mark.parametrize(
    ("out", "message"),
    [
        ("a-file", "cannot make the folder (a file is in the way)"),
        ("a-file/sub", "cannot make the folder (a file is in the way)"),
        ("/proc/no-such-folder", "cannot make the folder (No such file or directory)"),
    ],
)
def test_demo_out_that_cannot_be_a_folder_is_one_line(
    out: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("not a folder\n")
    code, _, err = run(["demo", "--out", out], capsys)
    assert code == 2 and err == f"pipgammon: demo --out {out}: {message}\n"


class _Rendered(Exception):
    """Raised where the demo begins its game: the folder was found fit and prepared by then."""


def _stop_at_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.synthetic_game

    def stop(*_: object, **__: object) -> None:
        raise _Rendered

    monkeypatch.setattr(vision.synthetic_game, "script_game", stop)


def test_demo_refuses_a_folder_it_did_not_make_and_leaves_it_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Found by a review: `demo --out` a folder of records deleted its journal and .mat and wrote
    # its own calibration over the one there, silently; `--out ""` did so in the current folder.
    _stop_at_the_game(monkeypatch)
    records = tmp_path / "records"
    records.mkdir()
    held = {"events.jsonl": '{"type": "roll"}\n', "match.mat": "a match\n", "calibration.json": "{}\n"}
    for name, text in held.items():
        (records / name).write_text(text)
    code, out, err = run(["demo", "--out", str(records)], capsys)
    assert code == 2 and out == ""
    assert err == (f"pipgammon: demo --out {records}: {records} holds calibration.json, events.jsonl, "
                   "match.mat and is not a folder the demo made (no .pipgammon-demo in it): give a new "
                   "or empty folder\n")
    assert {p.name: p.read_text() for p in records.iterdir()} == held
    monkeypatch.chdir(records)
    code, _, err = run(["demo", "--out", ""], capsys)
    assert code == 2
    assert err == "pipgammon: demo --out '': an empty name: give the folder for the demo's output\n"
    code, _, err = run(["demo", "--out", "."], capsys)
    assert code == 2 and "is not a folder the demo made" in err and err.count("\n") == 1
    assert {p.name: p.read_text() for p in records.iterdir()} == held


def test_demo_marks_a_new_or_empty_folder_and_clears_only_its_own_files_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pipgammon.demo import MARK

    _stop_at_the_game(monkeypatch)
    empty = tmp_path / "empty"
    empty.mkdir()
    for folder in (tmp_path / "new" / "out", empty):
        with pytest.raises(_Rendered):
            run(["demo", "--out", str(folder)], capsys)
        assert [p.name for p in folder.iterdir()] == [MARK]
    # A run before left its files; one of them now links to a calibration the demo did not write.
    service = tmp_path / "service.json"
    service.write_text("the service's calibration\n")
    (empty / "events.jsonl").write_text("the last demo's journal\n")
    (empty / "calibration.json").symlink_to(service)
    (empty / "notes.txt").write_text("a person's notes\n")
    with pytest.raises(_Rendered):
        run(["demo", "--out", str(empty)], capsys)
    assert sorted(p.name for p in empty.iterdir()) == [MARK, "notes.txt"]
    assert service.read_text() == "the service's calibration\n"


def test_demo_pictures_show_pulsing_and_blinking_lamps_lit(tmp_path: Path) -> None:
    """A pulse starts dark: drawn at 0 s, a re-roll's pulsing amber status lamp looked unlit."""
    plan = LightPlan.dark().with_lamps({"status": Light.pulse(AMBER), "point-6": Light.blink(RED)})
    reroll = Event("reroll", "", {"player": "white", "dice": [2, 4]})
    moment = Moment(reroll, "Cocked die: roll again", plan, Position.start(), None)
    _picture(tmp_path, moment, tmp_path / "p.jpg")
    leds = cv2.imread(str(tmp_path / "p.jpg"))[:HEIGHT, -WIDTH:]  # the simulated board, right of the camera
    x, y = _geometry()[1]["status"]
    b, g, r = (int(v) for v in leds[y, x])
    assert r > 180 and 90 < g < 190 and b < 80  # amber, lit
    x0, x1, base, _ = _geometry()[0][6]
    b, g, r = (int(v) for v in leds[base - 16, (x0 + x1) // 2])
    assert r > 160 and g < 80 and b < 80  # red, lit


def test_the_demo_page_labels_each_board_from_the_side_of_its_lines_player(tmp_path: Path) -> None:
    """An illegal play's line counts from the mover's side; its board once kept the rulebook's labels."""
    import re

    from pipgammon.demo import _page

    plan = LightPlan.dark().with_points({12: Light.blink(RED), 14: Light.blink(RED)})
    illegal = Event("illegal", "f3", {"player": "white", "dice": [3, 1], "points": [12, 14],
                                      "own_points": [13, 11], "bar": False, "nearest": "8/5 6/5"})
    opening = Event("opening", "f1", {"white": 3, "black": 1, "starter": "white"})
    page = _page([Moment(illegal, "", plan, Position.start(), None),
                  Moment(opening, "", LightPlan.dark(), Position.start(), None)],
                 ["a.jpg", "b.jpg"], tmp_path / "m.mat", "demo")
    white, plain = (re.findall(r'class="label"[^>]*>([0-9]+)<', svg) for svg in page.split("<svg")[1:])
    assert white == [str(25 - point) for point in range(1, 25)] and "numbered from White's side" in page
    assert plain == [str(point) for point in range(1, 25)]  # the opening is nobody's turn yet


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"position": "4HPwATDgc/ABMA"}\n', "cases.jsonl:1: expected"),
        ("not json\n", "cases.jsonl:1: not JSON"),
        ('{"position": "4HPwATDgc/ABMA", "dice": [1]}\n', "dice must be"),
        ('{"position": "4HPwATDgc/ABMA", "dice": [1, 2]}\n{"position": "x", "dice": [1, 2]}\n',
         "cases.jsonl:2: not a gnubg Position ID"),
        ('{"position": "W 19:15", "dice": [1, 2]}\n',
         "cases.jsonl:1: position text 'W 19:15' has no '| B ...'"),
        ('{"position": "4HPwATDgc/ABMA", "dice": [6, 4], "dice": [1, 2]}\n',
         "cases.jsonl:1: \"dice\" is given twice; which is meant?"),
        # A line's own variant was once ignored: the line was answered as standard.
        ('{"position": "start", "dice": [3, 1], "variant": "gioul"}\n',
         'cases.jsonl:1: "variant" cannot be given per line: give --variant NAME for the whole batch'),
        ('{"player": "black", "position": "start", "dice": [3, 1]}\n',
         'cases.jsonl:1: "player" cannot be given per line: give --player white|black for the whole batch'),
        ("\n" + "[" * 100000 + "]" * 100000 + "\n", "cases.jsonl:2: not JSON (nested too deeply)"),
    ],
)
def test_bad_batch_lines_name_the_line(
    content: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = tmp_path / "cases.jsonl"
    batch.write_text(content)
    code, _, err = run(["moves", "--batch", str(batch)], capsys)
    assert code == 2 and message in err and "Traceback" not in err


def test_a_batch_line_may_carry_keys_of_its_callers_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = tmp_path / "cases.jsonl"
    batch.write_text('{"position": "start", "dice": [3, 1], "id": 7, "expected": ["8/5 6/5"]}\n')
    code, out, _ = run(["moves", "--batch", str(batch)], capsys)
    plain = tmp_path / "plain.jsonl"
    plain.write_text('{"position": "start", "dice": [3, 1]}\n')
    assert code == 0 and run(["moves", "--batch", str(plain)], capsys)[1] == out


def test_binary_batch_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "cases.jsonl"
    batch.write_bytes(b"\xff\xfe\x00garbage")
    code, _, err = run(["moves", "--batch", str(batch)], capsys)
    assert code == 2 and "not UTF-8" in err


def test_a_batch_line_that_is_not_utf8_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "cases.jsonl"
    batch.write_bytes(b'{"position": "start", "dice": [6, 4]}\n{"position": "\xff"}\n')
    code, out, err = run(["moves", "--batch", str(batch)], capsys)
    assert code == 2 and out.count("\n") == 1  # line 1 was answered before line 2 was read
    assert err == f"pipgammon: {batch}:2: not UTF-8 text (invalid start byte)\n"


def test_selfplay_prints_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["selfplay", "--seed", "4"], capsys)
    assert code == 0
    assert "Opening roll" in out and "Position ID" in out and "Match ID" in out
    assert out.rstrip().splitlines()[-1].startswith("Result: ")


def test_the_installed_command_runs_as_a_process() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "pipgammon", "moves", "--position", "start", "--dice", "2-1", "--json"],
        capture_output=True, text=True, check=False,
    )
    assert completed.returncode == 0 and json.loads(completed.stdout)["plays"]


@pytest.mark.parametrize("given", [None, "3"])
def test_the_program_keeps_numpys_blas_to_one_thread_unless_told(given: str | None) -> None:
    """OpenBLAS's own threads made a frame half again to twice as slow to read beside another job
    (pipgammon/__init__.py): a process that starts from the package, as the command line and
    the service do, has numpy's BLAS on one thread, unless its environment says otherwise."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    script = ("import pipgammon, numpy, os; "
              "print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['OMP_NUM_THREADS'])")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split() == [given or "1", "1"]
