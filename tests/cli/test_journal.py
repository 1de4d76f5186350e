"""The journal: append and load, damaged lines, the writer's lock, and SIGKILL at random moments."""

from __future__ import annotations

import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from engine.events import Event
from pipgammon.journal import Journal, JournalError, JournalLockedError, Problem, load, read_events

ROOT = Path(__file__).resolve().parents[2]


def roll(number: int) -> Event:
    return Event("roll", str(number), {"player": "white" if number % 2 else "black",
                                       "dice": [number % 6 + 1, (number * 5) % 6 + 1]})


def line(event: Event) -> bytes:
    return json.dumps(event.to_json(), ensure_ascii=False).encode() + b"\n"


def test_append_then_load_gives_the_events_back_in_order(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    with Journal.open(path) as journal:
        journal.extend(roll(n) for n in range(5))
        journal.append(Event("mode", "x", {"mode": "teach", "note": "späť"}))
    loaded = load(path)
    assert [e.frame for e in loaded.events] == ["0", "1", "2", "3", "4", "x"]
    assert loaded.events[-1]["note"] == "späť"
    assert loaded.problems == ()
    # Reopening appends after what is there.
    with Journal.open(path) as journal:
        journal.append(roll(5))
    assert len(load(path).events) == 7


def test_a_corrupt_middle_line_is_reported_and_the_rest_is_read(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_bytes(line(roll(0)) + b'{"type": "roll", "frame": "1", "dice": [3\n' + line(roll(2))
                     + b'{"type": "flip", "frame": "3"}\n' + b'{"type": "roll", "frame": "4"}\n'
                     + b"\xff\xfe\n" + b"\n" + line(roll(7)))
    loaded = load(path)
    assert [e.frame for e in loaded.events] == ["0", "2", "7"]
    assert [p.line for p in loaded.problems] == [2, 4, 5, 6]
    assert "not JSON" in loaded.problems[0].why
    assert "unknown event type 'flip'" in loaded.problems[1].why
    assert "lacks player, dice" in loaded.problems[2].why
    assert "not UTF-8" in loaded.problems[3].why
    assert str(loaded.problems[0]).startswith("line 2: not JSON")


def test_a_torn_last_line_is_reported_kept_on_disk_and_cannot_glue_onto_the_next(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    torn = line(roll(1))[:17]
    path.write_bytes(line(roll(0)) + torn)
    loaded = load(path)
    assert [e.frame for e in loaded.events] == ["0"]
    assert loaded.problems == (Problem(2, loaded.problems[0].why, torn.decode()),)
    assert "cut short" in loaded.problems[0].why
    with Journal.open(path) as journal:
        journal.append(roll(1))
    assert path.read_bytes() == line(roll(0)) + torn + b"\n" + line(roll(1))
    again = load(path)
    assert [e.frame for e in again.events] == ["0", "1"]
    assert [p.line for p in again.problems] == [2]


def test_a_whole_event_without_its_newline_is_read_and_then_ended(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    path.write_bytes(line(roll(0)) + line(roll(1))[:-1])
    loaded = load(path)
    assert [e.frame for e in loaded.events] == ["0", "1"]
    assert [p.line for p in loaded.problems] == [2] and "no newline" in loaded.problems[0].why
    with Journal.open(path) as journal:
        journal.append(roll(2))
    assert load(path) == load(path) and [e.frame for e in load(path).events] == ["0", "1", "2"]
    assert load(path).problems == ()


def test_read_events_reads_a_handle_the_caller_opened() -> None:
    loaded = read_events(io.BytesIO(line(roll(0)) + line(roll(1))))
    assert len(loaded.events) == 2 and not loaded.problems
    assert read_events(io.BytesIO(b"")) == read_events(io.BytesIO(b"\n\n"))


def test_unreadable_paths_give_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match=r"missing\.jsonl: cannot read the journal"):
        load(tmp_path / "missing.jsonl")
    with pytest.raises(JournalError, match="is a directory"):
        load(tmp_path)
    with pytest.raises(JournalError, match="cannot open the journal for writing"):
        Journal.open(tmp_path / "no" / "such" / "dir.jsonl")
    assert issubclass(JournalError, OSError)


def test_an_event_that_is_not_json_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    with Journal.open(path) as journal:
        with pytest.raises(ValueError, match="cannot be written as JSON"):
            journal.append(Event("mode", "", {"mode": object()}))
        journal.append(roll(0))
    assert path.read_bytes() == line(roll(0))
    with pytest.raises(JournalError, match="closed"):
        journal.append(roll(1))


def test_a_second_writer_is_refused_while_the_first_holds_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom pipgammon.journal import Journal\n"
         f"j = Journal.open({str(path)!r})\nprint('open', flush=True)\ntime.sleep(30)"],
        stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        with pytest.raises(JournalLockedError, match=re.escape(f"{path}: another process")):
            Journal.open(path)
    finally:
        holder.kill()
        holder.wait()
    with Journal.open(path) as journal:  # the killed writer's lock went with it
        journal.append(roll(0))


# -- SIGKILL at random moments -----------------------------------------------------------

KILLS = 100


def _writer(path: Path, start: int, report: int) -> None:
    """The child: append events numbered from ``start``, reporting each count once synced."""
    try:
        journal = Journal.open(path)
        number = start
        while True:
            journal.append(roll(number))
            number += 1
            os.write(report, f"{number}\n".encode())
    finally:
        os._exit(1)


def _torn_by_writers(problems: tuple[Problem, ...], torn_lines: list[bytes], events: int) -> int:
    """How many of ``problems`` are lines a killed writer tore itself, asserting that the rest are
    exactly the ``torn_lines`` the test made.  A line written across a page boundary of the file
    goes down in two steps, and a SIGKILL between them leaves the first part (the kernel checks
    for a fatal signal per page): such a line is a prefix of one of the first ``events`` + 1
    events' lines, never reported as appended, and is kept and reported like any torn line."""
    left = Counter(problem.text for problem in problems)
    left.subtract(torn.decode() for torn in torn_lines)
    assert all(n >= 0 for n in left.values()), f"a torn line the test made is not reported: {problems}"
    lines = [line(roll(n)) for n in range(events + 1)]
    for text, n in left.items():
        torn_event = any(whole.startswith(text.encode()) for whole in lines)
        assert n == 0 or torn_event, f"not a torn event: {text!r}"
    return sum(left.values())


def test_sigkill_at_100_random_moments_loses_no_appended_event(tmp_path: Path) -> None:
    """A writer is killed at random moments (sometimes before it opened the journal); after
    every kill ``load`` works, holds every event the writer reported as appended, in order,
    and the next writer goes on cleanly.  Every third kill also leaves a torn line behind, as
    a power cut would: it is reported and kept, never glued to an event.  A writer killed in
    the middle of an append may tear its own line too (`_torn_by_writers`)."""
    rng = random.Random(20261123)
    path = tmp_path / "match.jsonl"
    torn_lines: list[bytes] = []
    reported_total = 0
    early = 0  # kills before the writer's first append returned
    started = time.monotonic()
    for kill in range(KILLS):
        before = load(path) if path.exists() else None
        start = len(before.events) if before else 0
        reader, writer = os.pipe()
        # fork, not a fresh interpreter: 100 interpreter starts would take half a minute.
        pid = os.fork()
        if pid == 0:
            os.close(reader)
            _writer(path, start, writer)
        os.close(writer)
        time.sleep(rng.uniform(0, 0.03))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        with os.fdopen(reader, "rb") as pipe:
            counts = pipe.read().split()
        reported = int(counts[-1]) if counts else start
        reported_total += reported - start
        early += reported == start
        loaded = load(path) if path.exists() else None
        events = loaded.events if loaded else ()
        assert len(events) >= reported, f"kill {kill}: {reported} reported, {len(events)} on disk"
        assert [e.frame for e in events] == [str(n) for n in range(len(events))], f"kill {kill}"
        if loaded is not None:
            _torn_by_writers(loaded.problems, torn_lines, len(events))
        if kill % 3 == 2 and reported > start:
            # A power cut in the middle of the next line: part of it, no newline.  (Only after
            # a writer that got going: one killed before its first append never tore a line.)
            whole = line(roll(len(events)))
            torn = whole[: rng.randint(1, len(whole) - 3)]
            with open(path, "ab") as handle:
                handle.write(torn)
            torn_lines.append(torn)
    final = load(path)
    by_writers = _torn_by_writers(final.problems, torn_lines, len(final.events))
    data = path.read_bytes()
    assert all(torn + b"\n" in data for torn in torn_lines[:-1]) and torn_lines[-1] in data
    assert reported_total > KILLS  # the writers did get events down between the kills
    assert time.monotonic() - started < 20
    print(f"{KILLS} kills ({early} before a first append), {reported_total} events reported, "
          f"{len(final.events)} on disk, {len(torn_lines)} torn lines kept, {by_writers} torn by writers, "
          f"{time.monotonic() - started:.1f} s")


# -- pipgammon export ----------------------------------------------------------------------


def _journal_of_selfplay(path: Path, seed: int = 3, variant: str = "standard") -> list[Event]:
    from engine.records import events_from_selfplay
    from engine.selfplay import self_play
    from engine.variants import find_variant

    events = list(events_from_selfplay(self_play(random.Random(seed), 3, variant=find_variant(variant))))
    with Journal.open(path) as journal:
        journal.extend(events)
    return events


def export(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from pipgammon.cli import main

    out = io.StringIO()
    code = main(["export", *argv], out)
    return code, out.getvalue(), capsys.readouterr().err


def test_export_writes_mat_sgf_and_text_and_names_skipped_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from engine.records import to_mat, to_sgf, to_text

    path = tmp_path / "match.jsonl"
    events = _journal_of_selfplay(path)
    with open(path, "ab") as handle:
        handle.write(b'{"type": "mode", "fr')  # a crash while writing a last, unimportant line
    mat, sgf, text = tmp_path / "m.mat", tmp_path / "m.sgf", tmp_path / "m.txt"
    code, out, err = export([str(path), "--mat", str(mat), "--sgf", str(sgf), "--text", str(text),
                             "--white", "Ann", "--black", "Bob"], capsys)
    assert code == 0, err
    assert out.splitlines() == [f"wrote {mat}", f"wrote {sgf}", f"wrote {text}"]
    assert err.startswith(f"pipgammon: {path}: line {len(events) + 1}: not JSON (")
    assert err.endswith("(the last line, cut short: a crash while it was written?) (skipped)\n")
    assert err.count("\n") == 1
    assert mat.read_text() == to_mat(events, players=("Ann", "Bob"))
    assert sgf.read_text() == to_sgf(events, players=("Ann", "Bob"))
    assert text.read_text() == to_text(events, players=("Ann", "Bob"))


def test_export_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.jsonl"
    _journal_of_selfplay(path, seed=2, variant="acey-deucey")
    cases = [
        ([str(path)], "give at least one of --mat"),
        ([str(tmp_path / "none.jsonl"), "--mat", "x.mat"], "none.jsonl: cannot read the journal"),
        ([str(path), "--mat", str(tmp_path / "x.mat")], "variant acey-deucey: GNU Backgammon cannot"),
        ([str(path), "--text", str(tmp_path / "no" / "x.txt")], "cannot write"),
        # A newline in a name would start a line of its own in the record.
        ([str(path), "--text", str(tmp_path / "x.txt"), "--white", "Ann\nBlack wins"],
         "export: argument --white: expected a name of printable characters, got 'Ann\\nBlack wins'"),
        ([str(path), "--text", str(tmp_path / "x.txt"), "--black", "\x1b[31mBob"], "--black: expected"),
        ([str(path), "--text", str(tmp_path / "x.txt"), "--black", " "], "argument --black: expected"),
    ]
    for argv, message in cases:
        code, out, err = export(argv, capsys)
        assert code == 2 and out == "", argv
        assert err.startswith("pipgammon: ") and message in err and err.count("\n") == 1, err
    assert not (tmp_path / "x.mat").exists() and not (tmp_path / "x.txt").exists()
    code, _, _ = export([str(path), "--text", str(tmp_path / "x.txt")], capsys)
    assert code == 0 and "acey-deucey" in (tmp_path / "x.txt").read_text()


def test_export_never_writes_over_the_journal_a_journal_or_another_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Found by a review: `export J.jsonl --mat J.jsonl` replaced the journal by the .mat.
    path = tmp_path / "match.jsonl"
    _journal_of_selfplay(path)
    recorded = path.read_bytes()
    other = tmp_path / "other.jsonl"
    cases = [
        (["--mat", str(path)], "that is the journal too; writing there would lose it"),
        (["--text", str(tmp_path / "." / "match.jsonl")], "that is the journal too"),
        (["--mat", str(other)], ".jsonl is a journal's suffix"),
        (["--mat", str(tmp_path / "a"), "--text", str(tmp_path / "a")], "--text"),
        (["--mat", str(tmp_path)], "is a folder"),
        (["--mat", str(tmp_path / "m.mat"), "--sgf", str(tmp_path / "no" / "m.sgf")], "no such folder"),
    ]
    for argv, message in cases:
        code, out, err = export([str(path), *argv], capsys)
        assert code == 2 and out == "" and message in err and err.count("\n") == 1, (argv, err)
    assert path.read_bytes() == recorded
    assert sorted(p.name for p in tmp_path.iterdir()) == ["match.jsonl"]


def test_a_set_of_outputs_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    from pipgammon.outputs import OutputError, write_all

    mat, blocked = tmp_path / "m.mat", tmp_path / "a-file"
    blocked.write_text("")
    with pytest.raises(OutputError, match="--sgf: cannot write"):
        write_all([("--mat", mat, "a match"), ("--sgf", blocked / "m.sgf", "(;)")])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]  # nor a temporary file left
    write_all([("--mat", mat, "a match")])
    assert mat.read_text() == "a match" and oct(mat.stat().st_mode & 0o777) == oct(0o644)


def test_an_export_through_a_symlink_writes_the_file_it_leads_to_and_keeps_the_link(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from engine.records import to_mat

    # Found by a review: the temporary file was renamed over the link, which became a file of
    # its own while the file it named kept the old match.
    path = tmp_path / "match.jsonl"
    events = _journal_of_selfplay(path)
    kept = tmp_path / "kept"
    kept.mkdir()
    target, link = kept / "target.mat", tmp_path / "link.mat"
    target.write_text("an older export\n")
    link.symlink_to(target)
    code, out, err = export([str(path), "--mat", str(link)], capsys)
    assert code == 0 and out == f"wrote {link}\n", err
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == to_mat(events)
    assert sorted(p.name for p in kept.iterdir()) == ["target.mat"]  # no temporary file left


def test_an_export_is_judged_by_where_its_link_leads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.jsonl"
    _journal_of_selfplay(path)
    other = tmp_path / "other.jsonl"
    other.write_text("")
    links = {"to-journal.mat": path, "to-other.mat": other, "loop.mat": tmp_path / "loop.mat",
             "dangling.mat": tmp_path / "no" / "m.mat"}
    for name, where in links.items():
        (tmp_path / name).symlink_to(where)
    cases = [
        (["--mat", str(tmp_path / "to-journal.mat")], f"(a link to {path}): that is the journal too"),
        (["--mat", str(tmp_path / "to-other.mat")], ".jsonl is a journal's suffix"),
        (["--mat", str(tmp_path / "loop.mat")], "is a loop of symbolic links: give a file name"),
        (["--mat", str(tmp_path / "dangling.mat")], "no such folder"),
        (["--mat", str(tmp_path / "m.mat"), "--text", str(tmp_path / "to-journal.mat")], "the journal too"),
    ]
    recorded = path.read_bytes()
    for argv, message in cases:
        code, out, err = export([str(path), *argv], capsys)
        assert code == 2 and out == "" and message in err and err.count("\n") == 1, (argv, err)
        assert "Traceback" not in err
    assert path.read_bytes() == recorded and other.read_text() == ""
    assert all((tmp_path / name).is_symlink() for name in links)
    assert not (tmp_path / "m.mat").exists()


def test_an_export_over_a_fifo_or_a_socket_is_refused_before_anything_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import socket
    import stat

    # Found by a review: a FIFO given as --mat was replaced by a file (its reader got nothing),
    # and as root `--export /dev/full` replaced the device file.  A device is refused the same
    # way; it is not tried here, as root, for that reason.
    path = tmp_path / "match.jsonl"
    _journal_of_selfplay(path)
    fifo = tmp_path / "f.mat"
    os.mkfifo(fifo)
    held = socket.socket(socket.AF_UNIX)
    held.bind(str(tmp_path / "s.mat"))
    try:
        for argv, message in [
            (["--mat", str(fifo)], f"--mat {fifo}: is a FIFO (named pipe), not a file: give a file name"),
            (["--text", str(tmp_path / "m.txt"), "--mat", str(fifo)], "is a FIFO"),
            (["--mat", str(tmp_path / "s.mat")], "is a socket, not a file"),
        ]:
            code, out, err = export([str(path), *argv], capsys)
            assert code == 2 and out == "" and message in err and err.count("\n") == 1, (argv, err)
        assert stat.S_ISFIFO(fifo.lstat().st_mode) and stat.S_ISSOCK((tmp_path / "s.mat").lstat().st_mode)
        assert not (tmp_path / "m.txt").exists()
    finally:
        held.close()


def test_the_replay_and_service_export_refuses_a_fifo_and_follows_a_link(tmp_path: Path) -> None:
    import stat

    from engine.records import to_mat
    from pipgammon.outputs import OutputError, write_all
    from pipgammon.replay import ReplayError
    from pipgammon.replay import export as export_match

    # The service and the demo export through `replay.export`, with no `check_outputs` first.
    events = _journal_of_selfplay(tmp_path / "match.jsonl")
    fifo = tmp_path / "f.mat"
    os.mkfifo(fifo)
    with pytest.raises(ReplayError, match=r"is a FIFO .*the events are in the journal"):
        export_match(events, fifo, "standard")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    # All or none: the file before the FIFO is not written either.
    with pytest.raises(OutputError, match="--sgf: cannot write"):
        write_all([("--mat", tmp_path / "m.mat", "a match"), ("--sgf", fifo, "(;)")])
    assert not (tmp_path / "m.mat").exists()
    target, link = tmp_path / "target.mat", tmp_path / "link.mat"
    link.symlink_to(target.name)  # a relative link, and to a file not there yet
    assert export_match(events, link, "standard") == link
    assert link.is_symlink() and target.read_text() == to_mat(events)


def test_a_damaged_line_is_named_where_the_export_stops_and_a_non_journal_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.jsonl"
    events = _journal_of_selfplay(path)
    recorded = path.read_bytes()
    lines = recorded.splitlines(keepends=True)
    damaged = next(i for i, e in enumerate(events) if e.type == "accepted" and i > 10)
    lines[damaged] = lines[damaged][:25] + b"\n"  # a line the disk damaged, mid-match
    path.write_bytes(b"".join(lines))
    code, _, err = export([str(path), "--mat", str(tmp_path / "m.mat")], capsys)
    skipped, stopped = err.splitlines()
    assert code == 2 and skipped.startswith(f"pipgammon: {path}: line {damaged + 1}: not JSON")
    assert f"{path}:" in stopped and f"(line {damaged + 1}, skipped, may hold the event missing" in stopped
    assert not (tmp_path / "m.mat").exists()

    photo = tmp_path / "start.png"  # a file given for the journal by mistake
    photo.write_bytes(b"\x89PNG\r\n" + b"\xff\n" * 5000)
    code, _, err = export([str(photo), "--mat", str(tmp_path / "m.mat")], capsys)
    assert code == 2 and err.count("\n") == 1 and "not a journal: none of its lines is an event" in err

    path.write_bytes(recorded + b"oops\n" * 8)  # lines after the match: a few are shown, not all
    code, _, err = export([str(path), "--text", str(tmp_path / "m.txt")], capsys)
    assert code == 0 and err.count("\n") == 6 and err.splitlines()[-1].endswith(
        "... and 3 more lines that are not events (skipped)")


def test_two_events_swapped_are_named_as_out_of_order_with_both_lines(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A reviewer's journal with a roll moved before the play it follows was refused as
    "white's roll of (3, 2) has no play": the export now names the swap and both lines."""
    path = tmp_path / "match.jsonl"
    events = _journal_of_selfplay(path)
    lines = path.read_bytes().splitlines(keepends=True)
    play = next(i for i, e in enumerate(events) if e.type == "accepted" and i > 5
                and events[i + 1].type == "roll")
    lines[play], lines[play + 1] = lines[play + 1], lines[play]
    path.write_bytes(b"".join(lines))
    code, _, err = export([str(path), "--mat", str(tmp_path / "m.mat")], capsys)
    mover, roller = events[play].details["player"], events[play + 1].details["player"]
    assert code == 2 and err.count("\n") == 1 and not (tmp_path / "m.mat").exists()
    assert err.startswith(f"pipgammon: export: {path}:{play + 2}: {mover}'s play of ")
    assert f"comes after {roller}'s roll of " in err
    assert err.endswith(f"the events are out of order (the other of the two is line {play + 1})\n")
