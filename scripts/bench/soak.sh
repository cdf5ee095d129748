#!/usr/bin/env bash
# Soak: BOTS (256) concurrent clients play whole matches through the API
# for SOAK_SECONDS (120) seconds against the release server on Redis; every
# finished match is replayed with the engine and must agree.
#
# With FAULTS=1 the script starts its own redis-server with an fsynced
# append-only file, kills it (kill -9) twice during the soak for
# OUTAGE_SECONDS (5) each and starts it again on the same port and data;
# /readyz must answer 503 during each outage and 200 after. The run must
# still end with zero unexpected errors (503s are retried with the same
# Idempotency-Key) and every match finished and replayed, or in progress
# and readable and consistent.
#
#   scripts/bench/soak.sh
#   FAULTS=1 SOAK_SECONDS=90 scripts/bench/soak.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/bench/common.sh

bots="${BOTS:-256}"
soak_seconds="${SOAK_SECONDS:-120}"
outage="${OUTAGE_SECONDS:-5}"
faults="${FAULTS:-0}"

build_all
if [[ "$faults" == 1 ]]; then
    if [[ -n "${REDIS_URL:-}" ]]; then
        echo "FAULTS=1 kills and restarts its own redis-server: unset REDIS_URL" >&2
        exit 2
    fi
    PERSIST=1
    start_redis
    log "started redis-server on $REDIS_URL (appendonly, fsync always)"
elif [[ -n "${REDIS_URL:-}" ]]; then
    log "using REDIS_URL=$REDIS_URL"
else
    start_redis
    log "started redis-server on $REDIS_URL (no persistence)"
fi
start_server
log "server at $BASE; soak: $bots clients for $soak_seconds s (FAULTS=$faults)"

"$LOAD_BIN" --mode soak --url "$BASE" --bots "$bots" --seconds "$soak_seconds" \
    --redis "$REDIS_URL" &
LOAD_PID=$!

fault_failures=0
# Waits up to $2 seconds for /readyz to answer $1; prints how long it took.
await_readyz() {
    local want="$1" limit="$2" start now status
    start="$(date +%s.%N)"
    while :; do
        status="$(readyz_status)"
        now="$(date +%s.%N)"
        if [[ "$status" == "$want" ]]; then
            python3 -c "print(f'{$now - $start:.2f}')"
            return 0
        fi
        if python3 -c "import sys; sys.exit(0 if $now - $start > $limit else 1)"; then
            echo "timeout (last status $status)"
            return 1
        fi
        sleep 0.2
    done
}

if [[ "$faults" == 1 ]]; then
    soak_start="$(date +%s)"
    for round in 1 2; do
        # Outages at about 25% and 55% of the soak.
        at=$(( soak_seconds * (round == 1 ? 25 : 55) / 100 ))
        sleep $(( soak_start + at - $(date +%s) > 0 ? soak_start + at - $(date +%s) : 0 ))
        log "fault $round: kill -9 redis-server (pid $REDIS_PID)"
        kill_redis
        if took="$(await_readyz 503 10)"; then
            log "fault $round: /readyz answered 503 after ${took}s"
        else
            log "fault $round: FAILED: /readyz never answered 503 ($took)"
            fault_failures=$((fault_failures + 1))
        fi
        sleep "$outage"
        status="$(readyz_status)"
        if [[ "$status" != 503 ]]; then
            log "fault $round: FAILED: /readyz answered $status at the end of the outage"
            fault_failures=$((fault_failures + 1))
        fi
        start_redis
        log "fault $round: redis-server restarted on the same port and data (pid $REDIS_PID)"
        if took="$(await_readyz 200 30)"; then
            log "fault $round: /readyz answered 200 ${took}s after the restart"
        else
            log "fault $round: FAILED: /readyz did not recover ($took)"
            fault_failures=$((fault_failures + 1))
        fi
    done
fi

load_rc=0
wait "$LOAD_PID" || load_rc=$?
LOAD_PID=""
if [[ "$faults" == 1 ]]; then
    keys="$(redis-cli -p "$REDIS_PORT" dbsize 2>/dev/null || echo '?')"
    log "after the faults: redis holds $keys keys"
fi
if [[ "$load_rc" -ne 0 || "$fault_failures" -ne 0 ]]; then
    log "soak FAILED (load tool exit $load_rc, fault check failures $fault_failures)"
    exit 1
fi
log "soak passed"
