"""The Classic Line variants that are races over the usual board, as rule sets.

Each class quotes the rulebook's sentences (seed 003, German original) in
``source`` and states the decisions where the text needs one in its docstring.
Every class changes only what its text changes; the rest is the standard game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.dice import Roll
from engine.errors import IllegalActionError, PositionError
from engine.play import Play
from engine.player import Player
from engine.position import CHECKERS, Position
from engine.result import GameResult, ResultKind
from engine.rules import HitRule, Rules, Stage, Usage
from engine.turn import Incomplete, Program
from engine.variants.base import Variant, doublet_stage, roll_stage

if TYPE_CHECKING:
    from engine.turn import Turn


def _pool_start(checkers: int = CHECKERS) -> Position:
    """Every checker off the board, waiting to enter."""
    return Position((0,) * 24, pool=(checkers, checkers))


def _smaller_first(player: Player, roll: Roll) -> Stage:
    return Stage(player, (roll.low, roll.high), in_order=True)


def _top_then_bottom(player: Player, value: int) -> tuple[Stage, Stage]:
    """A double's top faces four times, then its bottom faces (opposite faces add to 7)."""
    return (
        doublet_stage(player, value, f"4×{value} (top faces)"),
        doublet_stage(player, 7 - value, f"4×{7 - value} (bottom faces)"),
    )


class Eureka(Variant):
    """All 15 start in the home board; nobody is ever hit.

    Default start (the rulebook shows it only as a picture): 3 checkers on each
    of the home points 2..6 (VARIANTS.md).  Any set-up with all 15 at home is
    accepted.  The two home boards never meet, so "no hitting" never binds;
    a single checker is still made to block, as the text says.
    """

    name = "eureka"
    title = "Eureka"
    summary = (
        "A bear-off game for learning: every checker starts in its own home board and the players "
        "only bear off, by the standard rules. Nobody is hit. The cube may be used."
    )
    source = (
        "Die Steine beginnen bereits im Heimfeld, es gibt kein echtes Laufspiel. Gewinner ist, wer "
        "zuerst seine Steine nach den Standardregeln abgetragen hat. Wer möchte, kann mit "
        "Dopplerwürfel spielen ... Geschlagen wird in dieser Backgammon-Variante nicht."
    )
    rules = Rules(block=1)

    def start_position(self) -> Position:
        # Own points 2..6: rulebook 19..23 for White, 2..6 for Black.
        return Position.from_points({**{p: 3 for p in range(19, 24)}, **{p: -3 for p in range(2, 7)}})

    def check_setup(self, position: Position) -> Position:
        position.validate(self.checkers)
        for player in Player:
            home = position.home_points(player)
            outside = sum(position.count(player, p) for p in range(1, 25) if p not in home)
            if outside or position.bar[player] or position.off[player] or position.pool[player]:
                raise PositionError(f"eureka: all 15 {player.label} checkers must start in the home board")
        return position


class Puff(Variant):
    """Enter all 15 by the dice into the start quarter; the smaller die is always played first.

    Directions (VARIANTS.md): White enters at 24..19 and travels down to bear off
    from 1..6; Black enters at 1..6 and bears off from 19..24.  While checkers
    are still to enter they must enter before anything moves, and the two dice
    go to two different checkers.  A double plays its top faces four times and
    then its bottom faces four times; the bottom faces are lost when the top
    ones cannot all be played.
    """

    name = "puff"
    title = "Puff"
    summary = (
        "No start position: the checkers are rolled into the start quarter (White 24-19, Black 1-6), "
        "two different checkers per roll until all are in. The smaller die is always played first; "
        "if it cannot be, the larger is lost too. A double is played four times with its top faces, "
        "then four times with its bottom faces. Hitting, blocking and bearing off as usual."
    )
    source = (
        "Allerdings gibt es hier keine Startaufstellung, sondern die Steine werden zunächst in das "
        "jeweilige Startviertel eingewürfelt – für weiß 24-19, für schwarz 1-6. Dabei müssen beide "
        "Würfel auf 2 Steine verteilt werden. ... Eine weitere Besonderheit besteht darin, dass immer "
        "erst der kleinere Wurf gezogen werden muss. Ist dies nicht möglich, verfällt auch der größere. "
        "Bei einem Pasch werden sowohl die Augenzahlen auf der Oberseite, als auch anschließend die auf "
        "der Unterseite gezogen. ... Kann der obere Wert nicht vollständig gezogen werden, verfällt der "
        "untere komplett."
    )
    rules = Rules(split_while_entering=True, white_ascending=False, black_ascending=True)
    enters_from_pool = True

    def start_position(self) -> Position:
        return _pool_start()

    def program(self, turn: Turn, roll: Roll) -> Program:
        if roll.is_double:
            return Program(_top_then_bottom(turn.player, roll.first), Incomplete.LOSE_REST)
        return Program((_smaller_first(turn.player, roll),))


