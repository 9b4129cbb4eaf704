"""Hints during a game and the analysis of a game after it, from one player's view (R5).

Both ask a search agent (ISMCTS by registry name) what it would do and read its root: each
legal action's number of visits and mean value, the agent's estimate of the player's chance to
win after that action. ``hint`` adds the reasons a player can check at the table, as numbers:
the battle an attack-phase action leads to (the engine's battle values, R13, R18, R30) and
the damage race (each deck's turns left, ``evaluate.turns_left``, and the cards in hand).
``analyse`` replays a record and, for every decision of one player, compares the action they
played with the search's choice, chess-site style. Everything here is a value: English is
rendered at the edges (terminal, browser) and never parsed back.

Search values are relative: ISMCTS scores a cut-off position by how the race changed since
the root (``evaluate.evaluate`` with the root's score as baseline), so a value of one half
means "as good as now". ``win_probability`` puts the root's own race score back, so that the
numbers shown are the evaluation's estimate of winning, comparable across positions.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from rebelspace.engine import (
    SIDE_NAMES,
    GameContext,
    Kind,
    PlayerView,
    RecordError,
    UnitView,
    replay,
)
from rebelspace.engine.sampling import sample_state
from rebelspace.seeds import ADVICE, agent_seed

from .evaluate import SCALE, score, turns_left
from .registry import make_agent

#: The hint's agent: the strongest the player can wait for, about a second a decision.
HINT_AGENT = "ismcts:normal"
#: The analysis' agent: normal's iterations without its time cap, so that an analysis is the
#: same on a busy machine; about 0.07 s of CPU a decision, 10 s for a game's ~130 decisions.
ANALYSIS_AGENT = "ismcts:250"
#: How many runner-up actions a hint lists.
RUNNERS_UP = 2
#: A hint weighs only the actions the search tried at least this share of as often as its
#: most tried one: a mean over a handful of tries is noise, and a hint that recommends one
#: move at 40% while listing another at 41% coaches nobody (issue 29).
TRIED_SHARE = 0.25
#: How far "done deploying" must lead the best deployment before a hint recommends it while
#: the player has points to spend and units to deploy (4 turns of "done deploying" with 8-11
#: cards in hand and 3 points, at 7% to win, issue 29): 5 points of win chance, the
#: analysis' inaccuracy, more than a normal search's noise between close actions.
DONE_MARGIN = 0.05

Winner = Literal["attacker", "defender", "both"]
#: Why the hint recommends its action: ``best_estimate``, the best estimate of the actions it
#: weighs (``TRIED_SHARE``); ``deploy_over_done``, a deployment although "done deploying" was
#: estimated higher, by less than ``DONE_MARGIN``; ``done_clearly_best``, "done deploying" with
#: points and units to deploy, because it leads every deployment by ``DONE_MARGIN`` or more;
#: ``forced``, the only legal action.
Reason = Literal["best_estimate", "deploy_over_done", "done_clearly_best", "forced"]


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal action as the search saw it. ``win``: the estimated chance that the player
    wins after it (0..1), None when no search valued it; ``visits``: the search iterations
    that tried it (the search plays the most visited)."""

    action: int
    text: str
    win: float | None
    visits: int


@dataclass(frozen=True, slots=True)
class Battle:
    """The battle of ``group`` (1-based) after the action, as the cards in play stand now:
    the attacking group's battle value against its blockers' or target's, and who would win
    (R18; a tie as the rules option ``tie`` says). Battle tricks still to come may change it."""

    group: int
    kind: str  # "ground" or "space"
    attack: int
    defense: int
    winner: Winner
    you_attack: bool


@dataclass(frozen=True, slots=True)
class Race:
    """The damage race (R9: a player whose deck runs out loses): both decks and hands, and
    how many turns each deck lasts at the current rates of drawing and damage in play."""

    your_deck: int
    their_deck: int
    your_hand: int
    their_hand: int
    your_turns: float
    their_turns: float


