"""The Rebel Space rules engine: pure game logic, no I/O beyond reading card data.

Everything that plays (the terminal UI, agents, simulators, the server) uses this API only:

>>> from rebelspace.engine import new_game, REBEL
>>> game = new_game(seed=7)
>>> game.to_move == REBEL, game.legal_action_texts()
(True, ['draw 1', 'draw 2'])
>>> game.apply("draw 2")
>>> game.view(REBEL).you.hand_size
7
"""

from .actions import Action, ActionSpace, Kind
from .cards import IMPERIAL, REBEL, CardDB, CardType, load_cards
from .errors import (
    CardDataError,
    IllegalActionError,
    RebelSpaceError,
    RecordError,
    ScenarioError,
)
from .options import OptionsError, RulesOptions
from .records import load_record, replay, save_record, to_record
from .scenario import load_scenario, load_scenario_file
from .state import PLAYER_NAMES, GameContext, GameState, Outcome, context_for, new_game
from .views import PlayerView

__all__ = [
    "IMPERIAL",
    "PLAYER_NAMES",
    "REBEL",
    "Action",
    "ActionSpace",
    "CardDB",
    "CardDataError",
    "CardType",
    "GameContext",
    "GameState",
    "IllegalActionError",
    "Kind",
    "OptionsError",
    "Outcome",
    "PlayerView",
    "RebelSpaceError",
    "RecordError",
    "RulesOptions",
    "ScenarioError",
    "context_for",
    "load_cards",
    "load_record",
    "load_scenario",
    "load_scenario_file",
    "new_game",
    "replay",
    "save_record",
    "to_record",
]