class LongPuff(Puff):
    """Puff with both players entering the same quarter (1..6) and bearing off from 19..24."""

    name = "long-puff"
    title = "Langes Puff"
    summary = (
        "Puff on one shared track: both players enter into points 1-6 and bear off from 19-24, "
        "travelling the same way. A hit checker re-enters and must reach 19-24 again before "
        "bearing off goes on. Otherwise as Puff."
    )
    source = (
        "Beide Spieler würfeln in das gleiche Viertel ein, also z.B. auf die Felder 1-6. "
        "Herausgewürfelt werden die Steine von beiden Spielern aus den Feldern 19-24 ... Wird er hier "
        "geworfen, muss er wie beim Standardspiel erst wieder einwürfeln und den Bereich 19-24 "
        "erreichen, bevor er wieder hinauswürfeln darf. Die restlichen Regeln inklusive Blockieren "
        "und Werfen gelten wie bei Puff."
    )
    rules = Rules(split_while_entering=True, white_ascending=True, black_ascending=True)


class RussianPuff(Puff):
    """Puff where, after the first two checkers are in, each roll may enter, move, or both."""

    name = "russian-puff"
    title = "Russisches Puff"
    summary = (
        "As Puff, but once the first two checkers are in, each roll may enter new checkers, move "
        "checkers on the board, or one of each. The smaller die is still played first."
    )
    source = (
        "Jeder Spieler setzt in seinem Startviertel ein. Dabei kann er, sobald er die ersten beiden "
        "Steine eingesetzt hat, bei jedem Wurf entscheiden, ob er weiter einsetzen möchte oder lieber "
        "schon in die folgenden Viertel ziehen möchte. Auch Kombinationen (1 Stein einsetzen, 1 auf "
        "dem Brett bewegen) sind möglich. Der niedrigere Wurf muss wie immer zuerst gezogen werden."
    )
    rules = Rules(pool_first_above=CHECKERS - 2, split_while_entering=True, white_ascending=False,
                  black_ascending=True)


class LongRussianPuff(RussianPuff):
    """Russian Puff on the shared track of Long Puff."""

    name = "long-russian-puff"
    title = "Langes russisches Puff"
    summary = (
        "Russian Puff with both players entering the same quarter and travelling the same way: "
        "from the second checker in, each roll may enter or move."
    )
    source = (
        "Beide starten von außerhalb in das gleiche Viertel, dürfen ab dem 2. eingewürfelten Stein "
        "jedoch wählen, ob sie einwürfeln oder einen bereits auf dem Brett stehenden Stein bewegen."
    )
    rules = Rules(pool_first_above=CHECKERS - 2, split_while_entering=True, white_ascending=True,
                  black_ascending=True)


