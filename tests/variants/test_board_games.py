"""The games that are not races over the usual track: Catch me, Doubletten, French 2 and Ludus
Lumbadorum.  Each test quotes the rule sentence (Classic Line, seed 003)."""

from __future__ import annotations

from engine.dice import Roll
from engine.game import Phase
from engine.position import Position
from engine.result import ResultKind
from engine.turn import Ask
from engine.variants import find_variant
from engine.variants.catch_me import corner_ahead
from tests.variants.helpers import B, W, board, game, plays, results, rolled

# -- Catch me -------------------------------------------------------------------------


def test_catch_me_six_checkers_on_the_first_six_points() -> None:
    """"Gespielt wird mit 6 Steinen pro Spieler. Diese werden auf die ersten sechs Felder (weiß
    24-19, schwarz 1-6) gesetzt." """
    start = find_variant("catch-me").start_position()
    assert [p for p in range(1, 25) if start.at(p) > 0] == list(range(19, 25))
    assert [p for p in range(1, 25) if start.at(p) < 0] == list(range(1, 7))


def test_catch_me_moves_only_with_a_one_or_six_and_then_the_sum() -> None:
    """"gezogen wird jedoch nur, wenn der Wurf eine 1 oder 6 enthält. Dann wird ein Stein um die
    Summe der beiden Würfel bewegt." """
    assert plays("catch-me", find_variant("catch-me").start_position().to_text(), W, "5-3") == {""}
    moved = game("catch-me", None, W).roll_dice(W, Roll(6, 3))
    assert all(p.steps[0].die == 9 and len(p.steps) == 1 for p in moved.legal_plays())


def test_catch_me_every_double_moves_and_rolls_again() -> None:
    """"Ein Pasch wird immer gezogen, zusätzlich darf ein weiteres Mal gewürfelt werden." """
    g = game("catch-me", None, W).roll_dice(W, Roll(6, 6))
    assert all(p.steps[0].die == 12 for p in g.legal_plays())
    g = g.play(W, next(iter(g.legal_plays())))
    assert g.asks is Ask.ROLL and g.turn is W
    g = game("catch-me", None, W).roll_dice(W, Roll(3, 3))
    assert all(p.steps[0].die == 6 for p in g.legal_plays())
    g = g.play(W, next(iter(g.legal_plays())))
    assert g.asks is Ask.ROLL and g.turn is W


def test_catch_me_white_travels_down_from_its_first_point_24() -> None:
    """"(weiß 24-19, schwarz 1-6)": White's first point is 24, so it travels towards 1."""
    found = results("catch-me", find_variant("catch-me").start_position().to_text(), W, "2-1")
    assert "W 16:1 20:1 21:1 22:1 23:1 24:1 | B 6:1 5:1 4:1 3:1 2:1 1:1" in found
    assert not any("bar" in r for r in found)  # twelve empty points lie between the armies


def test_catch_me_a_captured_checker_leaves_the_game() -> None:
    """"Erreicht ein Spieler ein Feld mit genau einem gegnerischen Stein, wird dieser hinaus
    geworfen und nicht wieder ins Spiel gebracht." """
    found = results("catch-me", "W 10:1 20:1 bar:4 | B 5:1 1:1 bar:4", W, "6-3")
    captured = [r for r in found if "bar:5" in r]
    assert captured and all(Position.from_text(r, checkers=6).checkers_on_board(B) == 1 for r in captured)


def test_catch_me_own_checker_carries_on_to_the_next_free_point() -> None:
    """"Wird ein Feld erreicht, dass von einem eigenen Stein besetzt ist, zieht der Stein zum
    nächsten Feld, das entweder frei oder vom Gegner besetzt ist." """
    # 23 - 2 = 21 and 20 are White's own: the checker goes on to 19, which is free.
    found = results("catch-me", "W 20:1 21:1 23:1 bar:3 | B 3:1 bar:5", W, "1-1")
    assert "W 19:1 20:1 21:1 bar:3 | B 3:1 bar:5" in found


