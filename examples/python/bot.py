#!/usr/bin/env python3
"""A complete Botifarra client bot using only the Python standard library.

It creates a match against three house bots, then plays its seat until the
match is over: it reads its view, and when it has legal actions it picks one
with a simple strategy and posts it; otherwise it long-polls the event feed.

With --lobby it plays as a registered bot player instead: it registers,
joins the oldest public table with an open seat (or opens a table against
three house bots and takes its open seat), then follows its player event
stream and plays whenever the stream says it is its turn.

With --queue it registers (or uses the key in env BOTIFARRA_KEY), queues
for a rated match (env QUEUE_VARIANT, default pairs; env QUEUE_FILL_S: fill
the empty seats with house bots after that many seconds), waits on its
ticket until it is matched, then plays the match as --lobby does.

Usage: python3 bot.py [--lobby | --queue] [BASE_URL]   (or env BOTIFARRA_URL;
default http://127.0.0.1:8080)
"""

import json
import os
import sys
import time
import urllib.error
import urllib.request

# Order inside a suit, strongest first (docs/rules.md section 1), and card points.
ORDER = [9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2]
POINTS = {9: 5, 1: 4, 12: 3, 11: 2, 10: 1}


def request(base, method, path, token=None, body=None):
    """One JSON request; returns (status, parsed body)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Accept", "application/json")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as err:
        payload = err.read()
        try:
            parsed = json.loads(payload)
        except ValueError:
            parsed = {"detail": payload.decode(errors="replace")}
        if err.code == 429:
            time.sleep(float(err.headers.get("Retry-After", "1")))
        return err.code, parsed


def parse(card):
    """'12B' -> (12, 'B')."""
    return int(card[:-1]), card[-1]


def strength(card):
    """Higher is stronger inside a suit."""
    return len(ORDER) - ORDER.index(parse(card)[0])


def beats(card, best, trump):
    """Whether `card` beats the winning card `best` (docs/rules.md section 4)."""
    (_, suit), (_, best_suit) = parse(card), parse(best)
    if suit == best_suit:
        return strength(card) > strength(best)
    return suit == trump


def winning_card(trick, trump):
    """The card winning the trick so far, or None when nothing is played."""
    best = None
    for played in trick.get("cards", []) if trick else []:
        if best is None or beats(played["card"], best, trump):
            best = played["card"]
    return best


def choose(view):
    """The example strategy: trump = the longest suit; pass on doubles; play
    the highest legal card when it can win the trick, else the lowest."""
    legal = view["legal_actions"]
    kinds = {a["type"] for a in legal}
    hand = view.get("hand") or []
    if "trump" in kinds:
        counts = {s: sum(1 for c in hand if c.endswith(s)) for s in "OCEB"}
        suits = [a for a in legal if a["choice"] in counts]
        if suits:
            return max(suits, key=lambda a: counts[a["choice"]])
        return legal[0]
    if "double" in kinds:
        return next((a for a in legal if a["call"] == "pass"), legal[0])
    if "play" in kinds:
        trump = view.get("trump")
        trump = trump if trump in ("O", "C", "E", "B") else None
        plays = sorted(legal, key=lambda a: (strength(a["card"]), POINTS.get(parse(a["card"])[0], 0)))
        highest, lowest = plays[-1], plays[0]
        best = winning_card(view.get("trick"), trump)
        if best is None or beats(highest["card"], best, trump):
            return highest
        return lowest
    return legal[0]


def find_table(base, key):
    """Joins the oldest public pairs table with an open seat, or opens one
    against three house bots and joins it; returns (table id, seat)."""
    status, page = request(base, "GET", "/v1/lobby?variant=pairs&limit=20")
    for table in page.get("tables", []) if status == 200 else []:
        status, joined = request(base, "POST", f"/v1/tables/{table['table_id']}/join", key, {})
        if status == 200:
            return table["table_id"], joined["token"]["seat"]
    seats = [{"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
    status, created = request(base, "POST", "/v1/tables", body={"seats": seats, "auto_deal": True})
    if status != 201:
        raise SystemExit(f"could not open a table: {status} {created}")
    table = created["table"]["table_id"]
    status, joined = request(base, "POST", f"/v1/tables/{table}/join", key, {})
    if status != 200:
        raise SystemExit(f"could not join table {table}: {status} {joined}")
    return table, joined["token"]["seat"]


def play_turn(base, table, key, version):
    """Acts on a `your_turn` event of `version`; returns the moves made (0 or
    1). A rate-limited request is tried again (`request` waited Retry-After):
    skipping the turn would leave the bot waiting for an event that never
    comes."""
    while True:
        status, view = request(base, "GET", f"/v1/matches/{table}", key)
        if status == 429:
            continue
        # An older turn event than the match's state: a newer one follows.
        if status != 200 or view["version"] != version or not view["legal_actions"]:
            return 0
        action = dict(choose(view), expected_version=view["version"])
        status, answer = request(base, "POST", f"/v1/matches/{table}/actions", key, action)
        if status == 429:
            continue
        if status == 200:
            return 1
        if status == 409:
            return 0
        raise SystemExit(f"action refused: {status} {answer}")


def lobby_mode(base):
    """Plays one match as a registered bot player, driven by its event stream."""
    status, reg = request(base, "POST", "/v1/players", body={"name": "example-bot", "kind": "bot"})
    if status != 201:
        print(f"could not register: {status} {reg}", file=sys.stderr)
        return 1
    key = reg["api_key"]  # secret: acts for this player's seats in any match
    print(f"registered bot player {reg['player']['id']}")
    table, seat = find_table(base, key)
    print(f"seated at table {table}, seat {seat}; following the player's event stream")
    return follow(base, key, table)


def follow(base, key, match_id):
    """Plays the player's seat of `match_id` to the end, driven by its event stream."""
    after, moves = 0, 0
    while True:
        status, page = request(base, "GET", f"/v1/players/me/events?after={after}&wait_ms=25000", key)
        if status == 429:
            continue
        if status != 200:
            print(f"cannot read the event stream: {status} {page}", file=sys.stderr)
            return 1
        after = page["last_seq"]
        for event in page["events"]:
            if event.get("match_id") != match_id:
                continue
            if event["type"] == "match_started":
                print(f"match {match_id} started; playing seat {event['seat']}")
            elif event["type"] == "your_turn":
                moves += play_turn(base, match_id, key, event["version"])
            elif event["type"] == "match_over":
                print(f"final: scores {event['scores']}, winner {event['winner']}, seat {event['seat']}, {moves} moves")
                return 0


