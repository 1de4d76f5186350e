"""Match records from the referee's events: Jellyfish ``.mat`` and SGF for GNU Backgammon, and text.

Like ``chess.pgn``, this module does no I/O: it reads :class:`~engine.events.Event`
streams (the journal's lines, see :mod:`engine.events`) and returns text; the caller
opens and writes the files.

:func:`read_record` turns an event stream into a :class:`MatchRecord`: games, and in
each game what every player did, in order.  Verdict events (``illegal``, ``corrected``,
``void-roll``, ``reroll``, ``mode``) stay in the journal but are not part of the record;
an ``undo`` takes the player's last accepted play back out of it (the text record still
says what was taken back).

:func:`to_mat` writes the Jellyfish match format that GNU Backgammon, eXtreme Gammon and
BGBlitz import.  It replays the match through :class:`~engine.match.Match`, so a stream
whose plays, cube actions or results the rules do not allow is refused with the event's
index and the reason, and each play is written one checker step per die, as ``.mat`` wants
(``25`` is the bar, ``0`` is off, no ``(2)``).  :func:`to_sgf` writes the same replay as
GNU Backgammon's SGF (``GM[6]``).  :func:`to_text` writes a readable record for any variant,
including those GNU Backgammon cannot replay.  :func:`events_from_selfplay` gives the events
a referee would have emitted for a self-played match (benches, tests, demos).

>>> from engine.events import Event
>>> stream = [
...     Event("match", "", {"length": 1, "variant": "standard", "opening": "one-die-each"}),
...     Event("opening", "", {"white": 3, "black": 1, "starter": "white"}),
...     Event("accepted", "", {"player": "white", "dice": [3, 1], "move": "8/5 6/5", "position": {}}),
...     Event("double", "", {"player": "black", "cube": 2}),
...     Event("drop", "", {"player": "white", "cube": 1}),
...     Event("game-over", "", {"winner": "black", "points": 1, "kind": "single"}),
...     Event("match-over", "", {"winner": "black", "score": [0, 1]}),
... ]
>>> print(to_mat(stream), end="")
 1 point match
<BLANKLINE>
 Game 1
 White : 0                       Black : 0
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Drops                       Wins 1 point and the match
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from engine.dice import Roll
from engine.errors import EngineError, UnknownVariantError
from engine.events import OPENINGS, Event
from engine.game import OpeningRule, Phase
from engine.match import Match
from engine.play import Play
from engine.player import Player
from engine.selfplay import Action
from engine.step import BAR, OFF
from engine.variants import find_variant
from engine.wording import plural

#: Events that are verdicts on the way to a play: kept in the journal, not in a record.
IGNORED = frozenset({"illegal", "corrected", "void-roll", "reroll", "mode"})


class RecordError(EngineError):
    """An event stream that cannot be exported: names the event's index (0-based) and why."""

    def __init__(self, index: int | None, why: str, *, other: int | None = None) -> None:
        self.index = index
        self.why = why
        #: Another event the reason is about (the one an out-of-order event was swapped with).
        self.other = other
        super().__init__(why if index is None else f"event {index}: {why}")


@dataclass
class Entry:
    """One thing a player did in a game, as recorded.

    ``kind`` is ``roll`` (dice, then ``move``: gnubg notation, ``""`` for no legal play,
    ``None`` while the play is still to come), ``double``/``take``/``drop`` (``cube``: the
    value offered, taken, or held before the dropped double), ``announce`` (open roll:
    dice for the next turn) or ``doublet`` (a chosen doublet, in ``dice``).
    """

    kind: str
    player: Player
    index: int
    dice: tuple[int, ...] = ()
    move: str | None = None
    cube: int = 0
    stage: str = ""
    #: Index of the event that recorded the play (``accepted`` or ``no-play``).
    played: int | None = None
    #: Plays accepted and then taken back with the take-back button, in order.
    taken_back: list[str] = field(default_factory=list)


@dataclass
class GameRecord:
    number: int
    #: The score [white, black] before the game.
    score: tuple[int, int]
    crawford: bool = False
    #: The opening dice (white, black) that decided the start, ties before them.
    opening: tuple[int, int] | None = None
    ties: list[tuple[int, int]] = field(default_factory=list)
    starter: Player | None = None
    entries: list[Entry] = field(default_factory=list)
    winner: Player | None = None
    points: int = 0
    kind: str = ""
    #: Index of the game-over event (for error messages).
    end: int | None = None

    @property
    def is_over(self) -> bool:
        return self.winner is not None


