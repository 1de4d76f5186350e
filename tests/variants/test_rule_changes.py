"""Gioul, Mexican, Old Britain, Pin and the short variants (Rückwärts to Doppelt gegen freie Wahl).
Each test quotes the rule sentence (Classic Line, seed 003)."""

from __future__ import annotations

import pytest

from engine.dice import Roll
from engine.errors import IllegalActionError, PositionError
from engine.game import Game, OpeningRule, Phase
from engine.position import Position
from engine.result import ResultKind
from engine.turn import Ask
from engine.variants import find_variant
from tests.variants.helpers import B, W, board, game, plays, results, rolled

# -- Gioul ----------------------------------------------------------------------------


def test_gioul_starts_on_the_first_point_of_the_opponents_home() -> None:
    """"Die beiden Spieler beginnen auf den ersten Spitzen der gegnerischen Heimfelder." """
    assert find_variant("gioul").start_position() == Position.from_points({1: 15, 24: -15})


def test_gioul_a_single_checker_blocks_and_nobody_is_hit() -> None:
    """"Es wird nicht geschlagen, bereits ein einzelner Stein sperrt diese Spitze für den Gegner." """
    found = plays("gioul", "W 1:15 | B 5:1 24:14", W, "4-3")
    assert all("*" not in p for p in found)
    assert all("24/20" not in p for p in found)


def test_gioul_doubles_climb_to_six() -> None:
    """"Pasch 3 → zunächst 4x 3 Augen ziehen. Dann 4x 4 ... Dann 4x 5 ... Abschließend 4x 6." """
    g = rolled("gioul", None, W, "3-3")
    stages = [stage.text for stage in g.progress.stages] if g.progress else []
    assert stages == ["3-3", "4×4", "4×5", "4×6"]


def test_gioul_the_opponent_plays_what_the_roller_cannot() -> None:
    """"Sobald der Spieler den Zug nicht umsetzen kann, übernimmt der Gegner an der nächsten
    Position: ... 4x 4 Augen ziehen → kann der Spieler nicht vollständig ausführen. Sein Gegner
    setzt mit 4x 5 Augen fort. Abschließend 4x 6 Augen ziehen." """
    # White's checkers on 1 can play 3s but no 4 (Black holds 5, 8, 9, 12 with single checkers).
    g = rolled("gioul", "W 1:15 | B 5:1 8:1 9:1 12:1 24:11", W, "3-3")
    g = g.play(W, next(iter(g.legal_plays())))
    assert g.progress is not None and g.progress.stage.text == "4×4" and g.progress.mover is W
    g = g.play(W, next(iter(g.legal_plays())))
    assert g.progress is not None and g.progress.stage.text == "4×5" and g.progress.mover is B
    with pytest.raises(IllegalActionError, match="black's turn to play"):
        g.play(W, "")
    g = g.play(B, next(iter(g.legal_plays())))
    assert g.progress is not None and g.progress.stage.text == "4×6" and g.progress.mover is B


def test_gioul_then_the_opponent_takes_their_own_turn() -> None:
    """"Anschließend führt der Gegner wie gewohnt seinen Zug durch." """
    g = rolled("gioul", "W 1:15 | B 5:1 8:1 9:1 12:1 24:11", W, "3-3")
    while g.progress is not None:
        g = g.play(g.progress.mover, next(iter(g.legal_plays())))
    assert g.phase is Phase.ON_ROLL and g.turn is B


def test_gioul_no_cube_and_gammon_at_most() -> None:
    """"Es wird ohne Verdoppler gespielt. Der einfache Sieg zählt 1 Punkt, hat der Gegner noch gar
    keinen Stein abgetragen, zählt der Sieg 2 Punkte." """
    assert not game("gioul", None, W).can_double(W)
    end = rolled("gioul", "W 24:1 off:14 | B 20:15", W, "2-1").play(W, "1/off")
    assert end.result is not None and end.result.kind is ResultKind.GAMMON and end.result.points == 2
    single = rolled("gioul", "W 24:1 off:14 | B 1:14 off:1", W, "2-1").play(W, "1/off")
    assert single.result is not None and single.result.points == 1


# -- Mexican --------------------------------------------------------------------------


def test_mexican_smaller_die_first_or_the_whole_roll_is_lost() -> None:
    """"Es wird immer zuerst der niedrigere Wert gezogen. Geht das nicht, verfällt der gesamte
    Wurf." """
    assert plays("mexican", "W 1:15 | B 3:2 24:13", W, "6-2") == {""}
    found = find_variant("mexican").legal_plays(Position.start(), W, Roll(6, 3))
    assert all(play.steps[0].die == 3 for play in found)


