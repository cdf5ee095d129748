#!/usr/bin/env python3
"""Hostile load: a well-behaved client's latency, alone and under attack.

Usage: hostile_load.py BASE_URL SERVER_PID SECONDS

Phase 1 (quiet): one well-behaved client (from 127.0.0.2) plays a match
against three heuristic house bots for SECONDS, timing every request.
Phase 2 (hostile): the same, while separate processes, each from its own
loopback address, send: creates of four-montecarlo-bot matches to a far
target and reads of them (127.0.0.3), a flood of /healthz (127.0.0.4),
slow bodies at one byte a second (127.0.0.5), as many event streams as
they may open (127.0.0.6), and montecarlo hints (127.0.0.7). Every client
stops by itself after SECONDS; nothing leaves loopback.

Prints p50/p99 of both phases, the counts of the hostile requests and the
server's peak resident memory (VmHWM).
"""

import http.client
import json
import multiprocessing as mp
import socket
import sys
import time
from urllib.parse import urlparse


def conn(base, src):
    u = urlparse(base)
    return http.client.HTTPConnection(u.hostname, u.port, timeout=30, source_address=(src, 0))


def call(c, method, path, body=None, token=None):
    headers = {}
    if body is not None:
        headers["Content-Type"] = "application/json"
        body = json.dumps(body)
    if token:
        headers["Authorization"] = "Bearer " + token
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    data = r.read()
    return r.status, (json.loads(data) if data[:1] in (b"{", b"[") else None)


def polite(base, seconds):
    """Plays matches for `seconds`; returns the latency of every request."""
    c = conn(base, "127.0.0.2")
    lat = []
    end = time.monotonic() + seconds
    errors = 0

    def timed(*a, **k):
        # A well-behaved client: about 150 requests a second at most, well
        # under the per-address limit.
        time.sleep(0.005)
        t = time.perf_counter()
        out = call(c, *a, **k)
        lat.append(time.perf_counter() - t)
        return out

    while time.monotonic() < end:
        seats = [{"kind": "remote"}] + [{"kind": "bot", "bot": "heuristic"}] * 3
        status, created = timed("POST", "/v1/matches", {"seats": seats, "auto_deal": True, "rules": {"max_hands": 2}})
        if status != 201:
            errors += 1
            time.sleep(0.05)
            continue
        mid, tok = created["match_id"], created["tokens"][0]["token"]
        while time.monotonic() < end:
            status, moves = timed("GET", f"/v1/matches/{mid}/legal-moves", token=tok)
            if status != 200:
                errors += 1
                break
            if not moves["actions"]:
                status, view = timed("GET", f"/v1/matches/{mid}", token=tok)
                if status != 200 or view.get("phase") == "match_over":
                    break
                continue
            status, _ = timed("POST", f"/v1/matches/{mid}/actions", moves["actions"][0], token=tok)
            if status != 200:
                errors += 1
    return lat, errors


def hostile_creates(base, seconds, out):
    c = conn(base, "127.0.0.3")
    bot = {"kind": "bot", "bot": "montecarlo"}
    body = {"seats": [bot] * 4, "auto_deal": True, "rules": {"max_hands": 1000, "target": 100000}}
    ids, n, end = [], 0, time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            status, created = call(c, "POST", "/v1/matches", body)
            n += 1
            if status == 201:
                ids.append(created["match_id"])
            for mid in ids[-4:]:
                call(c, "GET", f"/v1/matches/{mid}")
                n += 1
        except (OSError, http.client.HTTPException):
            c = conn(base, "127.0.0.3")
    out.put(("creates+reads", n))


def flood(base, seconds, out):
    c = conn(base, "127.0.0.4")
    n, limited, end = 0, 0, time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            status, _ = call(c, "GET", "/healthz")
            n += 1
            limited += status == 429
        except (OSError, http.client.HTTPException):
            c = conn(base, "127.0.0.4")
    out.put(("flood", n))
    out.put(("flood_429", limited))


def slow_bodies(base, seconds, out):
    u = urlparse(base)
    socks, end, dropped = [], time.monotonic() + seconds, 0
    for _ in range(50):
        s = socket.create_connection((u.hostname, u.port), source_address=("127.0.0.5", 0))
        s.sendall(b"POST /v1/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
        socks.append(s)
    while time.monotonic() < end and socks:
        time.sleep(1)
        alive = []
        for s in socks:
            try:
                s.sendall(b" ")
                alive.append(s)
            except OSError:
                dropped += 1
        socks = alive
    out.put(("slow_bodies_dropped_of_50", dropped))


def streams(base, seconds, out):
    u = urlparse(base)
    c = conn(base, "127.0.0.6")
    status, created = call(c, "POST", "/v1/matches", {})
    mid = created["match_id"] if status == 201 else "none"
    socks, refused = [], 0
    for _ in range(300):
        try:
            s = socket.create_connection((u.hostname, u.port), source_address=("127.0.0.6", 0), timeout=5)
            s.sendall(f"GET /v1/matches/{mid}/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            head = s.recv(64)
            if b" 200 " in head:
                socks.append(s)
            else:
                refused += 1
                s.close()
        except OSError:
            refused += 1
    time.sleep(max(0, seconds - 1))
    out.put(("streams_open", len(socks)))
    out.put(("streams_refused", refused))


def hints(base, seconds, out):
    c = conn(base, "127.0.0.7")
    status, created = call(c, "POST", "/v1/matches", {"rules": {"first_dealer": 0}})
    mid, tok = created["match_id"], created["tokens"][0]["token"]
    call(c, "POST", f"/v1/matches/{mid}/deal", token=tok)
    n, limited, end = 0, 0, time.monotonic() + seconds
    while time.monotonic() < end:
        status, _ = call(c, "GET", f"/v1/matches/{mid}/legal-moves?hint=montecarlo", token=tok)
        n += 1
        limited += status == 429
    out.put(("hints", n))
    out.put(("hints_429", limited))


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main():
    base, pid, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    quiet, qerr = polite(base, seconds)
    print(f"quiet:   n={len(quiet)} errors={qerr} p50={pct(quiet, .5):.2f} ms p99={pct(quiet, .99):.2f} ms")
    out = mp.Queue()
    procs = [mp.Process(target=f, args=(base, seconds + 2, out)) for f in (hostile_creates, flood, slow_bodies, streams, hints)]
    for p in procs:
        p.start()
    time.sleep(1)
    loud, lerr = polite(base, seconds)
    for p in procs:
        p.join(seconds + 30)
        if p.is_alive():
            p.terminate()
    print(f"hostile: n={len(loud)} errors={lerr} p50={pct(loud, .5):.2f} ms p99={pct(loud, .99):.2f} ms")
    while not out.empty():
        k, v = out.get()
        print(f"  {k}={v}")
    print(f"p99 ratio hostile/quiet = {pct(loud, .99) / pct(quiet, .99):.2f}")
    print(f"server peak RSS (VmHWM) = {peak_rss_mib(pid):.1f} MiB")


if __name__ == "__main__":
    main()
