"""Eureka and the games that enter every checker by the dice: the Puff family, French 1,
Russian and Acey Deucey.  Each test quotes the rule sentence (Classic Line, seed 003)."""

from __future__ import annotations

import pytest

from engine.dice import Roll
from engine.errors import PositionError
from engine.game import Phase
from engine.player import Player
from engine.position import Position
from engine.turn import Ask
from engine.variants import find_variant
from tests.variants.helpers import B, W, board, game, plays, results, rolled

# -- Eureka ---------------------------------------------------------------------------


def test_eureka_checkers_start_in_the_home_board() -> None:
    """"Die Steine beginnen bereits im Heimfeld, es gibt kein echtes Laufspiel." """
    eureka = find_variant("eureka")
    start = eureka.start_position()
    for player in Player:
        assert sum(start.count(player, p) for p in start.home_points(player)) == 15
    laid_out = board("eureka", "W 24:15 | B 1:15")
    assert eureka.check_setup(laid_out) == laid_out
    with pytest.raises(PositionError, match="all 15 white checkers must start in the home board"):
        eureka.check_setup(Position.start())


def test_eureka_bears_off_by_the_standard_rules() -> None:
    """"Gewinner ist, wer zuerst seine Steine nach den Standardregeln abgetragen hat." """
    # The higher die bears off from the highest point, the lower one exactly.
    assert plays("eureka", "W 20:1 21:1 | B 1:15", W, "6-4") == {"5/off 4/off", "5/1 4/off"}
    last = rolled("eureka", "W 24:1 | B 1:15", W, "2-1").play(W, "1/off")
    assert last.is_over and last.result is not None and last.result.winner is W


def test_eureka_may_be_played_with_the_cube() -> None:
    """"Wer möchte, kann mit Dopplerwürfel spielen." """
    assert game("eureka", None, W).can_double(W)


def test_eureka_has_no_hitting() -> None:
    """"Geschlagen wird in dieser Backgammon-Variante nicht." A lone checker closes its point."""
    found = plays("eureka", "W 13:1 19:14 | B 16:1 1:14", W, "3-1")
    assert all("*" not in play for play in found)
    assert "12/9" not in " ".join(found)


# -- Puff -----------------------------------------------------------------------------


def test_puff_enters_into_the_start_quarter() -> None:
    """"die Steine werden zunächst in das jeweilige Startviertel eingewürfelt – für weiß 24-19,
    für schwarz 1-6. ... der Wurf 2-4 bringt ... einen Stein auf Feld 2 bzw. 23 und einen anderen
    auf 4 bzw. 21." """
    assert find_variant("puff").start_position().pool == (15, 15)
    assert results("puff", "W pool:15 | B pool:15", W, "4-2") == {"W 21:1 23:1 pool:13 | B pool:15"}
    assert results("puff", "W pool:15 | B pool:15", B, "4-2") == {"W pool:15 | B 4:1 2:1 pool:13"}


def test_puff_while_entering_the_dice_go_to_two_checkers() -> None:
    """"Dabei müssen beide Würfel auf 2 Steine verteilt werden." The last checker enters with
    the 1; the 2 must then move another checker, not the one just entered."""
    found = results("puff", "W 20:14 pool:1 | B pool:15", W, "2-1")
    assert found == {"W 18:1 20:13 24:1 | B pool:15"}


def test_puff_once_all_are_in_one_checker_may_use_both_dice() -> None:
    """"Sobald alle eigenen Steine im Startviertel stehen, dürfen die beiden Würfel auch für einen
    Stein genutzt werden." """
    assert "W 17:1 20:14 | B pool:15" in results("puff", "W 20:15 | B pool:15", W, "2-1")


def test_puff_plays_the_smaller_die_first() -> None:
    """"immer erst der kleinere Wurf gezogen werden muss. Ist dies nicht möglich, verfällt auch
    der größere." The 1 is blocked, so the playable 6 is lost too."""
    assert plays("puff", "W 20:15 | B 19:2 pool:13", W, "6-1") == {""}
    # The 1 first: 20→19 then 19→13 is the same checker; 20→14 straight away is not an option.
    assert all(not p.startswith("20/14 ") for p in plays("puff", "W 20:15 | B pool:15", W, "6-1"))


