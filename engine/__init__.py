"""pipgammon's rules engine: pure Python, no I/O, no hardware.

>>> from engine import Position, Player, Roll, legal_plays
>>> legal_plays(Position.start(), Player.WHITE, Roll(3, 1)).parse("8/5 6/5").notation
'8/5 6/5'
"""

from engine.buttons import Button, ButtonError, ButtonEvent, Press
from engine.cube import Cube
from engine.dice import Roll
from engine.errors import (
    DiceError,
    EngineError,
    IllegalActionError,
    IllegalPlayError,
    NotationError,
    PositionError,
    UnknownVariantError,
)
from engine.game import Game, OpeningRule, Phase
from engine.gnubg_id import MatchKey, position_from_id, position_id
from engine.lights import LAMPS, Colour, Light, LightPlan, LightPlanError, Pattern
from engine.match import Match
from engine.movegen import LegalPlays, legal_plays
from engine.play import Play
from engine.player import Player
from engine.position import Position
from engine.referee import Mode, OpeningChoice, Referee, RefereeConfig, RefereeError
from engine.result import GameResult, ResultKind
from engine.step import BAR, OFF, Step
from engine.variants import VARIANTS, Variant, find_variant

__all__ = [
    "BAR",
    "LAMPS",
    "OFF",
    "VARIANTS",
    "Button",
    "ButtonError",
    "ButtonEvent",
    "Colour",
    "Cube",
    "DiceError",
    "EngineError",
    "Game",
    "GameResult",
    "IllegalActionError",
    "IllegalPlayError",
    "LegalPlays",
    "Light",
    "LightPlan",
    "LightPlanError",
    "Match",
    "MatchKey",
    "Mode",
    "NotationError",
    "OpeningChoice",
    "OpeningRule",
    "Pattern",
    "Phase",
    "Play",
    "Player",
    "Position",
    "PositionError",
    "Press",
    "Referee",
    "RefereeConfig",
    "RefereeError",
    "ResultKind",
    "Roll",
    "Step",
    "UnknownVariantError",
    "Variant",
    "find_variant",
    "legal_plays",
    "position_from_id",
    "position_id",
]