def test_catch_me_the_track_is_a_ring() -> None:
    """"Das Spiel geht immer über die Ränder hinaus im Kreis." White from 2 with 6-3 lands on 17."""
    found = results("catch-me", "W 2:1 10:1 bar:4 | B 12:1 bar:5", W, "6-3")
    assert "W 10:1 17:1 bar:4 | B 12:1 bar:5" in found


def test_catch_me_the_player_without_checkers_loses() -> None:
    """"bis ein Spieler keine Steine mehr besitzt. Dann hat sein Gegner gewonnen." """
    g = rolled("catch-me", "W 14:1 20:1 bar:4 | B 12:1 bar:5", W, "1-1")
    end = g.play(W, "14/12*")
    assert end.is_over and end.result is not None and end.result.winner is W


def test_catch_me_the_last_checker_jumps_from_corner_to_corner() -> None:
    """"Sobald ein Spieler nur noch einen Stein besitzt, ändert sich seine Zugweise: sein Stein
    zieht sofort auf das nächste Eckfeld ... Künftig zieht der Spieler mit einer 1 zum nächsten,
    mit einer 6 zum übernächsten Eckfeld." """
    assert corner_ahead(10, 1, downwards=True) == 1 and corner_ahead(10, 2, downwards=True) == 24
    # White (travelling down) takes Black's checker on 1; Black's last, on 5, jumps at once to
    # its next corner up the board, point 12.
    found = results("catch-me", "W 10:1 20:1 bar:4 | B 5:1 1:1 bar:4", W, "6-3")
    assert found == {"W 1:1 20:1 bar:4 | B 12:1 bar:5", "W 10:1 11:1 bar:4 | B 5:1 1:1 bar:4"}
    # Black travels up: from 13 a 6 goes to the corner after next (1), a 1 to the next (24).
    lone = "W 5:1 15:1 bar:4 | B 13:1 bar:5"
    assert results("catch-me", lone, B, "6-3") == {"W 5:1 15:1 bar:4 | B 1:1 bar:5"}
    assert results("catch-me", lone, B, "6-1") == {
        "W 5:1 15:1 bar:4 | B 1:1 bar:5", "W 5:1 15:1 bar:4 | B 24:1 bar:5"
    }
    # A last checker moves only with 1-1 or 6-6; other doubles just roll again.
    assert plays("catch-me", lone, B, "3-3") == {""}


# -- Doubletten -----------------------------------------------------------------------


def test_doublets_twelve_checkers_in_towers_on_the_home_points() -> None:
    """"12 Steine pro Spieler werden wie folgt aufgestellt" — two stacked on each home point."""
    start = find_variant("doublets").start_position()
    assert start.towers == frozenset({*range(1, 7), *range(19, 25)})
    assert all(abs(start.at(p)) == 2 for p in (*range(1, 7), *range(19, 25)))


def test_doublets_a_die_unstacks_its_tower() -> None:
    """"Wird beispielsweise 3-6 gewürfelt, wird sowohl der Turm auf der 3 als auch auf der 6
    aufgelöst und die Steine nebeneinander gesetzt." """
    assert plays("doublets", find_variant("doublets").start_position().to_text(), B, "6-3") == {
        "unstack 6 unstack 3"
    }


def test_doublets_a_die_on_an_unstacked_point_is_lost() -> None:
    """"Ist ein Turm bereits aufgelöst, verfällt dieser Würfel." """
    g = rolled("doublets", None, B, "6-3").play(B, "unstack 6 unstack 3").roll_dice(W, Roll(1, 1))
    g = g.play(W, "unstack 1").roll_dice(W, Roll(2, 1)).play(W, "unstack 2")
    g = g.roll_dice(B, Roll(6, 5))
    assert {p.notation for p in g.legal_plays()} == {"unstack 5"}