@dataclass(frozen=True, slots=True)
class Hint:
    """What the hint recommends for ``player`` and why. ``best``: the recommended action;
    ``alternatives``: the runners-up, best estimate first, never above ``best``'s unless
    ``reason`` says why; ``forced``: the only legal action (no search was needed)."""

    player: str
    agent: str
    best: Choice
    alternatives: tuple[Choice, ...]
    battle: Battle | None
    race: Race
    forced: bool
    reason: Reason

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values (lists, strings), as the server sends them."""
        return _plain(asdict(self))


def _plain(data: dict[str, Any]) -> dict[str, Any]:
    plain: dict[str, Any] = json.loads(json.dumps(data))
    return plain


def hint(
    view: PlayerView,
    legal: Sequence[int],
    ctx: GameContext,
    seed: int,
    agent: str = HINT_AGENT,
) -> Hint:
    """The hint for the player of ``view`` (whose decision it is) among ``legal``.

    Reads nothing but ``view``: the search samples the hidden cards (``engine.sampling``),
    and the reasons are the view's own numbers.
    """
    if not legal:
        raise ValueError("a hint needs at least one legal action")
    choices = _search(view, legal, ctx, seed, agent)
    best, reason = recommend(view, choices, ctx)
    # The runners-up a player may compare: never one estimated above the recommendation but
    # the "done deploying" that ``reason`` explains (a rarely tried action's higher mean is
    # left out: it is the noise ``TRIED_SHARE`` keeps out of the choice).
    top = best.win or 0.0
    others = sorted(
        (
            c
            for c in choices
            if c is not best
            and c.win is not None
            and c.visits
            and (c.win <= top or reason == "deploy_over_done")
        ),
        key=lambda c: -(c.win or 0.0),
    )
    return Hint(
        player=view.player,
        agent=agent,
        best=best,
        alternatives=tuple(others[:RUNNERS_UP]),
        battle=battle_after(view, best.action, ctx),
        race=race(view, ctx, seed),
        forced=len(legal) == 1,
        reason="forced" if len(legal) == 1 else reason,
    )


def _weighed(choices: Sequence[Choice]) -> list[Choice]:
    """The valued choices tried at least ``TRIED_SHARE`` as often as the most tried one, in
    the search's order (its choice first)."""
    top = max((c.visits for c in choices), default=0)
    return [c for c in choices if c.win is not None and c.visits and c.visits >= TRIED_SHARE * top]


def recommend(
    view: PlayerView, choices: Sequence[Choice], ctx: GameContext
) -> tuple[Choice, Reason]:
    """The action a hint recommends among ``choices`` (``_search``'s, its choice first), and
    why: the best estimate among the well-tried ones (ties: the search's choice), except that
    "done deploying" with points to spend and units to deploy must lead the best deployment
    by ``DONE_MARGIN``. Without values (one legal action, an agent without a tree): the
    agent's choice."""
    weighed = _weighed(choices)
    if not weighed:
        return choices[0], "best_estimate"
    best = max(weighed, key=lambda c: c.win or 0.0)  # the first of equals: the search's
    decoded = ctx.space.actions
    if decoded[best.action].kind != Kind.DONE_DEPLOYING or not view.deploy_points:
        return best, "best_estimate"
    deploys = [c for c in choices if decoded[c.action].kind == Kind.DEPLOY and c.win is not None]
    if not deploys:
        return best, "best_estimate"  # nothing the points could buy
    deploy = max(deploys, key=lambda c: (c.win or 0.0, c.visits))
    if (best.win or 0.0) - (deploy.win or 0.0) >= DONE_MARGIN:
        return best, "done_clearly_best"
    return deploy, "deploy_over_done"


def _search(
    view: PlayerView, legal: Sequence[int], ctx: GameContext, seed: int, agent: str
) -> list[Choice]:
    """Every legal action with the search's value, the agent's choice first, then by
    visits; a forced action or an agent without a search tree gets no values."""
    text = ctx.space.text
    player = make_agent(agent, ctx, seed)
    chosen = player.act(view, legal)
    root = getattr(player, "last_root", None) if len(legal) > 1 else None
    if root is None:
        rest = [a for a in legal if a != chosen]
        return [Choice(a, text(a), None, 0) for a in [chosen, *rest]]
    baseline = score(sample_state(view, ctx, seed), _seat(view))
    choices = []
    for a in legal:
        child = root.children.get(a)
        visits = child.visits if child is not None else 0
        win = win_probability(child.reward / visits, baseline) if child and visits else None
        choices.append(Choice(a, text(a), win, visits))
    choices.sort(key=lambda c: (c.action != chosen, -c.visits, -(c.win or 0.0)))
    return choices


