"""Exports of the referee's events: .mat, SGF and text, what they ignore, and what they refuse."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from engine.events import Event
from engine.game import OpeningRule
from engine.records import (
    RecordError,
    events_from_selfplay,
    read_record,
    says_unfinished,
    to_mat,
    to_sgf,
    to_text,
)
from engine.selfplay import self_play
from engine.variants import VARIANTS


def selfplay_events(seed: int = 3, length: int = 3, **kwargs: object) -> list[Event]:
    return list(events_from_selfplay(self_play(random.Random(seed), length, **kwargs)))  # type: ignore[arg-type]


def ev(name: str, /, **details: object) -> Event:
    return Event(name, "", details)


MATCH = ev("match", length=3, variant="standard", opening="one-die-each")
OPENING = ev("opening", white=3, black=1, starter="white")


def accepted(player: str, dice: list[int], move: str) -> Event:
    return ev("accepted", player=player, dice=dice, move=move, position={})


def test_the_record_of_a_selfplayed_match_has_its_games_results_and_score() -> None:
    played = list(self_play(random.Random(5), 5))
    record = read_record(events_from_selfplay(played))
    final = played[-1][1]
    assert len(record.games) == len(final.results)
    assert [(g.winner, g.points) for g in record.games] == [(r.winner, r.points) for r in final.results]
    assert record.score == final.score and record.winner == final.winner
    plays = sum(1 for action, _ in played if action.kind == "play")
    assert sum(e.kind == "roll" for g in record.games for e in g.entries) == plays


def test_mat_layout_two_columns_cube_lines_and_the_result() -> None:
    text = to_mat(selfplay_events(3, 3))
    lines = text.splitlines()
    assert lines[:4] == [" 3 point match", "", " Game 1", " White : 0                       Black : 0"]
    assert any(re.fullmatch(r" +\d+\) \d\d: [0-9/* ]+ +\d\d: [0-9/* ]+", line) for line in lines)
    assert any("Doubles => 2" in line for line in lines) and any("Takes" in line for line in lines)
    assert lines[-1].strip() == "Wins 3 points and the match"
    assert "bar" not in text and "off" not in text and "(" not in text.replace(")", "")
    # Black's dice never touch White's play, however long it is ("25/23* 25/23 25/23 25/23").
    assert not [line for line in lines if re.search(r"\S\d\d:", line)]


def test_verdicts_are_ignored_and_an_undo_takes_the_play_back() -> None:
    clean = selfplay_events(4, 3)
    noisy: list[Event] = []
    undone = 0
    for event in clean:
        if event.type == "roll":
            noisy += [ev("void-roll", player="white", dice=[2, 2]), ev("reroll", player="black", dice=[6, 1])]
        noisy.append(event)
        if event.type == "accepted" and len(noisy) % 7 == 0:
            # The player takes the play back and makes it again.
            noisy += [ev("undo", player=event["player"]), ev("mode", mode="teach"),
                      ev("illegal", player=event["player"], dice=event["dice"], points=[3]),
                      ev("corrected", player=event["player"], to="start"), event]
            undone += 1
    assert undone > 5
    assert to_mat(noisy) == to_mat(clean)
    assert to_text(noisy).count("(taken back)") == undone


def test_an_undone_play_replayed_differently_is_exported_as_replayed() -> None:
    stream = [MATCH, OPENING, accepted("white", [3, 1], "24/21 24/23"), ev("undo", player="white"),
              accepted("white", [3, 1], "8/5 6/5"), ev("roll", player="black", dice=[6, 4]),
              accepted("black", [6, 4], "24/14")]
    mat = to_mat(stream)
    assert "31: 8/5 6/5" in mat and "24/21" not in mat and "64: 24/18 18/14" in mat
    text = to_text(stream)
    assert "3-1: 24/21 24/23  (taken back)" in text and "3-1: 8/5 6/5" in text
    assert "(game unfinished)" in text


def test_a_no_play_said_on_a_misread_roll_is_taken_back_and_the_real_roll_recorded() -> None:
    # The referee said "no play" on Black's 1-1, then Black moved: the camera had read a 2 as a 1.
    stream = [MATCH, OPENING, accepted("white", [3, 1], "8/5 6/5"), ev("roll", player="black", dice=[1, 1]),
              ev("no-play", player="black", dice=[1, 1]), ev("undo", player="black"),
              ev("rethrow", player="black", dice=[1, 1]),
              ev("roll", player="black", dice=[2, 1], source="inferred", read=[1, 1]),
              accepted("black", [2, 1], "13/11 6/5")]
    mat = to_mat(stream)
    assert "21: 13/11 6/5" in mat and "11:" not in mat
    assert "1-1: (no legal play)  (taken back)" not in to_text(stream)  # the roll itself was no throw
    assert "2-1: 13/11 6/5" in to_text(stream)
    with pytest.raises(RecordError, match="undo: black's accepted play is not the last thing"):
        to_mat([MATCH, OPENING, accepted("white", [3, 1], "8/5 6/5"), ev("undo", player="black")])


def test_opening_ties_and_a_repeated_opening_roll_event() -> None:
    stream = [MATCH, ev("game", number=1, score=[0, 0]), ev("opening", white=4, black=4, starter=None),
              ev("opening", white=1, black=5, starter="black"), ev("roll", player="black", dice=[5, 1]),
              accepted("black", [5, 1], "13/8 6/5")]
    assert "  1)                             51: 13/8 6/5" in to_mat(stream).splitlines()
    assert "White 4, Black 4: a tie, roll again" in to_text(stream)
    with pytest.raises(RecordError, match=r"event 4: black rolls \(6, 1\) but the opening roll was"):
        to_mat([*stream[:4], ev("roll", player="black", dice=[6, 1])])


def test_a_journal_ending_before_a_play_leaves_the_roll_out_of_the_mat() -> None:
    stream = [MATCH, OPENING, accepted("white", [3, 1], "8/5 6/5"), ev("roll", player="black", dice=[6, 4])]
    mat = to_mat(stream)
    assert mat.splitlines()[-1] == "  1) 31: 8/5 6/5"
    assert "6-4: (play not finished)" in to_text(stream)


def test_a_match_cut_before_its_end_says_so_on_its_first_lines_and_a_whole_one_does_not() -> None:
    """A referee stopped mid-match (SIGTERM) exports what it has; a reader must tell it from a
    whole match.  The .mat says it on a comment line (gnubg imports past it: tests/oracle)."""
    whole = selfplay_events(3, 3)
    cut = whole[:next(i for i, e in enumerate(whole) if e.type == "game-over") + 3]
    assert read_record(whole).is_finished and not read_record(cut).is_finished
    assert not says_unfinished(to_mat(whole)) and not says_unfinished(to_text(whole))
    assert "unfinished" not in to_mat(whole) + to_text(whole)
    game = read_record(cut).games[-1]
    note = (f"unfinished: stopped in game 2 of the 3-point match, at White {game.score[0]}, "
            f"Black {game.score[1]}")
    assert to_mat(cut).splitlines()[:2] == [f"; {note}", " 3 point match"]
    assert to_text(cut).splitlines()[1] == note
    named = to_mat(cut, players=("Ann", "Bob")).splitlines()[0]
    assert named.endswith(f"at Ann {game.score[0]}, Bob {game.score[1]}")
    assert says_unfinished(to_mat(cut)) and says_unfinished(to_text(cut))


def test_an_sgf_cut_before_its_end_says_so_in_its_game_comment_and_a_whole_one_does_not() -> None:
    """The SGF carries the same note as the .mat, as the first game's GC (game comment), which
    gnubg reads as the match's comment (tests/oracle); a whole match's SGF has none."""
    whole = selfplay_events(3, 3)
    cut = whole[:next(i for i, e in enumerate(whole) if e.type == "game-over") + 3]
    note = to_mat(cut).splitlines()[0].removeprefix("; ")
    sgf = to_sgf(cut)
    # Near the top of the file, where the first lines (a listing's head of the file) hold it.
    assert sgf.startswith(f"(;FF[4]GM[6]CA[UTF-8]AP[pipgammon]GC[{note}]MI[length:3][game:0]")
    assert sgf.count("GC[") == 1, "the match's note belongs to the first game's root only"
    assert says_unfinished(sgf)
    assert "unfinished" not in to_sgf(whole) and not says_unfinished(to_sgf(whole))
    # Without the note, the first game (over before the cut) is the whole match's first game.
    first = sgf.replace(f"GC[{note}]", "").split("\n(;")[0]
    assert to_sgf(whole).startswith(first + "\n(;")


def test_an_sgf_stopped_before_the_first_game_still_holds_the_note() -> None:
    # An SGF file is at least one game tree: the note needs one, a root with no moves.
    sgf = to_sgf([MATCH])
    assert sgf == ("(;FF[4]GM[6]CA[UTF-8]AP[pipgammon]GC[unfinished: stopped before the first game of "
                   "the 3-point match]MI[length:3][game:0][ws:0][bs:0]PW[White]PB[Black]RU[Crawford])\n")
    assert says_unfinished(sgf)


@pytest.mark.parametrize(("sgf", "marked"), [
    # The escapes of SGF's Text: "\]" and "\\\\" are a "]" and a "\\" inside the value.
    ("(;FF[4]GM[6]GC[unfinished: at \\]x\\\\y]PW[A]\n;W[31hefe])", True),
    ("(;FF[4]GM[6]\n  GC [unfinished: on a line of its own]\n;W[31hefe])", True),
    ("(;FF[4]GM[6]GC[finished long ago; unfinished: no]PW[A])", False),
    # A "]" escaped inside another value does not end it: no GC property is there.
    ("(;FF[4]GM[6]EV[Club \\]GC[unfinished: quoted]PW[A])", False),
    # A move's comment, or a later game's GC, says nothing of the file.
    ("(;FF[4]GM[6]PW[A]\n;W[31hefe]C[unfinished: a comment]GC[unfinished: on a move])", False),
    ("(;FF[4]GM[6]PW[A])\n(;FF[4]GM[6]GC[unfinished: second game])", False),
    ("(;FF[4]GM[6]GC[unfinished: cut off inside the val", False),
])
def test_says_unfinished_reads_only_the_first_root_nodes_game_comment(sgf: str, marked: bool) -> None:
    assert says_unfinished(sgf) is marked


def test_the_sgf_note_is_escaped_as_sgf_text() -> None:
    from engine.records import _sgf_root, _sgf_text

    value = "a]b\\c] unfinished: \\]"
    sgf = f"(;FF[4]GC[{_sgf_text(value)}]PW[A];W[31hefe])"
    assert dict(_sgf_root(sgf))["GC"] == value
    assert _sgf_text("x]y\\z") == "x\\]y\\\\z"


def test_a_money_session_is_whole_between_games_and_unfinished_in_one() -> None:
    events: list[Event] = []
    for event in events_from_selfplay(self_play(random.Random(31), 0)):
        events.append(event)
        if sum(e.type == "game-over" for e in events) == 2:
            break
    assert not says_unfinished(to_mat(events))  # a session has no end: stopped between games, it is whole
    in_a_game = list(itertools.islice(events_from_selfplay(self_play(random.Random(31), 0)), len(events) + 4))
    assert read_record(in_a_game).games[-1].number == 3 and not read_record(in_a_game).games[-1].is_over
    assert to_text(in_a_game).splitlines()[1].startswith("unfinished: stopped in game 3 of the money session")
    assert says_unfinished(to_mat(in_a_game))
    assert not says_unfinished(to_sgf(events)) and says_unfinished(to_sgf(in_a_game))


def test_no_play_is_written_as_the_dice_alone() -> None:
    stream = [MATCH, OPENING, accepted("white", [3, 1], "8/5 6/5"), ev("roll", player="black", dice=[6, 6]),
              ev("no-play", player="black", dice=[6, 6])]
    # Black cannot play 6-6 only if blocked; at the start it can, so the rules refuse this.
    with pytest.raises(RecordError, match="event 4: game 1: '' is not a legal play for black"):
        to_mat(stream)
    played = selfplay_events(3, 3)
    assert any(e.type == "no-play" for e in played)
    assert re.search(r"\d\d:\s*$", to_mat(played), re.MULTILINE)
    assert "(no legal play)" in to_text(played)


def test_money_session() -> None:
    events = []
    for event in events_from_selfplay(self_play(random.Random(31), 0)):
        events.append(event)
        if sum(e.type == "game-over" for e in events) == 2:
            break
    mat = to_mat(events)
    assert mat.startswith(" 0 point match\n") and "and the match" not in mat
    assert "money session" in to_text(events) and "Score: White" in to_text(events)


#: Variants whose turns differ most from the standard one: chosen doublets, open rolls, rolls that
#: pass at once, stages handed to the opponent, bottom faces, a chosen roll, towers.
TURNS = ("acey-deucey", "open-roll", "catch-me", "gioul", "french-1", "double-vs-free-choice", "doublets")


def test_variants_have_a_text_record_and_only_standard_a_mat() -> None:
    for name in ("standard", *TURNS):
        variant = VARIANTS[name]
        events = list(events_from_selfplay(self_play(random.Random(2), 1, variant=variant)))
        text = to_text(events)
        assert text.startswith(f"pipgammon record: {name}, 1-point match")
        assert re.search(r"wins the match \d+-0$", text.strip()), name
        if name != "standard":
            with pytest.raises(RecordError, match=f"variant {name}: GNU Backgammon cannot replay it"):
                to_mat(events)


def test_starter_rolls_opening() -> None:
    events = selfplay_events(21, 3, opening=OpeningRule.STARTER_ROLLS)
    assert any(e.type == "starter" for e in events)
    assert "starts" in to_text(events)
    assert to_mat(events).count(" Game ") == sum(e.type == "game" for e in events)


@pytest.mark.parametrize(
    ("stream", "message"),
    [
        ([], "no match event"),
        ([OPENING], "event 0: opening before the match event"),
        ([MATCH, MATCH], "event 1: a second match event"),
        # to_text wrote "pipgammon record: nosuch" for these.
        ([ev("match", length=1, variant="nosuch", opening="auto")],
         "event 0: match: unknown variant 'nosuch'"),
        ([ev("match", length=1, variant="standard", opening="weird")],
         "event 0: match: opening must be auto, one-die-each, starter-rolls, not 'weird'"),
        ([MATCH, OPENING, accepted("white", [3, 1], "24/18")], "event 2: game 1: "),
        ([MATCH, OPENING, accepted("white", [3, 1], "8/5 6/5"), ev("undo", player="black")],
         "event 3: undo: black's accepted play is not the last thing recorded"),
        ([MATCH, OPENING, accepted("white", [3, 1], "8/5 6/5"),
          ev("game-over", winner="white", points=1, kind="single")],
         "event 3: game-over says white wins 1; by the rules the game goes on"),
        ([MATCH, OPENING, accepted("white", [3, 1], "8/5 6/5"), ev("double", player="black", cube=4)],
         "event 3: black doubles to 4 but the cube is at 1"),
        ([MATCH, OPENING, ev("roll", player="black", dice=[7, 1])], "event 2: roll: dice must be"),
        ([MATCH, OPENING, accepted("white", [3, 1], "8/5 6/5"), ev("double", player="black", cube=2),
          ev("drop", player="white", cube=1), ev("game-over", winner="black", points=1, kind="single"),
          ev("game", number=2, score=[1, 0])],
         "event 6: game 2 begins at 1-0 but the games recorded add up to 0-1"),
        ([MATCH, OPENING, ev("roll", player="white", dice=[3, 1])], None),
        ([MATCH, OPENING, accepted("white", [3, 1], "8/5 6/5"), ev("double", player="black", cube=2),
          ev("drop", player="white", cube=1), ev("game-over", winner="black", points=1, kind="single",
                                                  score=[1, 0])],
         "event 5: game-over says the score is 1-0, the games recorded add up to 0-1"),
        ([MATCH, ev("match-over", winner="white", score=[3, 0])], "event 1: match-over says 3-0"),
        ([MATCH, OPENING, accepted("white", [3, 1], "8/5 6/5"), ev("roll", player="black", dice=[6, 4]),
          ev("double", player="white", cube=2)],
         "event 3: black's roll of \\(6, 4\\) has no play, but the game goes on"),
        # Two events swapped are said to be out of order, not "has no play" (a reviewer's journal).
        ([MATCH, OPENING, ev("roll", player="black", dice=[6, 4]), accepted("white", [3, 1], "8/5 6/5"),
          accepted("black", [6, 4], "24/18 13/9")],
         "event 3: white's play of \\(3, 1\\) comes after black's roll of \\(6, 4\\), which should "
         "follow it: the events are out of order"),
        ([MATCH, OPENING, accepted("white", [3, 1], "8/5 6/5"), accepted("black", [6, 4], "24/18 13/9"),
          ev("roll", player="black", dice=[6, 4]), ev("roll", player="white", dice=[2, 1]),
          accepted("white", [2, 1], "13/11 6/5")],
         "event 4: black's roll of \\(6, 4\\) comes after its play \\(24/18 13/9\\): the events are "
         "out of order"),
    ],
)
def test_streams_that_cannot_be_exported_name_the_event(stream: list[Event], message: str | None) -> None:
    if message is None:  # not refused: the opening's dice announced again as the starter's roll
        assert to_mat(stream).endswith(" Game 1\n White : 0                       Black : 0\n")
        return
    with pytest.raises(RecordError, match=message):
        to_mat(stream)
    if "match:" in message:  # the text record, for any variant, reads the match event too
        with pytest.raises(RecordError, match=message):
            to_text(stream)


def test_player_names_must_fit_the_header() -> None:
    stream = [MATCH, OPENING, accepted("white", [3, 1], "8/5 6/5")]
    assert " Ann : 0" in to_mat(stream, players=("Ann", "Bob"))
    with pytest.raises(RecordError, match="one line without ':'"):
        to_mat(stream, players=("A:n", "Bob"))


def test_a_journal_resumed_in_the_middle_of_a_match() -> None:
    stream = [ev("match", length=5, variant="standard", opening="one-die-each"),
              ev("game", number=3, score=[2, 1], crawford=False), OPENING,
              accepted("white", [3, 1], "8/5 6/5"), ev("double", player="black", cube=2),
              ev("drop", player="white", cube=1), ev("game-over", winner="black", points=1, kind="single"),
              OPENING]  # the next game, with no game event before it
    mat = to_mat(stream)
    assert " Game 3\n White : 2                       Black : 1\n" in mat
    assert mat.endswith(" Game 4\n White : 2                       Black : 2\n")


def test_a_match_refereed_with_the_auto_opening_exports_as_its_games_opened() -> None:
    import dataclasses

    for opening in (OpeningRule.ONE_DIE_EACH, OpeningRule.STARTER_ROLLS):
        events = list(events_from_selfplay(self_play(random.Random(5), 3, opening)))
        auto = [dataclasses.replace(e, details={**e.details, "opening": "auto"}) if e.type == "match" else e
                for e in events]
        assert to_mat(auto) == to_mat(events)