class French1(Variant):
    """Checkers enter by the dice; a double plays 4× top faces, 4× bottom faces, then rolls again.

    Entering: as from the bar, into the opponent's home board, before anything
    else moves ("Alle Standardregeln behalten ihre Gültigkeit").  When a part of
    a double cannot be played, the next part is played anyway.
    """

    name = "french-1"
    title = "Französisches Backgammon 1"
    summary = (
        "The checkers are rolled in instead of set up. Standard rules, except a double: play the "
        "top faces four times, then the bottom faces four times, then roll again; a part that "
        "cannot be played does not stop the next one."
    )
    source = (
        "Auch hier werden die Steine eingewürfelt. Alle Standardregeln behalten ihre Gültigkeit – mit "
        "einer gravierenden Ausnahme: der Wurf eines Paschs. Sie würfeln 6-6 und setzen wie gewohnt "
        "4x 6. Nun setzen Sie die unten liegenden Augen → 4x 1 ... Nun würfeln Sie noch einmal. Wenn "
        "Sie nicht alle Würfe setzen können, fahren Sie mit dem nächsten Schritt fort."
    )
    enters_from_pool = True

    def start_position(self) -> Position:
        return _pool_start()

    def program(self, turn: Turn, roll: Roll) -> Program:
        if roll.is_double:
            return Program(_top_then_bottom(turn.player, roll.first), Incomplete.CONTINUE, roll_again=True)
        return super().program(turn, roll)


class Russian(French1):
    """Both enter the same quarter (1..6) and travel the same way; a double as in French 1,
    but the rest of the turn is lost as soon as a number cannot be played.  No cube."""

    name = "russian"
    title = "Russisches Backgammon"
    summary = (
        "Both players roll their checkers into the same quarter (1-6) and race the same way. A "
        "double: four times the top faces, four times the bottom faces, then roll again; the rest "
        "of the turn is lost as soon as a number cannot be played. No cube."
    )
    source = (
        "Beide Spieler würfeln ihre Steine in das gleiche Viertel ein. Z.B. in die Felder 1-6. Bei "
        "einem Pasch wird wie beim französischen Backgammon 1 zunächst der oben liegende Wert 4x "
        "gezogen, dann der auf der Unterseite und anschließend neu gewürfelt. Abweichend von der "
        "französischen Variante verfällt allerdings der restliche Zug, sobald der Wurf nicht voll "
        "ausgenutzt werden kann. Es wird ohne Dopplerwürfel gespielt."
    )
    rules = Rules(white_ascending=True, black_ascending=True)
    uses_cube = False

    def program(self, turn: Turn, roll: Roll) -> Program:
        if roll.is_double:
            return Program(_top_then_bottom(turn.player, roll.first), Incomplete.LOSE_REST, roll_again=True)
        return Program((roll_stage(turn.player, roll),))


class Gioul(Variant):
    """Turkish Gioul: all 15 start on the opponent's first point (own point 24); no hitting, a
    single checker blocks; doubles climb to 6-6, and the opponent plays what the roller cannot.

    Decision: a stage the opponent cannot finish is lost with the rest.
    """

    name = "gioul"
    title = "Türkisches Backgammon-Gioul"
    summary = (
        "Both players start with all 15 on the first point of the opponent's home board. No "
        "hitting: a single checker closes a point. After a double, the next higher doubles follow "
        "up to 6-6 (3-3: four 3s, four 4s, four 5s, four 6s); when the roller cannot play one in "
        "full, the opponent plays the rest, then takes their own turn. No cube; a win is 1 point, "
        "2 if the loser bore nothing off."
    )
    source = (
        "Die beiden Spieler beginnen auf den ersten Spitzen der gegnerischen Heimfelder. ... Es wird "
        "nicht geschlagen, bereits ein einzelner Stein sperrt diese Spitze für den Gegner. ... Nachdem "
        "regulär der eigentliche Pasch umgesetzt wurde, folgen in aufsteigender Reihenfolge die nächst "
        "höheren Werte ... Sobald der Spieler den Zug nicht umsetzen kann, übernimmt der Gegner an der "
        "nächsten Position ... Es wird ohne Verdoppler gespielt. Der einfache Sieg zählt 1 Punkt, hat "
        "der Gegner noch gar keinen Stein abgetragen, zählt der Sieg 2 Punkte."
    )
    rules = Rules(block=1)
    uses_cube = False

    def start_position(self) -> Position:
        return Position.from_points({1: 15, 24: -15})

    def program(self, turn: Turn, roll: Roll) -> Program:
        if roll.is_double:
            # The roll thrown reads as the turn log writes it ("3-3"); the doublets it climbs to
            # were not thrown, so they keep the rulebook's "4x 4", "4x 5", ...
            climb = (doublet_stage(turn.player, value, f"4×{value}") for value in range(roll.first + 1, 7))
            stages = (roll_stage(turn.player, roll), *climb)
            return Program(stages, Incomplete.HAND_OVER)
        return super().program(turn, roll)

    def outcome(self, before: Position, play: Play, cube: int) -> GameResult | None:
        result = super().outcome(before, play, cube)
        if result is not None and result.kind is ResultKind.BACKGAMMON:
            return GameResult(result.winner, ResultKind.GAMMON, cube)  # gammons only
        return result


