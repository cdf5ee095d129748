//! The schedule of due work on Redis: [`SHARDS`] sorted sets, scored by
//! the time (ms since the epoch) from which each match is due. Each set
//! has its own hash tag, so that on a cluster the sets spread over the
//! masters; every operation touches one set, atomically (a script).

use std::sync::LazyLock;
use std::sync::atomic::{AtomicU32, Ordering};

use redis::Script;

use super::conn::Conn;
use super::unavailable;
use crate::store::StoreError;
use crate::store::due::{DueClaim, SHARDS, shard_of};

/// The name a store keeps its schedule under unless told otherwise.
pub const DEFAULT_NAME: &str = "bf:due";

/// The sorted set holding shard `shard` of the schedule named `name`.
pub fn key(name: &str, shard: u32) -> String {
    format!("{name}:{{d{shard}}}")
}

/// Hands out due members (with the times they were due from) and leases
/// them, in one step. KEYS: the set. ARGV: now, lease end, limit.
static CLAIM: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, ARGV[3])
for i = 1, #due, 2 do
  redis.call('ZADD', KEYS[1], ARGV[2], due[i])
end
return due
",
    )
});

/// Sets (or removes, for an empty time) a member still holding its lease.
/// KEYS: the set. ARGV: id, lease end, next time or ''.
static SETTLE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not s or tonumber(s) ~= tonumber(ARGV[2]) then
  return 0
end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
",
    )
});

/// Adds `id` at `at_ms`, or moves it there if that is earlier.
pub(super) async fn schedule(
    mut conn: Conn,
    name: &str,
    id: &str,
    at_ms: u64,
) -> Result<(), StoreError> {
    let _: i64 = redis::cmd("ZADD")
        .arg(key(name, shard_of(id)))
        .arg("LT")
        .arg(at_ms)
        .arg(id)
        .query_async(&mut conn)
        .await
        .map_err(unavailable)?;
    Ok(())
}

/// Where the next claim starts visiting the sets.
static NEXT_START: AtomicU32 = AtomicU32::new(0);

/// Claims up to `limit` due matches, starting each claim at the next set
/// so that a busy set does not always take the whole allowance.
pub(super) async fn claim(
    mut conn: Conn,
    name: &str,
    now_ms: u64,
    lease_ms: u64,
    limit: usize,
) -> Result<Vec<DueClaim>, StoreError> {
    let until = now_ms.saturating_add(lease_ms.max(1));
    let start = NEXT_START.fetch_add(1, Ordering::Relaxed) % SHARDS;
    let mut out = Vec::new();
    for i in 0..SHARDS {
        if out.len() >= limit {
            break;
        }
        let due: Vec<(String, f64)> = CLAIM
            .key(key(name, (start + i) % SHARDS))
            .arg(now_ms)
            .arg(until)
            .arg(limit - out.len())
            .invoke_async(&mut conn)
            .await
            .map_err(unavailable)?;
        out.extend(due.into_iter().map(|(id, due)| DueClaim {
            id,
            // Scores are whole milliseconds, exact in a double.
            due_ms: due as u64,
            lease_until_ms: until,
        }));
    }
    Ok(out)
}

/// Sets `id` to `next` (removes it for `None`) if it still holds the lease.
pub(super) async fn settle(
    mut conn: Conn,
    name: &str,
    id: &str,
    lease_until_ms: u64,
    next: Option<u64>,
) -> Result<bool, StoreError> {
    let next = next.map_or_else(String::new, |t| t.to_string());
    let done: i64 = SETTLE
        .key(key(name, shard_of(id)))
        .arg(id)
        .arg(lease_until_ms)
        .arg(next)
        .invoke_async(&mut conn)
        .await
        .map_err(unavailable)?;
    Ok(done == 1)
}
