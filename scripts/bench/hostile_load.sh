#!/usr/bin/env bash
# Hostile load: a well-behaved client's p50/p99 alone, then while hostile
# clients send four-montecarlo-bot creates to a far target, a /healthz
# flood, slow bodies, stream hoarding and montecarlo hints (see
# benches/hostile_load.py); prints both figures and the server's peak RSS.
# Release build, memory store, default limits, 2 workers, all on loopback;
# each phase lasts SECONDS (15) and every client stops by itself.
#
#   scripts/bench/hostile_load.sh
#   SECONDS_PER_PHASE=30 scripts/bench/hostile_load.sh
#   BIN=/tmp/other/botifarra scripts/bench/hostile_load.sh   (no build)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench/common.sh

seconds="${SECONDS_PER_PHASE:-15}"

bin="${BIN:-target/release/botifarra}"
if [[ -z "${BIN:-}" ]]; then
    log "cargo build --release --locked --bin botifarra"
    cargo build --release --locked --bin botifarra
fi
port="$(free_port)"
BASE="http://127.0.0.1:$port"
BIND="127.0.0.1:$port" WORKERS=2 RUST_LOG="${RUST_LOG:-info}" \
    "$bin" >"$BENCH_TMP/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 100); do
    curl -fsS -m 2 "$BASE/readyz" >/dev/null 2>&1 && break
    sleep 0.1
done
log "server $SERVER_PID on $BASE; $seconds s quiet, then $seconds s hostile"
timeout $((seconds * 2 + 90)) python3 benches/hostile_load.py "$BASE" "$SERVER_PID" "$seconds"
echo "server log: $(wc -l <"$BENCH_TMP/server.log") lines, $(wc -c <"$BENCH_TMP/server.log") bytes"
echo "lines about refusals: $(grep -c 'refused by a limit' "$BENCH_TMP/server.log" || true)"
