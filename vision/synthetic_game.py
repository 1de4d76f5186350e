"""Whole synthetic games for the referee: engine self-play, scripted as the camera sees it, then drawn.

Two layers.  `script_game` is pure (no cv2): it plays a match with the engine's self-play
bot and writes it down as *beats* (`Still`: the board at rest; `Motion`: a hand over the
board or dice tumbling; `Press`: a button) plus the *truth*: the events the referee must
emit (engine/events.py's types and keys), derived from what the script played and what it
injected, following the physical-game contract of the helper brief:

- a new game is the variant's start with no dice and the cube centred, ``(1, "center")``;
- one-die-each opening: one white and one black die -> ``opening`` (a tie is picked up and
  thrown again); starter-rolls: the starter's two dice -> ``starter`` + ``roll``;
- the player on roll may double (the cube moved to the opponent's side showing twice its
  value -> ``double``); take: the doubler's dice appear (``take`` at that still, then
  ``roll``) or the end-turn button is pressed (``take`` at the still the press follows);
  drop: the cube back where it was -> ``drop`` + ``game-over``;
- a roll -> ``roll`` (and ``no-play`` at the same still when nothing can be played); a
  cocked die -> ``reroll``, picked up and thrown again; the opponent's dice thrown out of
  turn -> ``void-roll``, picked up;
- the play checker by checker (a hand per checker, sometimes a still between, sometimes a
  checker lifted: the position minus one of the mover's checkers on one point), tried
  moves taken back; then the dice picked up, or the end-turn button -> ``accepted``;
- an injected illegal result: the dice picked up from a board that is no legal result ->
  ``illegal``; then half the time the intended result is set (``accepted``), half the time
  the turn's start (``corrected`` to ``start``), then the play again in one go
  (``accepted``);
- the last checker off -> ``accepted`` + ``game-over`` (+ ``match-over``); the next game's
  set-up -> ``game``.

**Nearest legal result** (for ``illegal``'s ``points`` and ``nearest``): the legal result
with the fewest checkers differing, where the difference is the sum over the 24 points of
the absolute difference of the signed counts plus the differences on the bar.  An illegal
board is only injected when every nearest result differs from it on the same points (so
``points`` does not depend on which one a referee picks), has the same bar as the board,
and the points stay the same when points holding five or more checkers are read as lower
bounds (as the camera reads them); ``points`` are those board points, sorted.  ``nearest``
is the intended play when it is one of the nearest, else the first by notation: compare
``points``, not ``nearest``.  An injection that finds no such board (rare) is owed to the
next turn with a checker to move, so the rate comes out as asked.

Dice lists are ``[high, low]``.  Each truth event carries the index of the `Still` beat at
which the referee decides it (for a button, the still the press follows); the writers turn
that into the frame name.

`render_script` draws the beats under one camera mount and lamp (`vision.sequence.
SequenceMaker`), with the cube; `write_stills` and `write_video` put a game on disk.

Supported variants: see `SUPPORTED` (turns of one roll played in one stage, positions the
renderer can draw: at most four checkers on the bar, no pins or towers).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.buttons import Button, ButtonEvent
from engine.dice import Roll
from engine.events import Event
from engine.game import Game, OpeningRule, Phase
from engine.match import Match
from engine.play import Play
from engine.player import Player
from engine.position import Position
from engine.scene import Scene
from engine.selfplay import choose_play
from engine.turn import Ask
from engine.variants import Variant, find_variant

if TYPE_CHECKING:  # the renderer (OpenCV) loads only when a script is drawn
    from vision.synthetic import Style

#: Variants whose whole games this module scripts: one roll, one stage per turn, and boards
#: the renderer draws as the camera sees them.
SUPPORTED = ("standard", "eureka", "backwards", "straight", "no-hitting", "reverse", "old-britain")

COLOUR = {Player.WHITE: "white", Player.BLACK: "black"}
#: Frames a still is held for in a video (the stabiliser wants three agreeing frames).
HOLD = 5
HAND_FRAMES = 3
THROW_FRAMES = 2


class ScriptError(ValueError):
    """A game this module cannot script: an unsupported variant or opening, or a bad rate."""


@dataclass(frozen=True, slots=True)
class Still:
    """The board at rest for ``hold`` frames.  ``position`` is what is drawn (with the checkers
    off in the tray); ``scene`` is what a perfect camera reports of it."""

    scene: Scene
    position: Position
    hold: int = HOLD
    note: str = ""


@dataclass(frozen=True, slots=True)
class Motion:
    """Nothing is still: a hand over the board (``"hand"``) or dice tumbling (``"throw"``)."""

    kind: str
    before: Position
    after: Position
    scene_before: Scene
    scene_after: Scene
    frames: int


@dataclass(frozen=True, slots=True)
class Press:
    """A button pressed right after the still before it."""

    button: ButtonEvent


Beat = Still | Motion | Press


@dataclass(frozen=True, slots=True)
class TruthEvent:
    """An event the referee must emit, decided at the `Still` beat number ``beat``."""

    beat: int
    event: Event


@dataclass(frozen=True)
class GameScript:
    seed: int
    variant: str
    match_to: int
    opening: str
    beats: tuple[Beat, ...]
    truth: tuple[TruthEvent, ...]
    #: What was injected and how often it could have been: "turns", "plays" (turns with a
    #: checker to move), "illegal", "tryout", "lifted", "cocked", "void", "button", ...
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def stills(self) -> list[int]:
        """The beat numbers of the `Still` beats, in order."""
        return [i for i, beat in enumerate(self.beats) if isinstance(beat, Still)]


# -- scenes and positions ------------------------------------------------------------------

def scene_of(position: Position, dice: Sequence[tuple[str, int, bool]] = (),
             cube: tuple[int, str] | None = None) -> Scene:
    """What a perfect camera reports: the counts, and as ``stacked`` the points holding more
    than five (the renderer lays those in a second layer that hides how many there are)."""
    stacked = tuple(p for p in range(1, 25) if abs(position.at(p)) > 5)
    return Scene(tuple(position.points), (position.bar[0], position.bar[1]), tuple(sorted(dice)),
                 stacked, cube)


def reads_as(seen: Scene, truth: Scene) -> bool:
    """Whether a scene read by vision matches the truth: equal, except that at the points vision
    flags ``stacked`` its count (of the right colour) is a lower bound."""
    if seen.bar != truth.bar or seen.dice != truth.dice or seen.cube != truth.cube:
        return False
    for point in range(1, 25):
        got, want = seen.points[point - 1], truth.points[point - 1]
        if point in seen.stacked and got * want > 0 and abs(got) <= abs(want):
            continue
        if got != want:
            return False
    return True


def _mine(position: Position, player: Player, point: int) -> int:
    count = position.at(point)
    return max(count, 0) if player is Player.WHITE else max(-count, 0)


def _with(position: Position, points: list[int], bar: list[int], off: list[int],
          pool: list[int]) -> Position:
    return dataclasses.replace(position, points=tuple(points), bar=(bar[0], bar[1]), off=(off[0], off[1]),
                               pool=(pool[0], pool[1]), pins=frozenset())


def one_by_one(before: Position, after: Position, player: Player, rng: random.Random) -> list[Position]:
    """The positions on the way from ``before`` to ``after`` moving one of ``player``'s checkers at
    a time (a hit checker goes to the bar with the checker that hits it); the last is ``after``."""
    sign = 1 if player is Player.WHITE else -1
    me, them = int(player), int(player.opponent)
    # Checkers on the bar (or still to enter) come in first, as the rules have it.
    sources: list[int | str] = ["bar"] * max(before.bar[me] - after.bar[me], 0)
    sources += ["pool"] * max(before.pool[me] - after.pool[me], 0)
    targets: list[int | str] = []
    for point in range(1, 25):
        change = _mine(after, player, point) - _mine(before, player, point)
        (targets if change > 0 else sources).extend([point] * abs(change))
    targets += ["off"] * max(after.off[me] - before.off[me], 0)
    targets += ["bar"] * max(after.bar[me] - before.bar[me], 0)
    if not sources and not targets:
        return [after]  # the checkers moved came back where they were (a variant's round trip)
    if len(sources) != len(targets):
        raise ScriptError(f"cannot split {before.to_text()} -> {after.to_text()} into checker moves")
    rng.shuffle(targets)
    hit = [p for p in range(1, 25) if _mine(after, player.opponent, p) < _mine(before, player.opponent, p)]
    points, bar, off, pool = list(before.points), list(before.bar), list(before.off), list(before.pool)
    out = []
    for source, target in zip(sources, targets, strict=True):
        for point in hit:  # the hit checkers go to the bar with the first checker moved
            points[point - 1] = 0
            bar[them] += 1
        hit = []
        if source == "bar":
            bar[me] -= 1
        elif source == "pool":
            pool[me] -= 1
        else:
            points[int(source) - 1] -= sign
        if target == "off":
            off[me] += 1
        elif target == "bar":
            bar[me] += 1
        else:
            points[int(target) - 1] += sign
        out.append(_with(before, points, bar, off, pool))
    if not out or out[-1].points != after.points or out[-1].bar != after.bar or out[-1].off != after.off:
        raise ScriptError(f"checker moves from {before.to_text()} do not reach {after.to_text()}")
    out[-1] = after
    return out


def _distance(board: Position, result: Position, lower_bounds: bool) -> tuple[int, tuple[int, ...]]:
    """Checkers differing between a board and a legal result, and the points where they differ.
    With ``lower_bounds``, a point of the board holding five or more counts as "at least five"."""
    total = abs(board.bar[0] - result.bar[0]) + abs(board.bar[1] - result.bar[1])
    points = []
    for point in range(1, 25):
        got, want = board.at(point), result.at(point)
        if lower_bounds and abs(got) >= 5:
            seen = 5 if got > 0 else -5
            gap = 0 if seen * want > 0 and abs(want) >= 5 else abs(seen - want)
        else:
            gap = abs(got - want)
        if gap:
            total += gap
            points.append(point)
    return total, tuple(points)


def nearest_result(board: Position, plays: Sequence[Play],
                   prefer: Play | None = None) -> tuple[Play, tuple[int, ...]] | None:
    """The legal play whose result is nearest ``board`` (see the module's docstring) and the
    points that differ from it.  Several equally near results are fine when they differ from
    the board on the same points (then ``prefer`` if it is one of them, else the first by
    notation).  ``None`` when the board is a legal result, the nearest results differ on
    different points, one has another bar, or the camera's lower bounds change the points."""
    answer: tuple[Play, tuple[int, ...]] | None = None
    for lower in (False, True):
        scored = [(_distance(board, p.result, lower), p) for p in plays]
        best = min((d for (d, _), _ in scored), default=0)
        if best == 0:
            return None
        nearest = [(points, p) for (d, points), p in scored if d == best]
        points = nearest[0][0]
        if any(other != points or p.result.bar != board.bar for other, p in nearest):
            return None
        if answer is None:
            candidates = [p for _, p in nearest]
            pick = prefer if prefer is not None and prefer in candidates else \
                min(candidates, key=lambda p: p.notation)
            answer = (pick, points)
        elif answer[1] != points:
            return None
    return answer


# -- the script ----------------------------------------------------------------------------

@dataclass
class _Rates:
    illegal: float
    tryout: float
    cocked: float
    void: float
    button: float
    lift: float
    pause: float


class _Script:
    """Beats and truth as they are written."""

    def __init__(self, rng: random.Random, variant: Variant, rates: _Rates) -> None:
        self.rng = rng
        self.variant = variant
        self.rates = rates
        self.beats: list[Beat] = []
        self.truth: list[TruthEvent] = []
        self.counts: Counter[str] = Counter()
        self.position = variant.start_position()
        self.dice: tuple[tuple[str, int, bool], ...] = ()
        self.cube: tuple[int, str] | None = None
        self.owed_illegal = 0

    def scene(self) -> Scene:
        return scene_of(self.position, self.dice, self.cube)

    def still(self, note: str = "") -> int:
        self.beats.append(Still(self.scene(), self.position, HOLD, note))
        return len(self.beats) - 1

    def motion(self, kind: str, *, position: Position | None = None,
               dice: tuple[tuple[str, int, bool], ...] | None = None,
               cube: tuple[int, str] | str | None = "same") -> None:
        """A hand or a throw taking the board to a new state (not still yet)."""
        before, scene_before = self.position, self.scene()
        if position is not None:
            self.position = position
        if dice is not None:
            self.dice = tuple(sorted(dice))
        if cube != "same":
            self.cube = cube  # type: ignore[assignment]
        frames = THROW_FRAMES if kind == "throw" else HAND_FRAMES
        self.beats.append(Motion(kind, before, self.position, scene_before, self.scene(), frames))

    def change(self, kind: str, *, position: Position | None = None,
               dice: tuple[tuple[str, int, bool], ...] | None = None,
               cube: tuple[int, str] | str | None = "same", note: str = "") -> int:
        """A motion to a new state, then the still of it; returns the still's beat number."""
        self.motion(kind, position=position, dice=dice, cube=cube)
        return self.still(note)

    def event(self, beat: int, type_: str, **details: Any) -> None:
        self.truth.append(TruthEvent(beat, Event(type_, "", details)))

    def press(self) -> None:
        self.beats.append(Press(ButtonEvent(Button.END_TURN)))
        self.counts["button"] += 1

    def chance(self, rate: float) -> bool:
        return self.rng.random() < rate


def _dice(player: Player, roll: Roll) -> tuple[tuple[str, int, bool], ...]:
    return ((COLOUR[player], roll.first, False), (COLOUR[player], roll.second, False))


def _cocked(player: Player, roll: Roll, rng: random.Random) -> tuple[tuple[str, int, bool], ...]:
    """The dice of a throw with one of them (either) cocked."""
    first = rng.random() < 0.5
    return ((COLOUR[player], roll.first, first), (COLOUR[player], roll.second, not first))


def _roll(rng: random.Random) -> Roll:
    return Roll(rng.randint(1, 6), rng.randint(1, 6))


def _cube_scene(game: Game) -> tuple[int, str] | None:
    if not game.variant.uses_cube:
        return None
    cube = game.cube
    return (cube.value, "center" if cube.owner is None else COLOUR[cube.owner])


def _race_lead(position: Position, player: Player) -> float:
    # The same pip rule as engine.selfplay's bot: double ahead by 12 %, take unless 25 % behind.
    mine, theirs = position.pip_count(player), position.pip_count(player.opponent)
    return (theirs - mine) / max(mine, 1)


def script_game(
    seed: int,
    *,
    variant: str = "standard",
    match_to: int = 1,
    opening: str = "one-die-each",
    illegal_rate: float = 0.1,
    tryout_rate: float = 0.3,
    cube: bool = True,
    cocked_rate: float = 0.05,
    void_rate: float = 0.03,
    button_rate: float = 0.1,
    lift_rate: float = 0.15,
    pause_rate: float = 0.3,
    setup: str | None = None,
    max_turns: int = 2000,
) -> GameScript:
    """A whole match of self-play as beats and truth (see the module's docstring).

    Rates are per turn: ``illegal_rate`` of turns with a checker to move end on an illegal
    board, ``tryout_rate`` try a checker somewhere and take it back, ``cocked_rate`` of rolls
    land with a die cocked, ``void_rate`` of turns begin with the opponent's dice thrown out of
    turn, ``button_rate`` of turns end (or a take is said) with the end-turn button, and
    ``lift_rate`` of checker moves show the checker lifted first; ``pause_rate`` of checker
    moves are followed by a still.  ``cube=False`` keeps the cube where it is all match.
    ``setup`` is a set-up the players lay out for the first game (position text, as
    ``Position.from_text`` reads it), checked by the variant (Eureka takes any with every
    checker at home; the standard game only its start); later games start from the variant's
    start.
    """
    if variant not in SUPPORTED:
        raise ScriptError(f"variant {variant!r} is not scripted; supported: {', '.join(SUPPORTED)}")
    try:
        rule = OpeningRule(opening)
    except ValueError:
        raise ScriptError(f"opening {opening!r}: want one-die-each or starter-rolls") from None
    for name, rate in (("illegal", illegal_rate), ("tryout", tryout_rate), ("cocked", cocked_rate),
                       ("void", void_rate), ("button", button_rate), ("lift", lift_rate),
                       ("pause", pause_rate)):
        if not 0 <= rate <= 1:
            raise ScriptError(f"{name} rate {rate} is not in 0..1")
    if match_to < 1:
        raise ScriptError(f"match_to {match_to}: a scripted match is to 1 or more points")
    rng = random.Random(seed)
    rules = find_variant(variant)
    s = _Script(rng, rules, _Rates(illegal_rate, tryout_rate, cocked_rate, void_rate, button_rate,
                                   lift_rate, pause_rate))
    match = Match.new(match_to, rule, variant=rules)
    if setup is not None:
        try:
            laid = Game.new(rule, position=Position.from_text(setup), variant=rules)
        except ValueError as err:
            raise ScriptError(f"set-up {setup!r}: {err}") from None
        match = dataclasses.replace(match, game=laid)
        s.position = laid.position
    s.cube = _cube_scene(match.game)
    first = s.still("set-up")
    s.event(first, "match", length=match_to, variant=variant, opening=opening, jacoby=False)
    s.event(first, "game", number=1, score=[0, 0], crawford=False)
    turns = 0
    while not match.is_over:
        turns += 1
        if turns > max_turns:
            raise ScriptError(f"{variant} seed {seed}: no result after {max_turns} turns")
        match = _turn(s, match, cube)
    return GameScript(seed, variant, match_to, opening, tuple(s.beats), tuple(s.truth), dict(s.counts))


def _turn(s: _Script, match: Match, cube: bool) -> Match:
    """One turn from its first throw (or double) to the next player's."""
    game = match.game
    if game.phase is Phase.OPENING:
        return _opening(s, match)
    assert game.turn is not None and game.phase is Phase.ON_ROLL
    player = game.turn
    s.counts["turns"] += 1
    if s.chance(s.rates.void):
        _void(s, player.opponent)
    answer = ""
    live = match.length == 0 or game.cube.value < match.away(player)
    if cube and live and game.can_double(player) and _race_lead(game.position, player) > 0.12:
        match, answer = _double(s, match, player)
        if answer == "drop":
            return match
    roll = _roll(s.rng)
    match, at = _throw(s, match, player, roll, take_with_roll=answer == "take")
    return _play(s, match, player, at)


def _opening(s: _Script, match: Match) -> Match:
    if match.opening is OpeningRule.ONE_DIE_EACH:
        while True:
            white, black = s.rng.randint(1, 6), s.rng.randint(1, 6)
            at = s.change("throw", dice=(("white", white, False), ("black", black, False)))
            starter = None if white == black else ("white" if white > black else "black")
            s.event(at, "opening", white=white, black=black, starter=starter)
            match = match.opening_roll(white=white, black=black)
            if starter is not None:
                break
            s.change("hand", dice=())
        assert match.game.turn is not None
        s.counts["turns"] += 1
        return _play(s, match, match.game.turn, at)
    starter_player = Player(s.rng.randint(0, 1))
    match = match.choose_starter(starter_player)
    s.counts["turns"] += 1
    roll = _roll(s.rng)
    match, at = _throw(s, match, starter_player, roll, starter=True)
    return _play(s, match, starter_player, at)


def _void(s: _Script, thrower: Player) -> None:
    roll = _roll(s.rng)
    at = s.change("throw", dice=_dice(thrower, roll), note="void roll")
    s.event(at, "void-roll", player=COLOUR[thrower], dice=[roll.high, roll.low])
    s.counts["void"] += 1
    s.change("hand", dice=())


def _double(s: _Script, match: Match, player: Player) -> tuple[Match, str]:
    """The double and the answer: the match after it, and ``"button"`` (a take said with the
    end-turn button), ``"take"`` (said by the doubler's roll) or ``"drop"``."""
    old = s.cube
    value = match.game.cube.value * 2
    at = s.change("hand", cube=(value, COLOUR[player.opponent]), note="double")
    s.event(at, "double", player=COLOUR[player], cube=value)
    match = match.double(player)
    taker = player.opponent
    if _race_lead(match.game.position, taker) > -0.25:
        match = match.take(taker)
        if s.chance(s.rates.button):
            s.press()
            s.event(at, "take", player=COLOUR[taker], cube=value)
            return match, "button"
        return match, "take"
    s.change("hand", cube=old, note="drop")
    drop_at = len(s.beats) - 1
    s.event(drop_at, "drop", player=COLOUR[taker], cube=value // 2)
    before = len(match.results)
    match = match.drop(taker)
    _game_over(s, match, before, drop_at)
    return match, "drop"


def _throw(s: _Script, match: Match, player: Player, roll: Roll, *, take_with_roll: bool = False,
           starter: bool = False) -> tuple[Match, int]:
    """The player's dice thrown (a cocked throw first, sometimes); returns the still of the roll.
    The starter's throw and a throw that says a take are never cocked: their dice appearing is
    what names the starter or says the take."""
    if not starter and not take_with_roll and s.chance(s.rates.cocked):
        bad = _roll(s.rng)
        at = s.change("throw", dice=_cocked(player, bad, s.rng), note="cocked")
        s.event(at, "reroll", player=COLOUR[player], dice=[bad.high, bad.low])
        s.counts["cocked"] += 1
        s.motion("hand", dice=())  # picked up and thrown again
    at = s.change("throw", dice=_dice(player, roll), note="roll")
    if take_with_roll:
        s.event(at, "take", player=COLOUR[player.opponent], cube=match.game.cube.value)
    if starter:
        s.event(at, "starter", player=COLOUR[player])
    s.event(at, "roll", player=COLOUR[player], dice=[roll.high, roll.low])
    match = match.roll_dice(player, roll)
    return match, at


def _unsupported(game: Game, what: str) -> ScriptError:
    return ScriptError(f"{game.variant.name}: the turn asks for {what}, which this script does not play")


def _play(s: _Script, match: Match, player: Player, roll_at: int) -> Match:
    """The play of the roll on the board: checker by checker, the dice picked up, the verdict."""
    game = match.game
    if game.asks is not Ask.PLAY:
        raise _unsupported(game, str(game.asks))
    assert game.roll is not None
    roll = game.roll
    dice = [roll.high, roll.low]
    plays = list(game.legal_plays())
    chosen = choose_play(plays, s.rng, game.variant)
    start = s.position
    if not chosen.steps:
        s.event(roll_at, "no-play", player=COLOUR[player], dice=dice)
    else:
        s.counts["plays"] += 1
        if s.chance(s.rates.tryout):
            _tryout(s, player)
        for step in one_by_one(start, chosen.result, player, s.rng):
            _move(s, step, player)
        # An injection that finds no clear illegal board is owed to the next turn, so the rate
        # comes out as asked.
        s.owed_illegal += s.chance(s.rates.illegal)
        wrong = _wrong(s, start, chosen, plays, player) if s.owed_illegal else None
        if wrong is not None:
            s.owed_illegal -= 1
            bad, nearest, points = wrong
            s.change("hand", position=bad, note="illegal")
            at = s.change("hand", dice=(), note="dice picked up")
            s.event(at, "illegal", player=COLOUR[player], dice=dice, points=list(points),
                    nearest=nearest.notation)
            s.counts["illegal"] += 1
            if s.chance(0.5):
                at = s.change("hand", position=chosen.result, note="corrected to the play")
            else:
                at = s.change("hand", position=start, note="corrected to the start")
                s.event(at, "corrected", player=COLOUR[player], to="start")
                s.counts["corrected-start"] += 1
                at = s.change("hand", position=chosen.result, note="played again")
            return _accept(s, match, player, chosen, dice, at)
    if s.dice and s.chance(s.rates.button):
        if not isinstance(s.beats[-1], Still) or s.beats[-1].scene != s.scene():
            s.still()
        at = len(s.beats) - 1
        s.press()
        s.change("hand", dice=(), note="dice picked up after the button")
        return _accept(s, match, player, chosen, dice, at)
    at = s.change("hand", dice=(), note="dice picked up")
    return _accept(s, match, player, chosen, dice, at)


def _accept(s: _Script, match: Match, player: Player, chosen: Play, dice: list[int], at: int) -> Match:
    before = len(match.results)
    game = match.game
    after = match.play(player, chosen)
    if chosen.steps:
        position = chosen.result
        s.event(at, "accepted", player=COLOUR[player], dice=dice, move=chosen.notation,
                position={"points": list(position.points), "bar": list(position.bar),
                          "off": list(position.off)},
                stage=game.progress.stage.text if game.progress is not None else "")
    else:
        s.counts["no-play"] += 1
    if not after.is_over and after.game.phase is Phase.MOVING:
        raise _unsupported(after.game, f"another stage ({after.game.asks})")
    _game_over(s, after, before, at)
    return after


def _game_over(s: _Script, match: Match, before: int, at: int) -> None:
    if len(match.results) == before:
        return
    result = match.results[-1]
    s.event(at, "game-over", winner=COLOUR[result.winner], points=result.points,
            kind=result.kind.name.lower(), cube=result.cube, score=list(match.score))
    if match.is_over:
        winner = match.winner
        assert winner is not None
        s.event(at, "match-over", winner=COLOUR[winner], score=list(match.score))
        return
    s.position = match.game.position
    s.cube = _cube_scene(match.game)
    at = s.change("hand", dice=(), note="set-up")
    s.event(at, "game", number=len(match.results) + 1, score=list(match.score), crawford=match.is_crawford)


def _move(s: _Script, step: Position, player: Player) -> None:
    """One checker moved by hand; sometimes seen lifted first, sometimes a still after."""
    if s.chance(s.rates.lift):
        lifted = [p for p in range(1, 25) if _mine(s.position, player, p) > _mine(step, player, p)]
        if lifted:
            point = s.rng.choice(lifted)
            points = list(s.position.points)
            points[point - 1] -= 1 if player is Player.WHITE else -1
            s.change("hand", position=dataclasses.replace(s.position, points=tuple(points)), note="lifted")
            s.counts["lifted"] += 1
    if s.chance(s.rates.pause):
        s.change("hand", position=step, note="moving")
    else:
        after = scene_of(step, s.dice, s.cube)
        s.beats.append(Motion("hand", s.position, step, s.scene(), after, HAND_FRAMES))
        s.position = step


def _tryout(s: _Script, player: Player) -> None:
    """A checker tried on another point and taken back."""
    sign = 1 if player is Player.WHITE else -1
    sources = [p for p in range(1, 25) if _mine(s.position, player, p)]
    point = s.rng.choice(sources)
    targets = [q for q in range(max(1, point - 6), min(24, point + 6) + 1)
               if q != point and s.position.at(q) * sign >= 0 and abs(s.position.at(q)) < 4]
    if not targets:
        return
    target = s.rng.choice(targets)
    points = list(s.position.points)
    points[point - 1] -= sign
    points[target - 1] += sign
    back = s.position
    s.change("hand", position=dataclasses.replace(back, points=tuple(points)), note="tried")
    s.change("hand", position=back, note="taken back")
    s.counts["tryout"] += 1


def _wrong(s: _Script, start: Position, chosen: Play, plays: list[Play],
           player: Player) -> tuple[Position, Play, tuple[int, ...]] | None:
    """A plausible board that is no legal result: a moved checker one or two points off, or a
    checker left unmoved; ``None`` when no candidate has a clear nearest legal result."""
    sign = 1 if player is Player.WHITE else -1
    result = chosen.result
    candidates: list[Position] = []
    landed = [p for p in range(1, 25) if _mine(result, player, p) > _mine(start, player, p)]
    for point in landed:
        for target in (point - 1, point + 1, point - 2, point + 2):
            if 1 <= target <= 24 and result.at(target) * sign >= 0 and abs(result.at(target)) < 5:
                points = list(result.points)
                points[point - 1] -= sign
                points[target - 1] += sign
                candidates.append(dataclasses.replace(result, points=tuple(points)))
    steps = one_by_one(start, result, player, random.Random(s.rng.random()))
    candidates += steps[:-1]
    s.rng.shuffle(candidates)
    legal = {p.result for p in plays}
    for board in candidates:
        if board == start or board in legal or board.points == start.points:
            continue
        found = nearest_result(board, plays, chosen)
        if found is not None:
            return board, found[0], found[1]
    return None


# -- rendering -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Frame:
    """One rendered frame: its name, the image, the scene if the board is still (else ``None``)
    and the beat it belongs to."""

    name: str
    image: Any
    truth: Scene | None
    beat: int


def _union(positions: Sequence[Position]) -> Position:
    """A board with, on each point, the most checkers any of ``positions`` has there (the places
    dice must stay clear of)."""
    points = tuple(max((abs(p.at(point)) for p in positions), default=0) for point in range(1, 25))
    bar = tuple(max((p.bar[side] for p in positions), default=0) for side in (0, 1))
    return Position(points, bar=(bar[0], bar[1]))


def _landings(script: GameScript, rng: random.Random, style: Style) -> list[Any]:
    """Per beat, where its lying dice are: the same spots from a throw until the pick-up, clear
    of every checker the board holds on the way (for a hand, the dice before it)."""
    from vision import synthetic

    beats = script.beats
    out: list[Any] = [None] * len(beats)

    def lying(first: int, dice: tuple[tuple[str, int, bool], ...]) -> Any:
        held: list[Position] = []
        for later in beats[first:]:
            if isinstance(later, Press):
                continue
            if isinstance(later, Still):
                if later.scene.dice != dice:
                    break
                held.append(later.position)
                continue
            if later.kind == "throw":
                break
            if later.scene_before.dice == dice:
                held.append(later.before)
            if later.scene_after.dice != dice:
                break
            held.append(later.after)
        return synthetic.landing_spots(_union(held), _specs(dice), rng, style)

    current: tuple[tuple[str, int, bool], ...] = ()
    spots: Any = None
    for i, beat in enumerate(beats):
        if isinstance(beat, Press):
            continue
        if isinstance(beat, Motion):
            if beat.kind == "throw":
                current, spots = (), None
                continue
            out[i] = spots if beat.scene_before.dice == current else None
            if beat.scene_after.dice != current:
                current, spots = beat.scene_after.dice, None
            continue
        if beat.scene.dice != current or (current and spots is None):
            current = beat.scene.dice
            spots = lying(i, current) if current else None
        out[i] = spots
    return out


def _specs(dice: Sequence[tuple[str, int, bool]]) -> tuple[Any, ...]:
    from vision.synthetic import DieSpec

    return tuple(DieSpec(value, Player.WHITE if colour == "white" else Player.BLACK, cocked)
                 for colour, value, cocked in dice)


def _cube_spec(cube: tuple[int, str] | None) -> Any:
    from vision.synthetic import CubeSpec

    if cube is None:
        return None
    value, place = cube
    return CubeSpec(64 if value == 1 else value, place)


class GameRenderer:
    """Frames of one script under one mount and lamp (a `vision.sequence.SequenceMaker`)."""

    def __init__(self, seed: int, size: tuple[int, int] = (1280, 960)) -> None:
        import numpy as np

        from vision.sequence import SequenceMaker

        self.maker = SequenceMaker(seed, size)
        self.size = size
        # Sensor noise from a few fields drawn once: drawing a frame's worth per frame cost more
        # than the rest of the drawing.
        noise = np.random.default_rng(self.maker.rng.randrange(2**31))
        shape = (size[1], size[0], 3)
        self.noise = [np.round(noise.normal(0, self.maker.noise, shape)).astype(np.int16) for _ in range(6)]
        self.cube_poses: dict[tuple[int, str], tuple[float, float, float]] = {}

    def frame(self, position: Position, scene: Scene, seed: int, *, hand: bool = False,
              landing: Any = None) -> Any:
        import numpy as np

        from vision import synthetic

        maker = self.maker
        style = dataclasses.replace(maker.style, hand=hand)
        dice = _specs(scene.dice)
        cube = _cube_spec(scene.cube)
        pose = None
        if scene.cube is not None and cube is not None:
            # The cube stays where it was put until a hand turns it or moves it.
            if scene.cube not in self.cube_poses:
                placing = random.Random(maker.rng.randrange(2**31))
                self.cube_poses[scene.cube] = synthetic.cube_pose(cube, placing)
            pose = self.cube_poses[scene.cube]
        image, _ = synthetic.render(position, random.Random(seed), self.size, style, maker.mount, dice, cube,
                                    landing if dice else None, pose)
        noise = self.noise[maker.rng.randrange(len(self.noise))]
        return np.clip(image.astype(np.int16) + noise, 0, 255).astype(np.uint8)

    def start(self, cube: tuple[int, str] | None = None) -> Any:
        """The calibration frame: the standard start, no dice, and by default no cube (with the
        cube centred, calibration refused one mount in ten tried: "something is over the board")."""
        start = Position.start()
        return self.frame(start, scene_of(start, (), cube), seed=0)


def render_script(script: GameScript, seed: int, size: tuple[int, int] = (1280, 960), *,
                  stills: bool = False) -> Iterator[Frame]:
    """Every frame of the script (``stills``: one per `Still` beat, named ``00001``, ``00002``, ...;
    else every frame of every beat, named by their index from 0)."""
    renderer = GameRenderer(seed, size)
    rng = renderer.maker.rng
    landings = _landings(script, random.Random(seed + 1), renderer.maker.style)
    index = 0
    still_number = 0
    for i, beat in enumerate(script.beats):
        if isinstance(beat, Press):
            continue
        if isinstance(beat, Still):
            still_number += 1
            at = rng.randrange(2**31)
            for _ in range(1 if stills else beat.hold):
                name = f"{still_number:05d}" if stills else str(index)
                yield Frame(name, renderer.frame(beat.position, beat.scene, at, landing=landings[i]),
                            beat.scene, i)
                index += 1
            continue
        if stills:
            continue
        for k in range(beat.frames):
            late = k >= beat.frames // 2
            position, scene = (beat.after, beat.scene_after) if late else (beat.before, beat.scene_before)
            if beat.kind == "throw":
                tumbling = tuple((c, rng.randint(1, 6), cocked) for c, _, cocked in beat.scene_after.dice)
                shown = scene_of(beat.before, tumbling, scene.cube)
                image = renderer.frame(beat.before, shown, rng.randrange(2**31))
            else:
                image = renderer.frame(position, scene, rng.randrange(2**31), hand=True, landing=landings[i])
            yield Frame(str(index), image, None, i)
            index += 1


def scenes(script: GameScript, ext: str = ".jpg") -> Iterator[tuple[str, Scene, tuple[ButtonEvent, ...]]]:
    """The stills as a referee would get them from a perfect camera, without drawing anything:
    (frame name as `write_stills` names it, scene, the buttons pressed right after it).  For
    testing the referee apart from vision."""
    names = _still_names(script, ext)
    pending: tuple[str, Scene] | None = None
    presses: list[ButtonEvent] = []
    for i, beat in enumerate(script.beats):
        if isinstance(beat, Press):
            presses.append(beat.button)
        elif isinstance(beat, Still):
            if pending is not None:
                yield (*pending, tuple(presses))
            pending, presses = (names[i], beat.scene), []
    if pending is not None:
        yield (*pending, tuple(presses))


# -- writers -------------------------------------------------------------------------------

def _still_names(script: GameScript, suffix: str) -> dict[int, str]:
    return {beat: f"{n:05d}{suffix}" for n, beat in enumerate(script.stills, start=1)}


def truth_lines(script: GameScript, names: dict[int, str]) -> list[dict[str, Any]]:
    """The truth events as JSON objects, ``frame`` named by ``names`` (beat -> frame name)."""
    return [{**Event(t.event.type, names[t.beat], t.event.details).to_json(), "beat": t.beat}
            for t in script.truth]


def button_lines(script: GameScript, names: dict[int, str]) -> list[dict[str, Any]]:
    """``{"frame", "button"}`` per press: the frame of the still the press follows."""
    out = []
    last = None
    for i, beat in enumerate(script.beats):
        if isinstance(beat, Still):
            last = i
        elif isinstance(beat, Press):
            assert last is not None
            out.append({"frame": names[last], "button": beat.button.button.value})
    return out


def _jsonl(path: Path, lines: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def write_stills(script: GameScript, folder: Path | str, seed: int | None = None,
                 size: tuple[int, int] = (1280, 960), ext: str = ".jpg") -> Path:
    """``folder/start.png`` (the calibration frame, lossless), ``folder/frames/00001.jpg``... one
    per still (``ext`` ".png" for lossless) with ``folder/frames/buttons.jsonl``, and
    ``folder/truth.jsonl``; returns the frames folder."""
    import cv2

    folder = Path(folder)
    frames = folder / "frames"
    frames.mkdir(parents=True, exist_ok=True)
    seed = script.seed if seed is None else seed
    renderer = GameRenderer(seed, size)
    cv2.imwrite(str(folder / "start.png"), renderer.start())
    for frame in render_script(script, seed, size, stills=True):
        # JPEG as a camera gives it: a PNG of a noisy 1280x960 frame is ~2 MB, this ~0.3 MB.
        cv2.imwrite(str(frames / f"{frame.name}{ext}"), frame.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    names = _still_names(script, ext)
    _jsonl(frames / "buttons.jsonl", button_lines(script, names))
    _jsonl(folder / "truth.jsonl", truth_lines(script, names))
    return frames


def write_video(script: GameScript, path: Path | str, seed: int | None = None,
                size: tuple[int, int] = (1280, 960), fps: float = 30.0) -> Path:
    """Every frame as MJPG in ``path`` (.avi), the calibration frame beside it (``*.start.png``),
    and ``*.truth.jsonl`` / ``*.buttons.jsonl`` with frame indices (a still's first frame)."""
    import cv2

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    seed = script.seed if seed is None else seed
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), fps, size)
    writer.set(cv2.VIDEOWRITER_PROP_QUALITY, 90)
    if not writer.isOpened():
        raise OSError(f"cannot write a video to {path}")
    first: dict[int, str] = {}
    last: dict[int, str] = {}
    try:
        for frame in render_script(script, seed, size):
            writer.write(frame.image)
            first.setdefault(frame.beat, frame.name)
            last[frame.beat] = frame.name
    finally:
        writer.release()
    start = GameRenderer(seed, size).start()
    cv2.imwrite(str(path.with_suffix(".start.png")), start)
    _jsonl(path.with_suffix(".truth.jsonl"), truth_lines(script, first))
    _jsonl(path.with_suffix(".buttons.jsonl"), button_lines(script, last))
    return path


def write_calibrated(script: GameScript, folder: Path | str, size: tuple[int, int] = (1280, 960),
                     mounts: int = 4) -> tuple[Path, Any, int]:
    """`write_stills` under the first camera mount whose start frame calibrates, as a user moves
    the camera until `pipgammon calibrate` accepts it.  Returns the frames folder, the
    calibration and how many mounts were refused first."""
    from vision.calibration import CalibrationError, calibrate
    from vision.images import load
    from vision.outline import OutlineError, find_corners

    folder = Path(folder)
    for refused in range(mounts):
        frames = write_stills(script, folder, seed=script.seed + refused * 1_000_000, size=size)
        start = load(folder / "start.png")
        try:
            return frames, calibrate(start, find_corners(start)), refused
        except (CalibrationError, OutlineError):
            continue
    raise ScriptError(f"seed {script.seed}: calibration refused {mounts} camera mounts in a row")
