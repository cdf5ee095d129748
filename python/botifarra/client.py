"""A typed client for the server's HTTP API (docs/api.md): the endpoints a
bot uses, with requests and answers as dataclasses.

    from botifarra.client import Client, QueueRequest

    c = Client("http://127.0.0.1:8080")
    reg = c.register("my-bot")                 # Registered; c.key is set
    ticket = c.queue(QueueRequest("pairs", fill_with_house_bots_after_s=0))
    view = c.match(ticket.match_id)            # MatchView; view.raw is the JSON
    view = c.act(view.match_id, view.legal_actions[0], expected_version=view.version)

Every answer type has ``from_json(dict)``; every request type has
``to_json()`` (the body, without the fields left at None). A refusal
raises ``ApiError`` carrying the problem document (``status``, ``code``,
``rule``, ``detail``). The transport (``Transport``) paces its requests
below the server's documented limits, waits ``Retry-After`` on 429 and
retries network errors and 5xx with exponential backoff, so a restarted
server is picked up where it left.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any, ClassVar, Dict, Iterator, List, Optional

Json = Dict[str, Any]


class ApiError(Exception):
    """A problem+json refusal: ``status`` (HTTP), ``code``, ``rule`` (for
    a refused action), ``detail``, and the whole ``problem`` dict."""

    def __init__(self, status: int, problem: Any):
        self.status = status
        self.problem = problem if isinstance(problem, dict) else {"detail": str(problem)}
        self.code = self.problem.get("code")
        self.rule = self.problem.get("rule")
        self.detail = self.problem.get("detail")
        super().__init__(f"{status} {self.code}: {self.detail}")


def _build(cls, data: Json, **nested):
    """An instance of the dataclass `cls` from the JSON object `data`: its
    declared fields (those absent take their defaults), each of `nested`'s
    converted by the given function."""
    names = {f.name for f in dataclasses.fields(cls)}
    kwargs = {k: v for k, v in data.items() if k in names}
    for name, convert in nested.items():
        if kwargs.get(name) is not None:
            kwargs[name] = convert(kwargs[name])
    if "raw" in names:
        kwargs["raw"] = data
    return cls(**kwargs)


class _Request:
    """``to_json()`` of the request dataclasses: the body, the fields left
    at None out."""

    def to_json(self) -> Json:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None}


class _Answer:
    """``from_json(dict)`` of the answer dataclasses: ``one`` and ``many``
    name the fields holding another answer type, or a list of them."""

    one: ClassVar[Dict[str, str]] = {}
    many: ClassVar[Dict[str, str]] = {}

    @classmethod
    def from_json(cls, data: Json):
        kinds = globals()
        nested = {k: kinds[name].from_json for k, name in cls.one.items()}
        for k, name in cls.many.items():
            nested[k] = lambda xs, kind=kinds[name]: [kind.from_json(x) for x in xs]
        return _build(cls, data, **nested)


# ---- requests ------------------------------------------------------------


@dataclass
class QueueRequest(_Request):
    """The body of ``POST /v1/queue``."""

    variant: str = "pairs"
    rated: Optional[bool] = None
    accept_bots: Optional[bool] = None
    only_bots: Optional[bool] = None
    fill_with_house_bots_after_s: Optional[int] = None
    fill_level: Optional[str] = None
    expires_in_s: Optional[int] = None


@dataclass
class ChallengeRequest(_Request):
    """The body of ``POST /v1/challenges`` (``opponents``: player ids,
    ``house-<level>`` for a house bot)."""

    variant: str
    opponents: List[str]
    rated: Optional[bool] = None
    rules: Optional[Json] = None
    partner: Optional[str] = None
    fill_with: Optional[str] = None
    auto_deal: Optional[bool] = None
    move_timeout_ms: Optional[int] = None
    on_timeout: Optional[str] = None
    expires_in_s: Optional[int] = None


# ---- answers -------------------------------------------------------------


@dataclass
class SeatPlayer(_Answer):
    """A player as a seat shows it."""

    id: str
    name: str
    kind: str


@dataclass
class Player(_Answer):
    """A player's profile (``GET /v1/players/{id}``, ``…/me``)."""

    id: str
    name: str
    kind: str
    matches_played: int
    created_at: str
    ratings: List[Json] = field(default_factory=list)


