"""Each standard rule as a named test, with the rulebook's own worked examples.

Positions are written in the project's text form (rulebook numbering: White
moves 1→24, Black 24→1).  Quotes are from the Classic Line rulebook (seed 003,
German original) unless another seed is named; docs/rulebook-examples.md lists
where every example comes from.
"""

from __future__ import annotations

import pytest

from engine.dice import Roll
from engine.movegen import legal_plays
from engine.player import Player
from engine.position import Position

W, B = Player.WHITE, Player.BLACK


def plays(text: str, player: Player, roll: str) -> set[str]:
    """The notations of every legal play (mover's own numbering, as gnubg writes)."""
    return {p.notation for p in legal_plays(Position.from_text(text), player, Roll.parse(roll))}


def results(text: str, player: Player, roll: str) -> set[str]:
    """The positions every legal play leads to, in the text form."""
    return {
        p.result.to_text() for p in legal_plays(Position.from_text(text), player, Roll.parse(roll))
    }


START = Position.start().to_text()


def test_moves_go_forward_only() -> None:
    """"Es wird immer vorwärts in Richtung auf das eigene Heimfeld gezogen." """
    for player in Player:
        for play in legal_plays(Position.start(), player, Roll(5, 2)):
            for step in play.steps:
                assert step.end < step.start  # own numbering counts down to off
                start, end = step.board_points(player)
                assert isinstance(start, int) and isinstance(end, int)
                assert (end > start) if player is W else (end < start)


def test_opening_three_one_has_sixteen_plays_and_makes_the_five_point() -> None:
    """gnubg lists 16 distinct plays for an opening 3-1; 8/5 6/5 is one of them."""
    found = plays(START, W, "3-1")
    assert len(found) == 16
    assert "8/5 6/5" in found


def test_a_point_with_two_opposing_checkers_is_blocked() -> None:
    """"Felder mit 2 oder mehr gegnerischen Steinen sind blockiert und können nicht genutzt werden." """
    # White's only free checker stands on 1: a 4 would land on 5 and a 5 on 6, both held by Black.
    assert plays("W 1:1 24:14 | B 5:2 6:2 7:11", W, "5-4") == {""}
    # Open the 5-point to a single Black checker and the 4 hits there instead.
    assert "24/20*/15" in plays("W 1:1 24:14 | B 5:1 6:2 7:12", W, "5-4")


def test_own_points_and_empty_points_are_open() -> None:
    """"Offen ist ein Feld, wenn kein Stein darauf steht, beliebig viele eigene ... darauf steht." """
    found = results(START, W, "2-1")
    # 17→19 joins five White checkers (own point), 1→2 lands on an empty point.
    assert any("19:6" in r for r in found)
    assert any(r.startswith("W 1:1 2:1") for r in found)


def test_one_checker_can_use_both_dice_through_an_open_stop() -> None:
    """"Ein Stein zieht 3+5 = 8 Felder weiter, wobei die Zwischenstation ... frei sein muss." """
    assert plays("W 1:1 24:14 | B 4:2 8:13", W, "5-3") == {"24/16"}


def test_no_stop_open_means_the_checker_cannot_use_both_dice() -> None:
    """seed 002: "2 et 4 ne peuvent pas être directement additionnés pour faire 6, le joueur
    doit toujours pouvoir faire un arrêt !" """
    found = plays("W 1:1 24:14 | B 3:2 5:2 8:11", W, "4-2")
    assert "24/18" not in found
    # A single die may jump over blocked points: 5-1 plays 1→6→7.
    assert plays("W 1:1 24:14 | B 3:2 5:2 8:11", W, "5-1") == {"24/18"}


def test_no_legal_move_at_all_passes_the_turn() -> None:
    """"Sollte dies nicht möglich sein, verfällt der andere (bei Pasch alle ...)." """
    position = Position.from_text("W 1:1 24:14 | B 4:2 6:2 8:11")
    view = legal_plays(position, W, Roll(5, 3))
    assert not view.can_move
    assert [p.notation for p in view] == [""]
    assert next(iter(view)).result == position


def test_doubles_are_played_four_times() -> None:
    """"6+6 bedeutet, dass 4 Sechsen entsprechend den Regeln beliebig gesetzt werden dürfen." """
    view = legal_plays(Position.start(), W, Roll(6, 6))
    assert view.count() == 11
    assert all(len(play.steps) == 4 for play in view)


