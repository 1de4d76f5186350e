"""Eureka, Rückwärts, Fester Wurf and Schlange, played through the engine as a referee would.

Each test sets up a position and a roll from a sentence of the Classic Line rulebook (seed 003,
German original, quoted) and compares the engine's legal plays and verdicts with it.  Where the
text is silent, the test pins the reading docs/variants.md states.  The random games at the end
check that every game ends and keeps all 30 checkers.
"""

from __future__ import annotations

import random
import re

import pytest

from engine.cube import Cube
from engine.dice import Roll
from engine.game import Game, OpeningRule, Phase
from engine.match import Match
from engine.movegen import legal_plays
from engine.notation import parse_move
from engine.player import Player
from engine.position import Position
from engine.result import ResultKind
from engine.selfplay import random_game
from engine.step import board_point
from engine.variants import find_variant
from tests.variants.helpers import B, W, board, game, plays, results, rolled

ROLLS = [Roll(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def _sampled(name: str, games: int, every: int, any_play: float = 1.0) -> list[tuple[Position, Player]]:
    """Positions with a player on roll, from random games of ``name``."""
    found = []
    for seed in range(games):
        states = random_game(random.Random(seed), find_variant(name), any_play=any_play)
        for index, state in enumerate(states):
            if state.phase is Phase.ON_ROLL and index % every == 0 and state.turn is not None:
                found.append((state.position, state.turn))
    return found


# -- Eureka ---------------------------------------------------------------------------


def test_eureka_opening_roll_bears_off_at_once() -> None:
    """"Die Steine beginnen bereits im Heimfeld, es gibt kein echtes Laufspiel." From the start
    (3 on each home point 2..6) a 6-5 bears off two checkers, or moves one down and bears off."""
    start = find_variant("eureka").start_position()
    assert start.pip_count(W) == start.pip_count(B) == 60
    assert plays("eureka", start.to_text(), W, "6-5") == {"6/off 5/off", "6/1 6/off"}
    assert plays("eureka", start.to_text(), B, "6-5") == {"6/off 5/off", "6/1 6/off"}


def test_eureka_bears_off_by_the_standard_rules_doubles_and_higher_numbers() -> None:
    """"Gewinner ist, wer zuerst seine Steine nach den Standardregeln abgetragen hat." A double
    is four numbers; a number higher than the highest point bears off from it."""
    assert plays("eureka", "W 19:2 off:13 | B 1:15", W, "3-3") == {"6/off(2)"}
    assert plays("eureka", "W 23:1 off:14 | B 1:15", W, "6-1") == {"2/off"}
    # Not the highest point: a 6 from the 4-point moves a checker there, never bears off from 3.
    assert plays("eureka", "W 21:1 22:1 off:13 | B 1:15", W, "6-6") == {"4/off 3/off"}


def test_eureka_plays_exactly_as_the_standard_rules() -> None:
    """"Geschlagen wird in dieser Backgammon-Variante nicht. Alle anderen Regeln bleiben
    bestehen." The two home boards never meet, so on every position of random games and every
    roll the legal plays are the standard generator's."""
    eureka = find_variant("eureka")
    positions = _sampled("eureka", 12, 3)
    assert len(positions) > 60
    for position, player in positions:
        for roll in ROLLS:
            mine = {p.result for p in eureka.legal_plays(position, player, roll)}
            assert mine == {p.result for p in legal_plays(position, player, roll)}, (position, roll)


def test_eureka_the_first_to_bear_off_wins_and_a_gammon_counts_times_the_cube() -> None:
    """"Gewinner ist, wer zuerst seine Steine ... abgetragen hat" and "Alle anderen Regeln
    bleiben bestehen": a loser with no checker off loses a gammon, times the cube.  A backgammon
    cannot happen: the loser's checkers never leave their own home board."""
    single = rolled("eureka", "W 24:1 off:14 | B 1:14 off:1", W, "2-1").play(W, "1/off")
    assert single.result is not None and single.result.winner is W and single.result.points == 1
    doubled = Game.at(board("eureka", "W 24:1 off:14 | B 1:15"), W, variant=find_variant("eureka"),
                      cube=Cube(2, W))
    gammon = doubled.roll_dice(W, Roll(2, 1)).play(W, "1/off")
    assert gammon.result is not None and gammon.result.kind is ResultKind.GAMMON
    assert gammon.result.points == 4


def test_eureka_the_cube_is_for_whoever_wants_it() -> None:
    """"Wer möchte, kann mit Dopplerwürfel spielen": offered, and a game can leave it out."""
    eureka = find_variant("eureka")
    assert game("eureka", None, W).can_double(W)
    without = Game.new(OpeningRule.STARTER_ROLLS, variant=eureka, cube_in_play=False)
    assert not without.choose_starter(W).can_double(W)
    taken = game("eureka", None, W).double(W).take(B)
    assert taken.cube == Cube(2, B)
    dropped = game("eureka", None, W).double(W).drop(B)
    assert dropped.result is not None and dropped.result.winner is W and dropped.result.points == 1


# -- Rückwärts ------------------------------------------------------------------------


def _path_starts(notation: str) -> list[str]:
    return [re.sub(r"\*|\(\d\)", "", token).split("/")[0] for token in notation.split()]


def test_backwards_any_number_may_move_a_checker_back() -> None:
    """"Jeder Spieler kann jederzeit seine Würfe auch für Züge rückwärts nutzen." From the start,
    White's 1 may take a checker from its 6-point back to its 7-point (rulebook 19 → 18)."""
    found = plays("backwards", Position.start().to_text(), W, "2-1")
    assert "13/15 13/14" in found and "6/8 6/7" in found and "8/5" in found
    moved = results("backwards", Position.start().to_text(), W, "2-1")
    assert "W 1:2 12:5 17:4 18:1 19:3 | B 24:2 13:5 8:3 6:5" in moved  # 6/8 6/7: 19 → 17, 19 → 18


def test_backwards_a_backward_move_hits_and_is_blocked_as_a_forward_one() -> None:
    """"Es gelten immer die Originalregeln, bis auf die folgenden Ausnahmen": landing on a lone
    opponent hits it, two opponents close the point, whichever way the checker came."""
    hit = plays("backwards", "W 10:1 1:14 | B 8:1 24:14", W, "2-1")
    assert "15/17* 1/2" not in hit and any("15/17*" in p for p in hit)
    closed = plays("backwards", "W 10:1 1:14 | B 8:2 24:13", W, "2-1")
    assert not any("15/17" in p for p in closed)


def test_backwards_the_bar_first_and_entering_is_forward() -> None:
    """A checker on the bar enters first ("Originalregeln"), into the opponent's home board."""
    found = plays("backwards", "W bar:1 1:14 | B 24:2 13:5 8:3 6:5", W, "3-1")
    assert found == {"bar/22 24/23", "bar/23", "bar/21"}


def test_backwards_a_play_that_only_goes_back_is_forced_when_nothing_goes_forward() -> None:
    """"Es ist nicht erlaubt zu passen" (general rules) with "auch für Züge rückwärts": a
    backward move is a legal move, so it must be played when it is the only way to use the roll.
    White's 22-point checker (rulebook 3) is blocked ahead; it goes back 2 and forward 1."""
    closed = "W 3:1 off:14 | B 4:2 5:2 6:2 7:2 8:2 9:2 24:3"
    assert plays("backwards", closed, W, "2-1") == {"22/23"}
    g = rolled("backwards", closed, W, "2-1")
    with pytest.raises(ValueError, match="not a legal play"):
        g.play(W, "")


def test_backwards_never_past_the_own_24_point() -> None:
    """The text does not say how far back; the track ends at the checker's own 24-point
    (pipgammon's reading).  White's checker there (rulebook 1), blocked ahead, cannot go back
    either: the roll is lost."""
    assert plays("backwards", "W 1:1 off:14 | B 2:2 3:2 4:2 5:2 6:2 7:5", W, "6-1") == {""}
    assert plays("backwards", "W 2:1 off:14 | B 3:2 4:2 5:2 6:2 7:2 8:5", W, "6-1") == {"23/24"}


def test_backwards_bearing_off_waits_while_a_checker_is_back_outside() -> None:
    """Bearing off as in the standard game: only with every checker home.  A checker moved back
    out of the home board stops the other die from bearing off; bearing off first and then
    moving back is allowed."""
    found = plays("backwards", "W 19:1 24:14 | B 1:15", W, "6-5")
    assert "6/off 1/off" in found
    assert "6/11 1/off" not in found  # back out of home with the 5: the 6 cannot bear off
    assert "6/11 1/7" in found
    assert "6/12 1/off" in plays("backwards", "W 19:1 24:14 | B 1:15", W, "6-1")  # off, then back


def test_backwards_a_double_may_leave_the_board_as_it_was() -> None:
    """Four numbers may take a checker back and forth (pipgammon's reading: each number is a
    move by the rule, so the roll is played, not passed).  The play is written with its real
    start and end, "24/24", and reads back."""
    moves = find_variant("backwards").legal_plays(Position.start(), W, Roll(1, 1))
    unchanged = moves.find(Position.start())
    assert unchanged is not None and len(unchanged.steps) == 4
    assert moves.parse(unchanged.notation) == unchanged
    assert parse_move(unchanged.notation, backwards=True)


def test_backwards_written_paths_start_where_a_checker_stood() -> None:
    """White's 3-1 from the start, played 8/11 (back 3) and 11/10 (forward 1), is one checker
    from the 8-point to the 10-point: "8/10".  It was written "11/10 8/11", naming a checker on
    the 11-point (rulebook 14) that was not there."""
    found = plays("backwards", Position.start().to_text(), W, "3-1")
    assert "8/10" in found and "11/10 8/11" not in found
    backwards = find_variant("backwards")
    for position, player in _sampled("backwards", 1, 9, any_play=0.25)[:16]:
        for roll in ROLLS:
            moves = backwards.legal_plays(position, player, roll)
            written = [play.notation for play in moves]
            assert len(set(written)) == len(written)  # each text names one play
            for play in moves:
                for start in _path_starts(play.notation):
                    if start == "bar":
                        assert position.bar[player], (position, roll, play.notation)
                    else:
                        point = board_point(int(start), player)
                        assert position.count(player, point), (position.to_text(), roll, play.notation)
                # Read as paths, not by the exact text, it leads to the same play.
                segments = parse_move(play.notation, backwards=True)
                assert len(segments) == len(play.notation.split()) + sum(
                    int(n) - 1 for n in re.findall(r"\((\d)\)", play.notation))
            for play in list(moves)[::max(1, len(written) // 4)]:
                # Not the exact text: read by its paths, it leads to the same play.
                assert moves.parse(play.notation.replace(" ", ", ")) == play


def test_backwards_ends_and_scores_as_the_standard_game() -> None:
    """"Es gelten immer die Originalregeln": the first to bear off wins; a loser with a checker
    in the winner's home board (moved back there, say) loses a backgammon."""
    end = rolled("backwards", "W 24:1 off:14 | B 20:1 6:14", W, "2-1").play(W, "1/off")
    assert end.result is not None and end.result.winner is W
    assert end.result.kind is ResultKind.BACKGAMMON and end.result.points == 3


# -- Fester Wurf ----------------------------------------------------------------------


def test_fixed_roll_one_die_each_opening_is_both_players_roll_all_game() -> None:
    """"Der Eröffnungswurf gilt für beide Spieler das gesamte Spiel über. Das bedeutet, dass nur
    einmal zu Beginn des Spieles gewürfelt wird, danach wird immer von beiden mit diesem Wurf
    gespielt." Whatever dice fall later are ignored, for either player."""
    g = Game.new(OpeningRule.ONE_DIE_EACH, variant=find_variant("fixed-roll")).opening_roll(white=5, black=3)
    assert g.turn is W and g.roll == Roll(5, 3)
    for thrown in (Roll(6, 6), Roll(2, 1), Roll(4, 4), Roll(6, 5)):
        mover = g.turn
        assert mover is not None
        g = g.play(mover, next(iter(g.legal_plays())))
        assert g.phase is Phase.ON_ROLL and g.turn is mover.opponent
        g = g.roll_dice(mover.opponent, thrown)
        assert g.roll == Roll(5, 3) and g.fixed == Roll(5, 3)


def test_fixed_roll_a_starters_double_is_everyones_double() -> None:
    """With the Classic Line opening ("Er würfelt mit seinen beiden Würfeln") the opening roll
    can be a double: then every turn of both players is that double, four numbers."""
    g = Game.new(OpeningRule.STARTER_ROLLS, variant=find_variant("fixed-roll")).choose_starter(B)
    g = g.roll_dice(B, Roll(6, 6))
    assert g.legal_plays().dice_used == 4
    g = g.play(B, "24/18(2) 13/7(2)").roll_dice(W, Roll(2, 1))
    assert g.roll == Roll(6, 6) and g.progress is not None and g.progress.stage.dice == (6, 6, 6, 6)


def test_fixed_roll_each_game_of_a_match_has_its_own_opening_roll() -> None:
    """"das gesamte Spiel über": the roll is fixed for one game; the next game rolls anew."""
    match = Match.new(3, OpeningRule.ONE_DIE_EACH, variant=find_variant("fixed-roll"))
    match = match.opening_roll(white=4, black=2)
    assert match.game.fixed == Roll(4, 2)
    match = match.play(W, next(iter(match.game.legal_plays())))
    match = match.double(B).drop(W)
    assert len(match.results) == 1 and match.game.phase is Phase.OPENING and match.game.fixed is None
    match = match.opening_roll(white=1, black=6)
    assert match.game.turn is B and match.game.fixed is not None
    assert sorted(match.game.fixed.dice) == [1, 6]


def test_fixed_roll_a_player_who_cannot_move_passes_and_the_game_goes_on() -> None:
    """Standard rules: a roll that cannot be played is lost; the other player, who can move
    with the same numbers, goes on."""
    text = "W 1:2 off:13 | B 7:2 20:1 off:12"
    g = Game.at(board("fixed-roll", text), W, variant=find_variant("fixed-roll")).roll_dice(W, Roll(6, 6))
    assert not g.legal_plays().can_move
    g = g.play(W, "")
    assert not g.is_over and g.turn is B
    g = g.roll_dice(B, Roll(1, 2))
    assert g.roll == Roll(6, 6) and g.legal_plays().can_move


def test_fixed_roll_a_game_nobody_can_move_in_again_ends_blocked() -> None:
    """The text is silent on a board where the fixed roll moves nobody ever again (each side's
    two checkers block the other's 6).  pipgammon ends the game: the fewer pips wins a single."""
    text = "W 1:2 off:13 | B 7:2 off:13"
    g = Game.at(board("fixed-roll", text), W, variant=find_variant("fixed-roll")).roll_dice(W, Roll(6, 6))
    end = g.play(W, "")
    assert end.is_over and end.result is not None
    assert end.result.winner is B and end.result.kind is ResultKind.SINGLE
    assert "blocked for good" in end.result.reason


def test_fixed_roll_keeps_the_cube() -> None:
    """"Es gelten immer die Originalregeln": the player on turn may double before the turn."""
    g = Game.new(OpeningRule.ONE_DIE_EACH, variant=find_variant("fixed-roll")).opening_roll(white=4, black=2)
    g = g.play(W, "8/4 6/4")
    assert g.can_double(B)
    g = g.double(B).take(W).roll_dice(B, Roll(6, 6))
    assert g.cube == Cube(2, W) and g.roll == Roll(4, 2)


# -- Schlange -------------------------------------------------------------------------


def test_snake_start_black_as_usual_white_two_on_each_of_blacks_1_2_3_and_nine_on_the_bar() -> None:
    """"Abgesehen von der ungewöhnlichen Ausgangssituation gelten alle Standardregeln." The
    picture is lost; the default is Scarne's Snake (VARIANTS.md)."""
    start = find_variant("snake").start_position()
    assert start.to_text() == "W 1:2 2:2 3:2 bar:9 | B 24:2 13:5 8:3 6:5"
    assert start.pip_count(B) == 167 and start.pip_count(W) == 9 * 25 + 2 * (24 + 23 + 22)


def test_snake_white_enters_the_nine_first_and_black_s_6_point_is_closed() -> None:
    """Standard entering: nothing else moves while a checker is on the bar, and Black's made
    6-point (rulebook 6) takes no checker, so a 6 cannot enter."""
    start = find_variant("snake").start_position().to_text()
    assert plays("snake", start, W, "6-6") == {""}
    assert plays("snake", start, W, "6-1") == {"bar/24"}
    assert plays("snake", start, W, "2-2") == {"bar/23(4)"}
    g = rolled("snake", None, W, "6-6")
    assert g.play(W, "").turn is B


def test_snake_black_plays_and_hits_by_the_standard_rules() -> None:
    """Black's plays are the standard game's on the same board; a White blot is hit to the bar."""
    snake = find_variant("snake")
    start = snake.start_position()
    for roll in ROLLS:
        mine = {p.result for p in snake.legal_plays(start, B, roll)}
        assert mine == {p.result for p in legal_plays(start, B, roll)}
    hit = rolled("snake", "W bar:9 1:2 2:2 3:1 4:1 | B 24:2 13:5 8:3 6:5", B, "4-2")
    assert hit.play(B, "13/9 6/4*").position.bar == (10, 0)


def test_snake_scores_as_the_standard_game() -> None:
    """A loser with checkers still on the bar loses a backgammon, times the cube."""
    end = rolled("snake", "W bar:2 3:13 | B 1:1 off:14", B, "2-1")
    assert end.legal_plays().count() == 1
    over = end.play(B, next(iter(end.legal_plays())))
    assert over.result is not None and over.result.winner is B
    assert over.result.kind is ResultKind.BACKGAMMON and over.result.points == 3


def test_snake_accepts_the_set_up_the_players_lay_out() -> None:
    laid = board("snake", "W 1:2 2:2 3:2 4:2 bar:7 | B 24:2 13:5 8:3 6:5")
    assert Game.new(variant=find_variant("snake"), position=laid).position == laid


# -- random games ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "games", "any_play"),
    [("eureka", 200, 1.0), ("fixed-roll", 60, 1.0), ("snake", 60, 1.0), ("backwards", 4, 0.25)],
)
def test_random_games_end_and_keep_every_checker(name: str, games: int, any_play: float) -> None:
    """Random legal actions to the end (bench/random_games.py plays 300 of each).  Rückwärts
    draws from all plays only a quarter of the time: a random walk back and forth need not end."""
    variant = find_variant(name)
    for seed in range(games):
        last = None
        for last in random_game(random.Random(seed), variant, any_play=any_play):
            for player in Player:
                assert last.position.in_play(player) + last.position.off[player] == 15
        assert last is not None and last.is_over and last.result is not None
        assert last.result.points >= 1