class AceyDeucey(Variant):
    """All 15 enter by the dice, whenever the player likes; 1-2 plays 1 and 2, then a chosen
    doublet, then rolls again.  No cube; the loser's checkers not borne off are minus points.

    Decision: "jeder noch auf dem Brett befindliche Stein" counts every checker
    not borne off, the ones never entered included.
    """

    name = "acey-deucey"
    title = "Acey Deucey"
    summary = (
        "All checkers start off the board and enter by the dice; at any time a player may enter "
        "one or two, move, or combine. A 1-2 (acey-deucey) is played as 1 and 2, then as any "
        "doublet the player chooses, then the player rolls again (and again after another 1-2). "
        "When a part cannot be completed, the rest of the turn is lost. No cube; each checker "
        "still on the board at the end is a minus point."
    )
    source = (
        "Die Steine werden eingewürfelt, wobei der Spieler jederzeit entscheiden kann, ob er ein oder "
        "zwei neue Steine einsetzt oder auf dem Brett befindliche weiter zieht. ... Zunächst wird 1-2 "
        "gezogen. Dann kann ein beliebiger Pasch gewählt und gespielt werden. Nun darf noch einmal "
        "gewürfelt und normal gezogen werden. ... Sobald ein Teilzug nicht ausgefüllt werden kann, "
        "verfällt der Rest des Zuges. ... Der Dopplerwürfel wird nicht verwendet, jeder noch auf dem "
        "Brett befindliche Stein zählt einen Minuspunkt."
    )
    rules = Rules(pool_first_above=CHECKERS)
    enters_from_pool = True
    uses_cube = False

    def start_position(self) -> Position:
        return _pool_start()

    def program(self, turn: Turn, roll: Roll) -> Program:
        if (roll.low, roll.high) == (1, 2):
            stage = Stage(turn.player, (1, 2), label="1-2 (acey-deucey)")
            return Program((stage,), Incomplete.LOSE_REST, then_doublet=True, roll_again=True)
        return super().program(turn, roll)

    def doublet_program(self, player: Player, value: int) -> Program:
        stage = doublet_stage(player, value, f"4×{value} (chosen doublet)")
        return Program((stage,), Incomplete.LOSE_REST, roll_again=True)

    def outcome(self, before: Position, play: Play, cube: int) -> GameResult | None:
        after = play.result
        if after.in_play(play.player):
            return None
        left = after.in_play(play.player.opponent)
        return GameResult(play.player, ResultKind.SINGLE, 1, base=left,
                          reason=f"{left} checkers left: {left} minus points")


