#!/usr/bin/env bash
# What a move costs the store, and requests per second, for two server
# binaries alternated in one run on one throwaway Redis (flushed before
# each run): the http_load tool's `whole` mode (benches/http_load/whole.rs)
# plays MATCHES (64) whole matches of four remote seats on CONNS (64)
# connections, then reads views for VIEW_SECONDS (10) seconds; ROUNDS (2)
# rounds of before, after.
#
#   BEFORE=/path/to/old/botifarra scripts/bench/store_compare.sh
#   BEFORE=… AFTER=target/release/botifarra ROUNDS=3 MATCHES=32 scripts/bench/store_compare.sh
#
# AFTER defaults to target/release/botifarra, built here unless AFTER is
# given; LOAD_BIN names an already built http_load tool. Prints each run's report under a `== <label> round <n>` line, and
# Redis's `INFO commandstats` (its CPU time per command) for the run.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench/common.sh

conns="${CONNS:-64}"
matches="${MATCHES:-64}"
view_seconds="${VIEW_SECONDS:-10}"
rounds="${ROUNDS:-2}"
before="${BEFORE:?set BEFORE to the binary to compare against}"

if [[ -z "${AFTER:-}" ]]; then
    build_all
    after=target/release/botifarra
elif [[ -n "${LOAD_BIN:-}" ]]; then
    after="$AFTER"
else
    after="$AFTER"
    log "cargo bench --locked --bench http_load --no-run"
    LOAD_BIN="$(cargo bench --locked --bench http_load --no-run --message-format=json 2>/dev/null |
        python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "http_load":
        print(m["executable"])' | tail -n 1)"
fi
start_redis
log "redis-server on $REDIS_URL (no persistence)"

run_one() {
    local label="$1" bin="$2" round="$3" port
    redis-cli -p "$REDIS_PORT" flushall >/dev/null
    redis-cli -p "$REDIS_PORT" config resetstat >/dev/null
    port="$(free_port)"
    BASE="http://127.0.0.1:$port"
    BIND="127.0.0.1:$port" REDIS_URL="$REDIS_URL" RUST_LOG="${RUST_LOG:-warn}" \
        RATE_LIMIT_PER_IP=0 RATE_LIMIT_PER_TOKEN=0 RATE_LIMIT_PER_MATCH=0 CREATES_PER_MINUTE=0 \
        HINTS_PER_SECOND=0 MAX_CONNECTIONS_PER_IP=0 MAX_STREAMS_PER_IP=0 \
        "$bin" >"$BENCH_TMP/server-$label-$round.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 100); do
        curl -fsS -m 2 "$BASE/readyz" >/dev/null 2>&1 && break
        sleep 0.1
    done
    echo "== $label round $round ($bin)"
    "$LOAD_BIN" --mode whole --url "$BASE" --conns "$conns" --matches "$matches" \
        --seconds "$view_seconds" --redis "$REDIS_URL" || echo "(run reported errors)"
    # Redis's own CPU time per command (what one shard can sustain).
    redis-cli -p "$REDIS_PORT" info commandstats | grep -E '^cmdstat_(evalsha|eval|multi|exec|hmget|hget|lindex|llen|lrange|exists|ping)[:]' || true
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}

for round in $(seq 1 "$rounds"); do
    run_one before "$before" "$round"
    run_one after "$after" "$round"
done
