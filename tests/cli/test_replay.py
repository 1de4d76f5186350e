"""`pipgammon replay`: a rendered game through vision, the referee and the journal, and a resume
after a crash at any event."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

import pytest

from engine.events import Event
from engine.referee import TURN_GOES_ON, OpeningChoice, RefereeConfig
from engine.variants import find_variant
from pipgammon.cli import main
from pipgammon.journal import Journal, load
from pipgammon.replay import Replay, differences, journal_match, settle_match_options
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


def _journal(path: Path, config: RefereeConfig, *more: Event) -> bytes:
    """A journal begun as a replay begins one (the match and its first game), and ``more``."""
    from engine.referee import Referee

    with Journal.open(path) as journal:
        journal.extend([*Referee(config).start(""), *more])
    return path.read_bytes()


@pytest.mark.parametrize(("given", "message"), [
    (["--match-to", "3"], "is a 1-point standard match; --match-to 3 differs"),
    (["--variant", "gioul"], "is a 1-point standard match; --variant gioul differs"),
    (["--opening", "one-die-each", "--match-to", "5"],
     "is a 1-point standard match with the auto opening; --match-to 5 and --opening one-die-each differ"),
])
def test_a_resume_refuses_match_options_its_journal_contradicts(
        given: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Found by a review: `--resume --match-to 3` on a 1-point journal went on as 1 point, exit 0,
    # and `--variant gioul` wrote a .txt beside a standard match. Refused before a frame is read.
    (tmp_path / "frames").mkdir()
    journal = tmp_path / "r.jsonl"
    kept = _journal(journal, RefereeConfig())
    assert _replay(tmp_path / "frames", tmp_path / "cal.json", journal, "--resume", *given) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert journal.read_bytes() == kept and not list(tmp_path.glob("r.[mt][ax][tt]"))


def test_a_resume_takes_the_options_not_given_from_its_journal(tmp_path: Path) -> None:
    journal = tmp_path / "r.jsonl"
    config = RefereeConfig(variant=find_variant("eureka"), match_to=3, opening=OpeningChoice.ONE_DIE_EACH)
    _journal(journal, config)
    args = argparse.Namespace(match_to=None, variant="Eureka", opening=None)
    settle_match_options(args, journal_match(journal, resume=True), journal)
    assert (args.match_to, args.variant, args.opening) == (3, "eureka", "one-die-each")
    # A new journal takes the defaults, and what is given.
    args = argparse.Namespace(match_to=None, variant=None, opening="starter-rolls")
    settle_match_options(args, journal_match(tmp_path / "new.jsonl", resume=True), tmp_path / "new.jsonl")
    assert (args.match_to, args.variant, args.opening) == (1, "standard", "starter-rolls")


@pytest.mark.parametrize("resume", [[], ["--resume"]])
def test_a_file_that_is_no_journal_is_refused_as_one_and_left_alone(
        resume: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Found by a review: `--events calibration.json` said it "already holds events", and with
    # --resume the match's events were appended to the calibration.
    (tmp_path / "frames").mkdir()
    for name, data in [("cal.json", b'{"version": 2, "corners": [[1.5, 2.5]]}\n'),
                       ("photo.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\n\x01\x02")]:
        path = tmp_path / name
        path.write_bytes(data)
        assert _replay(tmp_path / "frames", tmp_path / "cal.json", path, *resume) == 2
        err = capsys.readouterr().err
        assert f"{path}: not a journal (line 1: not " in err and err.count("\n") == 1, err
        assert "already holds" not in err and path.read_bytes() == data


def test_a_journal_of_two_matches_joined_is_refused_naming_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "frames").mkdir()
    journal = tmp_path / "twice.jsonl"
    once = _journal(journal, RefereeConfig())
    journal.write_bytes(once * 2)
    assert _replay(tmp_path / "frames", tmp_path / "cal.json", journal, "--resume") == 2
    err = capsys.readouterr().err
    assert err == (f"pipgammon: {journal}: line 3 begins a second match (two journals joined?); a replay "
                   f"goes on with one match: the journal is kept as it is\n")
    assert journal.read_bytes() == once * 2


def test_a_resume_that_decides_otherwise_says_what_differs_in_words() -> None:
    journaled = Event("accepted", "00013.jpg", {"player": "black", "dice": [1, 2], "move": "8/7 8/6",
                                                "position": {"points": [2] * 24}, "match_id": "MAEgAAAAAAAE"})
    decided = Event("accepted", "00013.jpg", {**journaled.details, "match_id": "MAFgAAAAAAAE"})
    assert differences(journaled, decided) == (
        "the accepted event at frame '00013.jpg' differs: match_id \"MAEgAAAAAAAE\" in the journal, "
        "\"MAFgAAAAAAAE\" decided")
    decided = Event("roll", "00014.jpg", {"player": "white", "dice": [3, 3]})
    assert differences(journaled, decided) == (
        "the journal's next event is an accepted at frame '00013.jpg', but the replay decides a roll "
        "at frame '00014.jpg'")


@pytest.mark.parametrize("name", ["00001.jpg", "match.mat", "sub/match.mat"])
def test_an_export_into_the_folder_of_frames_is_refused(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Found by a review: `--export frames/00001.jpg` wrote the .mat over that frame, exit 0.
    frames = tmp_path / "frames"
    (frames / "sub").mkdir(parents=True)
    (frames / "00001.jpg").write_bytes(b"\xff\xd8 a frame")
    journal = tmp_path / "e.jsonl"
    assert main(["replay", str(frames), "--calibration", str(tmp_path / "cal.json"), "--events",
                 str(journal), "--export", str(frames / name)]) == 2
    err = capsys.readouterr().err
    assert f"--export {frames / name}: is in the folder of frames" in err and err.count("\n") == 1, err
    assert (frames / "00001.jpg").read_bytes() == b"\xff\xd8 a frame" and not journal.exists()


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_an_export_where_no_file_can_be_made_is_refused_before_the_journal_is_begun(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Found by a review: as root, `--export /proc/x.mat` passed the check (os.access says yes),
    # the whole replay ran, and the export failed at the end, leaving a journal to --resume.
    frames = tmp_path / "frames"
    frames.mkdir()
    journal = tmp_path / "e.jsonl"
    assert main(["replay", str(frames), "--calibration", str(tmp_path / "cal.json"), "--events",
                 str(journal), "--export", "/proc/x.mat"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pipgammon: --export /proc/x.mat: cannot write in /proc") and err.count("\n") == 1
    assert not journal.exists()


@pytest.fixture(scope="module")
def still_video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A short MJPG video of a board at rest (the raw bytes, to damage) and its calibration."""
    import random

    import cv2

    from engine.position import Position
    from vision import synthetic

    folder = tmp_path_factory.mktemp("still_video")
    rng = random.Random(3)
    style = dataclasses.replace(synthetic.Style.random(rng, hand=False))
    start, _ = synthetic.render(Position.start(), rng, style=style, mount=synthetic.camera(style, rng))
    (folder / "calibration.json").write_text(calibrate(start, find_corners(start)).to_json())
    video = folder / "whole.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, start.shape[1::-1])
    for _ in range(8):
        writer.write(start)
    writer.release()
    return video, folder / "calibration.json"


