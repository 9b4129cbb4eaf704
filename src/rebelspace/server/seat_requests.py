"""What a seat asks of its game besides connecting: its moves, undo (at once against the
computer, else a request the other player answers), resigning and rematches.

Owns the checks and writes of each request and who is told (the other seat's ``undo_request``
and ``undo_answer``, a state push to everyone). Apart from the registry, which finds the game
and its seats, because these are the game's own rules of conduct (docs/protocol.md): each
checks the version it was asked at, so a repeated or stale request is refused.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from . import hub
from .games import SEATS, ServerError, Session, UndoRequest, stale
from .messages import Pushed
from .store import StaleVersionError

if TYPE_CHECKING:
    from .manager import GameServer


class SeatRequests:
    """A seat's moves, undo requests and answers, resignation and rematch offers."""

    def __init__(self, server: GameServer) -> None:
        self.server = server

    def act(self, session: Session, seat: int, action: object, version: object) -> Pushed:
        """Apply and store a seat's action chosen at ``version``, push the new state; returns
        the messages pushed (``broadcast``), which the REST answer may reuse (``answer``)."""
        server = self.server
        server.clocks.check_flag(session)  # a decision after the flag fell is too late
        session.act(seat, action, version, server.store)
        server.clocks.arm_timer(session)
        texts = hub.broadcast(session)
        server.turns.start_computer(session)  # a task: it runs after this request is answered
        return texts

    def request_undo(self, session: Session, seat: int, version: object = None) -> None:
        """Undo against the computer, a request to the other player otherwise. With a
        ``version`` (the state it was asked at), a repeated or stale request is refused."""
        if version is not None:
            session.check_version(version)
        keep, why = session.undo_target(seat)
        if keep is None:
            raise ServerError(409, "conflict", f"cannot undo: {why}")
        if session.computer_seat is not None:
            session.take_back(keep, self.server.store)
            hub.broadcast(session)
            return
        if session.undo is not None:
            raise ServerError(409, "conflict", "an undo request is already waiting for an answer")
        if session.token_hashes[1 - seat] is None:
            raise ServerError(409, "conflict", "nobody holds the other seat to agree to the undo")
        session.ask_undo(UndoRequest(seat, keep), self.server.store)
        hub.send_to(session, 1 - seat, {"type": "undo_request", "from": SEATS[seat]})
        hub.broadcast(session)

    def answer_undo(
        self, session: Session, seat: int, accept: bool, version: object = None
    ) -> None:
        """Accept or refuse the other seat's undo request (every change of the game clears
        it, so a request still here is about the current state)."""
        if version is not None:
            session.check_version(version)
        request = session.undo
        if request is None or request.seat == seat:
            raise ServerError(409, "conflict", "there is no undo request for you to answer")
        if accept:
            session.take_back(request.keep, self.server.store)
            self.server.clocks.arm_timer(session)
        else:
            session.ask_undo(None, self.server.store)
        hub.send_to(
            session, request.seat, {"type": "undo_answer", "from": SEATS[seat], "accept": accept}
        )
        hub.broadcast(session)

    def resign(self, session: Session, seat: int, version: object = None) -> None:
        """The seat gives up: the other side wins (``result.reason`` "resign")."""
        if version is not None:
            session.check_version(version)
        self.server.clocks.check_flag(session)
        if session.over:
            raise ServerError(409, "conflict", "the game is over")
        self.server.clocks.end(session, 1 - seat, "resign")

    def rematch(self, session: Session, seat: int, offer: bool, version: object = None) -> None:
        """Offer or accept (``offer``), withdraw or decline (not ``offer``) a rematch."""
        if version is not None:
            session.check_version(version)
        if not session.over:
            raise ServerError(409, "conflict", "a rematch is for a game that is over")
        if session.rematch_id is not None:
            if offer:
                return  # accepted already: offering again changes nothing
            raise ServerError(409, "conflict", "the rematch has already started")
        try:
            if not offer:
                if session.rematch_seat is not None:
                    self._set_offer(session, None)
                return
            if session.mode == "online" and session.rematch_seat in (None, seat):
                if session.rematch_seat is None:
                    self._set_offer(session, seat)
                return
            self._start_rematch(session)
        except StaleVersionError as e:  # only a second writer on the database gets here
            raise stale(e.version) from None

    def _set_offer(self, session: Session, seat: int | None) -> None:
        self.server.store.set_rematch_offer(session.id, session.version, seat)
        session.version += 1
        session.rematch_seat = seat
        hub.broadcast(session)

    def _start_rematch(self, session: Session) -> None:
        """The new game: same mode, rules, cards, computer and clock, a fresh seed and the
        sides swapped; each token opens the other side's seat (its hash moves over)."""
        row = session.row
        game_id = secrets.token_urlsafe(9)
        self.server.store.create_game(
            game_id=game_id,
            mode=row.mode,
            seed=secrets.randbelow(2**62),
            rules=row.rules,
            cards=row.cards,
            agent=row.agent,
            computer_seat=None if row.computer_seat is None else 1 - row.computer_seat,
            creator_seat=1 - row.creator_seat,
            invite=None,  # both seats are taken
            token_hashes=(session.token_hashes[1], session.token_hashes[0]),
            clock=row.clock,
            rematch_of=(session.id, session.version),
        )
        session.version += 1
        session.rematch_id, session.rematch_seat = game_id, None
        self.server.registry.get(game_id)  # loaded: the computer moves first if it is its turn
        hub.broadcast(session)
