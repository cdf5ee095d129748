"""botifarra-bot: plays rated queue matches as a registered bot player,
with an external program as the bot, and waits out 429s."""

import http.server
import json
import sys
import threading

from botifarra.client import Transport
from botifarra.runner import Runner

# An external bot: one JSON view a line in, its first legal action out.
PROGRAM = """
import json, sys
for line in sys.stdin:
    view = json.loads(line)["view"]
    print(json.dumps(view["legal_actions"][-1]), flush=True)
"""


def test_the_runner_plays_rated_queue_matches_with_an_external_bot(server):
    config = {
        "server": f"http://127.0.0.1:{server.port}",
        "register": {"name": "runner-test"},
        "bot": {"command": [sys.executable, "-c", PROGRAM]},
        "queue": {"variant": "abarrotada3", "rated": True,
                  "fill_with_house_bots_after_s": 0, "fill_level": "random"},
        "concurrency": 2,
        "matches": 3,
    }
    logs = []
    runner = Runner(config, log=logs.append)
    result = {}
    worker = threading.Thread(target=lambda: result.update(finished=runner.run()), daemon=True)
    worker.start()
    worker.join(timeout=120)
    runner.close()
    assert not worker.is_alive(), f"the runner did not finish its matches: {logs}"
    finished = result["finished"]
    assert len(finished) == 3, logs
    assert len({f["match_id"] for f in finished}) == 3
    for event in finished:
        assert event["winner"] is not None and len(event["scores"]) == 3
        assert "rating" in event
    assert runner.moves > 3 * 12 and runner.fallbacks == 0, logs
    status, me = server.request("GET", "/v1/players/me", token=runner.api.key)
    assert status == 200


class Flaky(http.server.BaseHTTPRequestHandler):
    """Answers 429 (Retry-After: 0) twice, then 200."""

    hits = 0

    def do_GET(self):
        Flaky.hits += 1
        code = 429 if Flaky.hits <= 2 else 200
        body = json.dumps({"hits": Flaky.hits}).encode()
        self.send_response(code)
        self.send_header("Retry-After", "0")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_the_api_waits_out_429_and_retries():
    httpd = http.server.HTTPServer(("127.0.0.1", 0), Flaky)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        api = Transport(f"http://127.0.0.1:{httpd.server_port}", "k", log=lambda m: None)
        status, body = api.call("GET", "/x")
        assert status == 200 and body == {"hits": 3} and api.rate_limited == 2
    finally:
        httpd.shutdown()


def test_the_api_reconnects_when_the_server_comes_back():
    import socket
    import time

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    Flaky.hits = 2  # answers 200 from the next request on
    started = {}

    def later():
        time.sleep(0.5)
        started["httpd"] = http.server.HTTPServer(("127.0.0.1", port), Flaky)
        started["httpd"].serve_forever()

    threading.Thread(target=later, daemon=True).start()
    api = Transport(f"http://127.0.0.1:{port}", "k", log=lambda m: None)
    status, _ = api.call("GET", "/x")
    assert status == 200 and api.reconnects >= 1
    started["httpd"].shutdown()


def test_a_bot_that_misses_the_clock_or_answers_wrong_is_replaced_for_the_move():
    import datetime
    import time

    import botifarra as b

    game = b.Game(seed=21)
    game.apply(0)
    view = game.view(game.turn)
    soon = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=1.3)
    view["deadline"] = soon.isoformat().replace("+00:00", "Z")

    def slow(v):
        time.sleep(5)
        return v["legal_actions"][0]

    for bot, why in ((slow, "missed the move clock"), (lambda v: {"type": "deal"}, "not a legal action")):
        logs = []
        runner = Runner({"server": "http://127.0.0.1:9", "key": "k", "margin_s": 1.0}, log=logs.append)
        runner.bot = bot
        started = time.monotonic()
        action = runner.choose(view)
        assert action in view["legal_actions"] and runner.fallbacks == 1
        assert time.monotonic() - started < 2.5
        assert any(why in line for line in logs), logs


def test_a_shutdown_leaves_no_match_running_when_asked_to_resign(server):
    config = {
        "server": f"http://127.0.0.1:{server.port}",
        "register": {"name": "runner-shutdown"},
        "bot": {"house": "random"},
        "queue": {"variant": "pairs", "rated": False,
                  "fill_with_house_bots_after_s": 0, "fill_level": "random"},
        "concurrency": 2,
        "matches": 0,
        "on_shutdown": "resign",
    }
    logs = []
    runner = Runner(config, log=logs.append)
    runner.choose = lambda view: (runner.shutdown() if not runner.stop.is_set() else None) or view["legal_actions"][0]
    result = {}
    worker = threading.Thread(target=lambda: result.update(finished=runner.run()), daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), logs
    assert runner.stop.is_set() and not runner.ongoing
    for event in result["finished"]:
        status, view = server.request("GET", f"/v1/matches/{event['match_id']}", token=runner.api.key)
        assert view["phase"] == "match_over"
    assert any(e["match_id"] for e in result["finished"])
    assert any(m.get("ended_by") for m in [
        server.request("GET", f"/v1/matches/{e['match_id']}", token=runner.api.key)[1]
        for e in result["finished"]
    ])