def test_both_dice_must_be_played_when_possible() -> None:
    """"Es müssen immer beide Würfel gezogen werden." The 2 first, then the 6, is forced."""
    assert plays("W 1:1 24:14 | B 7:2 6:13", W, "6-2") == {"24/16"}


def test_when_only_one_die_can_be_played_it_must_be_the_higher() -> None:
    """"Kann nur der eine oder der andere Wurf gesetzt werden, muss der höhere gezogen werden." """
    assert plays("W 1:1 24:14 | B 9:2 6:13", W, "6-2") == {"24/18"}


def test_the_lower_die_is_played_when_the_higher_cannot_be() -> None:
    """seed 001: "Si un seul dé peut être joué, le joueur doit le jouer." """
    assert plays("W 1:1 24:14 | B 9:2 7:2 6:11", W, "6-2") == {"24/22"}


def test_doubles_partly_playable_play_as_many_as_possible() -> None:
    """"(bei Pasch alle, die nicht gezogen werden können)" verfallen: 3-3 moves 1→10, the last 3 is lost."""
    assert plays("W 1:1 24:14 | B 13:2 6:13", W, "3-3") == {"24/15"}


def test_two_orders_of_the_same_checker_are_one_play() -> None:
    """seed 001: dice "pouvant être joué dans n'importe quel ordre": 1→4→9 and 1→6→9 are one play."""
    view = legal_plays(Position.start(), W, Roll(5, 3))
    to_nine = [p for p in view if p.result.at(9) == 1 and p.result.at(1) == 1]
    assert len(to_nine) == 1
    assert view.count() == 9


def test_landing_on_a_blot_hits_it_onto_the_bar() -> None:
    """"Endet ein Zug auf einem Feld, das von genau einem gegnerischen Stein besetzt ist, wird
    dieser entfernt und auf die Bar gesetzt." """
    position = "W 1:2 12:5 17:3 19:5 | B 24:2 13:5 8:3 6:4 5:1"
    hit = [p for p in legal_plays(Position.from_text(position), W, Roll(4, 2)) if p.hits]
    assert any(p.notation.startswith("24/20*") for p in hit)
    assert all(p.result.bar == (0, 1) for p in hit)


def test_passing_over_a_blot_does_not_hit() -> None:
    """Only the landing point counts: 1→7 with a 6 passes the Black blot on 5."""
    position = Position.from_text("W 1:2 12:5 17:3 19:5 | B 24:2 13:5 8:3 6:4 5:1")
    play = legal_plays(position, W, Roll(6, 1)).parse("24/18 24/23")
    assert play.result.bar == (0, 0)


def test_a_blot_on_the_intermediate_stop_is_hit() -> None:
    """Each die is a move of its own, so a blot on the stop of a combined move is hit."""
    found = plays("W 1:1 24:14 | B 4:1 13:14", W, "3-2")
    assert "24/21*/19" in found and "24/19" in found


def test_checkers_on_the_bar_enter_first() -> None:
    """"Immer, wenn ein Spieler ein oder mehrere Steine auf der Bar hat, muss er zunächst
    diese/n einwürfeln, bevor er andere Züge auf dem Brett machen darf." """
    position = Position.from_text("W 1:1 12:5 17:3 19:5 bar:1 | B 24:2 13:5 8:3 6:5")
    for play in legal_plays(position, W, Roll(5, 3)):
        assert play.steps[0].start == 25


def test_white_with_four_six_must_enter_with_the_four() -> None:
    """Worked example: "Wenn Weiß 4+6 würfelt, muss er mit 4 einsetzen, da die 6-er Spitze
    besetzt ist." """
    position = "W 1:1 12:5 17:3 19:5 bar:1 | B 24:2 13:5 8:3 6:5"
    found = plays(position, W, "6-4")
    assert found == {"bar/21 24/18", "bar/15", "bar/21 13/7", "bar/21 8/2"}
    assert all(not p.startswith("bar/19") for p in found)


def test_no_entry_point_open_loses_the_turn() -> None:
    """"Kann ein Spieler keinen der beiden Würfel nutzen, um die Bar zu verlassen, verfällt sein Zug." """
    closed = "W 12:5 17:3 19:6 bar:1 | B 1:2 2:2 3:2 4:2 5:2 6:5"
    for roll in ("6-5", "3-3", "2-1", "6-6"):
        assert plays(closed, W, roll) == {""}


