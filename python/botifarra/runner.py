"""``botifarra-bot``: runs a bot as a registered player on a server.

    botifarra-bot config.json

The config (JSON; TOML too on Python 3.11+) names the server, the player's
key (or ``register`` to make one), the bot and the matches to play::

    {"server": "http://127.0.0.1:8080",
     "key": "bk_...",                         # or "register": {"name": "my-bot"}
     "bot": {"house": "expert"},              # or {"python": "module:function"}
                                              # or {"command": ["./my-bot", "--fast"]}
     "queue": {"variant": "pairs", "rated": true,
               "fill_with_house_bots_after_s": 30},
     "concurrency": 4,                        # matches at once
     "matches": 20,                           # stop after this many (0: forever)
     "on_shutdown": "finish"}                 # or "resign"

A Python bot is a callable taking a seat's view dict and returning one of
its ``legal_actions``; a command bot is any program that reads one JSON
object per line on stdin (``{"view": view}``) and writes one action per
line on stdout. The runner, built on ``botifarra.client``, follows the
player's event stream (resuming after its last event, and from the ongoing
list when the server lost it), queues while fewer than ``concurrency`` matches run, acts on every
``your_turn`` with an ``Idempotency-Key`` and ``expected_version``, waits
``Retry-After`` on ``429`` and backs off on network errors and ``5xx``, and
on SIGINT/SIGTERM leaves the queue and finishes (or resigns) its matches.
A bot that fails, answers an illegal action or would miss the move clock
(the view's ``deadline`` less ``margin_s``, default 1 s) is replaced for
that move by the house bot ``fallback`` (default ``random``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import signal
import subprocess
import sys
import threading
from datetime import datetime, timezone

from . import decide
from .client import ApiError, Client, QueueRequest


def load_bot(spec, fallback):
    """A callable view -> action from the config's ``bot``."""
    if "house" in spec:
        level = spec["house"]
        return lambda view: decide(level, view)
    if "python" in spec:
        module, _, name = spec["python"].partition(":")
        return getattr(importlib.import_module(module), name)
    if "command" in spec:
        return CommandBot(spec["command"])
    raise SystemExit(f"bot: expected house, python or command in {spec}")


class CommandBot:
    """An external program: one JSON line in (the view), one out (the action)."""

    def __init__(self, command):
        self.command = command
        self.lock = threading.Lock()
        self.proc = None

    def __call__(self, view, timeout=None):
        with self.lock:
            if self.proc is None or self.proc.poll() is not None:
                self.proc = subprocess.Popen(
                    self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
                )
            self.proc.stdin.write(json.dumps({"view": view}) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.command[0]} closed its output")
            return json.loads(line)

    def kill(self):
        """Ends a program that missed its move (its answer would come late)."""
        proc = self.proc
        if proc is not None and proc.poll() is None:
            proc.kill()

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)


