#!/usr/bin/env bash
# Action throughput and latency against the release server on Redis.
#
# Builds once (cargo build --release --locked, and the http_load bench),
# starts a throwaway redis-server (unless REDIS_URL is set) and the server
# with rate limits off, then runs the play mode: CONNS (64) concurrent
# workers posting legal actions on MATCHES (1000) matches for LOAD_SECONDS (30)
# seconds, each match one remote seat against three random house bots.
# Prints the report (requests/s, latency percentiles, errors by status,
# Redis bytes per match) and stops everything it started.
#
#   scripts/bench/http_load.sh
#   CONNS=16 MATCHES=200 LOAD_SECONDS=10 scripts/bench/http_load.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench/common.sh

conns="${CONNS:-64}"
matches="${MATCHES:-1000}"
seconds="${LOAD_SECONDS:-30}"

build_all
if [[ -n "${REDIS_URL:-}" ]]; then
    log "using REDIS_URL=$REDIS_URL"
else
    start_redis
    log "started redis-server on $REDIS_URL (no persistence)"
fi
start_server
log "server at $BASE (store: redis, rate limits off, RUST_LOG=${RUST_LOG:-warn})"
log "play: $conns connections, $matches matches, $seconds s"
"$LOAD_BIN" --mode play --url "$BASE" --conns "$conns" --matches "$matches" \
    --seconds "$seconds" --redis "$REDIS_URL"