class Mexican(Variant):
    """Smaller die first (else the roll is lost), at most 5 on a point, doubles fully played
    roll again, a 1-2 becomes a chosen doublet, exact bearing off, no gammons, no cube.

    Decision: after a chosen doublet the player rolls again even if it could not be played in full
    ("Anschließend wird regulär gewürfelt").
    """

    name = "mexican"
    title = "Mexikanisches Backgammon"
    summary = (
        "Standard start. The smaller die is always played first; if it cannot be, the whole roll is "
        "lost. At most 5 checkers on a point. After a fully played double, roll again. A 1-2 "
        "('Mexican') is never played as numbers: choose any doublet, play it, then roll again. "
        "Bearing off with exact numbers only. No gammons, no backgammons, no cube."
    )
    source = (
        "Es wird immer zuerst der niedrigere Wert gezogen. Geht das nicht, verfällt der gesamte Wurf. "
        "Es dürfen max. 5 Steine auf einer Spitze stehen. Nach einem (vollständig ausgeführten) Pasch "
        "wird erneut gewürfelt. Nach dem Wurf eines „Mexikaners“ (1-2) wird ein beliebiger Pasch "
        "gewählt und ausgeführt. Anschließend wird regulär gewürfelt. Die Kombination 1-2 wird nicht "
        "gezogen! Das Abtragen erfolgt mit exakt passenden Werten. Es gibt kein Gammon oder "
        "Backgammon. Es gibt keinen Dopplerwürfel."
    )
    rules = Rules(own_limit=5, exact_bear_off=True)
    uses_cube = False

    def program(self, turn: Turn, roll: Roll) -> Program:
        if (roll.low, roll.high) == (1, 2):
            return Program(then_doublet=True)
        if roll.is_double:
            return Program((roll_stage(turn.player, roll),), Incomplete.LOSE_REST, roll_again=True)
        return Program((_smaller_first(turn.player, roll),))

    def doublet_program(self, player: Player, value: int) -> Program:
        stage = doublet_stage(player, value, f"4×{value} (chosen doublet)")
        return Program((stage,), Incomplete.CONTINUE, roll_again=True)

    def outcome(self, before: Position, play: Play, cube: int) -> GameResult | None:
        if play.result.in_play(play.player):
            return None
        return GameResult(play.player, ResultKind.SINGLE, cube)


class OldBritain(Variant):
    """At most 5 on a point; when both dice cannot be played, either may be; no cube."""

    name = "old-britain"
    title = "Old Britain"
    summary = (
        "Standard start and rules with three exceptions: at most 5 checkers on a point; when both "
        "dice cannot be played, the lower one may be played instead of the higher; no cube."
    )
    source = (
        "Es wird mit der Standardstartaufstellung gespielt. Es gibt nur 3 Ausnahmen vom modernen "
        "Backgammon: Es dürfen nur maximal 5 Steine auf einer Spitze stehen. Wenn Sie nicht beide "
        "Würfe ausführen können, dürfen Sie auch den niedrigeren Würfel setzen und den anderen "
        "verfallen lassen. Es wird ohne Dopplerwürfel gespielt."
    )
    rules = Rules(own_limit=5)
    uses_cube = False

    def program(self, turn: Turn, roll: Roll) -> Program:
        return Program((roll_stage(turn.player, roll, Usage.MOST_ANY),))


class Pin(Variant):
    """No hitting: landing on a lone opponent pins it; a point with two checkers of either colour is
    closed; a roll that cannot be played in full is lost.  The winner scores the loser's pips.

    Decision: "Felder, die von 2 Steinen besetzt sind ... egal, ob die beiden Steine einem
    Spieler oder beiden gehören" closes a point held by two opposing checkers or by a
    pinned pair (one of each).  Read as closing two checkers of the mover's own as
    well, no side could ever bring 15 checkers into six home points, and no game
    could end, so a player's own checkers stack as usual.

    Default start (the picture is lost; ours): each side's 15 checkers two to a
    point on its first seven points, and one on the eighth (White on 1..8, Black
    on 24..17).  Any set-up with at most two checkers on a point is accepted.
    """

    name = "pin"
    title = "Pin"
    summary = (
        "No hitting: a checker landing on a single opposing checker pins it there until it leaves. "
        "A point holding two checkers, of either colour, cannot be entered. A roll that cannot be "
        "played in full is lost. No cube. The winner scores the pips the loser still needed to bear "
        "off, doubled for a gammon and tripled for a backgammon."
    )
    source = (
        "Es wird nicht geschlagen. Stattdessen gilt: ziehen Sie auf ein Feld mit einem einzelnen "
        "gegnerischen Stein, so ist dieser gefangen, bis Sie das Feld wieder verlassen. Felder, die "
        "von 2 Steinen besetzt sind, dürfen nicht betreten werden. Dabei ist es egal, ob die beiden "
        "Steine einem Spieler oder beiden gehören. Wenn ein Wurf nicht vollständig ausgeführt werden "
        "kann, verfällt er komplett. Es wird ohne Dopplerwürfel gespielt. Der Sieger erhält so viele "
        "Punkte, wie der Gegner Felder benötigt hätte, um abzutragen ... Gammon verdoppelt. "
        "Backgammon verdreifacht."
    )
    rules = Rules(hit=HitRule.PIN)
    uses_cube = False

    def start_position(self) -> Position:
        white = {p: 2 for p in range(1, 8)} | {8: 1}
        black = {25 - p: -2 for p in range(1, 8)} | {17: -1}
        return Position.from_points(white | black)

    def check_setup(self, position: Position) -> Position:
        position.validate(self.checkers)
        crowded = [p for p in range(1, 25) if abs(position.at(p)) + (p in position.pins) > 2]
        if crowded:
            raise PositionError(f"pin: at most two checkers on a point, but point {crowded[0]} has more")
        return position

    def program(self, turn: Turn, roll: Roll) -> Program:
        return Program((roll_stage(turn.player, roll, Usage.ALL_OR_NOTHING),))

    def outcome(self, before: Position, play: Play, cube: int) -> GameResult | None:
        after = play.result
        if after.in_play(play.player):
            return None
        pips = self.pips(after, play.player.opponent)
        return GameResult(play.player, self.result_kind(after, play.player), 1, base=pips,
                          reason=f"the loser needed {pips} pips")