@dataclass
class MatchRecord:
    length: int
    variant: str
    opening: str
    jacoby: bool = False
    games: list[GameRecord] = field(default_factory=list)
    winner: Player | None = None
    #: The final score [white, black] when the match is over.
    score: tuple[int, int] | None = None

    @property
    def is_finished(self) -> bool:
        """A match is finished by its end (``match-over``).  A money session has no end event:
        it is whole as far as it goes when it stopped between games."""
        if self.length:
            return self.winner is not None
        return bool(self.games) and self.games[-1].is_over


#: How an export that is not a whole match begins its note (`unfinished_note`); `says_unfinished`
#: looks for it.
UNFINISHED = "unfinished:"


def unfinished_note(record: MatchRecord, players: tuple[str, str] = ("White", "Black")) -> str | None:
    """One line saying that ``record`` is not a whole match, and where it stopped; None if it is.
    A referee stopped mid-match (SIGTERM) writes what it has, and a reader must be able to tell.

    >>> unfinished_note(MatchRecord(3, "standard", "auto", games=[GameRecord(2, (1, 0))]))
    'unfinished: stopped in game 2 of the 3-point match, at White 1, Black 0'
    >>> unfinished_note(MatchRecord(0, "standard", "auto"))
    'unfinished: stopped before the first game of the money session'
    """
    if record.is_finished:
        return None
    what = f"the {record.length}-point match" if record.length else "the money session"
    if not record.games:
        return f"{UNFINISHED} stopped before the first game of {what}"
    last = record.games[-1]
    score = list(last.score)
    if last.winner is not None:
        score[last.winner] += last.points
    return (f"{UNFINISHED} stopped in game {last.number} of {what}, at {players[0]} {score[0]}, "
            f"{players[1]} {score[1]}")


def says_unfinished(text: str) -> bool:
    """Whether an export's text carries the note of `unfinished_note` (its first lines suffice):
    in a ``.mat`` as a ``;`` comment on the first line, in a text record on the second, in an
    SGF as the game comment (``GC``) of the first game's root node.

    >>> says_unfinished("; unfinished: stopped in game 2\\n 3 point match\\n")
    True
    >>> says_unfinished(" 3 point match\\n")
    False
    >>> says_unfinished("(;FF[4]GM[6]GC[unfinished: stopped in game 2]MI[length:3]")
    True
    >>> says_unfinished("(;FF[4]GM[6]PW[White]PB[Black]RE[W+1]\\n;W[31hefe])")
    False
    """
    if text.lstrip().startswith("("):
        # Only the root's GC: a move's comment (C) or a name quoting the note says nothing of the file.
        return any(value.startswith(UNFINISHED) for ident, value in _sgf_root(text) if ident == "GC")
    return any(line.removeprefix("; ").startswith(UNFINISHED) for line in text.splitlines()[:3])


def _player(event: Event, index: int, key: str = "player") -> Player:
    value = event[key]
    if not isinstance(value, str):
        raise RecordError(index, f"{event.type}: {key} must be 'white' or 'black', not {value!r}")
    try:
        return Player.from_label(value)
    except ValueError as err:
        raise RecordError(index, f"{event.type}: {err}") from err


def _dice(event: Event, index: int) -> tuple[int, ...]:
    value = event["dice"]
    if (
        not isinstance(value, list | tuple)
        or not 1 <= len(value) <= 4
        or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in value)
    ):
        raise RecordError(index, f"{event.type}: dice must be a list of numbers 1..6, not {value!r}")
    return tuple(value)


def _int(event: Event, index: int, key: str, low: int = 0) -> int:
    value = event[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise RecordError(index, f"{event.type}: {key} must be a whole number >= {low}, not {value!r}")
    return value


def _score(event: Event, index: int, key: str = "score") -> tuple[int, int]:
    value = event[key]
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in value)
    ):
        raise RecordError(index, f"{event.type}: {key} must be [white, black] points, not {value!r}")
    return (value[0], value[1])