def test_several_on_the_bar_enter_as_many_as_possible() -> None:
    """"Hat ein Spieler mehrere Steine auf der Bar, kann aber nicht alle einsetzen, so muss er
    so viele wie möglich einsetzen." """
    position = "W 12:5 17:3 19:5 bar:2 | B 24:2 13:3 8:3 6:5 5:2"
    assert plays(position, W, "5-3") == {"bar/22"}


def test_after_entering_the_rest_of_the_roll_is_free() -> None:
    """"Hat ein Spieler alle Steine von der Bar ins Spiel gebracht, kann er verbleibende Würfel
    für reguläre Züge nutzen." """
    position = "W 12:5 17:3 19:5 bar:2 | B 24:2 13:3 8:3 6:5 5:2"
    found = plays(position, W, "3-3")
    assert all(p.startswith("bar/22(2)") for p in found)
    assert "bar/22(2) 13/10(2)" in found and "bar/22(2) 8/5 6/3" in found


def test_black_enters_with_one_three_or_four_seed_004() -> None:
    """seed 004: "Le pion noir peut rentrer avec 1, 3 et 4 aux dés (avec 4 il frappe le pion
    blanc ...). Si les dés indiquent 2, 5 ou 6, noir passe son tour." """
    position = "W 12:8 19:2 20:2 21:1 23:2 | B 6:14 bar:1"
    assert plays(position, B, "4-5") == {"bar/21*/16", "bar/21* 6/1"}
    assert plays(position, B, "1-2") == {"bar/24 6/4", "bar/22"}
    assert plays(position, B, "3-6") == {"bar/16"}
    for roll in ("2-5", "2-6", "5-6", "2-2", "5-5", "6-6"):
        assert plays(position, B, roll) == {""}


def test_bearing_off_needs_every_checker_home() -> None:
    """"Nachdem ein Spieler alle seine 15 Steine in seinem Heimfeld versammelt hat, darf er
    diese vom Brett ziehen. Vorher ist das nicht möglich." """
    # The 1 brings the last checker home, and then the 6 bears one off.
    assert results("W 18:1 24:14 | B 6:15", W, "6-1") == {"W 24:14 off:1 | B 6:15"}


def test_exact_numbers_bear_off_from_their_points() -> None:
    """"Würfelt er beispielsweise eine 6 + 4, so darf er einen Stein vom Feld entfernen, das
    6 Felder vom Rand entfernt ist (für weiß Feld 19 ...) und einen, der 4 Felder (weiß Feld 21)." """
    assert "6/off 4/off" in plays("W 19:1 21:1 24:13 | B 6:15", W, "6-4")
    assert "6/off 4/off" in plays("W 24:15 | B 6:1 4:1 1:13", B, "6-4")


def test_white_with_four_six_bears_off_from_the_five_point_with_the_six() -> None:
    """Worked example: "Wenn Weiß 4+6 würfelt, kann er die 6 nutzen, um den Stein auf dem Feld 5
    (am weitesten vom Ziel entfernt) abzutragen. Die 4 wird regulär genutzt." """
    found = plays("W 20:1 21:1 | B 6:15", W, "6-4")
    assert "5/off 4/off" in found
    # A 6 may not bear off from the 4-point while the 5-point is occupied.
    assert found == {"5/off 4/off", "5/1 4/off"}


def test_dice_too_small_to_bear_off_must_move_inside() -> None:
    """"Kann ein Spieler keinen Stein abtragen ..., muss er einen anderen regelkonformen Zug machen." """
    assert plays("W 19:2 | B 6:15", W, "2-1") == {"6/5 6/4", "6/3"}


def test_a_higher_die_bears_off_only_from_the_highest_point() -> None:
    """seed 001: "S'il y a des pions sur une ou plusieurs cases supérieures, il ne peut pas sortir
    de pion et il doit utiliser son dé pour déplacer un pion." """
    assert plays("W 24:15 | B 6:1 2:1", B, "3-1") == {"6/2", "6/3 2/1"}
    assert plays("W 21:1 23:1 | B 1:15", W, "6-5") == {"4/off 2/off"}


