"""The typed HTTP client against the real server: players, the queue,
challenges, a match's view, actions and events (long poll and server-sent
events), the player's event stream, and the refusals as ApiError."""

import itertools

import pytest

import botifarra as b
from botifarra.client import (
    ApiError,
    Challenge,
    ChallengeRequest,
    Client,
    Event,
    MatchView,
    PlayerMatch,
    QueueRequest,
    Ticket,
)

ONE_HAND = {"variant": "abarrotada3", "max_hands": 1}


def client(server, name):
    c = Client(f"http://127.0.0.1:{server.port}", log=lambda m: None)
    c.register(name)
    return c


def play_to_the_end(c, match_id):
    """Plays the caller's seat with the house bot `random` until the match
    is over; returns the last view."""
    view = c.match(match_id)
    while not view.over:
        if view.legal_actions:
            view = c.act(match_id, b.decide("random", view.raw, seed=view.version),
                         expected_version=view.version)
        else:
            c.match_events(match_id, after=view.last_seq, wait_ms=2000)
            view = c.match(match_id)
    return view


def test_players_register_and_read_their_profiles(server):
    c = Client(f"http://127.0.0.1:{server.port}", log=lambda m: None)
    reg = c.register("typed-one")
    assert reg.api_key.startswith("bp_") and c.key == reg.api_key
    assert reg.player.name == "typed-one" and reg.player.kind == "bot"
    me = c.me()
    assert me.id == reg.player.id and me.matches_played == 0
    assert c.player(me.id).name == "typed-one"
    with pytest.raises(ApiError) as err:
        c.player("p" + "0" * 25)
    assert err.value.status == 404 and err.value.code == "player_not_found"


def test_a_queue_match_is_read_played_and_followed_through_typed_objects(server):
    c = client(server, "typed-queue")
    ticket = c.queue(QueueRequest("abarrotada3", rated=False, fill_with_house_bots_after_s=0,
                                  fill_level="random"))
    assert isinstance(ticket, Ticket) and ticket.variant == "abarrotada3" and not ticket.rated
    if ticket.status != "matched":
        ticket = c.ticket(ticket.ticket_id, wait_ms=10000)
    assert ticket.status == "matched" and ticket.match_id and ticket.seat is not None
    match_id = ticket.match_id

    # The player's event stream: a fresh connect lists the match under way.
    page = c.player_events(after=0)
    assert [m.match_id for m in page.ongoing] == [match_id]
    assert isinstance(page.ongoing[0], PlayerMatch) and page.ongoing[0].seat == ticket.seat
    assert c.my_matches(status="ongoing").matches[0].match_id == match_id

    view = c.match(match_id)
    assert isinstance(view, MatchView) and view.match_id == match_id
    assert view.raw["match_id"] == match_id and len(view.hand) == 12
    while not view.legal_actions:
        c.match_events(match_id, after=view.last_seq, wait_ms=2000)
        view = c.match(match_id)
    action = view.legal_actions[0]
    after = c.act(match_id, action, expected_version=view.version)
    assert after.version > view.version
    # The same key again: answered as the first time, nothing played twice.
    again = c.act(match_id, action, expected_version=view.version)
    assert again.version == after.version
    # A stale guard without the key is refused with the current version.
    with pytest.raises(ApiError) as err:
        c.act(match_id, action, expected_version=view.version, idempotency_key="other")
    assert err.value.status == 409 and err.value.code == "version_conflict"

    # Events with the state they follow: nothing lost or repeated.
    page = c.match_events(match_id, with_state=True)
    assert isinstance(page.state, MatchView)
    assert all(e.seq > page.state.last_seq for e in page.events)
    first = c.match_events(match_id, after=0).events[0]
    assert isinstance(first, Event) and first.type == "match_created" and first.seq == 1