class _Reader:
    """Builds a :class:`MatchRecord` one event at a time; checks the order of things."""

    def __init__(self) -> None:
        self.record: MatchRecord | None = None
        self.score = (0, 0)

    @property
    def game(self) -> GameRecord | None:
        return self.record.games[-1] if self.record and self.record.games else None

    def _open_game(self, index: int) -> GameRecord:
        """The game under way; a new one if the last is over (the journal may lack ``game``)."""
        assert self.record is not None
        if self.record.winner is not None:
            raise RecordError(index, "the match is already over; export one match per file")
        game = self.game
        if game is None or game.is_over:
            number = game.number + 1 if game is not None else 1
            game = GameRecord(number, self.score)
            self.record.games.append(game)
        return game

    def _open_turn(self, game: GameRecord, player: Player) -> Entry | None:
        """The player's roll still waiting for its play, if nothing but an open roll's
        announced dice or a chosen doublet came after it."""
        for entry in reversed(game.entries):
            if entry.kind == "roll":
                return entry if entry.player is player and entry.move is None else None
            if entry.kind not in ("announce", "doublet"):
                return None
        return None

    def read(self, index: int, event: Event) -> None:
        kind = event.type
        if kind in IGNORED:
            return
        if kind == "match":
            if self.record is not None:
                raise RecordError(index, "a second match event; export one match per file")
            length = _int(event, index, "length")
            variant, opening = event["variant"], event["opening"]
            if not isinstance(variant, str) or not isinstance(opening, str):
                raise RecordError(index, "match: variant and opening must be names")
            try:
                find_variant(variant)
            except UnknownVariantError as err:
                raise RecordError(index, f"match: {err}") from err
            if opening not in OPENINGS:
                raise RecordError(index, f"match: opening must be {', '.join(OPENINGS)}, not {opening!r}")
            self.record = MatchRecord(length, variant, opening, bool(event.details.get("jacoby", False)))
            return
        if self.record is None:
            raise RecordError(index, f"{kind} before the match event: the stream must start with one")
        if kind == "game":
            self._new_game(index, event)
        elif kind == "opening":
            self._opening(index, event)
        elif kind == "starter":
            game = self._open_game(index)
            game.starter = _player(event, index)
        elif kind == "roll":
            self._roll(index, event)
        elif kind in ("accepted", "no-play"):
            self._played(index, event)
        elif kind in ("double", "take", "drop"):
            game = self._open_game(index)
            game.entries.append(Entry(kind, _player(event, index), index, cube=_int(event, index, "cube", 1)))
        elif kind == "announce":
            game = self._open_game(index)
            game.entries.append(Entry(kind, _player(event, index), index, dice=_dice(event, index)))
        elif kind == "doublet":
            game = self._open_game(index)
            value = _int(event, index, "value", 1)
            game.entries.append(Entry(kind, _player(event, index), index, dice=(value, value)))
        elif kind == "undo":
            self._undo(index, event)
        elif kind == "rethrow":
            # The roll before was no throw: it is forgotten, as the player threw again.
            game = self._open_game(index)
            player = _player(event, index)
            if game.entries and game.entries[-1].kind == "roll" and game.entries[-1].player is player \
                    and game.entries[-1].move is None:
                game.entries.pop()
            else:
                raise RecordError(index, f"rethrow: {player.label} has no roll waiting to be played")
        elif kind == "game-over":
            self._game_over(index, event)
        elif kind == "match-over":
            self._match_over(index, event)

    def _new_game(self, index: int, event: Event) -> None:
        assert self.record is not None
        number = _int(event, index, "number", 1)
        score = _score(event, index)
        game = self.game
        if game is not None and not game.is_over:
            if game.entries or game.opening is not None:
                raise RecordError(index, f"game {number} begins before game {game.number} is over")
            self.record.games.pop()  # an empty game begun implicitly: this event replaces it
        if self.record.games and score != self.score:
            raise RecordError(index, f"game {number} begins at {score[0]}-{score[1]} but the games "
                              f"recorded add up to {self.score[0]}-{self.score[1]}")
        if self.record.winner is not None:
            raise RecordError(index, "the match is already over; export one match per file")
        # The first game may begin at any score: a journal resumed in the middle of a match.
        self.score = score
        self.record.games.append(
            GameRecord(number, score, crawford=bool(event.details.get("crawford", False))))

    def _opening(self, index: int, event: Event) -> None:
        game = self._open_game(index)
        white, black = _int(event, index, "white", 1), _int(event, index, "black", 1)
        if white > 6 or black > 6:
            raise RecordError(index, f"opening: dice show 1..6, not {white} and {black}")
        starter = event["starter"]
        if starter is None:
            game.ties.append((white, black))
            return
        player = _player(event, index, "starter")
        if game.entries:
            raise RecordError(index, f"an opening roll in the middle of game {game.number}")
        game.opening, game.starter = (white, black), player
        game.entries.append(Entry("roll", player, index, dice=(white, black) if player is Player.WHITE
                                  else (black, white)))

    def _roll(self, index: int, event: Event) -> None:
        game = self._open_game(index)
        player, dice = _player(event, index), _dice(event, index)
        waiting = self._open_turn(game, player)
        if waiting is not None and len(game.entries) == 1 and game.opening is not None:
            # The opening's dice may also be announced as the starter's roll.
            if sorted(waiting.dice) != sorted(dice):
                raise RecordError(index, f"{player.label} rolls {dice} but the opening roll was "
                                  f"{waiting.dice}")
            return
        game.entries.append(Entry("roll", player, index, dice=dice))

    def _played(self, index: int, event: Event) -> None:
        game = self._open_game(index)
        player, dice = _player(event, index), _dice(event, index)
        if event.type == "no-play":
            move = ""
        else:
            move = event["move"]
            if not isinstance(move, str):
                raise RecordError(index, f"accepted: move must be gnubg notation text, not {move!r}")
        entry = self._open_turn(game, player)
        if entry is None and len(game.entries) >= 2:
            mine, theirs = game.entries[-2], game.entries[-1]
            if (mine.kind == theirs.kind == "roll" and mine.player is player
                    and theirs.player is player.opponent and mine.move is None and theirs.move is None
                    and sorted(mine.dice) == sorted(dice)):
                # The opponent rolled before this play of the roll waiting for it: two lines
                # swapped. Read on, that roll would be refused at the end as "has no play".
                raise RecordError(index, f"{player.label}'s play of {dice} comes after "
                                  f"{player.opponent.label}'s roll of {theirs.dice}, which should follow "
                                  "it: the events are out of order", other=theirs.index)
        if entry is None:
            # An accepted play with no roll event before it (the dice are in the event).
            entry = Entry("roll", player, index, dice=dice)
            game.entries.append(entry)
        elif sorted(entry.dice) != sorted(dice) and event.type == "no-play":
            raise RecordError(index, f"no-play with {dice} after a roll of {entry.dice}")
        entry.move, entry.played = move, index
        entry.stage = str(event.details.get("stage", ""))

    def _undo(self, index: int, event: Event) -> None:
        game = self._open_game(index)
        player = _player(event, index)
        last = game.entries[-1] if game.entries else None
        if last is None or last.kind != "roll" or last.player is not player or last.move is None:
            raise RecordError(index, f"undo: {player.label}'s accepted play is not the last thing "
                              f"recorded in game {game.number}")
        last.taken_back.append(last.move or "(no legal play)")
        last.move = None

    def _game_over(self, index: int, event: Event) -> None:
        game = self.game
        if game is None or game.is_over:
            raise RecordError(index, "game-over with no game under way")
        game.winner = _player(event, index, "winner")
        game.points = _int(event, index, "points", 1)
        game.kind = str(event["kind"])
        game.end = index
        score = list(self.score)
        score[game.winner] += game.points
        self.score = (score[0], score[1])
        if "score" in event.details and _score(event, index) != self.score:
            given = _score(event, index)
            raise RecordError(index, f"game-over says the score is {given[0]}-{given[1]}, the games "
                              f"recorded add up to {self.score[0]}-{self.score[1]}")

    def _match_over(self, index: int, event: Event) -> None:
        assert self.record is not None
        winner, score = _player(event, index, "winner"), _score(event, index)
        if score != self.score:
            raise RecordError(index, f"match-over says {score[0]}-{score[1]}, the games recorded add "
                              f"up to {self.score[0]}-{self.score[1]}")
        if self.record.length and score[winner] < self.record.length:
            raise RecordError(index, f"match-over: {winner.label} has {score[winner]} of "
                              f"{self.record.length} points")
        self.record.winner, self.record.score = winner, score