def win_probability(value: float, baseline: float) -> float:
    """A search value (relative to the root's race score ``baseline``) as the evaluation's
    absolute chance of winning: ``evaluate`` is a logistic of the race score less the
    baseline, so adding the baseline back to the value's logit undoes it. Values of 0 and 1
    (games played out) are kept just inside, where the logit is finite."""
    v = min(max(value, 1e-4), 1.0 - 1e-4)
    logit = math.log(v / (1.0 - v)) + baseline / SCALE
    return 1.0 / (1.0 + math.exp(-logit))


def _seat(view: PlayerView) -> int:
    if view.player not in SIDE_NAMES:
        raise ValueError(f"advice is for a player's view, not a {view.player!r} view")
    return SIDE_NAMES.index(view.player)


def race(view: PlayerView, ctx: GameContext, seed: int) -> Race:
    """The damage race from ``view``. ``turns_left`` reads only public numbers (deck and hand
    sizes, units in play), so any state sampled from the view gives the same race."""
    state = sample_state(view, ctx, seed)
    me = _seat(view)
    return Race(
        your_deck=view.you.deck_size,
        their_deck=view.opponent.deck_size,
        your_hand=view.you.hand_size,
        their_hand=view.opponent.hand_size,
        your_turns=round(turns_left(state, me), 2),
        their_turns=round(turns_left(state, 1 - me), 2),
    )


def battle_after(view: PlayerView, action: int, ctx: GameContext) -> Battle | None:
    """The battle ``action`` shapes (a block, a target, a unit added to a group), with the
    values the rules would compare; None for any other action."""
    act = next((a for a in view.legal_actions if a.id == action), None)
    battle = view.battle
    if act is None or battle is None or act.group is None or act.group > len(battle.groups):
        return None
    group = battle.groups[act.group - 1]
    attack = group.attack_value
    defense = group.defense_value or 0
    you_attack = view.active_player == view.player
    if act.kind == "block" and act.card is not None:
        unit = _unit(view.you.active + view.you.inactive, act.card, act.copy)
        if unit is None:
            return None
        defense += _rating(unit, group.kind) + battle.defense_bonus
    elif act.kind == "target" and act.target is not None:
        unit = _unit(view.opponent.active + view.opponent.inactive, act.target, act.copy)
        if unit is None:
            return None
        defense = _rating(unit, group.kind) + battle.defense_bonus
    elif act.kind == "add" and act.card is not None:
        unit = _unit(view.you.active + view.you.inactive, act.card, act.copy)
        if unit is None or not group.blockers and group.target is None:
            return None  # an unblocked group has no battle yet: only its damage counts
        attack += _rating(unit, group.kind) + battle.attack_bonus
    else:
        return None
    return Battle(
        act.group, str(group.kind), attack, defense, _winner(attack, defense, ctx), you_attack
    )


def _unit(units: Sequence[UnitView], name: str, copy: int | None) -> UnitView | None:
    """The ``copy``-th unit named ``name`` (Active Zone first, as ``UnitView.copy`` counts)."""
    named = [u for u in units if u.name == name]
    if not named:
        return None
    return next((u for u in named if u.copy == copy), named[0])


def _rating(unit: UnitView, kind: str) -> int:
    return unit.space if kind == "space" else unit.ground


def _winner(attack: int, defense: int, ctx: GameContext) -> Winner:
    """R18: the higher battle value wins; a tie goes as the rules option ``tie`` says."""
    if attack != defense:
        return "attacker" if attack > defense else "defender"
    tie = ctx.options.tie
    return "attacker" if tie == "attacker" else "defender" if tie == "defender" else "both"


# ----------------------------------------------------------------------------- analysis

Verdict = Literal["best", "good", "inaccuracy", "mistake", "blunder"]