def test_puff_double_plays_top_then_bottom_faces() -> None:
    """"Bei einem Pasch werden sowohl die Augenzahlen auf der Oberseite, als auch anschließend die
    auf der Unterseite gezogen." 6-6: four 6s, then four 1s."""
    g = rolled("puff", "W 20:15 | B pool:15", W, "6-6")
    assert g.progress is not None and g.progress.stage.text == "4×6 (top faces)"
    g = g.play(W, "20/14(4)")
    assert g.progress is not None and g.progress.stage.text == "4×1 (bottom faces)"
    g = g.play(W, "20/19(4)")
    assert g.phase is Phase.ON_ROLL and g.turn is B


def test_puff_bottom_faces_are_lost_when_the_top_is_not_fully_played() -> None:
    """"Kann der obere Wert nicht vollständig gezogen werden, verfällt der untere komplett." """
    g = rolled("puff", "W 20:15 | B 14:2 pool:13", W, "6-6")
    assert g.legal_plays().dice_used == 0
    g = g.play(W, "")
    assert g.phase is Phase.ON_ROLL and g.turn is B


def test_puff_bears_off_only_when_all_are_home() -> None:
    """"erst wenn alle eigenen Steine im letzten Viertel (Heimfeld) stehen, darf mit dem
    Herauswürfeln begonnen werden." White travels down in Puff: home is 1..6."""
    assert all("off" not in p for p in plays("puff", "W 12:1 6:14 | B pool:15", W, "2-1"))
    assert plays("puff", "W 6:15 | B pool:15", W, "6-6") == {"6/off(4)"}


# -- Long Puff ------------------------------------------------------------------------


def test_long_puff_both_enter_the_same_quarter() -> None:
    """"Beide Spieler würfeln in das gleiche Viertel ein, also z.B. auf die Felder 1-6." """
    assert results("long-puff", "W pool:15 | B pool:15", W, "4-2") == {"W 2:1 4:1 pool:13 | B pool:15"}
    assert results("long-puff", "W pool:15 | B pool:15", B, "4-2") == {"W pool:15 | B 4:1 2:1 pool:13"}


def test_long_puff_both_bear_off_from_19_to_24() -> None:
    """"Herausgewürfelt werden die Steine von beiden Spielern aus den Feldern 19-24, sobald alle
    Steine eines Spielers auf den letzten 6 Feldern stehen." """
    assert "6/off 5/off" in plays("long-puff", "W 1:15 | B 19:1 20:1 off:13", B, "6-5")
    assert "6/off 5/off" in plays("long-puff", "W 19:1 20:1 off:13 | B 1:15", W, "6-5")


def test_long_puff_a_hit_checker_enters_again_and_must_come_home() -> None:
    """"Wird er hier geworfen, muss er wie beim Standardspiel erst wieder einwürfeln und den
    Bereich 19-24 erreichen, bevor er wieder hinauswürfeln darf." """
    found = plays("long-puff", "W 24:14 bar:1 | B 10:2 1:13", W, "6-5")
    assert all(p.startswith("bar/") and "off" not in p for p in found)


def test_long_puff_blocks_and_hits_on_the_shared_track() -> None:
    """"Die restlichen Regeln inklusive Blockieren und Werfen gelten wie bei Puff." """
    hit = results("long-puff", "W 10:1 1:14 | B 13:1 20:1 pool:13", W, "2-1")
    assert any("bar:1" in r for r in hit)
    blocked = plays("long-puff", "W 10:1 1:14 | B 12:2 13:2 pool:11", W, "3-2")
    assert all(not p.startswith("15/13") and not p.startswith("15/12") for p in blocked)


# -- Russian Puff ---------------------------------------------------------------------


def test_russian_puff_enters_two_then_chooses() -> None:
    """"sobald er die ersten beiden Steine eingesetzt hat, bei jedem Wurf entscheiden, ob er weiter
    einsetzen möchte oder lieber schon in die folgenden Viertel ziehen möchte." """
    first = results("russian-puff", "W pool:15 | B pool:15", W, "4-2")
    assert first == {"W 21:1 23:1 pool:13 | B pool:15"}
    later = plays("russian-puff", "W 23:1 21:1 pool:13 | B pool:15", W, "4-2")
    assert "2/off" not in later
    assert any(not p.startswith("in/") and "in/" not in p for p in later)  # moving only
    assert "in/23 in/21" in later  # or entering only


