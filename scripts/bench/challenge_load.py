#!/usr/bin/env python3
"""Challenges under load against a running server: WORKERS threads each
run ROUNDS pairs challenges (a challenger with a partner against two
opponents: one create and three acceptances, the last one starting the
match) and report challenges started per second and the latency of the
last acceptance (the one that creates the match).

    scripts/bench/challenge_load.py http://127.0.0.1:8080 [workers] [rounds]

Needs rate limits off on the server (CREATES_PER_MINUTE=0,
RATE_LIMIT_PER_IP=0). Standard library only.
"""

import json
import statistics
import sys
import threading
import time
import urllib.request


def call(base, method, path, key=None, body=None):
    req = urllib.request.Request(base + path, method=method)
    if key:
        req.add_header("Authorization", "Bearer " + key)
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, data, timeout=30) as r:
        return json.load(r)


def worker(base, rounds, out, errors):
    try:
        ps = [
            call(base, "POST", "/v1/players", body={"name": "load%d" % i, "kind": "bot"})
            for i in range(4)
        ]
        ids = [p["player"]["id"] for p in ps]
        keys = [p["api_key"] for p in ps]
        for _ in range(rounds):
            c = call(
                base,
                "POST",
                "/v1/challenges",
                keys[0],
                {"variant": "pairs", "partner": ids[1], "opponents": [ids[2], ids[3]]},
            )
            cid = c["challenge_id"]
            call(base, "POST", "/v1/challenges/%s/accept" % cid, keys[1])
            call(base, "POST", "/v1/challenges/%s/accept" % cid, keys[2])
            t = time.perf_counter()
            last = call(base, "POST", "/v1/challenges/%s/accept" % cid, keys[3])
            out.append(time.perf_counter() - t)
            if last["status"] != "started":
                errors.append(last)
    except Exception as e:  # reported, not hidden
        errors.append(repr(e))


def main():
    base = sys.argv[1]
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    out, errors = [], []
    threads = [
        threading.Thread(target=worker, args=(base, rounds, out, errors))
        for _ in range(workers)
    ]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0
    out.sort()
    print(
        "challenges started: %d in %.2f s = %.1f/s (4 requests each); errors: %d"
        % (len(out), elapsed, len(out) / elapsed, len(errors))
    )
    if out:
        print(
            "last acceptance (starts the match): p50 %.1f ms, p99 %.1f ms, mean %.1f ms"
            % (
                out[len(out) // 2] * 1000,
                out[min(len(out) - 1, int(len(out) * 0.99))] * 1000,
                statistics.mean(out) * 1000,
            )
        )
    for e in errors[:5]:
        print("error:", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
