# Shared by scripts/bench/http_load.sh and scripts/bench/soak.sh (sourced, not run).
#
# Builds the release server and the load tool once, starts a throwaway
# redis-server and the server on free loopback ports, and stops everything
# it started on exit. Only loopback addresses are used.

BENCH_TMP="$(mktemp -d "${TMPDIR:-/tmp}/botifarra-bench.XXXXXX")"
SERVER_PID=""
REDIS_PID=""
LOAD_PID=""

cleanup() {
    for pid in "$LOAD_PID" "$SERVER_PID" "$REDIS_PID"; do
        if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$BENCH_TMP"
}
trap cleanup EXIT

log() {
    echo "[$(date +%H:%M:%S)] $*" >&2
}

# A TCP port on 127.0.0.1 that is free right now.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Builds target/release/botifarra and the http_load tool; sets LOAD_BIN.
build_all() {
    log "cargo build --release --locked"
    cargo build --release --locked
    log "cargo bench --locked --bench http_load --no-run"
    LOAD_BIN="$(cargo bench --locked --bench http_load --no-run --message-format=json 2>/dev/null |
        python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "http_load":
        print(m["executable"])' | tail -n 1)"
    if [[ -z "$LOAD_BIN" || ! -x "$LOAD_BIN" ]]; then
        echo "could not find the http_load bench executable" >&2
        exit 1
    fi
}

# Starts redis-server on REDIS_PORT (a new free port when unset); with
# PERSIST=1 every write is fsynced to an append-only file in
# $BENCH_TMP/redis, so a killed server comes back with its data.
start_redis() {
    REDIS_PORT="${REDIS_PORT:-$(free_port)}"
    local persistence=(--save "" --appendonly no)
    if [[ "${PERSIST:-0}" == 1 ]]; then
        persistence=(--save "" --appendonly yes --appendfsync always)
    fi
    mkdir -p "$BENCH_TMP/redis"
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --daemonize no \
        "${persistence[@]}" --dir "$BENCH_TMP/redis" \
        >>"$BENCH_TMP/redis.log" 2>&1 &
    REDIS_PID=$!
    for _ in $(seq 1 100); do
        if redis-cli -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG; then
            REDIS_URL="redis://127.0.0.1:$REDIS_PORT/"
            return 0
        fi
        sleep 0.1
    done
    echo "redis-server did not start; see its log:" >&2
    cat "$BENCH_TMP/redis.log" >&2
    exit 1
}

# Kills redis-server abruptly, like a crash.
kill_redis() {
    kill -9 "$REDIS_PID" 2>/dev/null || true
    wait "$REDIS_PID" 2>/dev/null || true
    REDIS_PID=""
}

# Starts the release server on Redis with rate limits and per-address caps
# off (every load client comes from 127.0.0.1); sets BASE.
start_server() {
    local port
    port="$(free_port)"
    BASE="http://127.0.0.1:$port"
    BIND="127.0.0.1:$port" REDIS_URL="$REDIS_URL" RUST_LOG="${RUST_LOG:-warn}" \
        RATE_LIMIT_PER_IP=0 RATE_LIMIT_PER_TOKEN=0 RATE_LIMIT_PER_MATCH=0 CREATES_PER_MINUTE=0 \
        HINTS_PER_SECOND=0 MAX_CONNECTIONS_PER_IP=0 MAX_STREAMS_PER_IP=0 \
        target/release/botifarra >"$BENCH_TMP/server.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 100); do
        if curl -fsS -m 2 "$BASE/readyz" >/dev/null 2>&1; then
            return 0
        fi
        sleep 0.1
    done
    echo "the server did not become ready; its log:" >&2
    cat "$BENCH_TMP/server.log" >&2
    exit 1
}

# The status code of GET /readyz ("000" when there is no answer).
readyz_status() {
    curl -s -o /dev/null -m 5 -w '%{http_code}' "$BASE/readyz" || true
}