@dataclass
class Registered(_Answer):
    """``POST /v1/players``: the profile and the secret API key."""

    player: Player
    api_key: str

    one = {"player": "Player"}


@dataclass
class Ticket(_Answer):
    """A queue ticket; ``match_id`` and ``seat`` once ``matched``."""

    ticket_id: str
    status: str
    variant: str
    rated: bool
    rating: float
    waited_ms: int
    created_at: str
    expires_at: str
    player: Optional[str] = None
    position: Optional[int] = None
    window: Optional[List[float]] = None
    match_id: Optional[str] = None
    seat: Optional[int] = None
    partner: Optional[str] = None
    partner_seat: Optional[int] = None


@dataclass
class ChallengeSeat(_Answer):
    seat: int
    team: int
    role: str
    accepted: bool
    player: Optional[SeatPlayer] = None
    bot: Optional[str] = None

    one = {"player": "SeatPlayer"}


@dataclass
class Challenge(_Answer):
    """A challenge; ``match_id`` once ``started``."""

    challenge_id: str
    status: str
    rated: bool
    rules: Json
    seats: List[ChallengeSeat]
    waiting_for: List[str]
    auto_deal: bool
    created_at: str
    expires_at: str
    declined_by: Optional[str] = None
    match_id: Optional[str] = None
    move_timeout_ms: Optional[int] = None
    rematch_of: Optional[str] = None

    many = {"seats": "ChallengeSeat"}


@dataclass
class Challenges(_Answer):
    """``GET /v1/challenges``: the pending ones, incoming and outgoing."""

    incoming: List[Challenge]
    outgoing: List[Challenge]
    next_incoming: Optional[str] = None
    next_outgoing: Optional[str] = None

    many = {"incoming": "Challenge", "outgoing": "Challenge"}


@dataclass
class MatchView(_Answer):
    """A seat's (or the spectator's) view of a match. ``raw`` is the JSON
    as the server sent it: what ``botifarra.decide`` and a bot take."""

    match_id: str
    version: int
    last_seq: int
    phase: str
    legal_actions: List[Json]
    scores: List[int]
    rules: Json
    turn: Optional[int] = None
    hand: Optional[List[str]] = None
    seats: Optional[List[Json]] = None
    deadline: Optional[str] = None
    ended_by: Optional[Json] = None
    raw: Json = field(default_factory=dict, repr=False, compare=False)

    @property
    def over(self) -> bool:
        return self.phase == "match_over"


@dataclass
class Event(_Answer):
    """A match's or a player's event: ``type``, ``seq`` (None for the
    unnumbered ``matches`` event of a player stream), the common fields,
    and every field in ``data``."""

    type: str
    seq: Optional[int] = None
    match_id: Optional[str] = None
    seat: Optional[int] = None
    version: Optional[int] = None
    data: Json = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_json(cls, data: Json) -> "Event":
        names = ("type", "seq", "match_id", "seat", "version")
        return cls(**{k: data.get(k) for k in names}, data=data)


@dataclass
class PlayerMatch(_Answer):
    """A row of ``GET /v1/players/me/matches`` (and of a fresh connect's
    ``ongoing`` list)."""

    match_id: str
    seat: int
    variant: str
    rated: bool
    created_at: str
    phase: str
    over: bool
    your_turn: bool
    version: int
    last_seq: int
    turn: Optional[int] = None


@dataclass
class MatchesPage(_Answer):
    matches: List[PlayerMatch]
    next: Optional[str] = None

    many = {"matches": "PlayerMatch"}