def test_russian_puff_may_combine_entering_and_moving() -> None:
    """"Auch Kombinationen (1 Stein einsetzen, 1 auf dem Brett bewegen) sind möglich." """
    found = plays("russian-puff", "W 23:1 21:1 pool:13 | B pool:15", W, "4-2")
    assert any("in/" in p and p.count("/") == 2 and not p.startswith("in/23 in/21") for p in found)


def test_russian_puff_plays_the_lower_die_first() -> None:
    """"Der niedrigere Wurf muss wie immer zuerst gezogen werden." """
    moves = find_variant("russian-puff").legal_plays(
        board("russian-puff", "W 23:1 21:1 pool:13 | B pool:15"), W, Roll(4, 2))
    assert all(play.steps[0].die == 2 for play in moves if play.steps)


def test_long_russian_puff_same_quarter_and_choice_after_the_second() -> None:
    """"Beide starten von außerhalb in das gleiche Viertel, dürfen ab dem 2. eingewürfelten Stein
    jedoch wählen, ob sie einwürfeln oder einen bereits auf dem Brett stehenden Stein bewegen." """
    assert results("long-russian-puff", "W pool:15 | B pool:15", B, "4-2") == {
        "W pool:15 | B 4:1 2:1 pool:13"
    }
    found = plays("long-russian-puff", "W pool:15 | B 4:1 2:1 pool:13", B, "3-1")
    assert any("in/" not in p for p in found) and any("in/" in p for p in found)


# -- French 1 and Russian --------------------------------------------------------------


def test_french_1_enters_the_checkers_by_the_dice() -> None:
    """"Auch hier werden die Steine eingewürfelt. Alle Standardregeln behalten ihre Gültigkeit" —
    entering as from the bar, into the opponent's home board."""
    assert find_variant("french-1").start_position().pool == (15, 15)
    assert results("french-1", "W pool:15 | B pool:15", W, "5-3") == {"W 3:1 5:1 pool:13 | B pool:15"}


def test_french_1_double_top_bottom_then_roll_again() -> None:
    """"Sie würfeln 6-6 und setzen wie gewohnt 4x 6. Nun setzen Sie die unten liegenden Augen → 4x
    1 ... Nun würfeln Sie noch einmal." """
    g = rolled("french-1", "W 1:15 | B 24:15", W, "6-6")
    g = g.play(W, "24/18(4)")
    assert g.progress is not None and g.progress.stage.text == "4×1 (bottom faces)"
    g = g.play(W, "24/23(4)")
    assert g.asks is Ask.ROLL and g.turn is W


def test_french_1_goes_on_after_a_number_it_cannot_play() -> None:
    """"Wenn Sie z.B. nur 2 der 4 Sechsen setzen können, dürfen Sie dennoch die 4 Einsen setzen und
    auch noch einmal würfeln." """
    g = rolled("french-1", "W 1:13 14:2 | B 7:2 2:13", W, "6-6")
    assert g.legal_plays().dice_used == 2  # the two on 14 move once each; 1→7 is blocked
    g = g.play(W, next(iter(g.legal_plays())))
    assert g.progress is not None and g.progress.stage.text == "4×1 (bottom faces)"
    g = g.play(W, next(iter(g.legal_plays())))
    assert g.asks is Ask.ROLL


def test_russian_both_enter_the_same_quarter() -> None:
    """"Beide Spieler würfeln ihre Steine in das gleiche Viertel ein. Z.B. in die Felder 1-6." """
    assert results("russian", "W pool:15 | B pool:15", B, "5-3") == {"W pool:15 | B 5:1 3:1 pool:13"}


def test_russian_double_top_bottom_then_roll_again() -> None:
    """"Bei einem Pasch wird ... zunächst der oben liegende Wert 4x gezogen, dann der auf der
    Unterseite und anschließend neu gewürfelt." """
    g = rolled("russian", "W 1:15 | B 2:15", W, "5-5").play(W, "24/19(4)")
    g = g.play(W, "24/22(4)")
    assert g.asks is Ask.ROLL and g.turn is W