def read_record(events: Iterable[Event]) -> MatchRecord:
    """The match an event stream records.  Checks the order of events, not the rules
    (:func:`to_mat` checks those); raises :class:`RecordError` naming the event."""
    reader = _Reader()
    for index, event in enumerate(events):
        reader.read(index, event)
    if reader.record is None:
        raise RecordError(None, "no match event: nothing to export")
    for game in reader.record.games:
        for number, entry in enumerate(game.entries[:-1]):
            if entry.kind == "roll" and entry.move is None:
                play = game.entries[number - 1] if number else None
                if (play is not None and play.kind == "roll" and play.player is entry.player
                        and play.played == play.index and sorted(play.dice) == sorted(entry.dice)):
                    # Its play came just before it, with no roll of its own: the two lines swapped.
                    # (Only said of a stream refused anyway: in some variants a play with no
                    # roll event is followed by the same player's roll of the same numbers.)
                    raise RecordError(entry.index, f"{entry.player.label}'s roll of {entry.dice} comes "
                                      f"after its play ({play.move or 'no legal play'}): the events "
                                      "are out of order", other=play.index)
                raise RecordError(entry.index, f"{entry.player.label}'s roll of {entry.dice} has no "
                                  "play, but the game goes on")
    return reader.record


# -- Jellyfish .mat ------------------------------------------------------------------

#: Columns of a .mat move line: "NNN) " then the left player's entry in 28 characters.
_NUMBER = 5
_COLUMN = 28


def _mat_steps(play: Play) -> str:
    """One ``from/to`` per die, ``*`` on a hit, 25 for the bar and 0 for off (the .mat way)."""
    return " ".join(f"{s.start}/{s.end}{'*' * s.hit}" for s in play.steps)


