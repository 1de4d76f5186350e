"""Whole synthetic games: the script is a legal match with known injections, and it renders and writes."""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path

import cv2
import pytest

from engine.dice import Roll
from engine.events import Event
from engine.game import Game, OpeningRule
from engine.match import Match
from engine.play import Play
from engine.player import Player
from engine.scene import Scene
from engine.variants import find_variant
from vision.synthetic_game import (
    SUPPORTED,
    GameScript,
    Motion,
    Press,
    ScriptError,
    Still,
    nearest_result,
    reads_as,
    render_script,
    scene_of,
    scenes,
    script_game,
    write_stills,
    write_video,
)

PLAYER = {"white": Player.WHITE, "black": Player.BLACK}


@cache
def scripted(seed: int, **options: object) -> GameScript:
    return script_game(seed, **options)  # type: ignore[arg-type]


def replay(script: GameScript) -> list[tuple[int, Event, Match, list[Play] | None]]:
    """Feed the truth events to an engine match: each event with the match before it and, for an
    ``illegal``, the legal plays of the roll.  Raises if the truth is not a legal match."""
    match = Match.new(script.match_to, OpeningRule(script.opening), variant=find_variant(script.variant))
    first = script.beats[0]
    assert isinstance(first, Still)
    if first.position != match.game.position:  # a set-up the players laid out
        match = dataclasses.replace(match, game=Game.new(OpeningRule(script.opening), position=first.position,
                                                         variant=find_variant(script.variant)))
    seen = []
    for truth in script.truth:
        event, kind = truth.event, truth.event.type
        player = PLAYER.get(event.details.get("player", ""), Player.WHITE)
        plays = list(match.game.legal_plays()) if kind in ("illegal", "no-play") else None
        seen.append((truth.beat, event, match, plays))
        if kind == "opening":
            match = match.opening_roll(white=event["white"], black=event["black"])
        elif kind == "starter":
            match = match.choose_starter(player)
        elif kind == "roll":
            match = match.roll_dice(player, Roll(*event["dice"]))
        elif kind == "accepted":
            match = match.play(player, event["move"])
        elif kind == "no-play":
            assert plays is not None and [p.steps for p in plays] == [()]
            match = match.play(player, plays[0])
        elif kind == "double":
            match = match.double(player)
        elif kind == "take":
            match = match.take(player)
        elif kind == "drop":
            match = match.drop(player)
        elif kind == "game-over":
            assert list(match.score) == event["score"]
        elif kind == "match-over":
            assert match.is_over and list(match.score) == event["score"]
    assert match.is_over
    return seen


def test_a_script_is_the_same_for_a_seed_and_differs_between_seeds() -> None:
    assert script_game(11) == script_game(11)
    assert script_game(11).truth != script_game(12).truth


@pytest.mark.parametrize(("seed", "options"), [
    (1, {}),
    (2, {"match_to": 5}),
    (3, {"opening": "starter-rolls", "match_to": 3}),
    (4, {"variant": "eureka", "match_to": 3}),
    (5, {"variant": "old-britain"}),
    (6, {"variant": "eureka", "setup": "W 19:5 21:5 24:5 | B 1:3 2:3 3:3 4:3 6:3"}),
])
def test_the_truth_is_a_legal_match_and_every_still_shows_the_engine_position(seed: int,
                                                                             options: dict) -> None:
    script = scripted(seed, **options)
    seen = replay(script)  # raises on any illegal action
    checkers = find_variant(script.variant).checkers
    for beat in script.beats:
        if not isinstance(beat, Still):
            continue
        assert beat.scene == scene_of(beat.position, beat.scene.dice, beat.scene.cube)
        missing = [checkers - beat.position.checkers_on_board(p) - beat.position.bar[p] - beat.position.off[p]
                   - beat.position.pool[p] for p in Player]
        # At rest every checker is somewhere; a lifted checker is the one the hand holds.
        assert sorted(missing) == ([0, 1] if beat.note == "lifted" else [0, 0]), beat
    # An accepted play's position is the board of the still it was decided at.
    for beat, event, _, _ in seen:
        still = script.beats[beat]
        assert isinstance(still, Still)
        if event.type == "accepted":
            assert list(still.position.points) == event["position"]["points"]
            assert list(still.position.bar) == event["position"]["bar"]
        if event.type in ("roll", "reroll", "void-roll"):
            colour = event["player"]
            assert sorted(v for c, v, _ in still.scene.dice if c == colour) == sorted(event["dice"])
        if event.type == "reroll":
            assert still.scene.any_cocked


