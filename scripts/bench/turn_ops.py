#!/usr/bin/env python3
"""Redis round trips a registered player's action costs in its match's
writes: starts BINARY on a fresh Redis database, registers a player,
plays MATCHES one-hand matches against three house bots (the player
acting as soon as it may, with a 600 s move clock or without), and counts
with MONITOR the commands the server sent itself (not those run inside
its scripts): the script calls (EVALSHA) and schedule writes (ZADD) per
action, leaving out the scheduler's polling claims of due work.

    scripts/bench/turn_ops.py BINARY REDIS_PORT clock|noclock [matches]

REDIS_PORT is a Redis of its own for the run (its data is flushed);
`redis-cli` must be on PATH. Standard library only.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request


def call(base, method, path, key=None, body=None, headers=None):
    req = urllib.request.Request(base + path, method=method)
    if key:
        req.add_header("Authorization", "Bearer " + key)
    for name, value in (headers or {}).items():
        req.add_header(name, value)
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, data, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def is_claim(words):
    """A polling claim: a script on a schedule part whose first argument
    is a time (a settle's is a match id)."""
    return len(words) > 7 and words[6].startswith('"bf:due:') and words[7].strip('"').isdigit()


def play(base, key, player, clock, matches):
    actions = 0
    for _ in range(matches):
        body = {"auto_deal": True, "rules": {"max_hands": 1},
                "seats": [{"player": player}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]}
        if clock:
            body["move_timeout_ms"] = 600000
        status, made = call(base, "POST", "/v1/matches", key, body)
        assert status == 201, made
        mid = made["match_id"]
        while True:
            _, view = call(base, "GET", f"/v1/matches/{mid}", key)
            if view["phase"] == "match_over":
                break
            legal = view.get("legal_actions") or []
            if not legal:
                time.sleep(0.02)
                continue
            status, _ = call(base, "POST", f"/v1/matches/{mid}/actions", key, legal[0],
                             {"If-Match": f'"{view["version"]}"'})
            actions += status == 200
    return actions


def main():
    binary, rport, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    matches = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    cli = ["redis-cli", "-p", rport]
    subprocess.run(cli + ["FLUSHALL"], check=True, capture_output=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, REDIS_URL=f"redis://127.0.0.1:{rport}", RUST_LOG="error")
    server = subprocess.Popen([binary, "serve", "--bind", f"127.0.0.1:{port}", "--workers", "2"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    monitor = None
    log = tempfile.TemporaryFile(mode="w+")
    try:
        for _ in range(200):
            try:
                if call(base, "GET", "/readyz")[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.1)
        _, made = call(base, "POST", "/v1/players", body={"name": "counter", "kind": "bot"})
        key, player = made["api_key"], made["player"]["id"]
        monitor = subprocess.Popen(cli + ["MONITOR"], stdout=log, text=True)
        time.sleep(0.5)
        actions = play(base, key, player, mode == "clock", matches)
        time.sleep(3)  # the scheduler's looks: settling, tell checks
    finally:
        server.terminate()
        if monitor:
            monitor.terminate()
            monitor.wait()
    log.seek(0)
    scripts = schedule = 0
    for line in log:
        words = line.split()
        if len(words) < 4 or words[2] == "lua]":
            continue
        if words[3] == '"EVALSHA"' and not is_claim(words):
            scripts += 1
        elif words[3] == '"ZADD"' and words[4].startswith('"bf:due:'):
            schedule += 1
    print(f"{mode}: {matches} matches, {actions} actions; per action "
          f"{scripts / actions:.2f} script calls + {schedule / actions:.2f} schedule writes "
          f"= {(scripts + schedule) / actions:.2f}")


if __name__ == "__main__":
    main()