def test_doublets_a_double_counts_once_and_rolls_again() -> None:
    """"Bei einem Pasch wird der Wert nur 1x gesetzt, es darf aber noch einmal gewürfelt werden." """
    g = rolled("doublets", None, W, "4-4")
    assert g.legal_plays().dice_used == 1
    g = g.play(W, "unstack 4")
    assert g.asks is Ask.ROLL and g.turn is W


def test_doublets_restack_then_bear_off_the_same_way() -> None:
    """"Sobald alle Türme aufgelöst sind, werden sie nach dem gleichen System wieder zusammen
    gesetzt. ... Sobald auch dies gelungen ist, können sie nach dem ebenfalls gleichen System heraus
    gewürfelt werden." """
    spread = "W 19:2 20:2 21:2 22:2 23:2 24:2 tower:19 | B 1:2 2:2 3:2 4:2 5:2 6:2"
    g = rolled("doublets", spread, W, "6-1").play(W, "unstack 6 stack 1")
    assert g.position.progress[W] == 1 and 24 in g.position.towers
    all_but_one = "W 19:2 20:2 21:2 22:2 23:2 24:2 tower:20 tower:21 tower:22 tower:23 tower:24 phase:1 | " \
                  "B 1:2 2:2 3:2 4:2 5:2 6:2"
    g = rolled("doublets", all_but_one, W, "6-5").play(W, "stack 6 bear-off 5")
    assert g.position.progress[W] == 2 and g.position.off[W] == 1


def test_doublets_a_die_bears_off_one_checker() -> None:
    """Fiske's Icelandic rules: one checker per die; the second checker of the point needs
    another throw of that number (the rulebook's "gleichen System" does not say)."""
    bearing = "W 19:2 20:2 21:2 22:2 23:1 24:2 tower:19 tower:20 tower:21 tower:22 tower:24 phase:2 " \
              "off:1 | B 1:2 2:2 3:2 4:2 5:2 6:2"
    g = rolled("doublets", bearing, W, "2-1").play(W, "bear-off 2 bear-off 1")
    assert g.position.off[W] == 3 and g.position.count(W, 23) == 0 and g.position.count(W, 24) == 1


def test_doublets_checkers_never_change_point() -> None:
    """"Es handelt sich um kein Laufspiel, die Steine wechseln nicht die Felder!" """
    g = rolled("doublets", None, W, "5-2").play(W, "unstack 5 unstack 2")
    assert g.position.points == find_variant("doublets").start_position().points


# -- French 2 -------------------------------------------------------------------------


def test_french_2_three_checkers_each_on_their_own_half() -> None:
    """"spielt jeder nur mit 3 Steinen und nur auf seiner Hälfte." — rolled in: "Die Steine werden
    eingewürfelt." """
    assert find_variant("french-2").start_position().pool == (3, 3)
    # White's row is 13..24, Black's 1..12: the second checker enters behind the first.
    assert results("french-2", "W pool:3 | B pool:3", W, "4-2") == {
        "W 14:1 16:1 pool:1 | B pool:3", "W 18:1 pool:2 | B pool:3"
    }
    assert results("french-2", "W pool:3 | B pool:3", B, "4-2") == {
        "W pool:3 | B 4:1 2:1 pool:1", "W pool:3 | B 6:1 pool:2"
    }


def test_french_2_occupied_points_are_closed_except_home() -> None:
    """"Bereits besetzte Felder dürfen – auch während des Spiels (Ausnahme: Heimpunkt) – nicht
    betreten werden." """
    found = results("french-2", "W pool:3 | B 5:1 7:1 pool:1", B, "2-1")
    assert all(Position.from_text(r, checkers=3).count(B, 7) <= 1 for r in found)
    home = results("french-2", "W pool:3 | B 10:1 12:1 pool:1", B, "2-1")
    assert any(Position.from_text(r, checkers=3).count(B, 12) == 2 for r in home)