class _MatWriter:
    """Lays out one game's entries in the two columns of a .mat: White's on the left."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.number = 0
        self.row: list[str | None] = [None, None]
        self.numbered = True

    def _flush(self) -> None:
        if self.row == [None, None]:
            return
        prefix = f"{self.number:3d}) " if self.numbered else " " * _NUMBER
        # A long left entry (a double's four steps with hits) pushes the right one along.
        left = (self.row[0] or "").ljust(_COLUMN - 1) + " "
        self.lines.append((prefix + left + (self.row[1] or "")).rstrip())
        self.row = [None, None]

    def add(self, player: Player, text: str, *, numbered: bool = True) -> None:
        """A left entry starts a line; a right one shares the line of a left one before it."""
        column = int(player)
        if column == 0 or self.row[1] is not None or self.row[0] is None:
            self._flush()
            self.numbered = numbered
            self.number += numbered
        self.row[column] = text

    def close(self) -> list[str]:
        self._flush()
        return self.lines


@dataclass(frozen=True, slots=True)
class _Done:
    """One action of a replayed game: ``kind`` is ``play`` (with the roll and the play
    found by the rules), ``double``, ``take`` or ``drop`` (with the cube offered)."""

    player: Player
    kind: str
    dice: tuple[int, ...] = ()
    play: Play | None = None
    cube: int = 0


@dataclass(frozen=True, slots=True)
class _Replayed:
    game: GameRecord
    crawford: bool
    done: tuple[_Done, ...]
    #: The match is over after this game (for "and the match").
    match_over: bool


def _replay_game(game: GameRecord, match: Match) -> tuple[Match, _Replayed]:
    """Apply one recorded game to ``match`` by the rules; return the match after it and what
    was done.  Trusts the record's shape (:func:`read_record` checked it)."""
    results = len(match.results)
    crawford = match.is_crawford
    done: list[_Done] = []
    for entry in game.entries:
        who = entry.player
        try:
            if match.game.phase is Phase.OPENING:
                if match.opening is OpeningRule.ONE_DIE_EACH:
                    if game.opening is None:
                        raise RecordError(entry.index, f"game {game.number} has no opening roll")
                    match = match.opening_roll(white=game.opening[0], black=game.opening[1])
                else:
                    match = match.choose_starter(game.starter if game.starter is not None else who)
            if entry.kind == "roll":
                if entry.move is None:
                    break  # the journal ends before this play: .mat would read it as a dance
                if match.game.phase is not Phase.MOVING:
                    match = match.roll_dice(who, Roll(*entry.dice[:2]))
                chosen = match.game.legal_plays().parse(entry.move)
                match = match.play(who, chosen)
                done.append(_Done(who, "play", entry.dice[:2], chosen))
            elif entry.kind == "double":
                if match.game.cube.value * 2 != entry.cube:
                    raise RecordError(entry.index, f"{who.label} doubles to {entry.cube} but the cube is "
                                      f"at {match.game.cube.value}")
                match = match.double(who)
                done.append(_Done(who, "double", cube=entry.cube))
            elif entry.kind in ("take", "drop"):
                match = match.take(who) if entry.kind == "take" else match.drop(who)
                done.append(_Done(who, entry.kind))
            else:
                raise RecordError(entry.index, f"{entry.kind}: not an action of standard backgammon")
        except RecordError:
            raise
        except EngineError as err:
            at = entry.played if entry.played is not None else entry.index
            raise RecordError(at, f"game {game.number}: {err}") from err
    ended = match.results[-1] if len(match.results) > results else None
    if game.is_over:
        assert game.winner is not None
        if ended is None or ended.winner is not game.winner or ended.points != game.points:
            found = "the game goes on" if ended is None else str(ended)
            raise RecordError(game.end, f"game-over says {game.winner.label} wins {game.points}; "
                              f"by the rules {found}")
    elif ended is not None:
        raise RecordError(None, f"game {game.number} has no game-over event, but {ended}")
    return match, _Replayed(game, crawford, tuple(done), match.is_over)