def queue_mode(base):
    """Queues for a rated match and plays it, as a registered bot player."""
    key = os.environ.get("BOTIFARRA_KEY")
    if not key:
        status, reg = request(base, "POST", "/v1/players", body={"name": "queue-bot", "kind": "bot"})
        if status == 429:
            return queue_mode(base)
        if status != 201:
            print(f"could not register: {status} {reg}", file=sys.stderr)
            return 1
        key = reg["api_key"]  # secret: acts for this player's seats in any match
        print(f"registered bot player {reg['player']['id']}")
    body = {"variant": os.environ.get("QUEUE_VARIANT", "pairs"), "rated": True}
    if os.environ.get("QUEUE_FILL_S"):
        body["fill_with_house_bots_after_s"] = int(os.environ["QUEUE_FILL_S"])
    while True:
        status, ticket = request(base, "POST", "/v1/queue", key, body)
        if status != 429:
            break
    if status != 201:
        print(f"could not queue: {status} {ticket}", file=sys.stderr)
        return 1
    print(f"queued: ticket {ticket['ticket_id']}, rating window {ticket['window']}")
    while ticket["status"] == "waiting":
        status, answer = request(base, "GET", f"/v1/queue/{ticket['ticket_id']}?wait_ms=25000", key)
        if status == 200:
            ticket = answer
        elif status != 429:
            print(f"cannot read the ticket: {status} {answer}", file=sys.stderr)
            return 1
    if ticket["status"] != "matched":
        print(f"ticket {ticket['status']}", file=sys.stderr)
        return 1
    print(f"matched after {ticket['waited_ms']} ms: match {ticket['match_id']}, seat {ticket['seat']}")
    return follow(base, key, ticket["match_id"])


def main():
    args = [a for a in sys.argv[1:] if a not in ("--lobby", "--queue")]
    base = (args[0] if args else os.environ.get("BOTIFARRA_URL", "http://127.0.0.1:8080")).rstrip("/")
    if "--lobby" in sys.argv[1:]:
        return lobby_mode(base)
    if "--queue" in sys.argv[1:]:
        return queue_mode(base)
    seats = [{"kind": "remote", "name": "example"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]
    status, created = request(base, "POST", "/v1/matches", body={"seats": seats, "auto_deal": True})
    if status != 201:
        print(f"could not create a match: {status} {created}", file=sys.stderr)
        return 1
    match_id = created["match_id"]
    token = created["tokens"][0]["token"]
    print(f"match {match_id}: playing seat 0 against three house bots")
    last_seq, moves = 0, 0
    while True:
        status, view = request(base, "GET", f"/v1/matches/{match_id}", token)
        if status == 429:  # rate limited: `request` waited Retry-After
            continue
        if status != 200:
            print(f"cannot read the match: {status} {view}", file=sys.stderr)
            return 1
        if view["phase"] == "match_over":
            break
        if view["legal_actions"]:
            action = dict(choose(view), expected_version=view["version"])
            status, answer = request(base, "POST", f"/v1/matches/{match_id}/actions", token, action)
            if status == 200:
                moves += 1
            elif status not in (409, 429):  # a stale view or a busy server: read it again
                print(f"action refused: {status} {answer}", file=sys.stderr)
                return 1
            continue
        status, page = request(base, "GET", f"/v1/matches/{match_id}/events?after={last_seq}&wait_ms=10000", token)
        if status == 200:
            last_seq = page.get("last_seq", last_seq)
    scores, winner = view["scores"], view["winner"]
    you = "you win" if winner == 0 else ("draw" if winner == "draw" else "you lose")
    print(f"final: scores {scores}, winner team {winner} ({you}) after {len(view['hands'])} hands, {moves} moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