def test_bearing_off_is_not_compulsory() -> None:
    """seed 001: "La sortie d'un pion n'est pas obligatoire si elle peut être remplacée par le
    déplacement légal d'un autre pion." """
    assert plays("W 24:15 | B 6:1 2:1", B, "2-1") == {"6/5 2/off", "6/3", "6/4 2/1"}


def test_seed_004_bear_off_choices_with_five_two() -> None:
    """seed 004: "Avec 5 et 2 aux dés, blanc peut sortir le pion de la flèche 5 ou il peut aussi
    déplacer le pion de la flèche 5 sur la flèche 3 avec le dé 2 et sortir le pion de la flèche 4." """
    found = results("W 20:1 21:1 23:1 | B 1:15", W, "5-2")
    assert found == {"W 21:1 off:14 | B 1:15", "W 23:2 off:13 | B 1:15", "W 22:1 23:1 off:13 | B 1:15"}


def test_a_double_bears_off_four_from_one_point() -> None:
    """seed 002: "Dans le cas d'un double 3, il peut sortir 4 pions du POINT 3." """
    assert plays("W 24:15 | B 3:4", B, "3-3") == {"3/off(4)"}


def test_a_hit_checker_must_come_home_before_bearing_off_resumes() -> None:
    """"Wird ein Stein während der Phase des Abtragens vom Gegner geschlagen ..., muss dieser
    Stein erst wieder eingewürfelt und ins Heimfeld gebracht werden, bevor weiter abgetragen
    werden darf." """
    assert plays("W 24:12 bar:1 | B 13:2 6:11", W, "6-5") == {"bar/14"}


def test_bearing_off_resumes_once_the_hit_checker_is_home() -> None:
    """The same rule the other way round: a checker entering and reaching home frees the rest."""
    # On the bar: nothing is borne off, whatever the roll.
    for roll in ("6-6", "6-1", "2-1"):
        assert all("off" not in p for p in plays("W 19:12 bar:1 off:2 | B 2:2 6:13", W, roll))
    # Back round to the 18-point: the 1 brings it home and the 6 bears a checker off.
    found = results("W 18:1 19:12 off:2 | B 2:2 6:13", W, "6-1")
    assert "W 19:12 off:3 | B 6:13 2:2" in found


def test_opponent_checkers_in_the_home_board_do_not_stop_bearing_off() -> None:
    """seed 001: bearing off is allowed "qu'il reste ou non des pions adverses dans son jan
    intérieur ou sur la barre." """
    assert plays("W 23:1 24:14 | B 20:1 6:13 bar:1", W, "2-1") == {"2/off 1/off", "2/off"}


def test_a_six_prime_cannot_be_passed() -> None:
    """"6 blockierte Spitzen hintereinander sind unüberwindlich." """
    position = "W 13:2 14:2 15:2 16:2 17:2 18:2 24:3 | B 19:1 1:14"
    for high in range(1, 7):
        for low in range(1, high + 1):
            for play in legal_plays(Position.from_text(position), B, Roll(high, low)):
                assert play.result.at(19) == -1


@pytest.mark.parametrize("roll", ["6-5", "4-4", "2-1"])
def test_results_are_distinct_positions(roll: str) -> None:
    """Plays are told apart by the position they lead to: no two plays share a result."""
    view = list(legal_plays(Position.start(), B, Roll.parse(roll)))
    assert len({p.result for p in view}) == len(view)


def test_colours_mirror_each_other() -> None:
    """Black's plays are White's plays on the board turned round, colour for colour."""
    import random

    from engine.sampling import Kind, random_position, random_roll

    rng = random.Random(5)
    for _ in range(200):
        position = random_position(rng, Kind.MIDGAME, W)
        roll = random_roll(rng)
        white = {p.notation for p in legal_plays(position, W, roll)}
        black = {p.notation for p in legal_plays(position.swap_colours(), B, roll)}
        assert white == black


def test_legal_plays_view_supports_in_bool_and_count() -> None:
    view = legal_plays(Position.start(), W, Roll(6, 5))
    play = view.parse("24/13")
    assert play in view and play.result in view and bool(view)
    assert view.count() == len(view) == len(list(view))
    assert view.dice_used == 2
    assert "24/13" not in view  # strings are parsed with .parse(), not tested for membership