@dataclass
class EventPage(_Answer):
    """A long poll's answer: the events after the point asked, the last
    event's number; ``state`` (a match read ``with_state``) or
    ``ongoing`` (a player's fresh connect)."""

    events: List[Event]
    last_seq: int
    state: Optional[MatchView] = None
    ongoing: Optional[List[PlayerMatch]] = None

    one = {"state": "MatchView"}
    many = {"events": "Event", "ongoing": "PlayerMatch"}


# ---- transport -----------------------------------------------------------


class Transport:
    """JSON over HTTP with a bearer key: paces its requests below the
    server's documented limits (500 a second per key, 100 per match per
    key), waits out 429s (Retry-After) and retries network errors and 5xx
    with exponential backoff (up to 10 s). Counts ``rate_limited`` and
    ``reconnects``."""

    def __init__(self, base, key=None, log=print, per_second=400, per_match=50):
        self.base = base.rstrip("/")
        self.key = key
        self.log = log
        self.gap = {"": 1.0 / per_second, "match": 1.0 / per_match}
        self.next_at = {}
        self.lock = threading.Lock()
        self.rate_limited = 0
        self.reconnects = 0

    def pace(self, path):
        """Waits for this request's turn: at most `per_second` in all and
        `per_match` for each match."""
        keys = [""]
        if path.startswith("/v1/matches/"):
            keys.append(path.split("/")[3].split("?")[0])
        with self.lock:
            now = time.monotonic()
            at = max([now] + [self.next_at.get(k, 0.0) for k in keys])
            for k in keys:
                self.next_at[k] = at + self.gap["" if k == "" else "match"]
        if at > now:
            time.sleep(at - now)

    def request(self, method, path, body=None, headers=None, accept="application/json"):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Accept", accept)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.key:
            req.add_header("Authorization", "Bearer " + self.key)
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        return req

    def once(self, method, path, body=None, headers=None, timeout=60):
        """(status, parsed body, headers) of one attempt."""
        try:
            req = self.request(method, path, body, headers)
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return resp.status, json.loads(resp.read() or b"null"), resp.headers
        except urllib.error.HTTPError as err:
            return _refusal(err)

    def retrying(self, attempt, what):
        """Runs `attempt()` (returning status, body, headers; raising on a
        network error) until its status is neither 429 nor 5xx."""
        delay = 0.2
        while True:
            try:
                status, parsed, hdrs = attempt()
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as err:
                status, parsed, hdrs = None, {"detail": str(err)}, {}
            if status == 429:
                self.rate_limited += 1
                wait = float((hdrs or {}).get("Retry-After") or delay)
                self.log(f"rate limited on {what}: waiting {wait:.1f} s")
                time.sleep(wait)
                continue
            if status is None or status in (500, 502, 503, 504):
                self.reconnects += 1
                self.log(f"{what}: {status or parsed['detail']}; retrying in {delay:.1f} s")
                time.sleep(delay)
                delay = min(delay * 2, 10.0)
                continue
            return status, parsed, hdrs

    def call(self, method, path, body=None, headers=None, timeout=60):
        """(status, body): retried until an answer that is not 429 or 5xx."""

        def attempt():
            self.pace(path)
            return self.once(method, path, body, headers, timeout)

        status, parsed, _ = self.retrying(attempt, f"{method} {path}")
        return status, parsed

    def json(self, method, path, body=None, headers=None, timeout=60, ok=(200, 201)):
        """The body of a successful answer; ApiError otherwise."""
        status, parsed = self.call(method, path, body, headers, timeout)
        if status not in ok:
            raise ApiError(status, parsed)
        return parsed

    def sse(self, path, last_event_id=None, timeout=60):
        """Server-sent events from `path` as (id, event, data) tuples, data
        parsed as JSON. When the connection ends or drops it reconnects with
        ``Last-Event-ID`` (the last id received); it ends when the server
        has nothing more (204: a finished match read to its end) and raises
        ApiError on a refusal or an ``error`` event."""
        last = last_event_id
        while True:
            headers = {} if last is None else {"Last-Event-ID": str(last)}
            resp = self._open_stream(path, headers, timeout)
            if resp is None:
                return
            try:
                for ident, kind, data in _sse_messages(resp):
                    if kind == "error":
                        raise ApiError(data.get("status", 500), data)
                    if ident is not None:
                        last = ident
                    yield ident, kind, data
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as err:
                self.reconnects += 1
                self.log(f"stream {path}: {err}; resuming after {last}")
            finally:
                resp.close()

    def _open_stream(self, path, headers, timeout):
        """The open response of a stream; None on 204 (nothing more)."""
        box = {}

        def attempt():
            self.pace(path)
            req = self.request("GET", path, headers=headers, accept="text/event-stream")
            try:
                box["resp"] = urllib.request.urlopen(req, timeout=timeout)
                return box["resp"].status, None, box["resp"].headers
            except urllib.error.HTTPError as err:
                return _refusal(err)

        status, parsed, _ = self.retrying(attempt, f"GET {path} (stream)")
        if status == 204:
            box["resp"].close()
            return None
        if status != 200:
            raise ApiError(status, parsed)
        return box["resp"]