class Backwards(Variant):
    """Any number may also move a checker backwards (never past its own 24-point)."""

    name = "backwards"
    title = "Rückwärts"
    summary = "Standard rules, but any die may also move a checker backwards."
    source = "Jeder Spieler kann jederzeit seine Würfe auch für Züge rückwärts nutzen."
    rules = Rules(backwards=True)


class Straight(Variant):
    """Both players move the same way from the standard start: White as usual, Black too,
    bearing off past 24."""

    name = "straight"
    title = "Straight"
    summary = (
        "Standard start, but both players move the same way: White as usual from 1 over 24, and "
        "Black also towards 24 and off past it."
    )
    source = (
        "Beide Spieler spielen in die gleiche Richtung, ausgehend von der Originalstartaufstellung. "
        "D. h. weiß klassisch von 1 und über 24 wird herausgezogen. Auch schwarz zieht über die 24 "
        "hinaus."
    )
    rules = Rules(white_ascending=True, black_ascending=True)


class FixedRoll(Variant):
    """The opening roll is every turn's roll for both players; the dice are read once."""

    name = "fixed-roll"
    title = "Fester Wurf"
    summary = (
        "The opening roll is the roll of both players for the whole game: the dice are rolled once "
        "at the start, and every turn plays those numbers."
    )
    source = (
        "Der Eröffnungswurf gilt für beide Spieler das gesamte Spiel über. Das bedeutet, dass nur "
        "einmal zu Beginn des Spieles gewürfelt wird, danach wird immer von beiden mit diesem Wurf "
        "gespielt."
    )
    fixed_roll = True


class NoHitting(Variant):
    """Standard rules, but the player who hits loses the game on the spot (single, times the cube)."""

    name = "no-hitting"
    title = "Schlagfrei"
    summary = "Standard rules, but whoever hits an opposing checker loses the game."
    source = "Wer seinen Gegner schlägt, verliert."

    def outcome(self, before: Position, play: Play, cube: int) -> GameResult | None:
        if play.hits:
            return GameResult(play.player.opponent, ResultKind.SINGLE, cube,
                              reason=f"{play.player.label} hit a checker")
        return super().outcome(before, play, cube)


