"""Match play: scores, the Crawford rule and the match's Match ID."""

from __future__ import annotations

import pytest

from engine.dice import Roll
from engine.errors import IllegalActionError
from engine.game import OpeningRule
from engine.gnubg_id import GameStage, MatchKey
from engine.match import Match
from engine.player import Player
from engine.result import GameResult, ResultKind

W, B = Player.WHITE, Player.BLACK


def win(player: Player, kind: ResultKind = ResultKind.SINGLE, cube: int = 1) -> GameResult:
    return GameResult(player, kind, cube)


def test_the_first_to_reach_the_length_wins_and_overshoot_does_not_matter() -> None:
    """seed 001: "Le fait de dépasser le nombre de points requis et le score final n'ont aucune
    incidence." """
    match = Match.new(5).with_result(win(W, cube=2)).with_result(win(W, cube=2))
    assert match.score == (4, 0)
    match = match.with_result(win(B)).with_result(win(W, ResultKind.GAMMON, 2))
    assert match.is_over and match.winner is W and match.score == (8, 1)
    with pytest.raises(IllegalActionError, match="over"):
        match.with_result(win(B))


def test_crawford_game_has_no_cube_and_post_crawford_games_do() -> None:
    """seed 001: "si l'un des joueurs est à un point de la victoire alors le videau ne peut être
    utilisé lors de cette partie. Si le joueur mené au score gagne cette partie, le match se
    poursuit et le videau est de nouveau actif pour toutes les parties suivantes." """
    match = Match.new(5, OpeningRule.STARTER_ROLLS)
    match = match.with_result(win(W, cube=2)).with_result(win(B)).with_result(win(W))
    assert match.score == (3, 1) and not match.is_crawford
    match = match.with_result(win(W))  # 4-1: White is one point away
    assert match.is_crawford and not match.game.cube_in_play
    crawford = match.choose_starter(B)
    with pytest.raises(IllegalActionError, match="not in play"):
        crawford.double(B)
    match = match.with_result(win(B))  # 4-2
    assert match.is_post_crawford and not match.is_crawford and match.game.cube_in_play
    match = match.with_result(win(B))  # 4-3: still post-Crawford, never a second Crawford game
    assert not match.is_crawford and match.game.cube_in_play


def test_crawford_when_the_trailer_reaches_match_point_first() -> None:
    match = Match.new(3).with_result(win(B, ResultKind.GAMMON))
    assert match.score == (0, 2) and match.is_crawford


def test_a_match_runs_game_by_game_through_its_actions() -> None:
    match = Match.new(1, OpeningRule.STARTER_ROLLS).choose_starter(W).double(W).drop(B)
    assert match.is_over and match.winner is W and match.score == (1, 0)


def test_match_id_of_a_new_match_and_after_a_roll() -> None:
    match = Match.new(7, OpeningRule.STARTER_ROLLS).choose_starter(B).roll_dice(B, Roll(5, 2))
    key = match.key()
    assert key == MatchKey(dice_owner=B, turn=B, dice=(5, 2), length=7, stage=GameStage.PLAYING)
    assert MatchKey.decode(match.match_id()) == key


def test_money_play_and_jacoby() -> None:
    assert Match.new(0, jacoby=True).key().jacoby
    with pytest.raises(IllegalActionError, match="money play only"):
        Match.new(5, jacoby=True)
    with pytest.raises(IllegalActionError):
        Match.new(-1)
    assert Match.new(0).away(W) == 0 and not Match.new(0).with_result(win(W, cube=64)).is_over
