"""The referee: a state machine fed stable scenes and button presses, giving events and lights.

Event sourcing is the design.  :meth:`Referee.see` and :meth:`Referee.press` only
*decide* which events happen, from the state and the input; :meth:`Referee.apply` is
the one place the state changes, one event at a time.  So a journal of events is the
whole match: :meth:`Referee.resume` replays it into a fresh referee, which is then in
the state the crashed one was in.  What is not an event (which checker is lifted, the
scenes seen during a turn, whether a die already read still lies on the board) lives
beside that state, only steers the lights and the choice among legal results, and is
rebuilt by the next stable scene.

The physical game as the camera sees it (docs/referee.md, and the synthetic game
videos follow the same contract): dice of a player's colour are that player's roll;
the cube moved to the opponent's side showing twice its value is a double; the dice
picked up (or the end-turn button) end a turn, and only then is the board judged
against the legal results of the roll.

>>> from engine.scene import Scene
>>> from engine.position import Position
>>> ref = Referee()
>>> [e.type for e in ref.start()]
['match', 'game']
>>> [e.type for e in ref.see(Scene.of(Position.start(), dice=(("white", 3, False), ("black", 1, False))))]
['opening']
>>> ref.status
'White to play 3-1'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from engine.buttons import Button, ButtonEvent, Press
from engine.dice import Roll
from engine.errors import EngineError, IllegalActionError
from engine.events import Event
from engine.game import Game, OpeningRule, Phase
from engine.gnubg_id import position_id
from engine.lights import AMBER, BLUE, GREEN, RED, WHITE, Light, LightPlan
from engine.match import Match
from engine.movegen import LegalPlays
from engine.play import Play
from engine.player import Player
from engine.position import Position
from engine.scene import Scene
from engine.step import own_point
from engine.turn import Ask
from engine.variants import STANDARD, Variant, find_variant
from engine.wording import illegal_places, own_places


class Mode(Enum):
    PLAY = "play"  #: verdicts and errors, no teaching lights
    TEACH = "teach"  #: also light the points that can move and a lifted checker's destinations
    RECORD = "record"  #: record only: every lamp dark but the turn lamps and the status


class OpeningChoice(Enum):
    AUTO = "auto"  #: whichever the first dice show: one of each colour, or two of one
    ONE_DIE_EACH = "one-die-each"
    STARTER_ROLLS = "starter-rolls"


@dataclass(frozen=True, slots=True)
class RefereeConfig:
    variant: Variant = STANDARD
    match_to: int = 1
    opening: OpeningChoice = OpeningChoice.AUTO
    jacoby: bool = False
    mode: Mode = Mode.PLAY


#: Events after which the referee's view of the turn goes on: the boards seen since the roll and
#: the checker lifted, which scenes build and no event holds (`Referee.resume` starts with none).
#: A replay resumed after them reads again from the frame of the event before them, so the scenes
#: build that view again: resumed after an illegal play, a referee that had not seen the turn took
#: the next board for a checker still lifted, and waited where the run had flagged it again
#: (referee bench game 2, frame 46).
TURN_GOES_ON = frozenset({"illegal", "mode", "void-roll", "reroll"})


class RefereeError(EngineError):
    """An event that cannot be applied to the referee's state (a damaged or foreign journal)."""


_MODES = (Mode.PLAY, Mode.TEACH, Mode.RECORD)
#: What the camera can tell apart: the 24 points and the bar (pools, pins, towers and the
#: checkers off are beside the board or underneath).
Visible = tuple[tuple[int, ...], tuple[int, int]]


def _visible(position: Position) -> Visible:
    return (position.points, position.bar)


def _scene_visible(scene: Scene) -> Visible:
    return (scene.points, scene.bar)


def _fit(scene: Scene, position: Position) -> tuple[bool, int]:
    """Whether ``position`` can be what ``scene`` shows, and how many checkers it hides.

    At ``scene.stacked`` points the count seen is a lower bound (a second layer the camera
    cannot count); at ``scene.unsure`` points it may be one off either way (a count read
    with low confidence).  The checkers hidden so rank the positions that fit: one that
    fits exactly is always preferred."""
    if scene.bar != position.bar:
        return False, 0
    hidden = 0
    for index, (seen, real) in enumerate(zip(scene.points, position.points, strict=True)):
        if seen != real:
            off = _read_off(scene, index + 1, seen, real)
            if not off:
                return False, 0
            hidden += off
    return True, hidden


def _read_off(scene: Scene, point: int, seen: int, real: int) -> int:
    """How many checkers ``scene`` may have misread at ``point`` where it shows ``seen`` and
    the board has ``real`` (0: the difference is real)."""
    if point in scene.unsure and seen * real >= 0 and abs(real - seen) == 1:
        return 1
    return _stack_hides(scene, point, seen, real)


def _stack_hides(scene: Scene, point: int, seen: int, real: int) -> int:
    """How many checkers a second layer at a ``stacked`` point can hide from ``seen``."""
    if point in scene.stacked and seen * real > 0 and abs(real) > abs(seen):
        return abs(real) - abs(seen)
    return 0


def _difference(scene: Scene, position: Position) -> tuple[int, list[int], bool]:
    """Checkers differing, the points that differ, and whether the bar differs.  (A point read
    unsure that differs is still shown: the board is not legal anyway, and the camera's best
    reading is that it differs.)"""
    checkers = 0
    points = []
    for index, (seen, real) in enumerate(zip(scene.points, position.points, strict=True)):
        if seen == real or _stack_hides(scene, index + 1, seen, real):
            continue
        points.append(index + 1)
        checkers += abs(seen - real) if seen * real >= 0 else abs(seen) + abs(real)
    bar = scene.bar != position.bar
    checkers += abs(scene.bar[0] - position.bar[0]) + abs(scene.bar[1] - position.bar[1])
    return checkers, points, bar


def _lifted_from(placed: Visible, seen: Visible) -> int | str | None:
    """The point (or ``"bar"``) one checker was lifted from, if ``seen`` is ``placed`` minus one."""
    diffs = [i for i in range(24) if placed[0][i] != seen[0][i]]
    if seen[1] != placed[1]:
        if diffs:
            return None
        gone = [p for p in (0, 1) if placed[1][p] - seen[1][p] == 1]
        if len(gone) == 1 and placed[1][1 - gone[0]] == seen[1][1 - gone[0]]:
            return "bar"
        return None
    if len(diffs) != 1:
        return None
    i = diffs[0]
    before, after = placed[0][i], seen[0][i]
    if (before > 0 and after == before - 1) or (before < 0 and after == before + 1):
        return i + 1
    return None


def _further(other: Position, this: Position, mover: Player, track: tuple[int, ...]) -> bool:
    """Whether ``other`` could be ``this`` with some of ``mover``'s checkers moved on (so
    ``this`` may be a move half made).  Compares, for each distance from home, how many of
    the mover's checkers are at least that close (borne off counts closest)."""
    if other == this:
        return False
    sign = 1 if mover is Player.WHITE else -1
    near_other, near_this = other.off[mover], this.off[mover]
    ahead = near_other > near_this
    if near_other < near_this:
        return False
    for point in track:
        near_other += max(other.points[point - 1] * sign, 0)
        near_this += max(this.points[point - 1] * sign, 0)
        if near_other < near_this:
            return False
        ahead = ahead or near_other > near_this
    return ahead


def _position_json(position: Position) -> dict[str, Any]:
    return {
        "points": list(position.points),
        "bar": {"white": position.bar[0], "black": position.bar[1]},
        "off": {"white": position.off[0], "black": position.off[1]},
    }


@dataclass(frozen=True, slots=True)
class _Step:
    """One part of a turn's line: a chosen doublet, or a stage played."""

    player: Player
    doublet: int = 0
    play: Play | None = None
    stage: str = ""