def test_mexican_at_most_five_on_a_point() -> None:
    """"Es dürfen max. 5 Steine auf einer Spitze stehen." """
    found = results("mexican", Position.start().to_text(), W, "2-1")
    assert all("19:6" not in r for r in found)


def test_mexican_a_fully_played_double_rolls_again() -> None:
    """"Nach einem (vollständig ausgeführten) Pasch wird erneut gewürfelt." """
    g = rolled("mexican", None, W, "3-3").play(W, "24/21(2) 8/5(2)")
    assert g.asks is Ask.ROLL and g.turn is W
    g = rolled("mexican", "W 1:15 | B 4:2 24:13", W, "3-3").play(W, "")
    assert g.phase is Phase.ON_ROLL and g.turn is B


def test_mexican_one_two_is_a_chosen_doublet_and_a_new_roll() -> None:
    """"Nach dem Wurf eines „Mexikaners“ (1-2) wird ein beliebiger Pasch gewählt und ausgeführt.
    Anschließend wird regulär gewürfelt. Die Kombination 1-2 wird nicht gezogen!" """
    g = rolled("mexican", None, W, "1-2")
    assert g.asks is Ask.DOUBLET
    g = g.choose_doublet(W, 4)
    assert g.progress is not None and g.progress.stage.dice == (4, 4, 4, 4)
    g = g.play(W, next(iter(g.legal_plays())))
    assert g.asks is Ask.ROLL and g.turn is W


def test_mexican_bears_off_with_exact_numbers() -> None:
    """"Das Abtragen erfolgt mit exakt passenden Werten." """
    # The 4 first: off from the 4-point, or 5→1; the 6 then finds no checker on the 6-point.
    assert plays("mexican", "W 20:1 21:1 | B 1:15", W, "6-4") == {"4/off", "5/1"}


def test_mexican_no_gammons_and_no_cube() -> None:
    """"Es gibt kein Gammon oder Backgammon. Es gibt keinen Dopplerwürfel." """
    end = rolled("mexican", "W 24:1 off:14 | B 20:15", W, "1-1").play(W, "1/off")
    assert end.result is not None and end.result.kind is ResultKind.SINGLE
    assert not game("mexican", None, W).can_double(W)


# -- Old Britain ----------------------------------------------------------------------


def test_old_britain_standard_start_and_five_on_a_point() -> None:
    """"Es wird mit der Standardstartaufstellung gespielt. ... Es dürfen nur maximal 5 Steine auf
    einer Spitze stehen." """
    assert find_variant("old-britain").start_position() == Position.start()
    assert all("19:6" not in r for r in results("old-britain", Position.start().to_text(), W, "2-1"))


def test_old_britain_may_play_the_lower_die() -> None:
    """"Wenn Sie nicht beide Würfe ausführen können, dürfen Sie auch den niedrigeren Würfel setzen
    und den anderen verfallen lassen." In the standard game only the 6 may be played here."""
    position = "W 1:1 24:14 | B 9:2 6:13"
    assert plays("old-britain", position, W, "6-2") == {"24/18", "24/22"}
    assert plays("standard", position, W, "6-2") == {"24/18"}


def test_old_britain_has_no_cube() -> None:
    """"Es wird ohne Dopplerwürfel gespielt." """
    assert not game("old-britain", None, W).can_double(W)


# -- Pin ------------------------------------------------------------------------------


def test_pin_pins_instead_of_hitting_until_the_pinner_leaves() -> None:
    """"Es wird nicht geschlagen. Stattdessen gilt: ziehen Sie auf ein Feld mit einem einzelnen
    gegnerischen Stein, so ist dieser gefangen, bis Sie das Feld wieder verlassen." """
    pinned = results("pin", "W 1:15 | B 4:1 24:14", W, "3-3")
    assert any("pin:4" in r for r in pinned)
    # The pinned checker cannot move; once the pinner leaves it is free again.
    assert plays("pin", "W 4:1 1:14 | B pin:4 24:14", B, "2-1") == {"24/23 24/22", "24/21"}
    freed = rolled("pin", "W 4:1 1:14 | B pin:4 24:14", W, "2-1").play(W, "21/18")
    assert freed.position.at(4) == -1 and not freed.position.pins


def test_pin_a_point_with_two_checkers_is_closed() -> None:
    """"Felder, die von 2 Steinen besetzt sind, dürfen nicht betreten werden. Dabei ist es egal, ob
    die beiden Steine einem Spieler oder beiden gehören." """
    # A pinned pair (here White's checker under Black's) is closed to both.
    assert all("24/21" not in p for p in plays("pin", "W 1:14 pin:4 | B 4:1 24:14", W, "3-3"))
    assert all(p != "24/21" for p in plays("pin", "W 1:15 | B 4:2 24:13", W, "3-1"))