def test_russian_loses_the_rest_of_the_turn_at_the_first_gap() -> None:
    """"Abweichend von der französischen Variante verfällt allerdings der restliche Zug, sobald der
    Wurf nicht voll ausgenutzt werden kann." """
    g = rolled("russian", "W 1:13 14:2 | B 7:2 2:13", W, "6-6")
    assert g.legal_plays().dice_used == 2
    g = g.play(W, next(iter(g.legal_plays())))
    assert g.phase is Phase.ON_ROLL and g.turn is B


def test_russian_has_no_cube() -> None:
    """"Es wird ohne Dopplerwürfel gespielt." """
    assert not game("russian", None, W).can_double(W)


# -- Acey Deucey ----------------------------------------------------------------------


def test_acey_deucey_checkers_are_rolled_in() -> None:
    """"Die Steine werden eingewürfelt" — into the opponent's home board, as from the bar."""
    assert "in/22 in/20" in plays("acey-deucey", "W pool:15 | B pool:15", W, "5-3")


def test_acey_deucey_enter_one_or_two_or_move_or_combine() -> None:
    """"wobei der Spieler jederzeit entscheiden kann, ob er ein oder zwei neue Steine einsetzt oder
    auf dem Brett befindliche weiter zieht. Auch die Kombination beider Möglichkeiten ist erlaubt." """
    found = plays("acey-deucey", "W 3:2 pool:13 | B pool:15", W, "5-3")
    assert "in/22 in/20" in found  # two new checkers
    assert "22/19 22/17" in found  # moving only
    assert any(p.startswith("in/") and " 22/" in p for p in found)  # one of each


def test_acey_deucey_one_two_then_a_chosen_doublet_then_roll_again() -> None:
    """"Zunächst wird 1-2 gezogen. Dann kann ein beliebiger Pasch gewählt und gespielt werden. Nun
    darf noch einmal gewürfelt und normal gezogen werden." """
    g = rolled("acey-deucey", "W 3:2 pool:13 | B pool:15", W, "2-1")
    assert g.progress is not None and g.progress.stage.text == "1-2 (acey-deucey)"
    g = g.play(W, "22/20 22/21")
    assert g.asks is Ask.DOUBLET
    g = g.choose_doublet(W, 5)
    assert g.progress is not None and g.progress.stage.text == "4×5 (chosen doublet)"
    g = g.play(W, "in/20(4)")
    assert g.asks is Ask.ROLL and g.turn is W


def test_acey_deucey_a_second_one_two_repeats_the_procedure() -> None:
    """"Sollte wieder 1-2 (Acey Deucey) gewürfelt werden, wird das Procedere wiederholt." """
    g = rolled("acey-deucey", "W 3:2 pool:13 | B pool:15", W, "1-2").play(W, "22/20 22/21")
    g = g.choose_doublet(W, 6).play(W, "in/19(4)").roll_dice(W, Roll(1, 2))
    assert g.progress is not None and g.progress.stage.text == "1-2 (acey-deucey)"


def test_acey_deucey_rest_of_turn_lost_when_a_part_fails() -> None:
    """"Sobald ein Teilzug nicht ausgefüllt werden kann, verfällt der Rest des Zuges." """
    g = rolled("acey-deucey", "W 24:1 off:14 | B pool:15", W, "1-2")
    play = next(iter(g.legal_plays()))
    g = g.play(W, play)
    assert g.is_over or (g.phase is Phase.ON_ROLL and g.turn is B)
    closed = "W 1:15 | B 2:2 3:2 4:2 5:2 6:2 7:5"
    g = rolled("acey-deucey", closed, W, "1-2").play(W, "")
    assert g.phase is Phase.ON_ROLL and g.turn is B


def test_acey_deucey_bears_off_as_in_backgammon() -> None:
    """"Das Hinauswürfeln erfolgt wie beim klassischen Backgammon." """
    assert plays("acey-deucey", "W 20:1 21:1 | B pool:15", W, "6-4") == {"5/off 4/off", "5/1 4/off"}