def _replay(record: MatchRecord, players: tuple[str, str]) -> list[_Replayed]:
    """Every recorded game replayed by the rules of the standard game (what gnubg reads)."""
    if record.variant != "standard":
        raise RecordError(None, f"variant {record.variant}: GNU Backgammon cannot replay it; "
                          "export it as text")
    for name in players:
        if not name.strip() or any(c in name for c in ":[]\\\n"):
            raise RecordError(None, f"a player's name must be one line without ':', '[', ']' or '\\', "
                              f"not {name!r}")
    auto = record.opening == "auto"
    try:
        opening = OpeningRule.ONE_DIE_EACH if auto else OpeningRule(record.opening)
    except ValueError:
        raise RecordError(None, f"unknown opening {record.opening!r}") from None
    match = Match.new(record.length, opening, jacoby=record.jacoby, variant=find_variant(record.variant))
    replayed = []
    for game in record.games:
        if auto:
            # A referee told "auto" opens each game as the dice on the board show: one die of
            # each colour, or the starter's two dice.
            rule = OpeningRule.ONE_DIE_EACH if game.opening or game.ties else OpeningRule.STARTER_ROLLS
            match = replace(match, opening=rule, game=replace(match.game, opening=rule))
        if game is record.games[0] and game.score != (0, 0):
            match = _resume(match, game)
        match, done = _replay_game(game, match)
        replayed.append(done)
    return replayed


def to_mat(events: Iterable[Event], *, players: tuple[str, str] = ("White", "Black")) -> str:
    """The match as Jellyfish ``.mat`` text, White in the left column.  ``players`` are the
    names written for White and Black.  Only the standard game can be written: GNU
    Backgammon replays the moves.  An unfinished game ends without a result line, and a match
    that is not whole begins with a comment line saying so (`unfinished_note`)."""
    record = read_record(events)
    lines = [f" {record.length} point match", ""]
    note = unfinished_note(record, players)
    if note is not None:
        # A comment line, as gnubg's own .mat headers are ("; [Site ...]"): gnubg imports past it.
        lines.insert(0, f"; {note}")
    for replayed in _replay(record, players):
        game = replayed.game
        lines.append(f" Game {game.number}")
        head = f" {players[0]} : {game.score[0]}"
        lines.append(head.ljust(_NUMBER + _COLUMN) + f"{players[1]} : {game.score[1]}")
        writer = _MatWriter()
        for done in replayed.done:
            if done.kind == "play":
                assert done.play is not None
                dice = "".join(str(d) for d in done.dice)
                writer.add(done.player, f"{dice}: {_mat_steps(done.play)}".rstrip())
            elif done.kind == "double":
                writer.add(done.player, f" Doubles => {done.cube}")
            else:
                writer.add(done.player, " Takes" if done.kind == "take" else " Drops")
        if game.winner is not None:
            tail = " and the match" if replayed.match_over else ""
            writer.add(game.winner, f" Wins {plural(game.points, 'point')}{tail}", numbered=False)
        lines.extend(writer.close())
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


# -- gnubg's SGF -------------------------------------------------------------------------

#: SGF names White "W" (gnubg's player 0) and Black "B".
_SGF_COLOUR = {Player.WHITE: "W", Player.BLACK: "B"}


def _sgf_point(player: Player, point: int) -> str:
    """A point in gnubg's SGF: ``a``..``x`` along White's numbering (Black's reversed), ``y``
    the bar, ``z`` off."""
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return chr(ord("a") + (point - 1 if player is Player.WHITE else 24 - point))


def _sgf_text(value: str) -> str:
    """``value`` as an SGF Text property value: ``\\`` and ``]`` escaped (SGF FF[4], as gnubg's
    ``WriteEscapedString`` writes them)."""
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _sgf_root(text: str) -> Iterator[tuple[str, str]]:
    """The properties (identifier, unescaped value) of the first game tree's root node in SGF
    ``text``, up to where ``text`` ends: a file's head is enough.  Trusts ``text`` to be SGF."""
    start = text.find("(")
    start = text.find(";", start + 1) if start >= 0 else -1
    if start < 0:
        return
    ident, at = "", start + 1
    while at < len(text):
        char = text[at]
        if char == "[":
            value: list[str] = []
            at += 1
            while at < len(text) and text[at] != "]":
                if text[at] == "\\":
                    at += 1  # the escaped character is taken as it is
                if at < len(text):
                    value.append(text[at])
                at += 1
            if at >= len(text):
                return  # cut off inside the value: not read whole
            yield ident, "".join(value)
        elif char in ";()":
            return  # the root node ends where the first move's node (or the tree) begins
        elif char.isupper():
            # A property's identifier; a second value (MI[a][b]) keeps the identifier before it.
            ident = ident + char if text[at - 1].isupper() else char
        at += 1