def test_french_2_checkers_keep_their_order() -> None:
    """"Die Steine bleiben in ihrer ursprünglichen Reihenfolge, sie dürfen einander nicht überholen." """
    found = results("french-2", "W pool:3 | B 3:1 5:1 pool:1", B, "4-3")
    assert found == {
        "W pool:3 | B 9:1 6:1 pool:1", "W pool:3 | B 8:1 7:1 pool:1", "W pool:3 | B 12:1 3:1 pool:1"
    }  # the checker on 3 never passes the one on 5; no checker may enter ahead of them


def test_french_2_a_double_counts_once_and_home_needs_the_exact_number() -> None:
    """"Bei einem Pasch wird der Wert nur einmal (1x) gezogen. Der Heimpunkt muss passend erreicht
    werden." """
    g = rolled("french-2", "W pool:3 | B 10:1 pool:2", B, "2-2")
    assert g.legal_plays().dice_used == 1
    # 10 + 4 and 10 + 3 overshoot the home point 12: that checker cannot move.
    found = results("french-2", "W pool:3 | B 10:1 pool:2", B, "4-3")
    assert found and all(Position.from_text(r, checkers=3).count(B, 10) == 1 for r in found)


def test_french_2_landing_opposite_an_opponent_captures_it() -> None:
    """"Sie schlagen, indem Sie ein Feld betreten, dem gegenüber ein Gegner steht. Dieser muss auf
    die Bar und zunächst wieder eingewürfelt werden, bevor andere Züge erlaubt sind." """
    # Black landing on 4 captures White's checker on the opposite point 21.
    g = rolled("french-2", "W 21:1 pool:2 | B 1:1 pool:2", B, "3-1")
    capture = next(p for p in g.legal_plays() if p.result.at(4) == -1 and p.hits)
    captured = g.play(B, capture)
    assert captured.position.bar == (1, 0) and captured.position.at(21) == 0
    again = find_variant("french-2").legal_plays(captured.position, W, Roll(5, 2))
    assert all(play.steps[0].start == 25 and play.result.bar == (0, 0) for play in again)


def test_french_2_first_to_stack_three_at_home_wins() -> None:
    """"Wer zuerst seine Steine auf seinem Heimpunkt stapeln kann, gewinnt." """
    g = rolled("french-2", "W pool:3 | B 12:2 10:1", B, "2-1")
    end = g.play(B, next(p for p in g.legal_plays() if p.result.count(B, 12) == 3))
    assert end.is_over and end.result is not None and end.result.winner is B


def test_french_2_a_game_blocked_for_good_counts_each_side_along_its_own_row() -> None:
    """The rulebook is silent on a game nobody can move in any more; pipgammon gives it to the
    fewer pips, equal pips to the player who moved last (docs/variants.md).  Each side's pips run
    along its own row of twelve: counted along the whole board, this board, the same for both
    sides, once went to White whoever moved last."""
    french = find_variant("french-2")
    same = board("french-2", "W bar:1 13:1 24:1 | B bar:1 1:1 12:1")
    assert french.is_dead(same) and french.pips(same, W) == french.pips(same, B) == 23
    for last in (W, B):
        end = rolled("french-2", same.to_text(), last, "3-1")
        over = end.play(last, next(iter(end.legal_plays())))
        assert over.result is not None and over.result.winner is last


# -- Ludus Lumbadorum -----------------------------------------------------------------


def test_ludus_half_a_board_from_the_opponents_six_point() -> None:
    """"Diese Variante wird nur auf einem halben Brett gespielt, mit einer abweichenden
    Nummerierung und Zugrichtung." """
    start = find_variant("ludus-lumbadorum").start_position()
    assert start.at(6) == 15 and start.at(19) == -15
    # White travels 6 → 1, then 24 → 19: a 5 and a 6 take checkers to 1 and to 24.
    assert "W 1:1 6:13 24:1 | B 19:15" in results("ludus-lumbadorum", start.to_text(), W, "6-5")