def test_illegal_boards_are_no_legal_result_and_name_the_points_off_the_nearest() -> None:
    found = 0
    for seed in range(6):
        script = scripted(seed + 20, illegal_rate=0.5)
        for beat, event, _, plays in replay(script):
            if event.type != "illegal":
                continue
            found += 1
            still = script.beats[beat]
            assert isinstance(still, Still) and not still.scene.dice
            assert plays is not None
            assert still.position not in {p.result for p in plays}
            nearest = next(p for p in plays if p.notation == event["nearest"])
            differ = [q for q in range(1, 25) if still.position.at(q) != nearest.result.at(q)]
            assert event["points"] == differ and differ
            found_nearest = nearest_result(still.position, plays, nearest)
            assert found_nearest == (nearest, tuple(differ))
            assert still.position.bar == nearest.result.bar
    assert found >= 20


def test_nearest_result_refuses_ties_and_legal_boards() -> None:
    game = Game.new(OpeningRule.ONE_DIE_EACH).opening_roll(white=3, black=1)
    plays = list(game.legal_plays())
    best = game.legal_plays().parse("8/5 6/5")
    assert nearest_result(best.result, plays) is None  # a legal result is not illegal
    # White's 3-1 from the start with nothing moved: many plays are two checkers away.
    assert nearest_result(game.position, plays) is None


def test_injections_come_at_the_requested_rates() -> None:
    counts: dict[str, int] = {}
    for seed in range(30, 36):
        script = scripted(seed, illegal_rate=0.2, tryout_rate=0.4, cocked_rate=0.15, void_rate=0.1,
                          button_rate=0.2)
        for key, value in script.counts.items():
            counts[key] = counts.get(key, 0) + value
    assert counts["turns"] > 300
    assert counts["illegal"] / counts["plays"] == pytest.approx(0.2, abs=0.04)
    assert counts["tryout"] / counts["plays"] == pytest.approx(0.4, abs=0.08)
    assert counts["cocked"] / counts["turns"] == pytest.approx(0.15, abs=0.05)
    assert counts["void"] / counts["turns"] == pytest.approx(0.1, abs=0.05)
    # Half the corrections go back to the start.
    assert counts["corrected-start"] / counts["illegal"] == pytest.approx(0.5, abs=0.2)
    none = script_game(30, illegal_rate=0, tryout_rate=0, cocked_rate=0, void_rate=0, button_rate=0,
                       lift_rate=0)
    assert not {"illegal", "tryout", "cocked", "void", "button", "lifted"} & set(none.counts)


def test_the_cube_moves_as_the_contract_says() -> None:
    script = scripted(2, match_to=5)
    doubles = [(b, e) for b, e, _, _ in replay(script) if e.type == "double"]
    assert doubles
    for beat, event in doubles:
        still = script.beats[beat]
        assert isinstance(still, Still)
        taker = "black" if event["player"] == "white" else "white"
        assert still.scene.cube == (event["cube"], taker)
    first = script.beats[0]
    assert isinstance(first, Still) and first.scene.cube == (1, "center") and not first.scene.dice
    no_cube = scripted(5, variant="old-britain").beats[0]
    assert isinstance(no_cube, Still) and no_cube.scene.cube is None