def to_sgf(events: Iterable[Event], *, players: tuple[str, str] = ("White", "Black")) -> str:
    """The match as GNU Backgammon's SGF (``GM[6]``): one game tree per game, each play as
    its dice and one from/to letter pair per die.  Standard game only, as :func:`to_mat`.
    A match that is not whole says so in the first game's game comment (``GC``, where gnubg
    keeps a match's comment), with the note of `unfinished_note`."""
    record = read_record(events)
    note = unfinished_note(record, players)
    trees = []
    for number, replayed in enumerate(_replay(record, players)):
        game = replayed.game
        head = _sgf_head(record, number, game.score, replayed.crawford, players,
                         note if number == 0 else None)
        if game.winner is not None:
            head += f"RE[{_SGF_COLOUR[game.winner]}+{game.points}]"
        nodes = [head]
        for done in replayed.done:
            colour = _SGF_COLOUR[done.player]
            if done.kind == "play":
                assert done.play is not None
                moves = "".join(_sgf_point(done.player, s.start) + _sgf_point(done.player, s.end)
                                for s in done.play.steps)
                nodes.append(f";{colour}[{''.join(str(d) for d in done.dice)}{moves}]")
            else:
                nodes.append(f";{colour}[{done.kind}]")
        trees.append("\n".join(nodes) + ")")
    if not trees and note is not None:
        # Stopped before the first game: an SGF file needs a game tree to hold the note, and a
        # root with no moves is what gnubg reads as a match with nothing played yet.
        trees.append(_sgf_head(record, 0, (0, 0), False, players, note) + ")")
    return "\n".join(trees) + "\n"


def _sgf_head(record: MatchRecord, number: int, score: tuple[int, int], crawford: bool,
              players: tuple[str, str], note: str | None) -> str:
    """A game tree's root node up to its result: match, score, names, rules, and ``note``."""
    head = "(;FF[4]GM[6]CA[UTF-8]AP[pipgammon]"
    if note is not None:
        # Early in the root node, so that a file's head (the dashboard reads 512 bytes) holds it.
        head += f"GC[{_sgf_text(note)}]"
    head += (f"MI[length:{record.length}][game:{number}][ws:{score[0]}][bs:{score[1]}]"
             f"PW[{_sgf_text(players[0])}]PB[{_sgf_text(players[1])}]")
    if record.length:
        head += "RU[Crawford:CrawfordGame]" if crawford else "RU[Crawford]"
    elif record.jacoby:
        head += "RU[Jacoby]"
    return head


def _resume(match: Match, game: GameRecord) -> Match:
    """A match at the first recorded game's score (a journal that starts mid-match)."""
    score = game.score
    post = not game.crawford and bool(match.length) and any(s == match.length - 1 for s in score)
    new_game = replace(match.game, cube_in_play=not game.crawford and match.game.variant.uses_cube)
    return replace(match, score=score, is_crawford=game.crawford, is_post_crawford=post, game=new_game)


# -- readable text ---------------------------------------------------------------------


def to_text(events: Iterable[Event], *, players: tuple[str, str] = ("White", "Black")) -> str:
    """A readable record of any variant: game by game, turn by turn, with the cube and the score.

    It follows the record only (the rules are not replayed), so it also serves for
    streams :func:`to_mat` refuses."""
    record = read_record(events)
    names = {Player.WHITE: players[0], Player.BLACK: players[1]}
    length = f"{record.length}-point match" if record.length else "money session"
    lines = [f"pipgammon record: {record.variant}, {length}, opening {record.opening}"
             + (", Jacoby rule" if record.jacoby else ""), ""]
    note = unfinished_note(record, players)
    if note is not None:
        lines.insert(1, note)
    for game in record.games:
        crawford = " (Crawford game)" if game.crawford else ""
        lines.append(f"Game {game.number}{crawford}: {names[Player.WHITE]} {game.score[0]}, "
                     f"{names[Player.BLACK]} {game.score[1]}")
        for white, black in game.ties:
            lines.append(f"  opening roll: {names[Player.WHITE]} {white}, {names[Player.BLACK]} {black}: "
                         "a tie, roll again")
        if game.opening is not None and game.starter is not None:
            lines.append(f"  opening roll: {names[Player.WHITE]} {game.opening[0]}, "
                         f"{names[Player.BLACK]} {game.opening[1]}: {names[game.starter]} starts")
        elif game.starter is not None:
            lines.append(f"  {names[game.starter]} starts")
        turn = 0
        for entry in game.entries:
            number = turn + 1 if entry.kind == "roll" else turn
            lines.extend(_text_entry(entry, names, number, record.variant != "standard"))
            turn += entry.kind == "roll"
        if game.is_over:
            assert game.winner is not None
            lines.append(f"  {names[game.winner]} wins {plural(game.points, 'point')} ({game.kind})")
        else:
            lines.append("  (game unfinished)")
        lines.append("")
    if record.winner is not None and record.score is not None:
        lines.append(f"{names[record.winner]} wins the match {record.score[record.winner]}-"
                     f"{record.score[record.winner.opponent]}")
    elif not record.length and record.games:
        last = record.games[-1]
        score = list(last.score)
        if last.winner is not None:
            score[last.winner] += last.points
        lines.append(f"Score: {names[Player.WHITE]} {score[0]}, {names[Player.BLACK]} {score[1]}")
    return "\n".join(lines) + "\n"


