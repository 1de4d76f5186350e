"""`pipgammon replay`: a rendered game through vision, the referee and the journal, and a resume
after a crash at any event."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from engine.events import Event
from engine.referee import TURN_GOES_ON, RefereeConfig
from pipgammon.cli import main
from pipgammon.journal import load
from pipgammon.replay import Replay
from vision.calibration import calibrate
from vision.images import load as load_image
from vision.outline import find_corners
from vision.synthetic_game import GameScript, script_game, write_calibrated, write_video

#: The opening and the first turns of a seeded game: enough to judge plays, short to render.
BEATS = 60


def _short(seed: int) -> GameScript:
    script = script_game(seed, illegal_rate=0.3, tryout_rate=0.5)
    return dataclasses.replace(script, beats=script.beats[:BEATS],
                               truth=tuple(t for t in script.truth if t.beat < BEATS))


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[GameScript, Path, Path]:
    folder = tmp_path_factory.mktemp("game")
    # A game whose frames vision reads right (bench/referee.py measures how often vision does
    # on games nobody chose): this tests the pipeline and the journal, not the eyes.
    script = _short(7)
    frames, calibration, _ = write_calibrated(script, folder, size=(2028, 1520))  # the Pi HQ camera
    (folder / "calibration.json").write_text(calibration.to_json())
    return script, frames, folder / "calibration.json"


def _replay(frames: Path, calibration: Path, journal: Path, *extra: str) -> int:
    return main(["replay", str(frames), "--calibration", str(calibration), "--events", str(journal),
                 "--export", str(journal.with_suffix(".mat")), *extra])


def _judged(events: list[Event]) -> list[tuple[object, ...]]:
    kinds = ("opening", "roll", "accepted", "illegal", "no-play", "void-roll", "reroll")
    return [(e.type, e.details.get("player"), sorted(e.details.get("dice", [])), e.details.get("move"),
             e.details.get("points")) for e in events if e.type in kinds]


def test_a_replayed_game_says_what_its_truth_says(game: tuple[GameScript, Path, Path],
                                                  tmp_path: Path) -> None:
    script, frames, calibration = game
    journal = tmp_path / "events.jsonl"
    assert _replay(frames, calibration, journal) == 0
    events = list(load(journal).events)
    truth = [t.event for t in script.truth]
    assert _judged(events) == _judged(truth)
    assert any(e.type == "illegal" for e in events) and any(e.type == "accepted" for e in events)
    # The frames end mid-match: the .mat is what there is, and says so on a comment line first.
    mat = journal.with_suffix(".mat").read_text().splitlines()
    assert mat[0].startswith("; unfinished: stopped in game 1 of the 1-point match")
    assert mat[1] == " 1 point match"


def test_a_replay_cut_at_any_event_resumes_to_the_same_journal(game: tuple[GameScript, Path, Path],
                                                               tmp_path: Path) -> None:
    _, frames, calibration = game
    whole = tmp_path / "whole.jsonl"
    assert _replay(frames, calibration, whole) == 0
    lines = whole.read_bytes().splitlines(keepends=True)
    # And after every illegal play flagged: how it was judged rests on the boards seen since the
    # roll, which a resume must read again (the referee bench's game 2 once waited, resumed,
    # where the run had flagged the next board too).
    events = load(whole).events
    illegal = [i + 1 for i, event in enumerate(events) if event.type == "illegal"]
    assert illegal
    for cut in (1, 2, len(lines) // 2, len(lines) - 1, *illegal):
        journal = tmp_path / f"cut-{cut}.jsonl"
        # A crash after `cut` events were synced, in the middle of writing the next one.
        journal.write_bytes(b"".join(lines[:cut]) + lines[cut][:10])
        if cut in illegal:
            with Replay(None, RefereeConfig(), journal, resume=True) as replay:
                changed = next(e for e in reversed(events[:cut]) if e.type not in TURN_GOES_ON)
                assert replay.resume_frame == changed.frame != events[cut - 1].frame
        assert _replay(frames, calibration, journal, "--resume") == 0
        loaded = load(journal)
        assert loaded.events == load(whole).events
        assert len(loaded.problems) == 1  # the torn line is reported, and kept on disk


def test_bad_input_is_one_line_and_a_recording_is_never_overwritten(
        game: tuple[GameScript, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, frames, calibration = game
    assert _replay(tmp_path / "nowhere", calibration, tmp_path / "e.jsonl") == 2
    assert "no such folder or video" in capsys.readouterr().err
    journal = tmp_path / "taken.jsonl"
    journal.write_text(json.dumps(Event("mode", "x", {"mode": "teach"}).to_json()) + "\n")
    assert _replay(frames, calibration, journal) == 2
    err = capsys.readouterr().err
    assert "already holds events; give --resume" in err and err.count("\n") == 1
    assert journal.read_text().count("\n") == 1


def test_a_video_goes_through_the_stabiliser_and_resumes_too(tmp_path: Path) -> None:
    script = _short(7)
    script = dataclasses.replace(script, beats=script.beats[:24],
                                 truth=tuple(t for t in script.truth if t.beat < 24))
    video = write_video(script, tmp_path / "game.avi", size=(2028, 1520))
    start = load_image(video.with_suffix(".start.png"))
    calibration = tmp_path / "calibration.json"
    calibration.write_text(calibrate(start, find_corners(start)).to_json())
    whole = tmp_path / "whole.jsonl"
    assert _replay(video, calibration, whole) == 0
    events = list(load(whole).events)
    assert _judged(events) == _judged([t.event for t in script.truth])
    lines = whole.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[: len(lines) // 2]))
    assert _replay(video, calibration, cut, "--resume") == 0
    assert load(cut).events == load(whole).events


@pytest.mark.parametrize("length", ["65", "-1", "99999999999999999999", "five"])
def test_a_match_length_gnubg_cannot_play_is_refused_naming_match_to(
        length: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Refused as the arguments are read: no frame is looked at, no journal is begun.
    assert _replay(tmp_path, tmp_path / "calibration.json", tmp_path / "e.jsonl", "--match-to", length) == 2
    err = capsys.readouterr().err
    assert err == (f"pipgammon: replay: argument --match-to: expected a whole number of points from 0 "
                   f"(money play) to 64, got {length!r}\n")
    assert not (tmp_path / "e.jsonl").exists()


def test_replay_never_writes_over_its_inputs_and_begins_no_journal_for_frames_it_cannot_read(
        game: tuple[GameScript, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Found by a review: `--export` over the journal or the calibration replaced it, and frames
    # that could not be read still began a journal, so the corrected command asked for --resume.
    _, frames, calibration = game
    journal = tmp_path / "events.jsonl"
    kept = calibration.read_bytes()
    not_frames = tmp_path / "notes.txt"
    not_frames.write_text("no video\n")
    cases = [
        ([str(frames), "--export", str(journal)], "--export"),  # the journal (not begun yet)
        ([str(frames), "--export", str(calibration)], "that is the calibration too"),
        ([str(frames), "--export", str(tmp_path / "no" / "m.mat")], "no such folder"),
        ([str(not_frames), "--export", str(tmp_path / "m.mat")], "not a video OpenCV can open"),
        ([str(tmp_path / "empty"), "--export", str(tmp_path / "m.mat")], "no such folder or video"),
    ]
    for argv, message in cases:
        assert main(["replay", *argv, "--calibration", str(calibration), "--events", str(journal)]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err
    assert not journal.exists() and calibration.read_bytes() == kept