def test_acey_deucey_no_cube_and_minus_points() -> None:
    """"Der Dopplerwürfel wird nicht verwendet, jeder noch auf dem Brett befindliche Stein zählt
    einen Minuspunkt." """
    assert not game("acey-deucey", None, W).can_double(W)
    end = rolled("acey-deucey", "W 24:1 off:14 | B 1:3 pool:2 off:10", W, "6-5").play(W, "1/off")
    assert end.result is not None and end.result.winner is W and end.result.points == 5


def test_puff_gammons_count_on_puffs_own_home_board() -> None:
    """Puff keeps the standard results ("entspricht den Regeln des Backgammon"), on its own
    board: White's home is 1..6 there, and checkers never entered count like the bar."""
    won = rolled("puff", "W 1:1 off:14 | B 3:1 pool:14", W, "2-1")
    end = won.play(W, next(iter(won.legal_plays())))
    assert end.result is not None and end.result.points == 3
    gammon = rolled("puff", "W 1:1 off:14 | B 20:15", W, "2-1")
    end = gammon.play(W, next(iter(gammon.legal_plays())))
    assert end.result is not None and end.result.points == 2


def test_russian_puff_keeps_puffs_two_checkers_while_entering() -> None:
    """As Puff: "Dabei müssen beide Würfel auf 2 Steine verteilt werden" until all are in; Russian
    Puff only adds the choice to move instead of entering."""
    found = plays("russian-puff", "W 23:1 21:1 pool:13 | B pool:15", W, "4-2")
    # 21 → 19 → 15 can only be one checker using both dice: not while checkers wait to enter.
    assert "21/15" not in found
    assert "in/23 in/21" in found and "23/21 21/17" in found


@pytest.mark.parametrize(
    ("variant", "text", "player", "roll", "written"),
    [
        # One checker enters on 23 with the 2, another moves 23 → 19 with the 4: not "in/19",
        # which would be one checker entering on 19, a number no die shows.
        ("russian-puff", "W 23:1 21:1 pool:13 | B pool:15", W, "4-2",
         {"in/23 23/19", "23/21 21/17", "in/23 21/17", "in/21 23/21", "23/19 21/19", "in/23 in/21"}),
        ("long-russian-puff", "W pool:15 | B 4:1 2:1 pool:13", B, "3-2",
         {"in/23 23/20", "23/21 21/18", "in/23 21/18", "in/22 23/21", "23/20 21/19", "in/22 21/19",
          "in/23 in/22"}),
        # Puff: the last checker enters on 24 with the 1; the 2 must move another one, from 24.
        ("puff", "W 19:14 pool:1 | B pool:15", W, "2-1", {"in/24 19/17"}),
        ("puff", "W 24:14 pool:1 | B pool:15", W, "2-1", {"in/24 24/22"}),
        ("long-puff", "W pool:15 | B 1:14 pool:1", B, "2-1", {"in/24 24/22"}),
    ],
)
def test_puff_notation_names_each_checker_while_entering(
    variant: str, text: str, player: Player, roll: str, written: set[str]
) -> None:
    """While checkers wait to enter, "müssen beide Würfel auf 2 Steine verteilt werden": every
    number moves a checker of its own, so a play is written one path per checker, and each text
    reads back to its play."""
    moves = find_variant(variant).legal_plays(board(variant, text), player, Roll.parse(roll))
    assert {play.notation for play in moves} == written
    for play in moves:
        assert len(play.notation.split()) == len(play.steps)
        assert moves.parse(play.notation) == play


def test_a_checker_entered_by_the_dice_may_go_on_where_no_rule_splits_the_dice() -> None:
    """Acey Deucey, French 1 and Russian have no "two dice, two checkers" rule: one checker may
    enter and go on with the other number, and gnubg writes that as one path (``bar/20``)."""
    assert "in/22" in plays("acey-deucey", "W pool:15 | B pool:15", W, "2-1")
    assert "in/20" in plays("french-1", "W 19:14 pool:1 | B pool:15", W, "3-2")
    assert "in/20" in plays("russian", "W 19:14 pool:1 | B pool:15", W, "3-2")