@dataclass(frozen=True, slots=True)
class _Line:
    """A way to play the stages from the turn's start to its end: steps, and the last play
    (made from ``base``, computed only for the line chosen: checking a play re-generates
    the legal plays)."""

    steps: tuple[_Step, ...]
    base: Match
    last: Play

    @property
    def result(self) -> Position:
        return self.last.result

    @property
    def moves(self) -> str:
        return "; ".join(s.play.notation or "-" if s.play is not None else f"{s.doublet}x{s.doublet}"
                         for s in self.steps)


class Referee:
    """Referees one match.  See the module docstring; docs/referee.md for users."""

    def __init__(self, config: RefereeConfig = RefereeConfig()) -> None:
        self.config = config
        # -- the event-sourced state (changed only in apply) --
        self._match = Match.new(config.match_to, _rule(config.opening), jacoby=config.jacoby,
                                variant=config.variant)
        self._mode = config.mode
        self._events: list[Event] = []
        self._started = False
        self._games = 0
        self._awaiting_setup = False
        self._illegal: Event | None = None
        self._replay = False  # after "corrected" to the start or an undo: play again
        self._verdict: Event | None = None  # the last accepted / no-play, until the next roll
        self._undo_to: Match | None = None
        #: The match before the last roll was read: a rethrow goes back to it.
        self._before_roll: Match | None = None
        self._undo_before_roll: Match | None = None  # `_before_roll` as it was at `_undo_to`
        #: The values of the player on roll's dice last called cocked: the roll the players
        #: play if they carry on as if the dice were flat.
        self._cocked_call: tuple[int, int] | None = None
        self._undo_player: Player | None = None
        self._judged = False  # a verdict of this roll was given (the undo snapshot is taken)
        self._roll_dice: tuple[tuple[str, int], ...] = ()
        self._opening_dice: tuple[int, int] | None = None  # the one-die-each opening being played
        # -- rebuilt by scenes: dice read and still on the board, dice to ignore --
        self._in_use: dict[str, tuple[int, ...]] = {"white": (), "black": ()}
        # The dice each void roll or re-roll call still lying named, the latest last: a void roll
        # still lying when the player's throw was cocked was freed by the re-roll call, void
        # again, and the two calls took turns twelve times a scene.
        self._ignored: tuple[tuple[tuple[str, int, bool], ...], ...] = ()
        # -- transient: only lights, status and the choice among legal results --
        self._scene: Scene | None = None
        self._placed: Visible | None = None
        self._lifted: int | str | None = None
        self._flagged: Scene | None = None  # the scene an illegal verdict was given on
        self._trajectory: set[Visible] = set()
        self._trajectory_of: Match | None = None
        self._note = ""  # amber remark (a die of no colour, a cube that may not move)
        self._plays_of: tuple[Match, list[Play]] | None = None

    # -- public ------------------------------------------------------------------

    @property
    def match(self) -> Match:
        return self._match

    @property
    def mode(self) -> Mode:
        return self._mode

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    def start(self, frame: str = "") -> list[Event]:
        """A new match: the ``match`` event and the first ``game``."""
        out: list[Event] = []
        self._emit(out, "match", frame, length=self.config.match_to, variant=self.config.variant.name,
                   opening=self.config.opening.value, jacoby=self.config.jacoby)
        self._emit_game(out, frame)
        return out

    @classmethod
    def resume(cls, config: RefereeConfig, events: Iterable[Event]) -> Referee:
        """A referee in the state the journal ``events`` leads to (after a crash)."""
        referee = cls(config)
        last: Event | None = None
        calls: list[Event] = []  # the void rolls and re-roll calls that set `_ignored`
        for event in events:
            referee.apply(event)
            last = event
            if event.type in ("void-roll", "reroll"):
                calls.append(event)
        # Which dice still lie on the board was learnt from scenes, not events: a roll whose
        # turn ended may have been picked up since.  Only the roll being played is surely
        # still there; any other die seen next is new (a roll again of the same numbers).
        # The roll being played is the mover's dice, and after a one-die-each opening the
        # opponent's die too (`_roll_dice`): taken for new, that die was a roll out of turn, and
        # the demo's game could not be resumed at White's opening play.
        game = referee._match.game
        playing: set[str] = set()
        if game.phase is Phase.MOVING and game.progress is not None:
            playing = {game.progress.player.label, *(colour for colour, _ in referee._roll_dice)}
        referee._in_use = {colour: dice if colour in playing else ()
                           for colour, dice in referee._in_use.items()}
        # Dice said to be void or thrown again stay ignored while they lie there, which only
        # scenes tell.  Once a later frame decided anything they may have been picked up, and a
        # void roll many turns back must not make the same numbers, thrown again, void too.
        lying = sum(1 for call in calls if last is not None and call.frame == last.frame)
        referee._ignored = referee._ignored[len(referee._ignored) - lying:] if lying else ()
        return referee

    def see(self, scene: Scene, frame: str = "") -> list[Event]:
        """Decide what one stable scene means; the events decided have been applied."""
        out: list[Event] = []
        self._note = ""
        self._track_dice(scene)
        self._settle(scene, frame, out)
        self._scene = scene
        return out

    def press(self, button: ButtonEvent, frame: str = "") -> list[Event]:
        """Decide what a button press means: end-turn (judge the board, or take a double; held
        long, overrule the referee), take-back (undo the last play until the opponent rolls),
        mode (play, teach, record)."""
        out: list[Event] = []
        game = self._match.game
        if button.button is Button.MODE:
            following = _MODES[(_MODES.index(self._mode) + 1) % len(_MODES)]
            self._emit(out, "mode", frame, mode=following.value)
        elif button.button is Button.TAKE_BACK:
            if self._undo_to is not None and self._undo_player is not None:
                self._emit(out, "undo", frame, player=self._undo_player.label)
            else:
                self._note = "nothing to take back"
        elif button.press is Press.LONG and self._overrule(frame, out):
            pass
        elif self._started and not self._match.is_over and not self._awaiting_setup:
            if game.phase is Phase.DOUBLED and game.turn is not None:
                self._emit(out, "take", frame, player=game.turn.opponent.label, cube=game.cube.value * 2)
            elif self._is_playing() and self._scene is not None:
                if _fit(self._scene, game.position)[0] and self._illegal is None:
                    self._note = "nothing has moved yet"  # a press before the first checker moves
                else:
                    self._judge(self._scene, frame, out, by="button", final=True)
            if self._scene is not None:
                self._settle(self._scene, frame, out)
        return out

    def _overrule(self, frame: str, out: list[Event]) -> bool:
        """End-turn held long: the players overrule the referee where the camera can be wrong.
        A play flagged illegal is recorded as when the players carry on (`_go_on`: the roll that
        fits the board, else the nearest legal result; ``by: overruled``); dice called cocked
        are taken as they lie (``roll`` with ``source: overruled``).
        False when there is nothing to overrule (the press is then an ordinary end-turn)."""
        game = self._match.game
        if not self._started or self._match.is_over or self._awaiting_setup:
            return False
        if self._illegal is not None and game.asks is Ask.PLAY and self._scene is not None \
                and self._go_on(self._scene, frame, out, "overruled"):
            return True
        if game.phase is Phase.ON_ROLL and self._cocked_call is not None and game.turn is not None:
            self._emit(out, "roll", frame, player=game.turn.label, dice=list(self._cocked_call),
                       source="overruled")
            if self._scene is not None:
                self._settle(self._scene, frame, out)
            return True
        return False

    # -- event sourcing ------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Change the state by one event: the only place the state changes.  Trusts the kind
        of each key: the referee wrote the event, or :meth:`Event.from_json` checked it."""
        try:
            self._apply(event)
        except (EngineError, KeyError, TypeError) as err:
            raise RefereeError(f"cannot apply {event.type} event {dict(event.details)!r} "
                               f"(frame {event.frame!r}): {err}") from err
        self._events.append(event)

    def _apply(self, event: Event) -> None:
        d = event.details
        kind = event.type
        match = self._match
        game = match.game
        before_roll = self._before_roll
        if kind not in ("roll", "rethrow", "void-roll", "reroll", "mode", "illegal", "corrected"):
            # Only a roll nothing was accepted on can be taken back: thrown again before a checker
            # moved, or found misread when the players carry on past an illegal verdict (or, once
            # an undo has taken its play back, past a no-play said on a misread roll).
            self._before_roll = None
        if kind == "match":
            variant = find_variant(str(d["variant"]))
            opening = _rule(OpeningChoice(d["opening"]))
            jacoby = bool(d.get("jacoby", False))
            self._match = Match.new(int(d["length"]), opening, jacoby=jacoby, variant=variant)
            # The journal's match, not the caller's config, says how this match is played.
            self.config = replace(self.config, variant=variant, match_to=int(d["length"]),
                                  opening=OpeningChoice(d["opening"]), jacoby=jacoby)
            self._started, self._games, self._awaiting_setup = True, 0, False
            self._reset_turn()
            return
        if not self._started:
            raise RefereeError(f"a {kind} event before the match event")
        if kind == "game":
            self._games = int(d["number"])
            self._awaiting_setup = False
            self._reset_turn()
            self._undo_to = None
        elif kind == "mode":
            self._mode = Mode(d["mode"])
        elif kind == "opening":
            white, black = int(d["white"]), int(d["black"])
            self._match = match.opening_roll(white=white, black=black)
            self._in_use = {"white": (white,), "black": (black,)}
            self._roll_dice = (("white", white), ("black", black))
            self._new_roll()
            self._opening_dice = (white, black)
        elif kind == "starter":
            if game.opening is not OpeningRule.STARTER_ROLLS:  # auto: the dice named the rule
                match = replace(match, game=replace(game, opening=OpeningRule.STARTER_ROLLS))
            self._match = match.choose_starter(Player.from_label(d["player"]))
        elif kind == "roll":
            player = Player.from_label(d["player"])
            dice = [int(v) for v in d["dice"]]
            self._before_roll = match
            self._match = match.roll_dice(player, Roll(dice[0], dice[1]))
            if d.get("source", "dice") not in ("fixed", "inferred"):
                self._in_use[player.label] = tuple(sorted(dice))
                self._roll_dice = tuple((player.label, v) for v in dice)
            else:
                self._roll_dice = ()
            self._new_roll()
        elif kind == "announce":
            player = Player.from_label(d["player"])
            dice = [int(v) for v in d["dice"]]
            self._match = match.announce(player, Roll(dice[0], dice[1]))
            self._in_use[player.label] = tuple(sorted(dice))
            # After a one-die-each opening the announcer's opening die is theirs again.
            self._roll_dice = tuple(die for die in self._roll_dice if die[0] != player.label)
        elif kind == "doublet":
            self._snapshot(match, before_roll)
            self._match = match.choose_doublet(Player.from_label(d["player"]), int(d["value"]))
        elif kind in ("accepted", "no-play"):
            self._snapshot(match, before_roll)
            player = Player.from_label(d["player"])
            if kind == "accepted":
                play = _find_play(game.legal_plays(), str(d["move"]), d.get("position"))
                self._undo_player = player
            else:
                plays = list(game.legal_plays())
                if any(p.steps for p in plays):
                    raise IllegalActionError(f"no-play for {player.label}, but it can move")
                play = plays[0]
            self._match = match.play(player, play)
            self._illegal = None
            if kind == "accepted":
                self._replay = False  # (a stage with no play leaves a replay going)
            self._verdict = event
            if d.get("by") == "dice":
                for colour, value in self._roll_dice:
                    _remove(self._in_use, colour, value)
        elif kind == "illegal":
            self._illegal = event
        elif kind == "corrected":
            self._illegal = None
            self._replay = d["to"] == "start"
        elif kind == "rethrow":
            if self._before_roll is None:
                raise IllegalActionError("a rethrow with no roll to throw again")
            self._match, self._before_roll = self._before_roll, None
            self._reset_turn()
        elif kind in ("void-roll", "reroll"):
            seen = d.get("seen") or [[d["player"], v, False] for v in d["dice"]]
            self._ignored = (*self._ignored, tuple(sorted((str(c), int(v), bool(k)) for c, v, k in seen)))
            values = [int(v) for c, v, _ in seen if c == d["player"]]
            if kind == "reroll" and game.phase is Phase.ON_ROLL and game.turn is not None \
                    and game.turn.label == d["player"] and len(values) == 2:
                self._cocked_call = (max(values), min(values))
        elif kind == "double":
            self._match = match.double(Player.from_label(d["player"]))
            self._undo_to = None
            self._verdict = None
        elif kind == "take":
            self._match = match.take(Player.from_label(d["player"]))
        elif kind == "drop":
            self._match = match.drop(Player.from_label(d["player"]))
        elif kind == "undo":
            if self._undo_to is None:
                raise IllegalActionError("nothing to take back")
            self._match, self._before_roll = self._undo_to, self._undo_before_roll
            self._undo_to = self._undo_player = self._undo_before_roll = None
            self._judged = False
            self._awaiting_setup = False
            self._illegal = None
            self._verdict = None
            self._replay = True
        elif kind == "game-over":
            self._awaiting_setup = not match.is_over
        elif kind == "match-over":
            self._awaiting_setup = False

    def _snapshot(self, match: Match, before_roll: Match | None) -> None:
        """Before the first verdict of a roll: the state a take-back returns to."""
        if not self._judged:
            self._undo_to, self._undo_before_roll = match, before_roll
            self._judged = True

    def _new_roll(self) -> None:
        self._opening_dice = None
        self._illegal = None
        self._replay = False
        self._verdict = None
        self._undo_to = self._undo_player = self._undo_before_roll = None
        self._judged = False
        self._cocked_call = None

    def _reset_turn(self) -> None:
        self._new_roll()
        self._roll_dice = ()
        self._in_use = {"white": (), "black": ()}
        self._ignored = ()

    def _emit(self, out: list[Event], kind: str, frame: str, /, **details: Any) -> None:
        event = Event(kind, frame, details)
        self.apply(event)
        out.append(event)

    def _emit_game(self, out: list[Event], frame: str) -> None:
        match = self._match
        self._emit(out, "game", frame, number=self._games + 1, score=list(match.score),
                   crawford=match.is_crawford)

    # -- deciding ------------------------------------------------------------------

    def _track_dice(self, scene: Scene) -> None:
        """Forget dice read earlier that are no longer on the board.

        Each side has one pair of dice.  So while a colour shows some of the dice read
        earlier and nothing else, those are the old dice (being picked up); any other
        value of that colour means the pair was thrown again, and all of it is new."""
        for colour in ("white", "black"):
            seen = Counter(v for c, v, _ in scene.dice if c == colour)
            old = Counter(self._in_use[colour])
            if all(old[value] >= count for value, count in seen.items()):
                self._in_use[colour] = tuple(sorted(seen.elements()))
            else:
                self._in_use[colour] = ()
        # A call's dice are forgotten once any of them is picked up: thrown again, the same
        # numbers are a new throw.
        self._ignored = tuple(called for called in self._ignored if _contains(scene.dice, called))

    def _new_dice(self, scene: Scene) -> list[tuple[str, int, bool]]:
        """The dice on the board not read yet and not being ignored."""
        used = Counter({(c, v): 0 for c, v, _ in scene.dice})
        for colour, values in self._in_use.items():
            for value in values:
                used[(colour, value)] += 1
        ignored = Counter(die for called in self._ignored for die in called)
        fresh = []
        for die in scene.dice:
            if ignored[die] > 0:
                ignored[die] -= 1
            elif used[(die[0], die[1])] > 0:
                used[(die[0], die[1])] -= 1
            else:
                fresh.append(die)
        return fresh

    def _settle(self, scene: Scene, frame: str, out: list[Event]) -> None:
        """Decide until the scene says nothing more (a take, then the roll it came with, ...)."""
        for _ in range(12):  # a scene can carry a few steps, never a dozen
            if not self._step(scene, frame, out):
                break

    def _step(self, scene: Scene, frame: str, out: list[Event]) -> bool:
        """Handle the scene in the current state; True when an event was decided."""
        if not self._started or self._match.is_over:
            return False
        game = self._match.game
        if self._awaiting_setup:
            if not scene.dice and _fit(scene, game.position)[0]:
                self._emit_game(out, frame)
                return True
            return False
        fresh = self._new_dice(scene)
        if any(c == "other" for c, _, _ in fresh):
            self._note = "a die of unknown colour: whose is it?"
            fresh = []
        if game.phase is Phase.OPENING:
            return self._opening(fresh, frame, out)
        if game.fixed is not None:
            fresh = []  # fixed roll: the dice were read once, at the opening
        assert game.turn is not None
        player = game.turn
        if game.phase is Phase.ON_ROLL:
            if game.fixed is not None or game.announced is not None:
                roll = game.fixed or game.announced
                assert roll is not None
                source = "fixed" if game.fixed is not None else "announced"
                self._emit(out, "roll", frame, player=player.label, dice=[roll.first, roll.second],
                           source=source)
                return True
            if self._cube_moved(scene, player, frame, out):
                return True
            if self._moved_after_no_play(player, scene, fresh, frame, out) \
                    or self._cocked_overruled(player, scene, fresh, frame, out):
                return True
            if self._missed_roll(player, scene, fresh, frame, out) \
                    or self._cocked_played(player, scene, frame, out):
                return True
            return self._read_roll(player, fresh, frame, out)
        if game.phase is Phase.DOUBLED:
            return self._doubled(scene, player, fresh, frame, out)
        if game.phase is Phase.MOVING:
            ask = game.asks
            if ask is Ask.ROLL:
                if game.fixed is not None:
                    self._emit(out, "roll", frame, player=player.label,
                               dice=[game.fixed.first, game.fixed.second], source="fixed")
                    return True
                return self._read_roll(player, fresh, frame, out)
            if ask is Ask.OPPONENT_ROLL:
                return self._read_roll(player.opponent, fresh, frame, out, kind="announce")
            if self._carried_on(fresh, scene, frame, out) or self._rethrown(fresh, scene, frame, out):
                return True
            self._void_other(player, fresh, frame, out)
            return self._moving(scene, frame, out)
        return False

    def _opening(self, fresh: list[tuple[str, int, bool]], frame: str, out: list[Event]) -> bool:
        if not fresh:
            return False
        choice = self.config.opening
        if self._match.game.opening is OpeningRule.STARTER_ROLLS and choice is OpeningChoice.AUTO:
            choice = OpeningChoice.STARTER_ROLLS
        cocked = [d for d in fresh if d[2]]
        colours = Counter(c for c, _, _ in fresh)
        if cocked:
            owner = cocked[0][0] if cocked[0][0] != "other" else "white"
            self._emit(out, "reroll", frame, player=owner, dice=[v for _, v, _ in fresh],
                       seen=[list(d) for d in fresh])
            return True
        if colours["white"] == 1 and colours["black"] == 1 and len(fresh) == 2:
            if choice is OpeningChoice.STARTER_ROLLS:
                self._note = "this match opens with the starter's own two dice"
                return False
            white = next(v for c, v, _ in fresh if c == "white")
            black = next(v for c, v, _ in fresh if c == "black")
            starter = None if white == black else ("white" if white > black else "black")
            self._emit(out, "opening", frame, white=white, black=black, starter=starter)
            return True
        for colour in ("white", "black"):
            if colours[colour] == 2 and len(fresh) == 2:
                if choice is OpeningChoice.ONE_DIE_EACH:
                    self._note = "this match opens with one die each"
                    return False
                dice = [v for _, v, _ in fresh]
                self._emit(out, "starter", frame, player=colour)
                self._emit(out, "roll", frame, player=colour, dice=dice)
                return True
        if len(fresh) > 2:
            self._note = "too many dice for the opening"
        return False

    def _cube_moved(self, scene: Scene, player: Player, frame: str, out: list[Event]) -> bool:
        game = self._match.game
        if scene.cube is None:
            return False
        seen = _cube(scene.cube)
        if seen == _cube_place(game.cube.value, game.cube.owner):
            return False
        if seen == (game.cube.value * 2, player.opponent.label) and game.can_double(player):
            self._emit(out, "double", frame, player=player.label, cube=game.cube.value * 2)
            return True
        if not game.cube_in_play:
            self._note = "no cube in this game" + (" (Crawford)" if self._match.is_crawford else "")
        else:
            self._note = f"the cube cannot move there: {player.label} may not double now"
        return False

    def _doubled(self, scene: Scene, doubler: Player, fresh: list[tuple[str, int, bool]], frame: str,
                 out: list[Event]) -> bool:
        game = self._match.game
        taker = doubler.opponent
        if scene.cube is not None and _cube(scene.cube) == _cube_place(game.cube.value, game.cube.owner):
            before = len(self._match.results)
            self._emit(out, "drop", frame, player=taker.label, cube=game.cube.value)
            self._game_over(frame, out, before)
            return True
        if any(c == doubler.label for c, _, _ in fresh):
            self._emit(out, "take", frame, player=taker.label, cube=game.cube.value * 2)
            return True
        if any(c == taker.label for c, _, _ in fresh):
            self._void(taker, fresh, frame, out)
            return True
        return False

    def _read_roll(self, player: Player, fresh: list[tuple[str, int, bool]], frame: str, out: list[Event],
                   kind: str = "roll") -> bool:
        """Dice of ``player``'s colour are their roll (or their announced roll); the other's are void."""
        mine = [d for d in fresh if d[0] == player.label]
        theirs = [d for d in fresh if d[0] == player.opponent.label]
        if len(mine) == 1 and not mine[0][2] and len(theirs) == 1 and theirs[0][2]:
            # A cocked die's colour is read off a tilted face, lit unlike a flat one: a black die
            # cocked on a black checker under a lamp read white (game 1 of the referee bench), and
            # Black's throw was voided as White's.  One of the player's dice flat and one of the
            # other's cocked is the player's throw with a die cocked: both are thrown again.
            self._emit(out, "reroll", frame, player=player.label, dice=[mine[0][1], theirs[0][1]],
                       seen=[list(mine[0]), list(theirs[0])])
            return True
        if theirs:
            self._void(player.opponent, theirs, frame, out)
            return True
        if len(mine) > 2:
            self._note = f"{len(mine)} {player.label} dice: two, please"
            return False
        # A cocked die has both dice thrown again, wherever the other one is: hidden from the
        # camera, off the board, or missed by the reader (a black 2 by the bar's edge, on the
        # referee bench, beside a 6 cocked on a checker: waiting for it missed the call).
        if any(cocked for _, _, cocked in mine):
            self._emit(out, "reroll", frame, player=player.label, dice=[v for _, v, _ in mine],
                       seen=[list(d) for d in mine])
            return True
        if len(mine) < 2:
            return False
        dice = [mine[0][1], mine[1][1]]
        game = self._match.game
        if kind == "roll" and game.chooser is player and dice[0] == dice[1]:
            self._emit(out, "void-roll", frame, player=player.label, dice=dice,
                       seen=[list(d) for d in mine], reason="a free choice may not be a doublet")
            return True
        self._emit(out, kind, frame, player=player.label, dice=dice)
        return True

    def _void(self, player: Player, dice: list[tuple[str, int, bool]], frame: str, out: list[Event]) -> None:
        self._emit(out, "void-roll", frame, player=player.label, dice=[v for _, v, _ in dice],
                   seen=[list(d) for d in dice])

    def _void_other(self, mover: Player, fresh: list[tuple[str, int, bool]], frame: str,
                    out: list[Event]) -> None:
        """While a turn is being played, any new dice are out of turn."""
        for player in (mover, mover.opponent):
            dice = [d for d in fresh if d[0] == player.label]
            if dice:
                self._void(player, dice, frame, out)
                return

    def _missed_roll(self, player: Player, scene: Scene, fresh: list[tuple[str, int, bool]], frame: str,
                     out: list[Event]) -> bool:
        """The opponent throws their dice, yet ``player``'s roll was never read and the board
        has changed: the camera missed ``player``'s dice (a die on a pale point, a hand over
        them), or called them cocked and the players took them as flat.  Waiting for that roll
        would stop refereeing for the rest of the game, so the roll is worked out from the
        board, as a referee who looked away asks "what did you throw?" and checks: the rolls of
        which some legal play gives exactly this board (preferring the values last called
        cocked).  It is recorded with ``source: inferred`` and the play ``by: inferred``; when
        several rolls fit, the others are listed in ``ambiguous``.  Only one-stage turns are
        inferred.

        After dice called cocked, ``player``'s own new throw over a changed board is the same
        signal: they played the dice as flat, so the roll is worked out as above and the new
        throw is then out of turn (void), not the throw asked for (game 16 of the referee
        bench, where a flat 1 was called cocked).  Without a legal play that fits, the new
        throw is read as the roll as before.  Nor is it a play when no checker is seen to land:
        a board that has only lost some of ``player``'s checkers shows one lifted from the new
        throw, as well as a play onto a point stacked past what the camera counts (game 15 of
        the referee bench: after a cocked call, a checker lifted off 13 was taken for 13/6 onto
        White's stacked 6-point, with the new 2-2 void, and every turn after differed from the board)."""
        game = self._match.game
        if game.announced is not None or game.chooser is not None:
            return False
        again = self._cocked_call is not None and _threw(fresh, player)
        if not (_threw(fresh, player.opponent) or again) or _fit(scene, game.position)[0]:
            return False
        if not _threw(fresh, player.opponent) and _only_left(scene, game.position, player):
            return False
        return self._infer_roll(self._match, player, scene, frame, out, by="inferred", read=self._cocked_call,
                                rethrow=False)

    def _cocked_played(self, player: Player, scene: Scene, frame: str, out: list[Event]) -> bool:
        """``player``'s dice were called cocked, yet they are picked up from a board on which
        ``player`` has moved: the players took the dice as flat (a flat die the camera saw
        tilted), and picking them up ends the turn as it does after any roll.  The roll is
        recorded as read (``source: overruled``) and the board judged at once: a legal result
        is accepted, anything else is flagged on the points that differ.  Waiting for the
        re-throw instead let an illegal play made and put right in the meantime pass unflagged
        (game 13 of the referee bench).  A board that no play of ``player``'s can make (an
        opponent's checker where there was none, a checker more of either side) is misread,
        not played, and the re-throw is still awaited."""
        game = self._match.game
        call = self._cocked_call
        if call is None or game.announced is not None or game.chooser is not None:
            return False
        if any(colour == player.label for colour, _, _ in scene.dice) or _fit(scene, game.position)[0] \
                or not _moved_by(scene, game.position, player):
            return False
        self._emit(out, "roll", frame, player=player.label, dice=list(call), source="overruled")
        self._track_dice(scene)  # the dice are off the board: `_moving` takes that as the end signal
        return True

    def _cocked_overruled(self, player: Player, scene: Scene, fresh: list[tuple[str, int, bool]], frame: str,
                          out: list[Event]) -> bool:
        """``player``'s dice were called cocked, yet the opponent throws and the board has not
        changed: the players took the dice as flat (a flat die the camera saw tilted), and the
        roll had nothing to play.  Waiting for a re-throw would void every roll after it, so
        the roll is recorded as read (``source: overruled``) with its no-play.  A roll read
        that could be played is not assumed passed: the opponent's dice stay out of turn."""
        game = self._match.game
        call = self._cocked_call
        if call is None or game.announced is not None or game.chooser is not None:
            return False
        if not _threw(fresh, player.opponent) or not _fit(scene, game.position)[0]:
            return False
        after = self._match.roll_dice(player, Roll(*call)).game
        if not _one_stage(after) or any(play.steps for play in after.legal_plays()):
            return False
        self._emit(out, "roll", frame, player=player.label, dice=list(call), source="overruled")
        return self._moving(scene, frame, out)  # the no-play, before the opponent's dice are read

    def _moved_after_no_play(self, player: Player, scene: Scene, fresh: list[tuple[str, int, bool]],
                             frame: str, out: list[Event]) -> bool:
        """``player`` throws, but the board has changed since the opponent's roll was said to
        have no legal play: the opponent moved after all, so the camera misread that roll (a
        2-1 taken for 1-1 can leave nothing to play).  When the board is exactly a legal result
        of another roll, the no-play is taken back (``undo``) and that roll recorded as when
        the players carry on past an illegal verdict (``rethrow``, then the roll ``source:
        inferred`` with the dice ``read``, its play ``by: carried-on``).  Otherwise nothing is
        changed: a checker knocked out of place is no play."""
        verdict = self._verdict
        opponent = player.opponent
        if verdict is None or verdict.type != "no-play" or verdict["player"] != opponent.label \
                or self._undo_to is None or self._undo_before_roll is None or not self._roll_dice:
            return False
        if not _threw(fresh, player) or _fit(scene, self._match.game.position)[0]:
            return False
        high, low = sorted(verdict["dice"], reverse=True)
        fits = self._fitting_rolls(self._undo_before_roll, opponent, scene, (high, low))
        if not fits:
            return False
        self._emit(out, "undo", frame, player=opponent.label)
        self._record_inferred(fits, opponent, scene, frame, out, by="carried-on", read=(high, low),
                              rethrow=True)
        return True

    def _fitting_rolls(self, before: Match, player: Player, scene: Scene,
                       read: tuple[int, int] | None) -> list[tuple[int, int, tuple[int, int], Play]]:
        """The one-stage rolls from ``before`` (``player`` on roll) of which some legal play
        gives exactly ``scene``: best first (sharing most dice with the roll ``read``, then
        hiding fewest checkers), as (-shared dice, hidden checkers, roll, play)."""
        fits: list[tuple[int, int, tuple[int, int], Play]] = []
        for first in range(1, 7):
            for second in range(first, 7):
                after = before.roll_dice(player, Roll(second, first)).game
                if not _one_stage(after):
                    continue
                shared = -sum((Counter(read or ()) & Counter((second, first))).values())
                for play in after.legal_plays():
                    fits_board, hidden = _fit(scene, play.result)
                    if fits_board and play.steps:
                        fits.append((shared, hidden, (second, first), play))
        fits.sort(key=lambda f: (f[0], f[1], f[2], f[3].notation))
        return fits

    def _infer_roll(self, before: Match, player: Player, scene: Scene, frame: str, out: list[Event], *,
                    by: str, read: tuple[int, int] | None = None, rethrow: bool = False) -> bool:
        """Work out ``player``'s roll from the board (`_fitting_rolls`).  The best is recorded
        (``roll`` with ``source: inferred``, the others in ``ambiguous``, the dice ``read`` if
        any) and its play accepted ``by``; with ``rethrow`` the roll read was recorded and is
        taken back first."""
        fits = self._fitting_rolls(before, player, scene, read)
        if fits:
            self._record_inferred(fits, player, scene, frame, out, by=by, read=read, rethrow=rethrow)
        return bool(fits)

    def _record_inferred(self, fits: list[tuple[int, int, tuple[int, int], Play]], player: Player,
                         scene: Scene, frame: str, out: list[Event], *, by: str,
                         read: tuple[int, int] | None, rethrow: bool) -> None:
        """Record the best of ``fits`` (`_fitting_rolls`) as `_infer_roll` says."""
        roll = fits[0][2]
        others = sorted({f"{a}-{b}" for _, _, (a, b), _ in fits} - {f"{roll[0]}-{roll[1]}"})
        if rethrow:
            assert read is not None
            self._emit(out, "rethrow", frame, player=player.label, dice=list(read))
        self._emit(out, "roll", frame, player=player.label, dice=list(roll), source="inferred",
                   **({"ambiguous": others} if others else {}), **({"read": list(read)} if read else {}))
        line = next(line for line in self._lines() if _fit(scene, line.result)[0])
        self._accept(line, frame, out, by, [])

    def _rethrown(self, fresh: list[tuple[str, int, bool]], scene: Scene, frame: str,
                  out: list[Event]) -> bool:
        """The player on roll throws their own dice again before moving a checker: the throw
        read was no throw (a cocked die the camera took for flat, a die that rolled on after
        it looked still).  The roll is taken back (``rethrow``, with the dice read before) and
        the new dice are read as the roll.  After a checker has moved, new dice stay void."""
        game = self._match.game
        if game.progress is None or game.progress.rolls != 1 or self._illegal is not None or self._replay:
            return False  # (after a play was flagged, new dice of the mover's are void, not a rethrow)
        player = game.progress.player
        if not _threw(fresh, player) or not _fit(scene, game.position)[0] or self._before_roll is None:
            return False
        before = self._before_roll.game
        if before.position != game.position or game.asks is not Ask.PLAY:
            return False
        self._emit(out, "rethrow", frame, player=player.label, dice=self._dice())
        return True

    def _carried_on(self, fresh: list[tuple[str, int, bool]], scene: Scene, frame: str,
                    out: list[Event]) -> bool:
        """An illegal play was flagged (or corrected back to the start and played again, and
        still not a legal result), and instead of correcting the board the opponent throws
        their two dice: the players have carried on.  A referee that waited for a correction
        now would stop refereeing for the rest of the game.  The players see the dice; the
        camera may have misread one (a 2 taken for a 1 at a glance).  So when the board is
        exactly a legal result of another roll, that roll is recorded (the roll read taken back
        with ``rethrow``, the other ``source: inferred`` with the dice ``read``), and the board
        stays the players' board.  Otherwise the turn is recorded as the nearest legal result
        of the roll read.  Either play is marked ``by: carried-on``; the ``illegal`` event
        stays in the journal before it, and the opponent's dice are read as their roll."""
        game = self._match.game
        if (self._illegal is None and not self._replay) or game.progress is None or game.asks is not Ask.PLAY:
            return False
        if not _threw(fresh, game.progress.player.opponent):
            return False
        return self._go_on(scene, frame, out, "carried-on")

    def _go_on(self, scene: Scene, frame: str, out: list[Event], by: str) -> bool:
        """Record the flagged (or replayed) turn as the players went on (`_carried_on`, or
        `_overrule`): with the roll that fits the board when the roll read was misread, else as
        the nearest legal result of the roll read; ``by`` says why."""
        game = self._match.game
        assert game.progress is not None
        before = self._before_roll
        if before is not None and game.progress.rolls == 1 and before.game.position == game.position \
                and not _fit(scene, game.position)[0]:
            high, low = sorted(self._dice(), reverse=True)
            if self._infer_roll(before, game.progress.player, scene, frame, out, by=by, read=(high, low),
                                rethrow=True):
                return True
        if self._illegal is None:
            return False  # played again, and nothing fits: the opponent's dice are out of turn
        nearest = [line for line in self._lines() if line.moves == self._illegal.details.get("nearest")]
        if not nearest:
            return False
        self._accept(nearest[0], frame, out, by, [])
        return True

    def _is_playing(self) -> bool:
        game = self._match.game
        return game.phase is Phase.MOVING and game.asks in (Ask.PLAY, Ask.DOUBLET)

    def _moving(self, scene: Scene, frame: str, out: list[Event]) -> bool:
        game = self._match.game
        assert game.progress is not None
        # A stage nobody can play passes at once ("no-play" is said when the dice are read).
        if game.asks is Ask.PLAY:
            plays = self._plays()
            if not any(p.steps for p in plays):
                before = len(self._match.results)
                self._emit(out, "no-play", frame, player=game.progress.mover.label, dice=self._dice(),
                           stage=game.progress.stage.text)
                self._game_over(frame, out, before)
                return True
        self._watch(scene)
        dice_gone = bool(self._roll_dice) and not any(
            any(v == value for v in self._in_use[colour]) for colour, value in self._roll_dice)
        if dice_gone and not self._replay and self._illegal is None:
            # The end signal.  The board may look like a lifted checker: a checker borne off
            # is one fewer on its point, just as a lifted one is.
            return self._judge(scene, frame, out, by="dice", final=True)
        if self._illegal is not None and scene == self._flagged:
            return False  # just judged: the same board again says nothing new (no instant "corrected")
        if self._illegal is not None or self._replay:
            # Every stable board is judged now; a lifted checker is only flagged if it is not
            # itself a legal result (a bear-off looks the same).  (Fixed roll has no dice to
            # pick up after the opening: its turns end by the button alone, as a try that
            # happens to be a legal result must not end a turn.)
            return self._judge(scene, frame, out, by="scene",
                               final=self._illegal is not None and self._lifted is None)
        return False

    def _watch(self, scene: Scene) -> None:
        """Follow the checkers during a turn: which one is lifted, which positions were seen."""
        if self._trajectory_of is not self._match:
            self._trajectory_of = self._match
            start = _visible(self._match.game.position)
            self._trajectory = {start}
            self._placed = start
        seen = _scene_visible(scene)
        lifted = _lifted_from(self._placed, seen) if self._placed is not None else None
        self._lifted = lifted
        # A checker borne off looks like a lifted one: every board seen may end a stage.
        self._trajectory.add(seen)
        if lifted is None:
            self._placed = seen

    def _dice(self) -> list[int]:
        """The roll being played, as the accepted event gives it: the opening starter's die first."""
        game = self._match.game
        roll = game.roll
        if roll is None:
            return []
        if self._opening_dice is not None and game.turn is not None and roll.first != roll.second:
            by_colour = {"white": self._opening_dice[0], "black": self._opening_dice[1]}
            return [by_colour[game.turn.label], by_colour[game.turn.opponent.label]]
        return [roll.first, roll.second]

    def _plays(self) -> list[Play]:
        if self._plays_of is None or self._plays_of[0] is not self._match:
            self._plays_of = (self._match, list(self._match.game.legal_plays()))
        return self._plays_of[1]

    def _lines(self) -> list[_Line]:
        """Every way to play the stages from now to the turn's next roll or end.

        A stage that is followed by another within the same throw must have led to a
        position seen during the turn: the players set each stage down before the next
        (trying to enumerate 4×4×4×4 Gioul stages blind would take minutes)."""
        lines: list[_Line] = []
        trajectory = self._trajectory if self._trajectory_of is self._match else {_visible(
            self._match.game.position)}

        def walk(match: Match, steps: tuple[_Step, ...]) -> None:
            game = match.game
            assert game.progress is not None
            if game.asks is Ask.DOUBLET:
                player = game.progress.player
                for value in range(1, 7):
                    after = match.choose_doublet(player, value)
                    if after.game.phase is Phase.MOVING and after.game.asks is Ask.PLAY:
                        walk(after, (*steps, _Step(player, doublet=value)))
                return
            mover = game.progress.mover
            stage = game.progress.stage.text
            plays = self._plays() if match is self._match else list(game.legal_plays())
            for play in plays:
                step = _Step(mover, play=play, stage=stage)
                turn = game.progress.played(play)
                ends = game.variant.outcome(game.position, play, game.cube.value) is not None
                if ends or turn.ask not in (Ask.PLAY, Ask.DOUBLET) or not play.steps:
                    if not play.steps and turn.ask in (Ask.PLAY, Ask.DOUBLET):
                        after = match.play(mover, play)
                        if after.game.phase is Phase.MOVING and after.game.asks in (Ask.PLAY, Ask.DOUBLET):
                            walk(after, (*steps, step))
                            continue
                    lines.append(_Line((*steps, step), match, play))
                elif _visible(play.result) in trajectory:
                    walk(match.play(mover, play), (*steps, step))

        walk(self._match, ())
        return lines

    def _judge(self, scene: Scene, frame: str, out: list[Event], *, by: str, final: bool) -> bool:
        """Judge the board against the legal results of the roll.

        ``final``: the end signal came (or an illegal play awaits correction), so a board
        that is no legal result is flagged; otherwise only a legal result is taken."""
        game = self._match.game
        assert game.progress is not None
        lines = self._lines()
        fitting = []
        for line in lines:
            fits, hidden = _fit(scene, line.result)
            if fits:
                fitting.append((hidden, line.moves, line))
        player = game.progress.player
        if fitting:
            fitting.sort(key=lambda item: (item[0], item[1]))
            chosen = fitting[0][2]
            if by == "scene" and any(_further(line.result, chosen.result, chosen.last.player,
                                              game.variant.rules.track(chosen.last.player))
                                     for line in lines):
                # No end signal, and the board is also half of a longer legal play (3/off
                # with 5-1 is both 3/2/off and the first half of 3/off 1/off): wait.
                self._note = "press end-turn when the move is done"
                return False
            # Unsure: no exact fit (each fitting result hides checkers in a stack), or more
            # than one exact fit (results the camera cannot tell apart: pools, pins, doublets).
            best = fitting[0][0]
            others = sorted({m for hidden, m, _ in fitting[1:] if best or not hidden} - {chosen.moves})
            if self._illegal is not None:
                self._emit(out, "corrected", frame, player=player.label, to="legal")
            self._accept(chosen, frame, out, by, others)
            return True
        if self._illegal is not None and _fit(scene, game.position)[0]:
            self._emit(out, "corrected", frame, player=player.label, to="start")
            self._trajectory_of = None
            return True
        if not final:
            return False
        if not lines:  # no legal line through the positions seen: judge the first stage alone
            targets = [(p.notation, p.result) for p in self._plays()]
        else:
            targets = [(line.moves, line.result) for line in lines]
        ranked = []
        for moves, result in targets:
            checkers, points, bar = _difference(scene, result)
            ranked.append((checkers, len(points) + bar, moves, points, bar))
        ranked.sort(key=lambda r: (r[0], r[1], r[2]))
        _, _, nearest, points, bar = ranked[0]
        if (self._illegal is not None and self._illegal["points"] == points
                and self._illegal.details.get("bar", False) == bar and by != "button"):
            return False  # the same error, still there
        self._flagged = scene
        # The same points as the mover counts them, as `nearest` is written: the page and the
        # status say both from the mover's side (the lamps light the board's own points).
        mover = game.progress.mover
        own = sorted(_own_points(game.variant, mover, points), reverse=True)
        self._emit(out, "illegal", frame, player=mover.label, dice=self._dice(), points=points,
                   own_points=own, bar=bar, nearest=nearest, by=by)
        return True

    def _accept(self, line: _Line, frame: str, out: list[Event], by: str, others: list[str]) -> None:
        for step in line.steps:
            game = self._match.game
            before = len(self._match.results)
            if step.play is None:
                self._emit(out, "doublet", frame, player=step.player.label, value=step.doublet)
                continue
            play = step.play
            if not play.steps:
                self._emit(out, "no-play", frame, player=step.player.label, dice=self._dice(),
                           stage=step.stage)
            else:
                details: dict[str, Any] = {
                    "player": step.player.label, "dice": self._dice(), "move": play.notation,
                    "position": _position_json(play.result), "stage": step.stage, "by": by,
                }
                if game.variant.fits_position_id:
                    details["position_id"] = position_id(play.result, step.player.opponent)
                if others:
                    details["ambiguous"] = others
                if game.variant.fits_position_id:
                    after = self._match.play(step.player, play)
                    if not after.game.is_over and len(after.results) == len(self._match.results):
                        details["match_id"] = after.match_id()
                self._emit(out, "accepted", frame, **details)
            if self._game_over(frame, out, before):
                return

    def _game_over(self, frame: str, out: list[Event], before: int) -> bool:
        """After a play or a drop: say so if it ended the game (``before``: results until then)."""
        match = self._match
        if len(match.results) <= before:
            return False
        result = match.results[-1]
        self._emit(out, "game-over", frame, winner=result.winner.label, points=result.points,
                   kind=result.kind.name.lower(), cube=result.cube, score=list(match.score),
                   dropped=result.dropped, reason=result.reason)
        if match.is_over:
            winner = match.winner
            assert winner is not None
            self._emit(out, "match-over", frame, winner=winner.label, score=list(match.score))
        return True

    # -- what the players see --------------------------------------------------------

    def _to_act(self) -> Player | None:
        game = self._match.game
        if game.phase is Phase.DOUBLED and game.turn is not None:
            return game.turn.opponent
        if game.phase is Phase.MOVING and game.progress is not None:
            if game.asks is Ask.OPPONENT_ROLL:
                return game.progress.player.opponent
            return game.progress.mover
        if game.phase is Phase.ON_ROLL:
            return game.turn
        return None

    @property
    def to_act(self) -> Player | None:
        """Who the table waits for: to roll, move, take or drop (None between games)."""
        if not self._started or self._match.is_over or self._awaiting_setup:
            return None
        return self._to_act()

    @property
    def legal_plays(self) -> tuple[str, ...]:
        """The legal plays of the stage being played, in gnubg notation (the teaching list);
        empty when nobody is playing a roll."""
        game = self._match.game
        if not self._started or self._awaiting_setup or game.phase is not Phase.MOVING \
                or game.asks is not Ask.PLAY:
            return ()
        return tuple(play.notation or "(no move)" for play in self._plays())

    @property
    def status(self) -> str:
        """One line for the players: whose move it is, or what is wrong."""
        match, game = self._match, self._match.game
        if not self._started:
            return "No match started"
        if match.is_over:
            if match.winner is None:
                return f"Match over: {match.score[0]}-{match.score[1]}"
            # The winner's score first, as the turn log, selfplay and the text record give it.
            winner = match.winner
            return (f"Match over: {winner.label.capitalize()} wins "
                    f"{match.score[winner]}-{match.score[winner.opponent]}")
        if self._awaiting_setup:
            result = match.results[-1]
            score = f"{match.score[0]}-{match.score[1]}"
            return f"{str(result).capitalize()}; score {score}: set up the next game"
        if self._ignored:
            latest = self._ignored[-1]
            colour = latest[0][0]
            if any(k for _, _, k in latest):
                return "Cocked die: roll again"
            return f"{colour.capitalize()} rolled out of turn: pick up the dice"
        if self._note:
            return f"Wait: {self._note}"
        if self._illegal is not None:
            who = self._illegal["player"].capitalize()
            return f"{who}: illegal, check {illegal_places(self._illegal.details)}"
        prefix = ""
        if self._verdict is not None:
            who = self._verdict["player"].capitalize()
            if self._verdict.type == "no-play":
                prefix = f"{who}: no legal play with {'-'.join(map(str, self._verdict['dice']))}; "
            else:
                prefix = f"{who} played {self._verdict['move']}"
                if self._verdict.details.get("ambiguous"):
                    prefix += f" (or {', '.join(self._verdict['ambiguous'])}? take back if wrong)"
                prefix += "; "
        player = self._to_act()
        name = player.label.capitalize() if player is not None else ""
        if game.phase is Phase.OPENING:
            text = "Opening: one die each" if self.config.opening is OpeningChoice.ONE_DIE_EACH else \
                "Opening: the starter rolls" if self.config.opening is OpeningChoice.STARTER_ROLLS else \
                "Opening: one die each, or the starter's two"
        elif game.phase is Phase.ON_ROLL:
            text = f"{name} to roll" + (" or double" if game.turn is not None and game.can_double(game.turn)
                                        else "")
        elif game.phase is Phase.DOUBLED:
            text = f"{name} to take or drop the cube at {game.cube.value * 2}"
        elif game.asks is Ask.ROLL:
            text = f"{name} to roll again"
        elif game.asks is Ask.OPPONENT_ROLL:
            text = f"{name} to roll for the next turn"
        elif game.asks is Ask.DOUBLET:
            text = f"{name} to choose a doublet and play it"
        else:
            assert game.progress is not None
            stage = game.progress.stage.text
            if self._replay:
                text = f"{name}: play {stage} again"
            elif self._lifted is not None and self._mode is not Mode.RECORD:
                # From the mover's side, as the plays listed for them and the drawing's labels.
                mover, lifted = game.progress.mover, self._lifted
                own = [] if lifted == "bar" else _own_points(game.variant, mover, [int(lifted)])
                where = own_places(mover.label, own, bar=lifted == "bar")
                text = f"{name} to play {stage}: checker lifted from {where}"
            else:
                text = f"{name} to play {stage}"
        return prefix + text

    @property
    def lights(self) -> LightPlan:
        """What every lamp shows now (see docs/referee.md)."""
        match, game = self._match, self._match.game
        lamps: dict[str, Light] = {}
        teach = self._mode is Mode.TEACH
        if match.is_over or self._awaiting_setup:
            lamps["status"] = Light.steady(WHITE)
            if match.results:
                lamps[f"turn-{match.results[-1].winner.label}"] = Light.pulse(WHITE)
            return LightPlan.dark().with_lamps(lamps)
        player = self._to_act()
        if player is not None:
            lamps[f"turn-{player.label}"] = Light.steady(BLUE)
        if self._ignored or self._note:
            lamps["status"] = Light.pulse(AMBER)
        elif self._illegal is not None:
            lamps["status"] = Light.blink(RED)
        elif self._verdict is not None and self._verdict.type == "accepted":
            lamps["status"] = Light.steady(GREEN)
        if self._illegal is not None and self._mode is not Mode.RECORD:
            for point in self._illegal["points"]:
                lamps[f"point-{point}"] = Light.blink(RED)
            if self._illegal.details.get("bar"):
                lamps["bar"] = Light.blink(RED)
        elif teach and game.phase is Phase.MOVING and game.asks is Ask.PLAY and not self._ignored:
            if self._lifted is not None:
                lamps[_lamp(self._lifted)] = Light.blink(BLUE)
                for lamp in self._destinations(self._lifted):
                    lamps[lamp] = Light.steady(GREEN)
            else:
                for lamp in self._sources():
                    lamps[lamp] = Light.steady(GREEN)
        return LightPlan.dark().with_lamps(lamps)

    def _paths(self) -> Iterator[tuple[Play, list[list[int | str]]]]:
        """Each legal play's checker paths in rulebook points (``"bar"``, ``"in"``, ``"off"``)."""
        game = self._match.game
        for play in self._plays():
            track = game.variant.rules.track(play.player)
            paths: list[list[int | str]] = []
            for step in play.steps:
                if step.kind:
                    continue
                start, end = step.board_points(play.player, track)
                for path in paths:
                    if path[-1] == start:
                        path.append(end)
                        break
                else:
                    paths.append([start, end])
            yield play, paths

    def _sources(self) -> set[str]:
        lamps = set()
        for _, paths in self._paths():
            for path in paths:
                if path[0] != "in":
                    lamps.add(_lamp(path[0]))
        return lamps

    def _destinations(self, lifted: int | str) -> set[str]:
        """Where the checker lifted from ``lifted`` can go in some legal play (``off-<colour>`` too)."""
        game = self._match.game
        assert game.progress is not None
        colour = game.progress.mover.label
        lamps = set()
        for _, paths in self._paths():
            for path in paths:
                if lifted in path[:-1]:
                    for point in path[path.index(lifted) + 1:]:
                        lamps.add(f"off-{colour}" if point == "off" else _lamp(point))
        return lamps


def _moved_by(scene: Scene, position: Position, mover: Player) -> bool:
    """Whether ``scene`` can show ``position`` after ``mover`` moved checkers, legally or not:
    the opponent's checkers have only left points (hit to the bar, or pinned under one of the
    mover's), none of either side's has come from nowhere, and the mover's bar has not grown."""
    sign = 1 if mover is Player.WHITE else -1
    them = mover.opponent
    gone = mine_seen = mine_before = 0
    for seen, real in zip(scene.points, position.points, strict=True):
        theirs_seen, theirs_before = max(-sign * seen, 0), max(-sign * real, 0)
        if theirs_seen > theirs_before:
            return False
        gone += theirs_before - theirs_seen
        mine_seen += max(sign * seen, 0)
        mine_before += max(sign * real, 0)
    hit = scene.bar[them] - position.bar[them]
    return 0 <= hit <= gone and scene.bar[mover] <= position.bar[mover] \
        and mine_seen + scene.bar[mover] <= mine_before + position.bar[mover]


def _only_left(scene: Scene, position: Position, mover: Player) -> bool:
    """Whether ``scene`` shows ``position`` with only some of ``mover``'s checkers gone from
    their points: none of theirs more anywhere, the bar and the opponent's checkers as they were."""
    sign = 1 if mover is Player.WHITE else -1
    return scene.bar == position.bar and all(
        seen == real or 0 <= sign * seen < sign * real
        for seen, real in zip(scene.points, position.points, strict=True))


def _threw(fresh: list[tuple[str, int, bool]], player: Player) -> bool:
    """Two new dice of ``player``'s colour lie on the board: they threw.  A throw is the
    signal that the turn before it is over, however the dice landed (a cocked die is then
    thrown again), so cocked dice count too."""
    return sum(colour == player.label for colour, _, _ in fresh) == 2


def _one_stage(game: Game) -> bool:
    """A roll of ``game`` (just rolled) is played in one stage: the only kind worked out from
    the board (a variant's roll again or chosen doublet needs dice the camera saw)."""
    return (game.asks is Ask.PLAY and game.progress is not None and len(game.progress.stages) == 1
            and not game.progress.roll_again and not game.progress.then_doublet)


def _lamp(point: int | str) -> str:
    return "bar" if point == "bar" else f"point-{point}"


def _rule(choice: OpeningChoice) -> OpeningRule:
    return OpeningRule.STARTER_ROLLS if choice is OpeningChoice.STARTER_ROLLS else OpeningRule.ONE_DIE_EACH


def _cube(seen: tuple[int, str]) -> tuple[int, str]:
    """A centred cube shows 64 and counts 1."""
    value, place = seen
    return (1, "center") if place == "center" else (value, place)


def _cube_place(value: int, owner: Player | None) -> tuple[int, str]:
    return (1, "center") if owner is None else (value, owner.label)


def _remove(in_use: dict[str, tuple[int, ...]], colour: str, value: int) -> None:
    values = list(in_use.get(colour, ()))
    if value in values:
        values.remove(value)
        in_use[colour] = tuple(values)


def _own_points(variant: Variant, player: Player, points: Iterable[int]) -> list[int]:
    """``points`` (the board's numbering) as ``player`` counts them along ``variant``'s track."""
    track = variant.rules.track(player)
    return [own_point(point, player, track) for point in points]


def _contains(dice: tuple[tuple[str, int, bool], ...], wanted: tuple[tuple[str, int, bool], ...]) -> bool:
    have = Counter(dice)
    return all(have[die] >= count for die, count in Counter(wanted).items())


def _find_play(legal: LegalPlays, move: str, position: Any) -> Play:
    """The legal play a journal's accepted event names (its notation; its position breaks ties).
    A move written otherwise is read as notation: journals from before 2026-11-29 wrote Puff's
    entering plays with two checkers joined in one path ("in/19" for "in/23 23/19")."""
    plays = list(legal)
    wanted = " ".join(move.split())
    named = [p for p in plays if p.notation == wanted]
    if len(named) > 1 and isinstance(position, dict):
        named = [p for p in named if list(p.result.points) == list(position.get("points", []))] or named
    if not named:
        try:
            return legal.parse(wanted)
        except EngineError as err:
            raise IllegalActionError(f"{move!r} is not a legal play now; legal: "
                                     f"{', '.join(p.notation or '(no move)' for p in plays[:12])}") from err
    return named[0]


__all__ = ["Mode", "OpeningChoice", "Referee", "RefereeConfig", "RefereeError", "Visible"]