def test_unsupported_variants_and_bad_rates_are_refused() -> None:
    with pytest.raises(ScriptError, match="puff"):
        script_game(1, variant="puff")
    with pytest.raises(ScriptError, match="illegal rate"):
        script_game(1, illegal_rate=2)
    with pytest.raises(ScriptError, match="set-up"):
        script_game(1, setup="W 1:15 | B 24:15")
    with pytest.raises(ScriptError, match="opening"):
        script_game(1, opening="coin")
    assert "standard" in SUPPORTED


def test_reads_as_takes_stacked_counts_as_lower_bounds() -> None:
    truth = Scene((7,) + (0,) * 23, (0, 0), (), (1,))
    assert reads_as(Scene((5,) + (0,) * 23, (0, 0), (), (1,)), truth)
    assert not reads_as(Scene((5,) + (0,) * 23, (0, 0), (), ()), truth)
    assert not reads_as(Scene((-5,) + (0,) * 23, (0, 0), (), (1,)), truth)


def short(script: GameScript, beats: int) -> GameScript:
    """The script's first beats, with the truth decided in them."""
    return dataclasses.replace(script, beats=script.beats[:beats],
                               truth=tuple(t for t in script.truth if t.beat < beats))


def test_a_rendered_script_has_every_frame_at_the_size_asked() -> None:
    script = short(scripted(1), 14)
    size = (480, 360)
    frames = list(render_script(script, 1, size))
    expected = sum(b.hold if isinstance(b, Still) else b.frames
                   for b in script.beats if not isinstance(b, Press))
    assert len(frames) == expected
    assert all(f.image.shape == (360, 480, 3) for f in frames)
    assert [f.name for f in frames] == [str(i) for i in range(expected)]
    for frame in frames:
        beat = script.beats[frame.beat]
        assert frame.truth == (beat.scene if isinstance(beat, Still) else None)
        assert isinstance(beat, Still | Motion)
    stills = list(render_script(script, 1, size, stills=True))
    assert [f.name for f in stills] == [f"{n:05d}" for n in range(1, len(script.stills) + 1)]


def test_writers_give_sorted_stills_buttons_and_truth(tmp_path: Path) -> None:
    full = script_game(3, button_rate=1.0)
    cut = next(i for i, b in enumerate(full.beats) if isinstance(b, Press)) + 4
    script = short(full, cut)
    frames = write_stills(script, tmp_path, size=(480, 360))
    names = sorted(p.name for p in frames.glob("*.jpg"))
    assert names == [f"{n:05d}.jpg" for n in range(1, len(script.stills) + 1)]
    assert cv2.imread(str(tmp_path / "start.png")).shape == (360, 480, 3)
    buttons = [json.loads(line) for line in (frames / "buttons.jsonl").read_text().splitlines()]
    assert buttons and all(b["button"] == "end-turn" and b["frame"] in names for b in buttons)
    truth = [json.loads(line) for line in (tmp_path / "truth.jsonl").read_text().splitlines()]
    assert len(truth) == len(script.truth)
    assert all(Event.from_json(t).frame in names for t in truth)
    video = write_video(script, tmp_path / "game.avi", size=(320, 240))
    capture = cv2.VideoCapture(str(video))
    count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT))
    capture.release()
    assert count == sum(b.hold if isinstance(b, Still) else b.frames for b in script.beats
                        if not isinstance(b, Press))
    assert (tmp_path / "game.truth.jsonl").read_text().count("\n") == len(script.truth)


def test_scenes_give_every_still_with_the_buttons_after_it() -> None:
    script = scripted(3, button_rate=0.5)
    listed = list(scenes(script))
    assert [name for name, _, _ in listed] == [f"{n:05d}.jpg" for n in range(1, len(script.stills) + 1)]
    assert [scene for _, scene, _ in listed] == [script.beats[i].scene for i in script.stills]  # type: ignore[union-attr]
    assert sum(len(presses) for _, _, presses in listed) == script.counts["button"] > 0
