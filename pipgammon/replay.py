"""`pipgammon replay`: the whole pipeline over recorded frames, journaled as it goes.

vision reads each frame, the stabiliser (videos) or the stills themselves (folders) say
when the scene is still, the referee judges, and every event is appended to the journal
(flushed and fsynced) the moment it is decided.  At the end the match is exported.

A replay killed at any moment is resumed with ``--resume``: the referee is rebuilt from
the journal up to the frame of the last event that changed the game (a roll, a play, a
double; not an illegal play flagged, which the boards seen since the roll decided), and the
frames from there are read again.  Deciding is a pure function of the referee's state and
the scenes, so those frames give the same events again; the ones already journaled are
checked and skipped, the rest appended.  No accepted turn is lost and none is written twice.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from engine.errors import EngineError
from engine.events import Event
from engine.referee import TURN_GOES_ON, Mode, OpeningChoice, Referee, RefereeConfig
from engine.scene import Scene
from engine.variants import find_variant
from engine.wording import plural
from pipgammon.arguments import match_length
from pipgammon.frames import Frame, FrameSourceError, stills, video_presses, video_presses_path
from pipgammon.journal import Journal, JournalError, Loaded, load
from pipgammon.outputs import OutputError, check_outputs, write_all

#: Events that judge a turn: the latency figure is measured to these.
VERDICTS = frozenset({"accepted", "illegal", "no-play", "corrected"})


class ReplayError(ValueError):
    """A replay that cannot go on: bad frames, a journal of another match, a mismatch on resume."""


@dataclass
class ReplayStats:
    frames: int = 0
    read: int = 0  # frames vision read as ok or cocked
    unread: dict[str, int] = field(default_factory=dict)  # status -> frames not used
    stable: int = 0  # scenes handed to the referee
    events: int = 0  # events appended by this run
    skipped_on_resume: int = 0  # frames before the resume point
    verdict_ms: list[float] = field(default_factory=list)  # stable scene -> verdict journaled
    read_ms: list[float] = field(default_factory=list)
    damaged: int = 0  # video frames the decoder complained of (decoded in part, or made up)
    decoder_said: str = ""  # its first complaint
    decoded: int = 0  # video frames decoded, from the first (skipped ones too)
    listed: int = 0  # the frames the video's container says it holds (0: it does not say)

    def damage(self) -> str:
        """The video's damage in words, or "" for none: a replay of garbled frames printed
        "replayed 35 frames (0 read ...)" and nothing else."""
        said = []
        if self.damaged:
            said.append(f"{plural(self.damaged, 'video frame')} could not be decoded whole "
                        f"({self.decoder_said})")
        if self.listed > self.decoded:
            said.append(f"the video ended after {self.decoded} of the {self.listed} frames it lists "
                        f"(cut short?)")
        return "; ".join(said)


class _Writer:
    """Appends events to the journal, skipping the ones a resumed run finds already there."""

    def __init__(self, journal: Journal, already: list[Event], stats: ReplayStats) -> None:
        self.journal = journal
        self.already = list(already)
        self.stats = stats
        self.written: list[Event] = []

    def write(self, events: Iterable[Event]) -> None:
        for event in events:
            if self.already:
                expected = self.already.pop(0)
                if expected != event:
                    raise ReplayError(f"resume: {self.journal.path}: {differences(expected, event)}; "
                                      f"the journal is kept as it is")
                continue
            self.journal.append(event)
            self.written.append(event)
            self.stats.events += 1


#: What a new match is when the command line does not say: (option, attribute, value).
MATCH_OPTIONS = (("--match-to", "match_to", 1), ("--variant", "variant", "standard"),
                 ("--opening", "opening", "auto"))


def _cut(text: str, most: int = 60) -> str:
    return text if len(text) <= most else text[: most - 3] + "..."


def _a(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _shown(value: object) -> str:
    return _cut(json.dumps(value))


def _match_words(length: int, variant: str) -> str:
    return f"a {variant} money session" if length == 0 else f"a {length}-point {variant} match"


def journaled(path: Path, resume: bool) -> Loaded | None:
    """The events a replay goes on from, or None for a journal not begun (no file, or an empty one).

    Refused here, before anything is read or written: events without ``--resume`` (a recording
    is never overwritten), a file that holds no event at all (a calibration or a photo given as
    ``--events``: ``--resume`` once appended the match to the calibration), and a journal that
    holds a second match (two journals joined: the referee would play on in the second)."""
    if path.is_dir() or not path.exists() or not path.stat().st_size:
        return None  # a folder is refused by `Journal.open`, with its reason
    try:
        loaded = load(path)
    except JournalError as err:
        raise ReplayError(str(err)) from err
    if not loaded.events and loaded.problems:
        raise ReplayError(f"{path}: not a journal ({_cut(str(loaded.problems[0]))}); give a journal, "
                          f"or a new file, as --events")
    if not resume:
        raise ReplayError(f"{path}: already holds events; give --resume to carry on "
                          f"from them, or another --events file")
    for event, line in zip(loaded.events[1:], loaded.lines[1:], strict=False):
        if event.type == "match":
            raise ReplayError(f"{path}: line {line} begins a second match (two journals joined?); a "
                              f"replay goes on with one match: the journal is kept as it is")
    return loaded


def journal_match(path: Path, resume: bool) -> Event | None:
    """The ``match`` event of the journal a replay goes on from (`journaled`), or None."""
    loaded = journaled(path, resume)
    if loaded is None or not loaded.events:
        return None
    first = loaded.events[0]
    return first if first.type == "match" else None


def settle_match_options(args: argparse.Namespace, match: Event | None, path: Path) -> None:
    """Fill in the match options not given (None) from the journal's ``match`` event, else the
    defaults; refuse any given that differ from the journal, which already says how the match
    is played (a resumed 1-point match given ``--match-to 3`` went on as 1 point, silently)."""
    journaled = {} if match is None else {
        "match_to": match.details.get("length"), "variant": match.details.get("variant"),
        "opening": match.details.get("opening")}
    differ = []
    for option, attribute, default in MATCH_OPTIONS:
        given = getattr(args, attribute)
        if attribute not in journaled:
            setattr(args, attribute, default if given is None else given)
            continue
        wanted = journaled[attribute]
        if given is not None:
            same = (find_variant(given).name == wanted if attribute == "variant" else given == wanted)
            if not same:
                differ.append(f"{option} {given}")
        setattr(args, attribute, wanted)
    if differ:
        assert match is not None
        details = match.details
        opening = (f" with the {details.get('opening')} opening"
                   if any(d.startswith("--opening") for d in differ) else "")
        raise ReplayError(f"{path} is {_match_words(int(details['length']), str(details['variant']))}"
                          f"{opening}; {' and '.join(differ)} "
                          f"{'differs' if len(differ) == 1 else 'differ'}: leave "
                          f"{'it' if len(differ) == 1 else 'them'} out to go on with the journal's")


def differences(journaled: Event, decided: Event) -> str:
    """What a resumed replay decided differently from the journal, in words: the two events
    whole are some 800 characters that differ in one key, which a person cannot spot."""
    if journaled.type != decided.type or journaled.frame != decided.frame:
        return (f"the journal's next event is {_a(journaled.type)} at frame {journaled.frame!r}, but the "
                f"replay decides {_a(decided.type)} at frame {decided.frame!r}")
    keys = [key for key in {**journaled.details, **decided.details}
            if journaled.details.get(key) != decided.details.get(key)]
    said = "; ".join(f"{key} {_shown(journaled.details.get(key))} in the journal, "
                     f"{_shown(decided.details.get(key))} decided" for key in keys)
    return f"the {journaled.type} event at frame {journaled.frame!r} differs: {said}"


def config_from_args(args: argparse.Namespace) -> RefereeConfig:
    return RefereeConfig(variant=find_variant(args.variant), match_to=args.match_to,
                         opening=OpeningChoice(args.opening), mode=Mode(args.mode))


class Replay:
    """One replay: a calibration, a referee config and a journal path."""

    def __init__(self, calibration: Any, config: RefereeConfig, events_path: Path, *,
                 resume: bool = False, on_event: Callable[[Event, Referee], None] | None = None) -> None:
        self.calibration = calibration
        self.config = config
        self.events_path = events_path
        self.stats = ReplayStats()
        self.on_event = on_event
        self.last_scene: Scene | None = None  # the last stable scene judged
        loaded = journaled(events_path, resume)
        for problem in loaded.problems if loaded else ():
            print(f"pipgammon: {events_path}: {problem}", file=sys.stderr)
        earlier = list(loaded.events) if loaded else []
        # The events from the last one that changed the game on are decided again from the state
        # before them (see module doc): the events after it only went on with the turn, whose view
        # the scenes must build again (`engine.referee.TURN_GOES_ON`).
        last = len(earlier)
        while last > 1 and earlier[last - 1].type in TURN_GOES_ON:
            last -= 1
        self.resume_frame: str | None = earlier[last - 1].frame if earlier else None
        cut = last
        while cut and earlier[cut - 1].frame == self.resume_frame:
            cut -= 1
        try:
            self.referee = Referee.resume(config, earlier[:cut]) if cut else Referee(config)
        except EngineError as err:
            raise ReplayError(f"{events_path}: {err}; the journal is kept as it is") from err
        self.journal = Journal.open(events_path)
        self.writer = _Writer(self.journal, earlier[cut:], self.stats)
        if cut == 0:
            if self.resume_frame not in (None, ""):
                raise ReplayError(f"{events_path}: does not begin with the match's start events")
            self._emit(self.referee.start(""))
            self.resume_frame = None

    def close(self) -> None:
        self.journal.close()

    def __enter__(self) -> Replay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def events(self) -> tuple[Event, ...]:
        return self.referee.events

    def _emit(self, events: list[Event]) -> None:
        self.writer.write(events)
        if self.on_event is not None:
            for event in events:
                self.on_event(event, self.referee)

    def scene(self, scene: Scene, frame: str) -> None:
        """A stable scene: judge it and journal what was decided."""
        started = time.perf_counter()
        self.last_scene = scene
        events = self.referee.see(scene, frame)
        self._emit(events)
        if any(e.type in VERDICTS for e in events):
            self.stats.verdict_ms.append((time.perf_counter() - started) * 1000)
        self.stats.stable += 1

    def press(self, frame: Frame) -> None:
        for button in frame.presses:
            self._emit(self.referee.press(button, frame.name))

    def _skipping(self, frames: list[Frame]) -> Iterator[Frame]:
        """The frames from the resume point on (all of them for a new journal)."""
        start = 0
        if self.resume_frame:
            names = [f.name for f in frames]
            if self.resume_frame not in names:
                raise ReplayError(f"resume: the journal's last frame {self.resume_frame!r} is not among "
                                  f"the frames replayed; is it the journal of another game?")
            start = names.index(self.resume_frame)
        self.stats.skipped_on_resume = start
        yield from frames[start:]

    def run_stills(self, folder: Path) -> None:
        from vision.images import ImageError
        from vision.images import load as load_image
        from vision.observation import observe

        last: Scene | None = None
        for frame in self._skipping(stills(folder)):
            self.stats.frames += 1
            assert frame.path is not None
            try:
                image = load_image(frame.path)
            except ImageError as err:
                raise ReplayError(str(err)) from err
            started = time.perf_counter()
            seen = observe(image, self.calibration, hands=True)  # a still is trusted at once
            self.stats.read_ms.append((time.perf_counter() - started) * 1000)
            if seen.status in ("ok", "cocked"):
                self.stats.read += 1
                scene = seen.scene()
                # A still is a moment held still: a new scene is stable at once; the same scene
                # again is no news (as the stabiliser never emits one twice in a row).
                if scene != last:
                    self.scene(scene, frame.name)
                last = scene
            else:
                self.stats.unread[seen.status] = self.stats.unread.get(seen.status, 0) + 1
            self.press(frame)

    def run_video(self, video: Path) -> None:
        import cv2
        import numpy as np

        from vision.images import video_quietly
        from vision.observation import Observer
        from vision.stabiliser import Stabiliser

        capture, _ = video_quietly(lambda: cv2.VideoCapture(str(video)))
        if not capture.isOpened():
            raise ReplayError(f"{video}: not a video OpenCV can open")
        self.stats.listed = max(0, int(capture.get(cv2.CAP_PROP_FRAME_COUNT)))
        presses = video_presses(video)
        stabiliser = Stabiliser()
        observer = Observer(self.calibration, stabiliser.config)
        # The stabiliser emits a run exactly `agreeing_frames` frames after it starts, so
        # starting one frame earlier than that re-derives the resume frame's scene.
        resume_at = int(self.resume_frame) if self.resume_frame else 0
        first = max(0, resume_at - stabiliser.config.agreeing_frames)
        self.stats.skipped_on_resume = first
        index = -1
        try:
            while True:
                (ok, read), said = video_quietly(capture.read)
                if not ok:
                    break
                image = np.asarray(read, np.uint8)
                index += 1
                self.stats.decoded = index + 1
                if said:
                    self.stats.damaged += 1
                    self.stats.decoder_said = self.stats.decoder_said or f"ffmpeg: {said[0]}"
                if index < first:
                    continue
                self.stats.frames += 1
                stamp = float(capture.get(cv2.CAP_PROP_POS_MSEC))
                started = time.perf_counter()
                seen, moved = observer.observe(image)
                self.stats.read_ms.append((time.perf_counter() - started) * 1000)
                if seen.status in ("ok", "cocked"):
                    self.stats.read += 1
                else:
                    self.stats.unread[seen.status] = self.stats.unread.get(seen.status, 0) + 1
                stable = stabiliser.push(index, stamp, seen.status,
                                         seen.scene() if seen.status in ("ok", "cocked") else None, moved)
                if stable is not None and index >= resume_at:
                    self.scene(stable.scene, str(index))
                if index >= resume_at:
                    self.press(Frame(str(index), index, stamp, None, presses.get(str(index), ())))
        finally:
            capture.release()
        if self.stats.frames == 0 and first == 0:
            raise ReplayError(f"{video}: no frames could be read")

    def finish(self) -> None:
        if self.writer.already:
            raise ReplayError(f"resume: {plural(len(self.writer.already), 'journaled event')} not decided "
                              f"again by the replay; the journal is kept as it is")


def export_target(path: Path, variant: str) -> Path:
    """Where `export` writes the match: ``path``, or beside it as text for a variant gnubg
    cannot replay."""
    return path if variant == "standard" else path.with_suffix(".txt")


def export(events: Iterable[Event], path: Path, variant: str) -> Path:
    """The match as a Jellyfish .mat, or for variants gnubg cannot replay, a text record."""
    from engine.records import to_mat, to_text

    events = list(events)
    target = export_target(path, variant)
    try:
        write_all([("--export", target, to_mat(events) if variant == "standard" else to_text(events))])
    except OutputError as err:
        raise ReplayError(f"{err}: the events are in the journal; `pipgammon export` writes the "
                          f"match from it") from err
    return target


def _check_frames(source: Path) -> None:
    """Refuse frames that cannot be replayed before the journal is touched: a journal begun
    for them would make the corrected command ask for ``--resume``."""
    if source.is_dir():
        stills(source)
        return
    import cv2

    from vision.images import video_quietly

    video_presses(source)
    # Quietly: a PNG given as the video had ffmpeg print two lines before our one.
    capture, _ = video_quietly(lambda: cv2.VideoCapture(str(source)))
    try:
        if not capture.isOpened() or not video_quietly(capture.read)[0][0]:
            raise ReplayError(f"{source}: not a video OpenCV can open, nor a folder of stills")
    finally:
        capture.release()


def _check_not_among_frames(target: Path, source: Path) -> None:
    """Refuse an export into the folder of stills: ``--export frames/00001.jpg`` once wrote the
    match over a frame, and any image written there would be read as a frame next time."""
    if source.is_dir() and source.resolve() in target.resolve().parents:
        raise ReplayError(f"--export {target}: is in the folder of frames {source}, which a replay "
                          f"only reads: give a path outside it")


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def cmd_replay(args: argparse.Namespace, out: IO[str]) -> int:
    from engine.records import read_record
    from pipgammon.vision_cli import _load_calibration

    source = Path(args.frames)
    if not source.exists():
        raise ReplayError(f"{source}: no such folder or video")
    events_path = Path(args.events)
    settle_match_options(args, journal_match(events_path, args.resume), events_path)
    config = config_from_args(args)
    presses = source / "buttons.jsonl" if source.is_dir() else video_presses_path(source)
    inputs = {"journal": events_path, "calibration": Path(args.calibration), "button presses": presses}
    if not source.is_dir():
        inputs["video"] = source
    target = export_target(Path(args.export), config.variant.name)
    try:
        check_outputs({"--export": target}, inputs)
    except OutputError as err:
        raise ReplayError(str(err)) from err
    _check_not_among_frames(target, source)
    calibration = _load_calibration(args.calibration)
    try:
        _check_frames(source)
        with Replay(calibration, config, events_path, resume=args.resume) as replay:
            if source.is_dir():
                replay.run_stills(source)
            else:
                replay.run_video(source)
            replay.finish()
            events = replay.events
    except (FrameSourceError, JournalError) as err:
        raise ReplayError(str(err)) from err
    target = export(events, Path(args.export), config.variant.name)
    unfinished = "" if read_record(events).is_finished else " (unfinished: the frames end before the match)"
    stats = replay.stats
    resumed = f"resumed after {plural(stats.skipped_on_resume, 'frame')}; " if stats.skipped_on_resume else ""
    print(f"{resumed}replayed {plural(stats.frames, 'frame')} ({stats.read} read, "
          f"{plural(stats.stable, 'stable scene')}, median {_median(stats.read_ms):.1f} ms a frame read), "
          f"{plural(stats.events, 'event')} to {args.events}; "
          f"verdict latency median {_median(stats.verdict_ms):.1f} ms; match written to {target}{unfinished}",
          file=out)
    print(f"status: {replay.referee.status}", file=out)
    if stats.damage():
        # Bad input, said as any other is, once all that could be read from it is written: a
        # script that checks the exit status learns of a record with a hole in it.
        raise ReplayError(f"{source} is damaged: {stats.damage()}; the events and the match read from the "
                          f"rest are written")
    return 0


def add_commands(sub: Any) -> None:
    replay = sub.add_parser("replay", help="referee recorded frames: vision, stabiliser, referee, journal")
    replay.add_argument("frames", metavar="FRAMES", help="a folder of stills or a video file")
    replay.add_argument("--calibration", required=True, metavar="CALIBRATION.json")
    # No defaults here: a resumed replay takes what is not given from its journal (see
    # `settle_match_options`), a new one takes `MATCH_OPTIONS`.
    replay.add_argument("--variant", help="default standard, or the journal's on --resume")
    replay.add_argument("--match-to", type=match_length(0), help="default 1, or the journal's on --resume")
    replay.add_argument("--opening", choices=[o.value for o in OpeningChoice],
                        help="default auto, or the journal's on --resume")
    replay.add_argument("--mode", choices=[m.value for m in Mode], default="play")
    replay.add_argument("--events", required=True, metavar="EVENTS.jsonl")
    replay.add_argument("--export", required=True, metavar="MATCH.mat")
    replay.add_argument("--resume", action="store_true",
                        help="carry on from the events already in EVENTS.jsonl (after a crash)")
    replay.set_defaults(run=cmd_replay)
