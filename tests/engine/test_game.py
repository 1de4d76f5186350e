"""The game state machine: opening, cube, rolling, playing and results."""

from __future__ import annotations

import pytest

from engine.cube import CENTRED, Cube
from engine.dice import Roll
from engine.errors import DiceError, IllegalActionError, IllegalPlayError
from engine.game import Game, OpeningRule, Phase
from engine.player import Player
from engine.position import Position
from engine.result import GameResult, ResultKind, result_kind

W, B = Player.WHITE, Player.BLACK


def on_roll(player: Player, position: Position | None = None, cube: Cube = CENTRED) -> Game:
    return Game.at(position or Position.start(), player, cube=cube)


# -- the opening --------------------------------------------------------------------


def test_one_die_each_the_higher_plays_both_numbers() -> None:
    """seed 001: "le joueur ayant obtenu le chiffre le plus grand commence la partie en jouant
    les deux chiffres amenés par ce tirage initial." """
    game = Game.new(OpeningRule.ONE_DIE_EACH).opening_roll(white=3, black=5)
    assert (game.phase, game.turn, game.roll) == (Phase.MOVING, B, Roll(3, 5))
    assert game.legal_plays().count() == 9


def test_one_die_each_a_tie_is_rolled_again() -> None:
    """seed 001: "En cas d'égalité on recommence le tirage et une partie ne débute donc jamais
    par un double." """
    game = Game.new(OpeningRule.ONE_DIE_EACH)
    assert game.opening_roll(white=4, black=4) == game


def test_classic_line_starter_rolls_their_own_two_dice() -> None:
    """"Der Startspieler wird ermittelt. Er würfelt mit seinen beiden Würfeln." An opening
    double is possible under this rule."""
    game = Game.new(OpeningRule.STARTER_ROLLS).choose_starter(W)
    assert (game.phase, game.turn) == (Phase.ON_ROLL, W)
    game = game.roll_dice(W, Roll(6, 6))
    assert game.legal_plays().count() == 11


def test_opening_rules_cannot_be_mixed() -> None:
    with pytest.raises(IllegalActionError, match="one die each"):
        Game.new(OpeningRule.ONE_DIE_EACH).choose_starter(W)
    with pytest.raises(IllegalActionError, match="starter rolling"):
        Game.new(OpeningRule.STARTER_ROLLS).opening_roll(white=1, black=2)


def test_players_alternate() -> None:
    """"Im weiteren Verlauf des Spiels würfeln beide Spieler immer abwechselnd." """
    game = Game.new().opening_roll(white=6, black=1).play(W, "13/7 8/7".replace("13", "13"))
    assert game.turn is B and game.phase is Phase.ON_ROLL


# -- the cube -----------------------------------------------------------------------


def test_either_player_may_double_while_the_cube_is_centred() -> None:
    """"Verdoppeln kann anfangs jeder." """
    assert on_roll(W).can_double(W) and on_roll(B).can_double(B)


def test_a_drop_loses_the_old_value_at_once() -> None:
    """"Lehnt er ab, verliert er sofort zum alten (anfangs einfachen) Wert." """
    game = on_roll(W).double(W).drop(B)
    assert game.is_over and game.result == GameResult(W, ResultKind.SINGLE, 1, dropped=True)
    assert game.result.points == 1


def test_a_take_puts_the_cube_on_the_takers_side_at_two() -> None:
    """"Nimmt er an, legt er den Würfel auf seine Brettseite und das Spiel geht weiter, ab jetzt
    um 2 Punkte beim Sieg." """
    game = on_roll(W).double(W).take(B)
    assert game.cube == Cube(2, B) and game.phase is Phase.ON_ROLL and game.turn is W


def test_a_redouble_dropped_loses_two_and_taken_plays_for_four() -> None:
    """"Lehnt sein Gegner nun ab, verliert dieser sofort mit dem alten Wert 2, nimmt er an, wandert
    der Verdopplerwürfel auf die andere Seite des Brettes und das Spiel geht nun um 4 Punkte." """
    game = on_roll(B, cube=Cube(2, B)).double(B)
    assert game.drop(W).result == GameResult(B, ResultKind.SINGLE, 2, dropped=True)
    assert game.take(W).cube == Cube(4, W)


def test_only_the_owner_may_redouble() -> None:
    """"Sobald der Verdoppler im Spiel ist, kann nur der Spieler, auf dessen Brettseite der Würfel
    liegt, verdoppeln." """
    game = on_roll(W, cube=Cube(2, B))
    assert not game.can_double(W)
    with pytest.raises(IllegalActionError, match=r"owner.*black owns it"):
        game.double(W)


def test_double_only_on_your_turn_before_rolling() -> None:
    """"Verdoppeln kann nur, wer am Zug ist und bevor er gewürfelt hat." """
    game = on_roll(W)
    with pytest.raises(IllegalActionError, match="white's turn"):
        game.double(B)
    with pytest.raises(IllegalActionError, match="phase on-roll"):
        game.roll_dice(W, Roll(3, 1)).double(W)


def test_the_cube_stops_at_sixty_four() -> None:
    """The Classic Line cube's faces end at 64 (the rulebook: more "wird in der Praxis nicht
    vorkommen")."""
    game = on_roll(W, cube=Cube(64, W))
    with pytest.raises(IllegalActionError, match="64"):
        game.double(W)
    with pytest.raises(IllegalActionError):
        Cube(128, W)