def test_pin_a_roll_not_fully_playable_is_lost() -> None:
    """"Wenn ein Wurf nicht vollständig ausgeführt werden kann, verfällt er komplett." """
    assert plays("pin", "W 1:1 24:14 | B 9:2 6:13", W, "6-2") == {""}


def test_pin_has_no_cube() -> None:
    """"Es wird ohne Dopplerwürfel gespielt." """
    assert not game("pin", None, W).can_double(W)


def test_pin_the_winner_scores_the_losers_pips() -> None:
    """"Der Sieger erhält so viele Punkte, wie der Gegner Felder benötigt hätte, um abzutragen:
    1 Stein 3 Felder = 3 Punkte, 2 Steine à 1 Feld = 2 × 1 = 2 Punkte, insgesamt 5 Punkte." """
    end = rolled("pin", "W 24:1 off:14 | B 3:1 1:2 off:12", W, "1-1").play(W, "1/off")
    assert end.result is not None and end.result.points == 5 and end.result.kind is ResultKind.SINGLE


def test_pin_gammon_doubles_and_backgammon_triples() -> None:
    """"Gammon verdoppelt. Backgammon verdreifacht." """
    gammon = rolled("pin", "W 24:1 off:14 | B 3:1 1:14", W, "1-1").play(W, "1/off")
    assert gammon.result is not None and gammon.result.points == 2 * (3 + 14)
    backgammon = rolled("pin", "W 24:1 off:14 | B 20:1 1:14", W, "1-1").play(W, "1/off")
    assert backgammon.result is not None and backgammon.result.points == 3 * (20 + 14)


def test_pin_accepts_a_set_up_with_at_most_two_on_a_point() -> None:
    """The start exists only as a picture: any set-up with at most two checkers a point is taken."""
    pin = find_variant("pin")
    laid = board("pin", "W 1:2 2:2 3:2 4:2 5:2 6:2 7:2 9:1 | B 24:2 23:2 22:2 21:2 20:2 19:2 18:2 16:1")
    assert pin.check_setup(laid) == laid
    with pytest.raises(PositionError, match="at most two checkers on a point"):
        pin.check_setup(Position.start())


# -- the short variants ---------------------------------------------------------------


def test_backwards_any_number_may_move_backwards() -> None:
    """"Jeder Spieler kann jederzeit seine Würfe auch für Züge rückwärts nutzen." """
    found = plays("backwards", Position.start().to_text(), W, "2-1")
    assert "13/15 13/14" in found or any("13/15" in p for p in found)
    hit = plays("backwards", "W 10:1 1:14 | B 8:1 24:14", W, "2-1")
    assert any("15/17*" in p for p in hit)


def test_straight_both_move_the_same_way_and_black_bears_off_past_24() -> None:
    """"Beide Spieler spielen in die gleiche Richtung, ausgehend von der Originalstartaufstellung.
    ... Auch schwarz zieht über die 24 hinaus." """
    assert find_variant("straight").start_position() == Position.start()
    moved = results("straight", Position.start().to_text(), B, "2-1")
    assert "W 1:2 12:5 17:3 19:5 | B 24:2 16:1 13:4 8:3 6:5" in moved
    assert plays("straight", "W 1:15 | B 19:1 20:1 off:13", B, "6-5") >= {"6/off 5/off"}


def test_fixed_roll_the_opening_roll_is_everyones_roll() -> None:
    """"Der Eröffnungswurf gilt für beide Spieler das gesamte Spiel über." """
    g = Game.new(OpeningRule.ONE_DIE_EACH, variant=find_variant("fixed-roll")).opening_roll(white=4, black=2)
    g = g.play(W, next(iter(g.legal_plays())))
    g = g.roll_dice(B, Roll(6, 6))  # whatever falls is ignored
    assert g.roll == Roll(4, 2)


def test_no_hitting_whoever_hits_loses() -> None:
    """"Wer seinen Gegner schlägt, verliert." """
    g = rolled("no-hitting", "W 1:2 12:5 17:3 19:5 | B 24:2 13:5 8:3 6:4 5:1", W, "4-2")
    end = g.play(W, "24/20* 24/22")
    assert end.is_over and end.result is not None and end.result.winner is B
    assert "hit" in end.result.reason


