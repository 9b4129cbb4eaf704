"""Hints for the seat to move and analyses of finished games (``agents.advice``), served.

Both are searches of pure Python, so they run in processes, never on the event loop: a hint
(about as long as one of the computer's moves) in the computer players' pool, an analysis
(seconds: one search per decision of a whole game) in a one-process pool of its own, so that
it never holds up the computer's moves in other games. Both are rate-limited per client
address, and a finished game's analysis is kept once made (it cannot change).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from rebelspace.agents.advice import ANALYSIS_AGENT, HINT_AGENT, analyse, hint
from rebelspace.engine import PlayerView, RulesOptions, context_for, to_record
from rebelspace.seeds import ADVICE, agent_seed

from .computer import ComputerPlayers
from .games import SEATS, ServerError, Session, cards_from_text
from .limits import Rate, RateLimits

#: Per client address: hints, 10 at once and then 20 a minute (a person asks a few a turn);
#: analyses, 3 at once and then 3 a minute (each costs seconds of a core).
HINT_RATE = Rate(10, 20)
ANALYSIS_RATE = Rate(3, 3)
ANALYSES_KEPT = 128  # finished games' analyses kept in memory, by (game, side)


def hint_job(
    agent: str,
    rules: dict[str, object],
    cards: str,
    view: PlayerView,
    legal: tuple[int, ...],
    seed: int,
) -> dict[str, Any]:
    """One hint as JSON (the process pool's entry point: every argument pickles)."""
    ctx = context_for(cards_from_text(cards), RulesOptions.from_dict(rules))
    return hint(view, legal, ctx, seed, agent).to_dict()


def analysis_job(record: dict[str, Any], side: str, agent: str) -> dict[str, Any]:
    return analyse(record, side, agent=agent).to_dict()


class Advisor:
    """The server's hints and analyses; ``computer``: the pool the computer's moves use."""

    def __init__(
        self,
        computer: ComputerPlayers,
        *,
        hint_agent: str = HINT_AGENT,
        analysis_agent: str = ANALYSIS_AGENT,
        analyst: ComputerPlayers | None = None,
    ) -> None:
        self.computer = computer
        self.analyst = analyst or ComputerPlayers(processes=1)
        self.hint_agent = hint_agent
        self.analysis_agent = analysis_agent
        self.rates = RateLimits(
            {"hint": (HINT_RATE, "hint requests"), "analysis": (ANALYSIS_RATE, "analysis requests")}
        )
        self._analyses: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()

    def check_rate(self, what: str, address: str) -> None:
        """Spend one of the address's ``what`` ("hint", "analysis") tokens, or refuse (429)."""
        self.rates.check(what, address)

    async def hint(self, session: Session, seat: int, address: str) -> dict[str, Any]:
        """The hint for ``seat``, whose decision it must be; its answer names the version it
        was made at (a hint for a position since changed is stale)."""
        state = session.state
        if session.over:
            raise ServerError(409, "conflict", "the game is over")
        session.check_turn(seat)
        self.check_rate("hint", address)
        version = session.version
        row = session.row
        seed = agent_seed(row.seed, ADVICE + session.plies)
        data = await self.computer.run(
            hint_job,
            self.hint_agent,
            row.rules,
            row.cards,
            state.view(seat),
            tuple(state.legal_actions()),
            seed,
        )
        return {"type": "hint", "game_id": session.id, "version": version, "hint": data}

    async def analysis(self, session: Session, side: str | None, address: str) -> dict[str, Any]:
        """The analysis of ``side``'s decisions (default: the person's side against the
        computer, else the Rebel's) in a finished game."""
        if not session.over:
            raise ServerError(
                409, "conflict", "an analysis is only made once the game is over (as a replay)"
            )
        if side is None:
            seat = session.computer_seat
            side = SEATS[1 - seat] if seat is not None else SEATS[0]
        if side not in SEATS:
            raise ServerError(400, "bad_request", f'"side" must be one of {", ".join(SEATS)}')
        key = (session.id, side)
        data = self._analyses.get(key)
        if data is None:
            self.check_rate("analysis", address)
            record = to_record(session.state)
            data = await self.analyst.run(analysis_job, record, side, self.analysis_agent)
            self._analyses[key] = data
            while len(self._analyses) > ANALYSES_KEPT:
                self._analyses.popitem(last=False)
        return {"type": "analysis", "game_id": session.id, "analysis": data}

    def close(self) -> None:
        self.analyst.close()
