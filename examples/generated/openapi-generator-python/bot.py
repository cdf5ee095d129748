"""A bot written against the Python client openapi-generator (`-g python`)
generates from the server's OpenAPI document, run by scripts/clients.

It plays as a registered player with its API key: it registers
(`POST /v1/players`), creates a match seating itself against three house
bots, and plays it to the end from its player event stream alone
(`GET /v1/players/me/events`, a long poll): each `your_turn` event names
the match, the seat and the version; the bot reads the match's view and
posts the first of the view's `legal_actions` unchanged, guarded by the
view's version (`If-Match`). A long poll that ends with no event makes it
look at the view itself, so a turn is never lost. Everything is typed by
the document: no casts, no hand-built JSON.

    python3 bot.py http://127.0.0.1:8080 [target]

with the generated package `botifarra_og` importable (scripts/clients
puts it on PYTHONPATH).
"""

import sys

from botifarra_og import ApiClient, Configuration
from botifarra_og.api.actions_api import ActionsApi
from botifarra_og.api.matches_api import MatchesApi
from botifarra_og.api.players_api import PlayersApi
from botifarra_og.models import (
    CreateMatch,
    CreatePlayer,
    HouseBot,
    MatchStartedEvent,
    Phase,
    PlayerKind,
    PlayerMatchOverEvent,
    Rules,
    SeatKind,
    SeatSpec,
    YourTurnEvent,
)


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    target = int(sys.argv[2]) if len(sys.argv) > 2 else 20

    registered = PlayersApi(ApiClient(Configuration(host=base))).create_player(
        CreatePlayer(name="og-python-bot", kind=PlayerKind.BOT)
    )
    keyed = ApiClient(Configuration(host=base, access_token=registered.api_key))
    players, matches, actions = PlayersApi(keyed), MatchesApi(keyed), ActionsApi(keyed)
    house = SeatSpec(kind=SeatKind.BOT, bot=HouseBot.EASY)
    created = matches.create_match(
        CreateMatch(
            rules=Rules(target=target),
            seats=[SeatSpec(player=registered.player.id), house, house, house],
            auto_deal=True,
        )
    )
    match_id = created.match_id
    print(f"player {registered.player.id} created match {match_id}")

    after, acted_at, moves, scores = 0, -1, 0, None
    while scores is None:
        page = players.player_events(after=after, wait_ms=5000)
        turn = page.events == []
        for wrapped in page.events:
            event = wrapped.actual_instance
            if isinstance(event, (MatchStartedEvent, YourTurnEvent)) and event.match_id == match_id:
                turn = True
            elif isinstance(event, PlayerMatchOverEvent) and event.match_id == match_id:
                scores = event.scores
        after = page.last_seq
        if scores is not None or not turn:
            continue
        # The view says whose turn it is now and what that seat may do:
        # act once per version, only when the turn is the bot's seat.
        view = matches.get_match(match_id)
        if view.phase == Phase.MATCH_OVER:
            continue
        if view.turn != view.you or view.version <= acted_at or not view.legal_actions:
            continue
        actions.post_action(match_id, view.legal_actions[0], if_match=f'"{view.version}"')
        acted_at = view.version
        moves += 1

    view = matches.get_match(match_id)
    if view.phase != Phase.MATCH_OVER or view.scores != scores:
        sys.exit(f"the match did not end as its event said: {view.phase} {view.scores} vs {scores}")
    # `winner` is a plain value: a side number or "draw".
    print(f"openapi-generator python bot: {moves} moves posted, final score {scores[0]}-{scores[1]}, winner {view.winner}")


if __name__ == "__main__":
    main()