def test_a_refused_action_carries_the_rule(server):
    c = client(server, "typed-rule")
    ch = c.challenge(ChallengeRequest("abarrotada3", ["house-random", "house-random"],
                                      rules=ONE_HAND))
    assert isinstance(ch, Challenge) and ch.status == "started"
    view = c.match(ch.match_id)
    while not any(a["type"] == "play" for a in view.legal_actions):
        if view.legal_actions:
            view = c.act(ch.match_id, view.legal_actions[0], expected_version=view.version)
        else:
            c.match_events(ch.match_id, after=view.last_seq, wait_ms=2000)
            view = c.match(ch.match_id)
    # A card of the deck that is not in the seat's hand.
    suits, ranks = "OCEB", ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]
    foreign = next(r + s for s in suits for r in ranks if r + s not in view.hand)
    with pytest.raises(ApiError) as err:
        c.act(ch.match_id, {"type": "play", "card": foreign})
    assert err.value.status == 422 and err.value.code == "illegal_move"
    # The local engine refuses a card not held with the same rule.
    game = b.Game(seed=7, variant="abarrotada3")
    while game.phase != "playing":
        game.apply(game.legal_action_ids()[0])
    held = game.view(game.turn)["hand"]
    with pytest.raises(b.RuleRefused) as local:
        game.apply({"type": "play", "card": next(r + s for s in suits for r in ranks if r + s not in held)})
    assert local.value.rule == err.value.rule


def test_challenges_are_made_listed_accepted_declined_and_withdrawn(server):
    a, bob = client(server, "typed-a"), client(server, "typed-b")
    bob_id = bob.me().id
    made = a.challenge(ChallengeRequest("pairs", [bob_id], fill_with="random"))
    assert made.status == "pending" and made.waiting_for == [bob_id]
    assert {s.role for s in made.seats} == {"challenger", "opponent", "bot"}
    incoming = bob.challenges().incoming
    assert [c.challenge_id for c in incoming] == [made.challenge_id]
    assert a.challenges().outgoing[0].challenge_id == made.challenge_id
    started = bob.accept(made.challenge_id)
    assert started.status == "started" and started.match_id
    assert a.get_challenge(made.challenge_id).match_id == started.match_id

    declined = a.challenge(ChallengeRequest("pairs", [bob_id], fill_with="random"))
    assert bob.decline(declined.challenge_id).status == "declined"
    with pytest.raises(ApiError) as err:
        bob.accept(declined.challenge_id)
    assert err.value.status == 409 and err.value.code == "challenge_closed"

    withdrawn = a.challenge(ChallengeRequest("pairs", [bob_id], fill_with="random"))
    assert a.cancel_challenge(withdrawn.challenge_id).status == "cancelled"
    assert bob.challenges().incoming == []


def test_server_sent_events_follow_a_match_and_the_player(server):
    c = client(server, "typed-sse")
    ch = c.challenge(ChallengeRequest("abarrotada3", ["house-random", "house-random"],
                                      rules=ONE_HAND))
    # The player's stream opens with the ongoing matches, unnumbered.
    stream = c.stream_player_events()
    opening = next(stream)
    stream.close()
    assert opening.type == "matches" and opening.seq is None
    assert [m["match_id"] for m in opening.data["ongoing"]] == [ch.match_id]

    # A match stream opens with the state (the view, numbered by its last_seq).
    stream = c.stream_match_events(ch.match_id, with_state=True)
    state = next(stream)
    stream.close()
    assert state.type == "state" and state.data["match_id"] == ch.match_id
    assert state.seq == state.data["last_seq"]

    last = play_to_the_end(c, ch.match_id)
    # Read from the start, the stream ends by itself after match_over.
    events = list(c.stream_match_events(ch.match_id, after=0))
    assert [e.seq for e in events] == list(range(1, last.last_seq + 1))
    assert events[-1].type == "match_over"
    # With the state, a finished match's stream is that state alone.
    [final] = list(c.stream_match_events(ch.match_id, with_state=True))
    assert final.type == "state" and final.data["phase"] == "match_over"
    # The player's stream from its first event reaches that match's end.
    over = next(e for e in c.stream_player_events(after=0) if e.type == "match_over")
    assert over.match_id == ch.match_id and over.data["scores"] == last.scores