def _text_entry(entry: Entry, names: dict[Player, str], turn: int, stages: bool) -> Iterator[str]:
    who = names[entry.player]
    dice = "-".join(str(d) for d in entry.dice)
    if entry.kind == "roll":
        for move in entry.taken_back:
            yield f"  {turn:>3}. {who:<8} {dice}: {move}  (taken back)"
        play = "(play not finished)" if entry.move is None else entry.move or "(no legal play)"
        # A variant's dice stage ("4×3 (bottom faces)") says more than the dice.
        stage = f" [{entry.stage}]" if entry.stage and stages else ""
        yield f"  {turn:>3}. {who:<8} {dice}: {play}{stage}"
    elif entry.kind == "double":
        yield f"       {who:<8} doubles to {entry.cube}"
    elif entry.kind == "take":
        yield f"       {who:<8} takes (cube at {entry.cube})"
    elif entry.kind == "drop":
        yield f"       {who:<8} drops"
    elif entry.kind == "announce":
        yield f"       {who:<8} rolls {dice} for the next turn"
    elif entry.kind == "doublet":
        yield f"       {who:<8} chooses the doublet {dice}"


# -- events from self-play ---------------------------------------------------------------


def events_from_selfplay(actions: Iterable[tuple[Action, Match]]) -> Iterator[Event]:
    """The events a referee would have emitted for a self-played match
    (:func:`engine.selfplay.self_play`): for exports, benches and tests.  Frames are the
    action numbers."""
    first = True
    in_game = False
    games = 0
    for action, match in actions:
        frame = str(action.number)
        if first:
            first = False
            yield Event("match", frame, {"length": match.length, "variant": match.game.variant.name,
                                         "opening": match.opening.value, "jacoby": match.jacoby})
        if not in_game:
            # The match after a game's first action still holds that game (an opening cannot end it).
            in_game, games = True, games + 1
            yield Event("game", frame, {"number": games, "score": list(match.score),
                                        "crawford": match.is_crawford})
        yield from _action_events(action, match, frame)
        if action.result is not None:
            in_game = False
            yield Event("game-over", frame, {
                "winner": action.result.winner.label, "points": action.result.points,
                "kind": action.result.kind.name.lower(), "cube": action.result.cube,
                "score": list(match.score)})
            if match.winner is not None:
                yield Event("match-over", frame, {"winner": match.winner.label, "score": list(match.score)})


def _passed(match: Match) -> bool:
    """Whether the roll just made passed the turn at once: some variants do so when there is
    nothing to play, with no empty play (the referee says "no-play" at the roll)."""
    return match.game.phase is Phase.ON_ROLL


def _action_events(action: Action, match: Match, frame: str) -> Iterator[Event]:
    who = action.player.label
    details: dict[str, Any]
    if action.kind == "opening":
        if action.roll is None:
            yield Event("starter", frame, {"player": who})
            return
        white, black = action.roll.first, action.roll.second
        starter = None if white == black else ("white" if white > black else "black")
        yield Event("opening", frame, {"white": white, "black": black, "starter": starter})
        if starter is not None and _passed(match):
            dice = [white, black] if starter == "white" else [black, white]
            yield Event("no-play", frame, {"player": starter, "dice": dice})
    elif action.kind == "roll":
        assert action.roll is not None
        dice = [action.roll.first, action.roll.second]
        yield Event("roll", frame, {"player": who, "dice": dice})
        if _passed(match):
            yield Event("no-play", frame, {"player": who, "dice": dice})
    elif action.kind == "play":
        assert action.play is not None and action.roll is not None
        dice = [action.roll.first, action.roll.second]
        if not action.play.steps:
            yield Event("no-play", frame, {"player": who, "dice": dice})
            return
        position = action.play.result
        details = {"player": who, "dice": dice, "move": action.play.notation,
                   "position": {"points": list(position.points), "bar": list(position.bar),
                                "off": list(position.off)},
                   "stage": action.stage}
        yield Event("accepted", frame, details)
    elif action.kind == "double":
        yield Event("double", frame, {"player": who, "cube": match.game.cube.value * 2})
    elif action.kind == "take":
        yield Event("take", frame, {"player": who, "cube": match.game.cube.value})
    elif action.kind == "drop":
        assert action.result is not None
        yield Event("drop", frame, {"player": who, "cube": action.result.cube})
    elif action.kind == "announce":
        assert action.roll is not None
        yield Event("announce", frame, {"player": who, "dice": [action.roll.first, action.roll.second]})
    elif action.kind == "doublet":
        assert action.roll is not None
        yield Event("doublet", frame, {"player": who, "value": action.roll.first})