class OpenRoll(Variant):
    """Before the mover plays, the opponent rolls the dice for their own next turn.

    No cube: the rulebook lets only the player on turn double, and only before rolling
    ("Verdoppeln kann nur, wer am Zug ist und bevor er gewürfelt hat"), and here every turn's
    dice are thrown during the turn before it.  Turned at the start of the turn, as pipgammon
    once allowed, the cube was doubled by a player who could see their own 6-6 lying there.
    """

    name = "open-roll"
    title = "Offener Wurf"
    summary = (
        "Before you move, your opponent rolls the dice for their next turn, so you can take their "
        "numbers into account. Two pairs lie on the board; their colours tell them apart."
    )
    source = (
        "Bevor Sie Ihren Zug machen, würfelt Ihr Gegner und Sie können seine Optionen in Ihrem Zug "
        "berücksichtigen."
    )
    open_roll = True
    uses_cube = False


class Reverse(Variant):
    """The last player to bear off their last checker wins (single, times the cube)."""

    name = "reverse"
    title = "Verkehrt"
    summary = "All standard rules, but the winner is the player who bears off their last checker last."
    source = (
        "Alle Standardregeln gelten, nur das Spielziel ändert sich: es gewinnt, wer zuletzt seinen "
        "letzten Stein abträgt."
    )

    def outcome(self, before: Position, play: Play, cube: int) -> GameResult | None:
        after = play.result
        if after.in_play(play.player) or after.in_play(play.player.opponent):
            return None
        return GameResult(play.player, ResultKind.SINGLE, cube, reason="last to bear off")


class Snake(Variant):
    """Standard rules from Scarne's Snake start: Black as usual, White with two each on Black's 1,
    2 and 3 points and nine on the bar (VARIANTS.md; the rulebook's picture is lost).  Any valid
    set-up the players lay out is accepted."""

    name = "snake"
    title = "Schlange"
    summary = (
        "Standard rules from an unusual start, good practice for hopeless-looking games: Black in "
        "the normal set-up; White with two checkers each on Black's 1, 2 and 3 points and the other "
        "nine on the bar."
    )
    source = (
        "Abgesehen von der ungewöhnlichen Ausgangssituation gelten alle Standardregeln. Diese "
        "Backgammon-Variante ist gut geeignet als Übung für scheinbar aussichtslose Spiele."
    )

    def start_position(self) -> Position:
        return Position.from_points({1: 2, 2: 2, 3: 2, 24: -2, 13: -5, 8: -3, 6: -5}, bar=(9, 0))

    def check_setup(self, position: Position) -> Position:
        return position.validate(self.checkers)


class DoubleVsFreeChoice(Variant):
    """One player chooses any non-doublet numbers instead of rolling; the other rolls twice a turn.

    Which player chooses is a game option (``Game.new(chooser=...)``, White by default).
    """

    name = "double-vs-free-choice"
    title = "Doppelt gegen freie Wahl"
    summary = (
        "One player does not roll but chooses any combination except a doublet and sets the dice "
        "down by hand. The other rolls twice each turn and plays both rolls one after the other; "
        "their doubles are played as usual, even twice."
    )
    source = (
        "Sehr spannend wird es, wenn ein Spieler statt zu würfeln, jede beliebige Würfelkombination "
        "frei wählen und ziehen darf – mit Ausnahme von Pasch-Würfen. Der andere Spieler darf im "
        "Gegenzug 2x regulär nacheinander würfeln und ziehen. Auch ein Pasch wird normal gespielt, "
        "ggf. auch 2x."
    )
    free_choice = True

    def program(self, turn: Turn, roll: Roll) -> Program:
        if turn.chooses and roll.is_double:
            raise IllegalActionError(f"{turn.player.label} chooses freely but not a doublet ({roll})")
        # The roller's first roll of a turn is followed by a second one.
        # "2x regulär nacheinander würfeln und ziehen": the second roll comes even when the
        # first could not be played in full.
        return Program((roll_stage(turn.player, roll),), Incomplete.CONTINUE,
                       roll_again=turn.rolls == 1 and not turn.chooses)


CLASSIC_VARIANTS: tuple[type[Variant], ...] = (
    Eureka, Puff, LongPuff, RussianPuff, LongRussianPuff, French1, Russian, Gioul, AceyDeucey,
    Mexican, OldBritain, Pin, Backwards, Straight, FixedRoll, NoHitting, OpenRoll, Reverse, Snake,
    DoubleVsFreeChoice,
)