def test_a_closed_out_player_may_still_double() -> None:
    """seed 001: "Il est possible à un joueur de doubler même s'il ne peut pas du tout jouer." """
    closed = Position.from_text("W 12:5 17:3 19:6 bar:1 | B 1:2 2:2 3:2 4:2 5:2 6:5")
    assert on_roll(W, closed).can_double(W)


def test_only_the_doubled_player_answers() -> None:
    game = on_roll(W).double(W)
    with pytest.raises(IllegalActionError, match="only the doubled player"):
        game.take(W)
    with pytest.raises(IllegalActionError, match="only the doubled player"):
        on_roll(W).drop(B)


def test_no_cube_in_a_game_without_one() -> None:
    game = Game(Position.start(), Phase.ON_ROLL, OpeningRule.STARTER_ROLLS, W, cube_in_play=False)
    with pytest.raises(IllegalActionError, match="not in play"):
        game.double(W)


# -- rolling and playing ------------------------------------------------------------


def test_no_passing_a_legal_play_must_be_made() -> None:
    """"Es ist nicht erlaubt zu passen. Es muss gewürfelt werden und der Zug regelkonform
    ausgeführt werden." """
    game = on_roll(W).roll_dice(W, Roll(3, 1))
    with pytest.raises(IllegalPlayError, match="not a legal play"):
        game.play(W, "")


def test_with_no_legal_play_the_empty_play_passes_the_turn() -> None:
    """"Kann ein Spieler keinen der beiden Würfel nutzen, um die Bar zu verlassen, verfällt sein Zug." """
    closed = Position.from_text("W 12:5 17:3 19:6 bar:1 | B 1:2 2:2 3:2 4:2 5:2 6:5")
    game = on_roll(W, closed).roll_dice(W, Roll(6, 5)).play(W, "")
    assert game.turn is B and game.position == closed


def test_an_illegal_play_names_the_play_and_the_position() -> None:
    game = on_roll(W).roll_dice(W, Roll(3, 1))
    with pytest.raises(IllegalPlayError, match=r"'13/9 6/5' is not a legal play.*W 1:2"):
        game.play(W, "13/9 6/5")
    with pytest.raises(IllegalActionError, match="white's turn"):
        game.play(B, "8/5 6/5")


def test_bad_dice_are_refused() -> None:
    with pytest.raises(DiceError):
        Roll(0, 3)
    with pytest.raises(DiceError):
        Roll.parse("7-1")


# -- results ------------------------------------------------------------------------


def test_the_game_ends_when_the_last_checker_is_off() -> None:
    """"Wer zuerst alle Steine abgetragen hat, gewinnt das Spiel." """
    position = Position.from_text("W 24:1 | B 1:2 off:13")
    game = on_roll(W, position).roll_dice(W, Roll(2, 1)).play(W, "1/off")
    assert game.is_over and game.result == GameResult(W, ResultKind.SINGLE, 1)


@pytest.mark.parametrize(
    ("board", "kind"),
    [
        ("W off:15 | B 1:14 off:1", ResultKind.SINGLE),
        ("W off:15 | B 1:15", ResultKind.GAMMON),
        ("W off:15 | B 1:14 19:1", ResultKind.BACKGAMMON),
        ("W off:15 | B 1:14 bar:1", ResultKind.BACKGAMMON),
        # seed 001/gnubg: a loser who bore one off wins... loses only single, even on the bar.
        ("W off:15 | B 1:13 bar:1 off:1", ResultKind.SINGLE),
    ],
)
def test_single_gammon_backgammon(board: str, kind: ResultKind) -> None:
    """"Hat der Gegner zu diesem Zeitpunkt noch keinen Stein abgetragen, erzielt der Gewinner ein
    Gammon ... noch ein gegnerischer Stein im Heimfeld des Gewinners oder auf der Bar ..., zählt
    der Sieg 3 Punkte (Backgammon)." """
    assert result_kind(Position.from_text(board), W) is kind


def test_a_backgammon_on_a_four_cube_is_twelve_points() -> None:
    """"Wurde beispielsweise auf 4 verdoppelt, so bringt ein Backgammon 4 × 3 Punkte = 12 Punkte." """
    position = Position.from_text("W 24:1 | B 20:1 6:14")
    game = on_roll(W, position, Cube(4, W)).roll_dice(W, Roll(1, 1)).play(W, "1/off")
    assert game.result == GameResult(W, ResultKind.BACKGAMMON, 4)
    assert game.result.points == 12


def test_jacoby_counts_gammons_single_with_a_centred_cube() -> None:
    position = Position.from_text("W 24:1 | B 6:15")
    game = Game(position, Phase.ON_ROLL, OpeningRule.STARTER_ROLLS, W, jacoby=True)
    assert game.roll_dice(W, Roll(1, 1)).play(W, "1/off").result.kind is ResultKind.SINGLE
    cubed = Game(position, Phase.ON_ROLL, OpeningRule.STARTER_ROLLS, W, cube=Cube(2, W), jacoby=True)
    assert cubed.roll_dice(W, Roll(1, 1)).play(W, "1/off").result.kind is ResultKind.GAMMON


def test_nothing_happens_after_the_game_is_over() -> None:
    game = on_roll(W).double(W).drop(B)
    for action in (lambda: game.double(W), lambda: game.roll_dice(W, Roll(1, 2)),
                   lambda: game.take(B), lambda: game.legal_plays()):
        with pytest.raises(IllegalActionError, match="phase over"):
            action()