def test_ludus_moving_hitting_entering_and_bearing_off_as_usual() -> None:
    """"Die Zugweise, das Schlagen, das Einsetzen und das Hinausspielen entsprechen dem klassischen
    Backgammon" """
    hit = results("ludus-lumbadorum", "W 6:15 | B 4:1 19:14", W, "2-1")
    assert any("bar:1" in r for r in hit)
    # White's last points are 24 down to 19 (own 6..1): 20 and 21 are its own 2 and 3.
    assert plays("ludus-lumbadorum", "W 20:1 21:1 off:13 | B 19:15", W, "6-4") == {"3/off 2/off"}
    entering = plays("ludus-lumbadorum", "W 6:14 bar:1 | B 19:15", W, "3-2")
    assert all(p.startswith("bar/") for p in entering)


def test_ludus_a_double_is_played_once() -> None:
    """"nur der Pasch wird nur einmal gezogen." """
    g = rolled("ludus-lumbadorum", None, W, "3-3")
    assert g.legal_plays().dice_used == 2


def test_ludus_two_checkers_block() -> None:
    """"Spitzen werden durch 2 gegnerische Steine blockiert." """
    assert all("12/9" not in p for p in plays("ludus-lumbadorum", "W 6:15 | B 3:2 19:13", W, "3-1"))


def test_ludus_no_block_on_the_opponents_points_three_to_five() -> None:
    """"Allerdings darf schwarz ... die gegnerischen Felder 3, 4 und 5 nicht blockieren, für weiß
    gilt analog das Gleiche." White's points 3, 4, 5 (from White's start on 6) are 4, 3, 2, which
    are Black's own 4, 3, 2... Black may not make a point there."""
    found = results("ludus-lumbadorum", "W 6:15 | B 3:1 19:14", B, "4-4")
    # 19 → 23 is fine; 23 → 3 would make Black's point on White's 4-point: only 23:2 remains.
    assert found == {"W 6:15 | B 23:2 19:12 3:1"}


def test_ludus_enter_on_the_start_point_only_once_it_is_empty() -> None:
    """"dürfen Sie dort nur einsetzen, wenn alle anderen Steine diese Spitze 1 verlassen haben." """
    assert all("bar/12" not in p for p in plays("ludus-lumbadorum", "W 6:14 bar:1 | B 19:15", W, "2-1"))
    assert any("bar/12" in p for p in plays("ludus-lumbadorum", "W 5:14 bar:1 | B 19:15", W, "2-1"))


def test_the_board_games_end_as_their_texts_say() -> None:
    g = rolled("ludus-lumbadorum", "W 19:1 off:14 | B 6:15", W, "6-1").play(W, "1/off")
    assert g.is_over and g.phase is Phase.OVER
    assert board("doublets", find_variant("doublets").start_position().to_text()).validate(12)



def test_ludus_a_checker_left_in_the_winners_home_is_a_backgammon() -> None:
    """Scoring is classic backgammon's: "Sollte der seltene Fall eintreten, dass noch ein
    gegnerischer Stein im Heimfeld des Gewinners oder auf der Bar liegt, zählt der Sieg 3 Punkte."
    Ludus' own half-board tracks once hid the two homes, and this scored as a gammon."""
    end = rolled("ludus-lumbadorum", "W 19:1 off:14 | B 20:2 3:1 2:1 1:1 6:10", W, "6-1").play(W, "1/off")
    assert end.result is not None and end.result.kind is ResultKind.BACKGAMMON and end.result.points == 3
    gammon = rolled("ludus-lumbadorum", "W 19:1 off:14 | B 3:3 2:1 1:1 6:10", W, "6-1").play(W, "1/off")
    assert gammon.result is not None and gammon.result.kind is ResultKind.GAMMON
