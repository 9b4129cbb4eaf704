"""The Rebel Space rules engine: pure game logic, no I/O beyond reading card data.

Everything that plays (the terminal UI, agents, simulators, the server) uses this API only:

>>> from rebelspace.engine import new_game, REBEL
>>> game = new_game(seed=7)
>>> game.to_move == REBEL, game.legal_action_texts()
(True, ['draw 1', 'draw 2'])
>>> [type(e).__name__ for e in game.apply("draw 2")]
['Drew', 'CardsSeen']
>>> game.view(REBEL).you.hand_size
7

Agents and environments read a position through ``read`` (``engine/read.py``: typed reads of
the cards, zones and the battle in progress, and ``read.visible``, what a player may see, R5),
never through the state's fields. Beyond playing: events (``events.py``: what happened, with
who may see it), computed values (``values.py``: current ratings, battle values, damage after
shields), the group and casualty rules as questions (``can_start_group``, ``can_join_group``,
``casualty_candidates``), and typed constants (``Step``, ``GroupKind``, ``Ability``, ``Side``
and friends, each defined once with its wire word: ``enums.py``, ``steps.py``, ``actions.py``),
and the card abilities as data (``EFFECTS``, one ``Effect`` per ability: ``abilities/``).
"""

from . import read
from .abilities import EFFECTS, TRICK_ABILITIES, Effect, Pool, When, effect_of
from .actions import BATTLE_CARD_KINDS, Action, ActionKind, ActionSpace, Kind
from .cards import IMPERIAL, REBEL, CardDB, CardType, load_cards
from .enums import PLAYER_NAMES, SIDE_NAMES, GroupKind, GroupKindName, Side
from .errors import (
    ActionError,
    CardDataError,
    IllegalActionError,
    InvalidActionError,
    RebelSpaceError,
    RecordError,
    ScenarioError,
)
from .events import (
    EVENT_TYPES,
    PUBLIC,
    BattleResult,
    EndReason,
    Event,
    Seen,
    reveals,
    visible_events,
)
from .events import render as render_event
from .events import to_json as event_json
from .options import OptionsError, RulesOptions
from .records import load_record, replay, save_record, to_record
from .rules.attack import fits as can_join_group
from .rules.attack import starts as can_start_group
from .rules.battle import battle_result
from .rules.battle import eligible as casualty_candidates
from .scenario import load_scenario, load_scenario_file
from .state import (
    STEP_NAMES,
    GameContext,
    GameState,
    Outcome,
    Step,
    context_for,
    default_cards,
    new_game,
)
from .steps import PhaseName, StepName
from .tables import Ability, Tables
from .values import (
    DamagePreview,
    UnitStats,
    damage,
    damage_preview,
    defenders,
    group_damage,
    group_value,
    rating,
    shields_up,
    unit_stats,
)
from .views import (
    ActionView,
    BattleView,
    GroupView,
    PlayerView,
    SideView,
    UnitView,
)

__all__ = [
    "BATTLE_CARD_KINDS",
    "EFFECTS",
    "EVENT_TYPES",
    "IMPERIAL",
    "PLAYER_NAMES",
    "PUBLIC",
    "REBEL",
    "SIDE_NAMES",
    "STEP_NAMES",
    "TRICK_ABILITIES",
    "Ability",
    "Action",
    "ActionError",
    "ActionKind",
    "ActionSpace",
    "ActionView",
    "BattleResult",
    "BattleView",
    "CardDB",
    "CardDataError",
    "CardType",
    "DamagePreview",
    "Effect",
    "EndReason",
    "Event",
    "GameContext",
    "GameState",
    "GroupKind",
    "GroupKindName",
    "GroupView",
    "IllegalActionError",
    "InvalidActionError",
    "Kind",
    "OptionsError",
    "Outcome",
    "PhaseName",
    "PlayerView",
    "Pool",
    "RebelSpaceError",
    "RecordError",
    "RulesOptions",
    "ScenarioError",
    "Seen",
    "Side",
    "SideView",
    "Step",
    "StepName",
    "Tables",
    "UnitStats",
    "UnitView",
    "When",
    "battle_result",
    "can_join_group",
    "can_start_group",
    "casualty_candidates",
    "context_for",
    "damage",
    "damage_preview",
    "default_cards",
    "effect_of",
    "defenders",
    "event_json",
    "group_damage",
    "group_value",
    "load_cards",
    "load_record",
    "load_scenario",
    "load_scenario_file",
    "new_game",
    "rating",
    "read",
    "render_event",
    "replay",
    "reveals",
    "save_record",
    "shields_up",
    "to_record",
    "unit_stats",
    "visible_events",
]
