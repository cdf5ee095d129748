"""botifarra-bot survives the server being restarted mid-match: a server on
a Redis store (a redis-server started here) is killed while the runner
plays rated queue matches 4 at once, and started again on the same port;
every match resumes and finishes. The server runs with its default rate
limits, and the runner is never rate-limited."""

import shutil
import tempfile
import threading
import time

import pytest

from botifarra.client import Client
from botifarra.runner import Runner

from conftest import free_port, start, start_server, stop

MATCHES = 20


@pytest.fixture
def redis_url():
    binary = shutil.which("redis-server")
    assert binary, "redis-server not found: install Redis (apt-get install redis-server)"
    port = free_port()
    data = tempfile.mkdtemp(prefix="botifarra-py-redis-")
    proc = start([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                  "--appendonly", "no", "--dir", data], port, "redis-server")
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(proc)
        shutil.rmtree(data, ignore_errors=True)


def wait_for(what, condition, limit_s=120):
    """Polls `condition` until it holds (fails after `limit_s`: a hang)."""
    deadline = time.monotonic() + limit_s
    while not condition():
        assert time.monotonic() < deadline, f"waited too long for {what}"
        time.sleep(0.02)


def test_the_runner_finishes_every_match_across_a_server_restart(redis_url):
    port = free_port()
    args = ("--redis-url", redis_url)
    server = start_server(port, *args)
    config = {
        "server": f"http://127.0.0.1:{port}",
        "register": {"name": "restart-test"},
        "bot": {"house": "random"},
        "queue": {"variant": "pairs", "rated": True,
                  "fill_with_house_bots_after_s": 0, "fill_level": "random"},
        "concurrency": 4,
        "matches": MATCHES,
    }
    logs = []
    runner = Runner(config, log=logs.append)
    result = {}
    worker = threading.Thread(target=lambda: result.update(finished=runner.run()), daemon=True)
    worker.start()
    try:
        # Kill the server once matches are under way and moves were made.
        wait_for("matches under way", lambda: len(runner.ongoing) >= 2 and runner.moves >= 20)
        cut = set(runner.ongoing)
        server.kill()
        server.wait()
        moves_at_kill = runner.moves
        # The runner, finding no server, retries with backoff meanwhile.
        wait_for("a retry", lambda: runner.api.reconnects >= 1)
        server = start_server(port, *args)
        worker.join(timeout=300)
        assert not worker.is_alive(), f"the runner did not finish: {logs[-20:]}"

        finished = result["finished"]
        ids = [e["match_id"] for e in finished]
        assert len(ids) == MATCHES and len(set(ids)) == MATCHES, logs[-20:]
        # The matches cut by the restart resumed and were played to their end.
        assert cut <= set(ids)
        assert runner.moves > moves_at_kill and runner.api.reconnects >= 1
        assert runner.api.rate_limited == 0 and runner.fallbacks == 0
        for event in finished:
            assert event["winner"] is not None and "rating" in event
        # The restarted server read them from Redis: each is over there.
        c = Client(config["server"], runner.api.key, log=lambda m: None)
        for match_id in cut:
            assert c.match(match_id).over
        # Each counted once (a match the kill cut is counted by the scheduler).
        wait_for("the matches counted", lambda: c.me().matches_played >= MATCHES)
        assert c.me().matches_played == MATCHES
    finally:
        if server.poll() is None:
            stop(server)
