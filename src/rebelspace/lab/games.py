"""One balance game and the statistics the lab keeps of it.

Game ``i`` of a run is game ``i`` of ``play.schedule``'s series: between two different agents,
games ``2k`` and ``2k + 1`` share their deal with the agents' sides swapped (duplicate format),
and the pair is one *unit* of the statistics; in a mirror run (one agent on both sides) every
game is a new deal and its own unit. It is played by ``play.match`` like every other game. A
game depends on the settings and its index only, so every worker, on any machine, plays it the
same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rebelspace.engine import GameContext, GameState, Kind, context_for
from rebelspace.play import play_match, schedule

from .settings import RunSettings

#: Action kinds that put a card from the hand into play: what "played" counts.
PLAY_KINDS = frozenset(
    (Kind.DEPLOY, Kind.ATTACH, Kind.PLAY_TRICK, Kind.PLAY_PSION, Kind.PLAY_END, Kind.PLAY_END_ON)
)


@dataclass(frozen=True, slots=True)
class GameRow:
    """One finished game, with enough to rebuild any statistic of the report."""

    index: int
    deal_seed: int
    rebel_agent: str
    imperial_agent: str
    winner: int  # 0 Rebel, 1 Imperial
    turns: int
    decisions: int
    reason: str  # the engine's words
    ending: str  # a category of the reason, for "how games end"
    first_player: int
    plays: dict[str, int]  # card name -> copies played from hand (either side; names are unique)
    kills: dict[str, int]  # card name -> enemy units destroyed in its battles (engine/tally.py)
    damage: dict[str, int]  # card name -> damage it got through
    deck_sizes: list[tuple[int, int]]  # (Rebel, Imperial) deck sizes at each turn's start

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


def ending_of(reason: str) -> str:
    """Sort the engine's end reasons into a few kinds a designer can read at a glance."""
    if reason.endswith("drew the last card of their deck"):
        return "a player drawing their last card"
    if "deck emptied by" in reason:
        return "a card ability emptying a deck"
    if "after the starting hand" in reason:
        return "an empty deck at setup"
    return "battle damage emptying a deck"


def deal_seed(settings: RunSettings, index: int) -> int:
    return schedule.deal_seed(settings.seed, index, twinned=settings.twinned)


def unit_of(settings: RunSettings, index: int) -> int:
    """The independent unit (deal) game ``index`` belongs to."""
    return schedule.unit_of(index, twinned=settings.twinned)


def sides(settings: RunSettings, index: int) -> tuple[str, str]:
    """(Rebel agent, Imperial agent) of game ``index``."""
    a, b = settings.agents
    return (a, b) if schedule.first_is_rebel(index) else (b, a)


def play_game(settings: RunSettings, index: int, ctx: GameContext | None = None) -> GameRow:
    ctx = ctx or context_for(settings.cards(), settings.rules_options())
    seed = deal_seed(settings, index)
    rebel, imperial = sides(settings, index)
    names = ctx.tables.names
    space = ctx.space
    plays: dict[str, int] = {}

    def count_plays(_game: GameState, action: int) -> None:
        decoded = space[action]
        if decoded.kind in PLAY_KINDS:
            name = names[decoded.card]
            plays[name] = plays.get(name, 0) + 1

    match = play_match(rebel, imperial, seed, ctx, tally=True, observe=count_plays)
    game = match.game
    assert game.outcome is not None and game.tally is not None
    tally = game.tally
    return GameRow(
        index=index,
        deal_seed=seed,
        rebel_agent=rebel,
        imperial_agent=imperial,
        winner=game.outcome.winner,
        turns=game.turn,
        decisions=match.decisions,
        reason=game.outcome.reason,
        ending=ending_of(game.outcome.reason),
        first_player=match.first_player,
        plays=plays,
        kills=_by_name(names, tally.kills),
        damage=_by_name(names, tally.damage),
        deck_sizes=list(tally.deck_sizes),
    )


def play_batch(settings: RunSettings, indices: Sequence[int]) -> list[GameRow]:
    ctx = context_for(settings.cards(), settings.rules_options())
    return [play_game(settings, i, ctx) for i in indices]


def _by_name(names: Sequence[str], counts: Sequence[int]) -> dict[str, int]:
    return {names[i]: n for i, n in enumerate(counts) if n}
