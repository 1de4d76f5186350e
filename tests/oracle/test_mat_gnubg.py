"""GNU Backgammon reads our .mat and SGF exports and finds every move, cube action and result.

Self-played matches (engine.selfplay) become events (as the referee would emit them),
then .mat and SGF text (engine.records.to_mat, to_sgf); gnubg reads each file as a separate program
(tests/oracle/gnubg_import_match.py) and reports the match it read.  What it read is
compared, game by game and action by action, with the self-play actions themselves, not
with our own reading of the file.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

from engine.game import OpeningRule
from engine.match import Match
from engine.player import Player
from engine.records import events_from_selfplay, to_mat, to_sgf
from engine.selfplay import Action, self_play

#: (seed, match length, opening rule, games to play): 0 points is a money session, cut short.
CASES = [
    *((seed, 3, OpeningRule.ONE_DIE_EACH, None) for seed in (1, 2, 3, 4, 5)),
    *((seed, 5, OpeningRule.ONE_DIE_EACH, None) for seed in (11, 12, 13, 14, 15)),
    *((seed, 5, OpeningRule.STARTER_ROLLS, None) for seed in (21, 22)),
    (31, 0, OpeningRule.ONE_DIE_EACH, 4),
]

SIDE = {Player.WHITE: "X", Player.BLACK: "O"}  # gnubg's names for the left and right columns


def _play(seed: int, length: int, opening: OpeningRule, games: int | None) -> list[tuple[Action, Match]]:
    played = []
    for action, match in self_play(random.Random(seed), length, opening):
        played.append((action, match))
        if games is not None and len(match.results) == games:
            break
    return played


def _expected(played: list[tuple[Action, Match]]) -> list[dict[str, Any]]:
    """Each game straight from self-play: the score before it, its actions, and its result."""
    games: list[dict[str, Any]] = []
    score = (0, 0)
    current: dict[str, Any] | None = None
    for action, match in played:
        if current is None:
            current = {"score": score, "actions": []}
            games.append(current)
        side = SIDE[action.player]
        if action.kind == "play":
            assert action.play is not None and action.roll is not None
            steps = sorted((step.start, step.end) for step in action.play.steps)
            current["actions"].append((side, "move", sorted((action.roll.first, action.roll.second)), steps))
        elif action.kind in ("double", "take", "drop"):
            current["actions"].append((side, action.kind))
        if action.result is not None:
            current["winner"], current["points"] = SIDE[action.result.winner], action.result.points
            score = match.score
            current = None
    return games


def _imported(game: dict[str, Any]) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = []
    for action in game["game"]:
        if action["action"] == "move":
            steps = sorted((start, end) for start, end in action["move"])
            found.append((action["player"], "move", sorted(action["dice"]), steps))
        else:
            found.append((action["player"], action["action"]))
    return found


def test_gnubg_imports_every_move_cube_action_and_result(gnubg, tmp_path: Path) -> None:
    files, expected, finals = [], [], []
    for seed, length, opening, games in CASES:
        played = _play(seed, length, opening, games)
        events = list(events_from_selfplay(played))
        for form, export in (("mat", to_mat), ("sgf", to_sgf)):
            path = tmp_path / f"selfplay-{seed}-{length}.{form}"
            path.write_text(export(events))
            files.append({"path": str(path), "format": form, "jacoby": False})
            expected.append(_expected(played))
            finals.append(played[-1][1])
    checked: Counter[str] = Counter()
    for case, games, final in zip(gnubg("gnubg_import_match", files), expected, finals, strict=True):
        where = Path(case["path"]).name
        assert case["match"] is not None, f"{where}: gnubg imported nothing ({case.get('error')})"
        info = case["match"]["match-info"]
        assert info["match-length"] == final.length
        assert (info["X"]["name"], info["O"]["name"]) == ("White", "Black")
        imported = case["match"]["games"]
        assert len(imported) == len(games), f"{where}: {len(imported)} games, expected {len(games)}"
        for number, (theirs, ours) in enumerate(zip(imported, games, strict=True), 1):
            assert (theirs["info"]["score-X"], theirs["info"]["score-O"]) == ours["score"], (where, number)
            assert _imported(theirs) == ours["actions"], f"{where} game {number}"
            assert theirs["info"]["winner"] == ours["winner"], (where, number)
            assert theirs["info"]["points-won"] == ours["points"], (where, number)
            assert not theirs["info"]["resigned"]
            checked["games"] += 1
            checked["moves"] += sum(a[1] == "move" for a in ours["actions"])
            checked["no-plays"] += sum(a[1] == "move" and not a[3] for a in ours["actions"])
            for kind in ("double", "take", "drop"):
                checked[kind] += sum(a[1] == kind for a in ours["actions"])
        checked[f"{case['format']} files"] += 1
        last = imported[-1]["info"]
        score = [last["score-X"], last["score-O"]]
        score["XO".index(last["winner"])] += last["points-won"]
        assert tuple(score) == final.score, f"{where}: gnubg ends at {score}, the match at {final.score}"
    # The sample must exercise what the format has to carry.
    assert checked["mat files"] == checked["sgf files"] == len(CASES)
    assert checked["games"] >= 2 * 20 and checked["moves"] >= 2 * 1000
    assert checked["double"] and checked["take"] and checked["drop"] and checked["no-plays"]
    print(f"gnubg read back {dict(checked)}")


def test_an_unfinished_game_imports_up_to_its_last_play(gnubg, tmp_path: Path) -> None:
    played = _play(7, 3, OpeningRule.ONE_DIE_EACH, None)
    events = list(events_from_selfplay(played))
    # Cut the journal in the middle of the first game, just after a roll (its play not yet made).
    cut = next(i for i, e in enumerate(events) if e.type == "roll" and i > 40)
    mat, sgf = tmp_path / "unfinished.mat", tmp_path / "unfinished.sgf"
    mat.write_text(to_mat(events[: cut + 1]))
    sgf.write_text(to_sgf(events[: cut + 1]))
    # It says it is unfinished on a comment line first, as gnubg's own headers are; gnubg reads past it.
    note = "unfinished: stopped in game 1 of the 3-point match, at White 0, Black 0"
    assert mat.read_text().startswith(f"; {note}\n")
    # The SGF says it as the first game's game comment (GC), as gnubg saves a match's comment.
    assert f"GC[{note}]" in sgf.read_text()
    cases = gnubg("gnubg_import_match", [{"path": str(mat), "jacoby": False},
                                         {"path": str(sgf), "format": "sgf", "jacoby": False}])
    for case in cases:
        where = Path(case["path"]).name
        assert case["match"] is not None, (where, case.get("error"))
        assert case["match"]["match-info"]["match-length"] == 3, where
        moves = [a for a in case["match"]["games"][0]["game"] if a["action"] == "move"]
        assert len(moves) == sum(e.type in ("accepted", "no-play") for e in events[:cut]), where
    # gnubg keeps the note as the match's comment from either file (from the .mat with its newline).
    assert [case["match"]["match-info"]["comment"].rstrip("\n") for case in cases] == [note, note]


def test_gnubg_reads_the_sgf_note_as_written_and_a_whole_match_has_none(gnubg, tmp_path: Path) -> None:
    """The note of a match stopped between games, and before its first; a whole match's SGF
    has no comment at all."""
    events = list(events_from_selfplay(_play(3, 3, OpeningRule.ONE_DIE_EACH, None)))
    between = next(i for i, e in enumerate(events) if e.type == "game-over") + 1
    files = {"whole": to_sgf(events), "between": to_sgf(events[:between]), "before": to_sgf(events[:1])}
    for name, text in files.items():
        (tmp_path / f"{name}.sgf").write_text(text)
    cases = gnubg("gnubg_import_match", [{"path": str(tmp_path / f"{name}.sgf"), "format": "sgf",
                                          "jacoby": False} for name in files])
    whole, between_games, before = (case["match"] for case in cases)
    assert "comment" not in whole["match-info"]
    first = whole["games"][0]["info"]
    assert between_games["match-info"]["comment"] == (
        f"unfinished: stopped in game 1 of the 3-point match, at White "
        f"{first['points-won'] if first['winner'] == 'X' else 0}, Black "
        f"{first['points-won'] if first['winner'] == 'O' else 0}")
    assert len(between_games["games"]) == 1 and between_games["games"][0] == whole["games"][0]
    assert before["match-info"]["comment"] == "unfinished: stopped before the first game of the 3-point match"
    assert before["match-info"]["match-length"] == 3
    assert [game["game"] for game in before["games"]] == [[]]  # a match with nothing played yet
