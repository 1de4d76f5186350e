"""GNU Backgammon as the independent oracle for the standard rules and the gnubg IDs.

gnubg runs as a separate program (tests/oracle/*.py are scripts for its
embedded Python); nothing of it is imported here.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.dice import Roll
from engine.gnubg_id import MatchKey, position_from_id, position_id
from engine.movegen import legal_plays
from engine.player import Player
from engine.sampling import Kind, random_position, random_roll

CASES_PER_KIND = 600  # 4 kinds: 2,400 positions, a third of them with doubles
SEED = 20261122


def _cases() -> list[dict[str, object]]:
    rng = random.Random(SEED)
    cases = []
    for kind in Kind:
        for index in range(CASES_PER_KIND):
            mover = Player(index % 2)
            position = random_position(rng, kind, mover)
            roll = random_roll(rng, doubles=0.34)
            cases.append({"id": position_id(position, mover), "dice": [roll.first, roll.second],
                          "kind": kind.value})
    return cases


def test_legal_plays_agree_with_gnubg_on_2400_positions(gnubg) -> None:
    answers = gnubg("gnubg_legal_plays", _cases())
    disagreements, notation_differences = [], []
    checked = Counter()
    for case in answers:
        # gnubg re-encodes the board it decoded from our ID: the encodings must match.
        assert case["board_id"] == case["id"]
        for mover in Player:
            position = position_from_id(case["id"], mover)
            ours = {
                position_id(play.result, mover): play.notation
                for play in legal_plays(position, mover, Roll(*case["dice"]))
            }
            theirs = {result: move for move, result in case["plays"]} or {case["id"]: ""}
            if set(ours) != set(theirs):
                disagreements.append((case["id"], case["dice"], sorted(ours.values()),
                                      sorted(theirs.values())))
            notation_differences += [
                (case["id"], case["dice"], ours[r], theirs[r]) for r in ours.keys() & theirs.keys()
                if ours[r] != theirs[r]
            ]
        checked[case["kind"]] += 1
        checked["doubles"] += case["dice"][0] == case["dice"][1]
    assert sum(checked[k.value] for k in Kind) == 4 * CASES_PER_KIND
    assert checked["doubles"] > 600
    assert not disagreements, f"{len(disagreements)} disagreements, first: {disagreements[:3]}"
    assert not notation_differences, f"notation differs: {notation_differences[:5]}"


def test_match_ids_agree_with_gnubg(gnubg) -> None:
    rng = random.Random(SEED)
    cases = []
    for _ in range(60):
        length = rng.choice((1, 3, 5, 7, 11, 25))
        score = [rng.randint(0, length - 1), rng.randint(0, length - 1)]
        crawford = length > 1 and length - 1 in score and rng.random() < 0.5
        cube = 1 if crawford else rng.choice((1, 2, 4, 8, 16, 32, 64))
        owner = None if cube == 1 else rng.choice((0, 1, None))
        if cube > 1 and owner is None:
            owner = 0
        dice = [rng.randint(1, 6), rng.randint(1, 6)] if rng.random() < 0.7 else None
        cases.append({"length": length, "score": score, "crawford": crawford,
                      "turn": rng.randint(0, 1), "cube": cube, "owner": owner, "dice": dice})
    for case in gnubg("gnubg_match_ids", cases):
        key = MatchKey.decode(case["match_id"])
        assert key.encode() == case["match_id"]
        assert key.length == case["length"]
        assert list(key.score) == case["score"]
        assert key.crawford == case["crawford"]
        assert not key.jacoby  # never in match play
        assert key.cube_value == case["cube"]
        assert key.cube_owner == (None if case["owner"] is None else Player(case["owner"]))
        assert key.turn == Player(case["turn"]) and key.dice_owner == Player(case["turn"])
        if case["dice"]:
            assert sorted(key.dice) == sorted(case["dice"])  # gnubg may store either order