class Runner:
    """Plays the config's matches; ``run()`` returns the finished matches."""

    def __init__(self, config, log=print):
        self.cfg = config
        self.log = log
        self.stop = threading.Event()
        self.client = Client(
            config["server"], config.get("key"), log,
            config.get("max_rps", 400), config.get("max_rps_per_match", 50),
        )
        # The transport: its key and its counts of 429s and retries.
        self.api = self.client.http
        self.fallback = config.get("fallback", "random")
        self.bot = load_bot(config.get("bot", {"house": "medium"}), self.fallback)
        self.ongoing = {}
        self.to_play = set()
        self.views = {}
        self.finished = []
        self.ticket = None
        self.after = 0
        self.moves = 0
        self.fallbacks = 0

    def register(self):
        spec = self.cfg["register"]
        try:
            reg = self.client.register(spec["name"], spec.get("kind", "bot"))
        except ApiError as err:
            raise SystemExit(f"could not register: {err}")
        self.log(f"registered player {reg.player.id}; key {reg.api_key}")

    def queue(self):
        request = QueueRequest(**dict({"variant": "pairs", "rated": True}, **self.cfg.get("queue", {})))
        try:
            ticket = self.client.queue(request)
        except ApiError as err:
            if err.code != "already_queued":
                raise SystemExit(f"could not queue: {err}")
            self.ticket = "waiting"
            return
        if ticket.status == "matched":
            self.start(ticket.match_id, ticket.seat)
        else:
            self.ticket = ticket.ticket_id

    def wanted(self):
        target = self.cfg.get("matches", 0)
        started = len(self.finished) + len(self.ongoing)
        return not self.stop.is_set() and (target == 0 or started < target)

    def can_queue(self):
        return (
            self.ticket is None
            and self.wanted()
            and len(self.ongoing) < self.cfg.get("concurrency", 1)
        )

    def time_left(self, view):
        """Seconds until the move clock's deadline less the margin, or None."""
        deadline = view.get("deadline")
        if not deadline:
            return None
        at = datetime.fromisoformat(deadline.replace("Z", "+00:00"))
        left = (at - datetime.now(timezone.utc)).total_seconds()
        return max(0.0, left - self.cfg.get("margin_s", 1.0))

    def choose(self, view):
        """The bot's action; the fallback's when the bot fails, answers an
        illegal action or would miss the move clock."""
        result = {}

        def work():
            try:
                result["action"] = self.bot(view)
            except Exception as err:  # the bot's failure must not lose the match
                result["error"] = err

        worker = threading.Thread(target=work, daemon=True)
        worker.start()
        worker.join(self.time_left(view))
        action = result.get("action")
        if worker.is_alive():
            self.log(f"bot missed the move clock; {self.fallback} plays")
            if isinstance(self.bot, CommandBot):
                self.bot.kill()
        elif "error" in result:
            self.log(f"bot failed ({result['error']!r}); {self.fallback} plays")
        elif action in view["legal_actions"]:
            return action
        else:
            self.log(f"bot answered {action!r}, not a legal action; {self.fallback} plays")
        self.fallbacks += 1
        return decide(self.fallback, view)

    def play(self, match_id):
        """Makes one move in the match if it is the player's turn; the
        match is visited again while it stays so (matches take turns)."""
        try:
            view = self.views.pop(match_id, None) or self.client.match(match_id)
        except ApiError as err:
            self.log(f"match {match_id}: cannot read it: {err}")
            return
        if view.over or not view.legal_actions:
            return
        try:
            # Guarded by the version seen, keyed by it: a retry after a
            # lost answer (a restarted server) is answered as the first try.
            answer = self.client.act(match_id, self.choose(view.raw), expected_version=view.version)
        except ApiError as err:
            self.log(f"match {match_id}: action refused {err}")
            return
        self.moves += 1
        if answer.legal_actions and not answer.over:
            # The answer is the player's view after the action (and after
            # the house bots that moved in the same request).
            self.views[match_id] = answer
            self.to_play.add(match_id)

    def start(self, match_id, seat):
        """A match of ours started (the queue matched us, or we hear of it)."""
        if match_id not in self.ongoing and match_id not in {f["match_id"] for f in self.finished}:
            self.ongoing[match_id] = seat
            self.to_play.add(match_id)
            self.log(f"match {match_id} started, seat {seat}")

    def handle(self, event):
        kind, match_id = event.get("type"), event.get("match_id")
        if kind in ("queue_matched", "match_started"):
            if kind == "queue_matched":
                self.ticket = None
            self.start(match_id, event["seat"])
        elif kind == "your_turn":
            self.to_play.add(match_id)
        elif kind == "match_over" and match_id in self.ongoing:
            del self.ongoing[match_id]
            self.finished.append(event)
            self.log(f"match {match_id} over: winner {event['winner']}, scores {event['scores']}")

    def poll(self):
        """One long poll of the player's events (none when there is a match
        to play or a ticket to queue)."""
        wait = 0 if self.to_play or self.can_queue() else 20000
        try:
            page = self.client.player_events(self.after, wait)
        except ApiError as err:
            if err.status == 400 and self.after:
                self.log("the server lost our place in the event stream: reading the ongoing matches")
                self.after = 0
                return
            raise SystemExit(f"cannot read the event stream: {err}")
        for m in page.ongoing or []:
            self.ongoing.setdefault(m.match_id, m.seat)
            self.to_play.add(m.match_id)
        # A fresh connect's list accounts for every event up to last_seq.
        for event in [] if page.ongoing is not None else page.events:
            self.handle(event.data)
        self.after = page.last_seq

    def run(self):
        if not self.api.key:
            self.register()
        while True:
            if self.can_queue():
                self.queue()
            if not self.ongoing and not self.wanted():
                break
            self.poll()
            for match_id in list(self.to_play):
                self.to_play.discard(match_id)
                if match_id in self.ongoing:
                    self.play(match_id)
        return self.finished

    def close(self):
        """Ends a command bot's program."""
        if isinstance(self.bot, CommandBot):
            self.bot.close()

    def shutdown(self, *_):
        """Stop queueing; leave the queue; resign the matches if asked."""
        self.log("shutting down: no new matches")
        self.stop.set()
        self.cfg["matches"] = len(self.finished) + len(self.ongoing)
        try:
            if self.ticket and self.ticket != "waiting":
                self.client.leave_queue(self.ticket)
        except ApiError as err:  # matched meanwhile: that match is played
            self.log(f"leaving the queue: {err}")
        if self.cfg.get("on_shutdown") == "resign":
            for match_id in list(self.ongoing):
                try:
                    self.client.resign(match_id, "match")
                except ApiError as err:
                    self.log(f"match {match_id}: could not resign: {err}")


def load_config(path):
    text = open(path, "rb").read()
    if path.endswith(".toml"):
        import tomllib

        return tomllib.loads(text.decode())
    return json.loads(text)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="botifarra-bot", description=__doc__.split("\n\n")[0])
    ap.add_argument("config", help="the config file (JSON, or TOML on Python 3.11+)")
    args = ap.parse_args(argv)
    runner = Runner(load_config(args.config), log=lambda m: print(m, file=sys.stderr, flush=True))
    signal.signal(signal.SIGINT, runner.shutdown)
    signal.signal(signal.SIGTERM, runner.shutdown)
    try:
        finished = runner.run()
    finally:
        runner.close()
    print(json.dumps({"matches": finished, "moves": runner.moves, "fallbacks": runner.fallbacks,
                      "rate_limited": runner.api.rate_limited, "reconnects": runner.api.reconnects}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
