-- Compare-and-set commit of one match, atomic because Redis runs a script
-- to completion before serving anything else. Key layout: see redis.rs.
--
-- KEYS: 1 state hash (fields v, s), 2 event list, 3 idempotency hash
-- ARGV: 1 expected version, 2 new version, 3 '=' and the new state, or ''
--       to keep the stored one, 4 TTL in seconds,
--       5 announcement: 'PUBLISH <channel>' or 'SPUBLISH <channel>',
--       6 match id, 7 '1' if an idempotency key follows,
--       8 idempotency key, 9 response to remember, 10.. events in order
-- Returns {kind, value}: {'committed', first_seq}, {'duplicate', response},
-- {'conflict', current_version} or {'missing', ''}.
local state_key, events_key, idem_key = KEYS[1], KEYS[2], KEYS[3]
local has_idem = ARGV[7] == '1'
local first_event = 10

if has_idem then
  local previous = redis.call('HGET', idem_key, ARGV[8])
  if previous then
    return {'duplicate', previous}
  end
end

local current = redis.call('HGET', state_key, 'v')
if not current then
  return {'missing', ''}
end
if current ~= ARGV[1] then
  return {'conflict', current}
end

if ARGV[3] == '' then
  redis.call('HSET', state_key, 'v', ARGV[2])
else
  redis.call('HSET', state_key, 'v', ARGV[2], 's', string.sub(ARGV[3], 2))
end
local first_seq = redis.call('LLEN', events_key) + 1
local last_seq = first_seq - 1
-- Push in slices: unpack() of thousands of values overflows Lua's C stack.
local i = first_event
while i <= #ARGV do
  local j = math.min(i + 499, #ARGV)
  last_seq = redis.call('RPUSH', events_key, unpack(ARGV, i, j))
  i = j + 1
end
if has_idem then
  -- Only the latest key of each slot (the part before the first ':') is
  -- kept: a retry repeats the last request, so older answers are dropped.
  local slot = string.match(ARGV[8], '^([^:]*):')
  if slot then
    local marker = '\0last:' .. slot
    local older = redis.call('HGET', idem_key, marker)
    if older then
      redis.call('HDEL', idem_key, older)
    end
    redis.call('HSET', idem_key, marker, ARGV[8])
  end
  redis.call('HSET', idem_key, ARGV[8], ARGV[9])
end

redis.call('EXPIRE', state_key, ARGV[4])
redis.call('EXPIRE', events_key, ARGV[4])
redis.call('EXPIRE', idem_key, ARGV[4])
if last_seq >= first_seq then
  local cmd, channel = string.match(ARGV[5], '^(%S+) (.+)$')
  redis.call(cmd, channel, ARGV[6] .. ' ' .. last_seq)
end
return {'committed', tostring(first_seq)}