#: A decision's loss is how much the player's estimated chance of winning fell short of the
#: search's choice, in points of probability. Thresholds as chess sites name them (lichess
#: uses 10, 20 and 30 points of its -1..1 "winning chances", that is 5, 10 and 15 points of
#: win probability); ours are wider at the top, as a 250-iteration search values a rarely
#: tried action within several points: an inaccuracy is a small slip, a mistake gives away
#: a tenth of the game, a blunder a fifth or more.
INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.20
THRESHOLDS: dict[str, float] = {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER}


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the analysed player. ``ply``: the number of actions before it (the
    replay's step); ``before``: the estimated chance of winning with the search's choice;
    ``after``: with the action played; ``alternative``: the best other action the search
    found (its choice, or its runner-up when the player played its choice)."""

    ply: int
    turn: int
    played: Choice
    alternative: Choice | None
    before: float
    after: float
    loss: float
    verdict: Verdict


@dataclass(frozen=True, slots=True)
class Analysis:
    """Every decision of ``side`` in a game (forced ones left out), in order."""

    side: str
    agent: str
    winner: str | None
    decisions: tuple[Decision, ...]
    thresholds: dict[str, float]

    def worst(self, n: int = 5) -> list[Decision]:
        """The ``n`` decisions that lost the most, worst first (ties: earlier first); only
        those the thresholds call an inaccuracy or worse."""
        bad = [d for d in self.decisions if d.loss >= THRESHOLDS["inaccuracy"]]
        return sorted(bad, key=lambda d: (-d.loss, d.ply))[:n]

    def counts(self) -> dict[str, int]:
        """How many decisions got each verdict."""
        out: dict[str, int] = dict.fromkeys(("best", "good", *THRESHOLDS), 0)
        for d in self.decisions:
            out[d.verdict] += 1
        return out

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["counts"] = self.counts()
        data["worst"] = [d.ply for d in self.worst()]
        return _plain(data)


def verdict(loss: float, best: bool) -> Verdict:
    """The name of a decision that lost ``loss`` (``best``: it was the search's choice)."""
    if best:
        return "best"
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    return "inaccuracy" if loss >= INACCURACY else "good"


def analyse(
    record: dict[str, Any],
    side: str,
    *,
    agent: str = ANALYSIS_AGENT,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """The analysis of ``side``'s decisions ("rebel" or "imperial") in a game record.

    The game is replayed from the record; at each decision of ``side`` with more than one
    legal action the search runs from that player's view only, with a seed derived from the
    record's seed and the ply, so the same record gives the same analysis. ``progress(done,
    total)`` is called after each action replayed.
    """
    if side not in SIDE_NAMES:
        raise ValueError(f"side must be one of {SIDE_NAMES}, got {side!r}")
    seat = SIDE_NAMES.index(side)
    if not isinstance(record, dict):
        raise RecordError("record: a record is a JSON object")
    replay(record, log=False)  # every check of the record, before any search
    actions: list[str] = record["actions"]
    game = replay(dict(record, actions=[], action_ids=[], result=None), log=False)
    decisions = []
    for ply, text in enumerate(actions):
        legal = game.legal_actions()
        if game.to_move == seat and len(legal) > 1:
            played = game.action_space.parse(text)
            view = game.view(seat)
            seed = agent_seed(game.seed, ADVICE + ply)
            decisions.append(
                _judge(ply, view, legal, game.ctx, seed=seed, agent=agent, played=int(played))
            )
        game.apply(text)
        if progress is not None:
            progress(ply + 1, len(actions))
    winner = game.outcome.winner_name.lower() if game.outcome is not None else None
    return Analysis(side, agent, winner, tuple(decisions), dict(THRESHOLDS))


def _judge(
    ply: int,
    view: PlayerView,
    legal: Sequence[int],
    ctx: GameContext,
    *,
    seed: int,
    agent: str,
    played: int,
) -> Decision:
    choices = _search(view, legal, ctx, seed, agent)
    top = choices[0]
    mine = next(c for c in choices if c.action == played)
    other = next((c for c in choices if c.action != played and c.visits > 0), None)
    before = top.win if top.win is not None else 0.5
    # Not reached with ISMCTS, which tries every root action once before it repeats any; an
    # action no search valued is not judged.
    after = mine.win if mine.win is not None else before
    is_best = played == top.action
    loss = 0.0 if is_best else max(0.0, before - after)
    return Decision(
        ply,
        view.turn,
        mine,
        other,
        round(before, 4),
        round(after, 4),
        round(loss, 4),
        verdict(loss, is_best),
    )