def test_open_roll_the_opponent_rolls_before_you_move() -> None:
    """"Bevor Sie Ihren Zug machen, würfelt Ihr Gegner und Sie können seine Optionen in Ihrem Zug
    berücksichtigen." """
    g = rolled("open-roll", None, W, "3-1")
    assert g.asks is Ask.OPPONENT_ROLL
    with pytest.raises(IllegalActionError):
        g.play(W, "8/5 6/5")
    g = g.announce(B, Roll(6, 5)).play(W, "8/5 6/5")
    assert g.phase is Phase.ON_ROLL and g.turn is B and g.announced == Roll(6, 5)
    g = g.roll_dice(B, Roll(1, 1))  # the dice already lie on the board: 6-5
    assert g.roll == Roll(6, 5) and g.asks is Ask.OPPONENT_ROLL


def test_open_roll_has_no_cube_as_every_roll_is_thrown_before_its_turn() -> None:
    """"Verdoppeln kann nur, wer am Zug ist und bevor er gewürfelt hat": here a player's dice lie on
    the board before their turn begins, so nobody can.  Black, on turn with a 6-6 thrown for it,
    once doubled knowing it."""
    g = rolled("open-roll", None, W, "3-1").announce(B, Roll(6, 6)).play(W, "8/5 6/5")
    assert g.turn is B and g.announced == Roll(6, 6)
    assert not g.can_double(B) and not g.can_double(W)


def test_reverse_the_last_to_bear_off_wins() -> None:
    """"Alle Standardregeln gelten, nur das Spielziel ändert sich: es gewinnt, wer zuletzt seinen
    letzten Stein abträgt." """
    first = rolled("reverse", "W 24:1 off:14 | B 1:1 off:14", W, "2-1").play(W, "1/off")
    assert not first.is_over and first.turn is B
    last = first.roll_dice(B, Roll(2, 1)).play(B, "1/off")
    assert last.is_over and last.result is not None and last.result.winner is B


def test_snake_standard_rules_from_scarnes_start() -> None:
    """"Abgesehen von der ungewöhnlichen Ausgangssituation gelten alle Standardregeln." """
    start = find_variant("snake").start_position()
    assert start.bar == (9, 0) and start.at(1) == start.at(2) == start.at(3) == 2
    assert all(p.startswith("bar/") for p in plays("snake", start.to_text(), W, "5-4"))
    laid = board("snake", "W 1:2 2:2 3:2 4:2 bar:7 | B 24:2 13:5 8:3 6:5")
    assert find_variant("snake").check_setup(laid) == laid


def test_free_choice_player_may_not_choose_a_doublet() -> None:
    """"... jede beliebige Würfelkombination frei wählen und ziehen darf – mit Ausnahme von
    Pasch-Würfen." """
    g = game("double-vs-free-choice", None, W)  # White is the chooser by default
    with pytest.raises(IllegalActionError, match="not a doublet"):
        g.roll_dice(W, Roll(6, 6))
    g = g.roll_dice(W, Roll(6, 5)).play(W, "24/13")
    assert g.phase is Phase.ON_ROLL and g.turn is B


def test_the_roller_rolls_twice_each_turn_doubles_included() -> None:
    """"Der andere Spieler darf im Gegenzug 2x regulär nacheinander würfeln und ziehen. Auch ein
    Pasch wird normal gespielt, ggf. auch 2x." """
    g = game("double-vs-free-choice", None, B).roll_dice(B, Roll(6, 6))
    assert g.legal_plays().dice_used == 4
    g = g.play(B, next(iter(g.legal_plays())))
    assert g.asks is Ask.ROLL and g.turn is B
    g = g.roll_dice(B, Roll(3, 3))
    g = g.play(B, next(iter(g.legal_plays())))
    assert g.phase is Phase.ON_ROLL and g.turn is W


def test_the_roller_rolls_again_even_when_the_first_roll_is_lost() -> None:
    """"Der andere Spieler darf im Gegenzug 2x regulär nacheinander würfeln und ziehen." A first
    roll that cannot be entered does not cost the second."""
    g = game("double-vs-free-choice", "W 19:2 20:2 21:2 22:2 23:2 24:2 12:3 | B bar:1 13:14", B)
    g = g.roll_dice(B, Roll(6, 5)).play(B, "")
    assert g.asks is Ask.ROLL and g.turn is B


def test_shared_track_games_score_backgammons_only_from_the_bar_or_pool() -> None:
    """Both players' home is 19..24 in Straight: a loser at home is gammoned, not backgammoned."""
    end = rolled("straight", "W 24:1 off:14 | B 19:15", W, "3-1").play(W, "1/off")
    assert end.result is not None and end.result.kind is ResultKind.GAMMON
