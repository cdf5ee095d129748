"""A bot written against the Python client generated from the server's
OpenAPI document (openapi-python-client), run by scripts/clients.

It creates a match of four remote seats and plays all four: it follows the
match from its events alone (read as seat 0, since the generated client
types every read that takes a token as needing one) and, when an event
hands the turn to a seat, asks that seat's legal moves and posts the first
one through `/actions` exactly as listed, guarded by the event's version
(`If-Match`). Everything is typed by the document: no casts, no hand-built
JSON.

    python3 bot.py http://127.0.0.1:8080 [target]

with the generated package `botifarra_client` importable (scripts/clients
puts it on PYTHONPATH).
"""

import sys

from botifarra_client import AuthenticatedClient, Client
from botifarra_client.api.actions import post_action
from botifarra_client.api.matches import create_match, events, get_match, legal_moves
from botifarra_client.models import (
    CreateMatch,
    Created,
    EventsPage,
    HandDealtEvent,
    HandScoredEvent,
    LegalMoves,
    MatchOverEvent,
    MatchView,
    Phase,
    Rules,
    SeatSpec,
    TrumpChosenEvent,
)
from botifarra_client.types import Unset


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    target = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    created = create_match.sync(
        client=Client(base_url=base, raise_on_unexpected_status=True),
        body=CreateMatch(
            rules=Rules(target=target, first_dealer=0),
            seats=[SeatSpec(), SeatSpec(), SeatSpec(), SeatSpec()],
            auto_deal=True,
        ),
    )
    if not isinstance(created, Created):
        sys.exit(f"create: {created}")
    match_id = created.match_id
    seats = {
        t.seat: AuthenticatedClient(base_url=base, token=t.token, raise_on_unexpected_status=True)
        for t in created.tokens
    }

    after, acted_at, moves, over = 0, -1, 0, False
    while not over:
        page = events.sync(match_id, client=seats[0], after=after, wait_ms=5000)
        if not isinstance(page, EventsPage):
            sys.exit(f"events: {page}")
        newest = max((e.version for e in page.events if not isinstance(e.version, Unset)), default=-1)
        for e in page.events:
            after = e.seq
            if isinstance(e, HandDealtEvent):
                print(f"hand {e.hand_number} dealt by seat {e.dealer}")
            elif isinstance(e, TrumpChosenEvent):
                print(f"seat {e.seat} names {e.trump.value}")
            elif isinstance(e, HandScoredEvent):
                print(f"hand {e.result.hand_number}: points {e.result.points}, recorded {e.result.recorded}")
            elif isinstance(e, MatchOverEvent):
                print(f"match over: winner {e.winner}, scores {e.scores}")
                over = True
        if over or not page.events:
            continue
        # Every event of a move carries the version it produced and the
        # seat to act after it; act once per version, on the newest.
        last = page.events[-1]
        if isinstance(last.version, Unset) or not isinstance(last.turn, int):
            continue
        if last.version != newest or last.version <= acted_at:
            continue
        seat = seats[last.turn]
        legal = legal_moves.sync(match_id, client=seat)
        if not isinstance(legal, LegalMoves) or not legal.actions:
            sys.exit(f"legal-moves: {legal}")
        posted = post_action.sync(match_id, client=seat, body=legal.actions[0], if_match=f'"{last.version}"')
        if not isinstance(posted, MatchView):
            sys.exit(f"action: {posted}")
        acted_at = last.version
        moves += 1

    view = get_match.sync(match_id, client=seats[0])
    if not isinstance(view, MatchView) or view.phase != Phase.MATCH_OVER or view.last_seq != after:
        sys.exit(f"the match did not end where its events did: {view}")
    print(f"python bot: {moves} moves posted, {after} events read, winner {view.winner}")


if __name__ == "__main__":
    main()