@pytest.mark.parametrize(("damage", "said"), [
    ("cut", "the video ended after "),
    ("garbled", "video frames could not be decoded whole (ffmpeg: "),
])
def test_a_damaged_video_is_bad_input_said_after_its_summary(
        damage: str, said: str, still_video: tuple[Path, Path], tmp_path: Path,
        capfd: pytest.CaptureFixture[str]) -> None:
    # Found by a review: a garbled video replayed as "replayed 35 frames (0 read ...)", exit 0, and
    # one cut short read 19 of its 36 frames, with no word of either.  Then a later review: said,
    # but with exit 0, so a script never learnt of the hole in its record.
    whole, calibration = still_video
    data = bytearray(whole.read_bytes())
    if damage == "cut":
        data = data[: len(data) // 2]
    else:  # the middle of every frame's JPEG data overwritten, the container left whole
        start = 0
        while (start := data.find(b"\xff\xda", start + 1)) > 0:
            data[start + 2000: start + 2400] = bytes(range(200)) * 2
    video = tmp_path / "game.avi"
    video.write_bytes(bytes(data))
    assert main(["replay", str(video), "--calibration", str(calibration), "--events",
                 str(tmp_path / "e.jsonl"), "--export", str(tmp_path / "m.mat")]) == 2
    out, err = capfd.readouterr()
    assert out.startswith("replayed ") and "status: " in out  # the summary, all the same
    assert (tmp_path / "m.mat").is_file() and (tmp_path / "e.jsonl").is_file()
    # One line, ours: ffmpeg's own lines are kept off the terminal.
    assert err.startswith(f"pipgammon: {video} is damaged: ") and said in err and err.count("\n") == 1, err
    assert err.endswith("; the events and the match read from the rest are written\n")


def test_a_picture_given_as_a_video_is_one_line(still_video: tuple[Path, Path], tmp_path: Path,
                                                capfd: pytest.CaptureFixture[str]) -> None:
    # Found by a review: ffmpeg printed "[png @ 0x...] Invalid PNG signature" lines before ours.
    _, calibration = still_video
    text = tmp_path / "text.png"
    text.write_text("not a picture\n")
    assert main(["replay", str(text), "--calibration", str(calibration), "--events",
                 str(tmp_path / "e.jsonl"), "--export", str(tmp_path / "m.mat")]) == 2
    assert capfd.readouterr().err == (f"pipgammon: {text}: not a video OpenCV can open, nor a folder of "
                                      f"stills\n")
