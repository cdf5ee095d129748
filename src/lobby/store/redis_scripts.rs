//! The Lua scripts of the Redis lobby store (`redis.rs`): each write is
//! one of them, run atomically by Redis.

/// Insert unless present. KEYS: doc. ARGV: state, ttl ms (0: none).
pub(super) const INSERT: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', 1, 's', ARGV[1])
if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1";

/// Compare-and-set. KEYS: doc. ARGV: expected version, state, ttl ms.
/// Returns 1 applied, 0 conflict, -1 missing.
pub(super) const REPLACE: &str = r"
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -1 end
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tonumber(v) + 1, 's', ARGV[2])
if tonumber(ARGV[3]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
else
  redis.call('PERSIST', KEYS[1])
end
return 1";

/// Appends a player event. KEYS: list, counter, once-keys. ARGV: event,
/// kept, announcement (`PUBLISH <channel>` or `SPUBLISH <channel>`),
/// player, once-key (empty: none), once-keys kept. An event pushed with a
/// once-key the stream already remembers is not pushed again. Returns the
/// event's number, or 0 when it was already there.
pub(super) const PUSH: &str = r"
local once = ARGV[5]
if once ~= '' and redis.call('ZSCORE', KEYS[3], once) then return 0 end
local seq = redis.call('INCR', KEYS[2])
redis.call('RPUSH', KEYS[1], seq .. ' ' .. ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
if once ~= '' then
  redis.call('ZADD', KEYS[3], seq, once)
  redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -tonumber(ARGV[6]) - 1)
end
local cmd, channel = string.match(ARGV[3], '^(%S+) (.+)$')
redis.call(cmd, channel, ARGV[4] .. ' ' .. seq)
return seq";

/// Events after a number. KEYS: list, counter. ARGV: after, limit.
/// Returns {last, entries...}.
pub(super) const READ: &str = r"
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
local len = redis.call('LLEN', KEYS[1])
local first = last - len + 1
local start = math.max(tonumber(ARGV[1]) + 1 - first, 0)
local out = redis.call('LRANGE', KEYS[1], start, start + tonumber(ARGV[2]) - 1)
table.insert(out, 1, tostring(last))
return out";