def _refusal(err):
    """(status, problem, headers) of an HTTP error answer."""
    payload = err.read()
    try:
        parsed = json.loads(payload)
    except ValueError:
        parsed = {"detail": payload.decode(errors="replace")}
    return err.code, parsed, err.headers


def _sse_messages(lines):
    """(id, event, data) of each message in a text/event-stream; comments
    (keep-alives) skipped; ``data`` parsed as JSON."""
    ident, event, data = None, "message", []
    for raw in lines:
        line = raw.decode().rstrip("\r\n")
        if not line:
            if data:
                yield ident, event, json.loads("\n".join(data))
            ident, event, data = None, "message", []
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "id":
            ident = int(value) if value.isdigit() else value
        elif name == "event":
            event = value
        elif name == "data":
            data.append(value)


# ---- the client ----------------------------------------------------------


def _query(**params) -> str:
    given = {k: v for k, v in params.items() if v is not None}
    for k, v in given.items():
        if isinstance(v, bool):
            given[k] = "true" if v else "false"
    return "?" + urllib.parse.urlencode(given) if given else ""


class Client:
    """The HTTP API a bot uses, typed. ``key`` is the player's API key (or
    a seat token for the match endpoints); ``register`` sets it."""

    def __init__(self, server, key=None, log=print, per_second=400, per_match=50):
        self.http = Transport(server, key, log, per_second, per_match)

    @property
    def key(self) -> Optional[str]:
        return self.http.key

    @key.setter
    def key(self, value):
        self.http.key = value

    # players

    def register(self, name: str, kind: str = "bot") -> Registered:
        """``POST /v1/players``; the client acts with the new key from then on."""
        reg = Registered.from_json(self.http.json("POST", "/v1/players", {"name": name, "kind": kind}))
        self.key = reg.api_key
        return reg

    def me(self) -> Player:
        return Player.from_json(self.http.json("GET", "/v1/players/me"))

    def player(self, player_id: str) -> Player:
        return Player.from_json(self.http.json("GET", f"/v1/players/{player_id}"))

    def my_matches(self, status=None, limit=None, cursor=None) -> MatchesPage:
        q = _query(status=status, limit=limit, cursor=cursor)
        return MatchesPage.from_json(self.http.json("GET", f"/v1/players/me/matches{q}"))

    def player_events(self, after: int = 0, wait_ms: Optional[int] = None) -> EventPage:
        """A long poll of the player's events; ``after=0`` is a fresh
        connect (``ongoing`` lists the matches under way)."""
        q = _query(after=after, wait_ms=wait_ms)
        return EventPage.from_json(self.http.json("GET", f"/v1/players/me/events{q}"))

    def stream_player_events(self, after: Optional[int] = None) -> Iterator[Event]:
        """The player's events as server-sent events, resumed after each
        dropped connection; a fresh connect opens with the unnumbered
        ``matches`` event (``data["ongoing"]``)."""
        for _, _, data in self.http.sse("/v1/players/me/events", after):
            yield Event.from_json(data)

    # the queue

    def queue(self, request: QueueRequest) -> Ticket:
        return Ticket.from_json(self.http.json("POST", "/v1/queue", request.to_json()))

    def ticket(self, ticket_id: str, wait_ms: Optional[int] = None) -> Ticket:
        q = _query(wait_ms=wait_ms)
        return Ticket.from_json(self.http.json("GET", f"/v1/queue/{ticket_id}{q}"))

    def leave_queue(self, ticket_id: str) -> Ticket:
        return Ticket.from_json(self.http.json("DELETE", f"/v1/queue/{ticket_id}"))

    # challenges

    def challenge(self, request: ChallengeRequest) -> Challenge:
        return Challenge.from_json(self.http.json("POST", "/v1/challenges", request.to_json()))

    def challenges(self) -> Challenges:
        return Challenges.from_json(self.http.json("GET", "/v1/challenges"))

    def get_challenge(self, challenge_id: str) -> Challenge:
        return Challenge.from_json(self.http.json("GET", f"/v1/challenges/{challenge_id}"))

    def accept(self, challenge_id: str) -> Challenge:
        return Challenge.from_json(self.http.json("POST", f"/v1/challenges/{challenge_id}/accept"))

    def decline(self, challenge_id: str) -> Challenge:
        return Challenge.from_json(self.http.json("POST", f"/v1/challenges/{challenge_id}/decline"))

    def cancel_challenge(self, challenge_id: str) -> Challenge:
        return Challenge.from_json(self.http.json("DELETE", f"/v1/challenges/{challenge_id}"))

    # matches

    def match(self, match_id: str) -> MatchView:
        return MatchView.from_json(self.http.json("GET", f"/v1/matches/{match_id}"))

    def act(self, match_id: str, action: Json, expected_version: Optional[int] = None,
            idempotency_key: Optional[str] = None) -> MatchView:
        """``POST …/actions`` with `action` as ``legal_actions`` lists it;
        guarded by `expected_version` when given; with an
        ``Idempotency-Key`` (default: match and version) so a retry after a
        lost answer is answered as the first try was."""
        body = dict(action)
        if expected_version is not None:
            body["expected_version"] = expected_version
            idempotency_key = idempotency_key or f"{match_id}-{expected_version}"
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        return MatchView.from_json(self.http.json("POST", f"/v1/matches/{match_id}/actions", body, headers))

    def resign(self, match_id: str, scope: str = "hand") -> MatchView:
        """The caller's side forfeits the hand (``scope="match"``: the match)."""
        return MatchView.from_json(self.http.json("POST", f"/v1/matches/{match_id}/resign", {"scope": scope}))

    def match_events(self, match_id: str, after: Optional[int] = None,
                     wait_ms: Optional[int] = None, with_state: bool = False) -> EventPage:
        """A long poll of a match's events (``with_state``: with the view
        they follow, as ``state``)."""
        q = _query(after=after, wait_ms=wait_ms, with_state=with_state or None)
        return EventPage.from_json(self.http.json("GET", f"/v1/matches/{match_id}/events{q}"))

    def stream_match_events(self, match_id: str, after: Optional[int] = None,
                            with_state: bool = False) -> Iterator[Event]:
        """A match's events as server-sent events until ``match_over``;
        with ``with_state`` the first is ``state`` (``data``: the view)."""
        q = _query(with_state=with_state or None)
        for ident, kind, data in self.http.sse(f"/v1/matches/{match_id}/stream{q}", after):
            if kind == "state":
                yield Event(type="state", seq=ident, match_id=match_id, data=data)
            else:
                yield Event.from_json(data)
