-- Creates a match unless its id is taken. Key layout: see redis.rs.
--
-- KEYS: 1 state hash (fields v, s), 2 event list, 3 idempotency hash
-- ARGV: 1 version, 2 state, 3 TTL in seconds, 4 announcement: 'PUBLISH <channel>' or
--       'SPUBLISH <channel>',
--       5 match id, 6.. events in order
-- Returns 1 if created, 0 if the id was already taken.
local state_key, events_key, idem_key = KEYS[1], KEYS[2], KEYS[3]
local first_event = 6

if redis.call('EXISTS', state_key) == 1 then
  return 0
end
-- Leftovers of an expired match with the same id must not leak into this one.
redis.call('DEL', events_key, idem_key)
redis.call('HSET', state_key, 'v', ARGV[1], 's', ARGV[2])
local last_seq = 0
local i = first_event
while i <= #ARGV do
  local j = math.min(i + 499, #ARGV)
  last_seq = redis.call('RPUSH', events_key, unpack(ARGV, i, j))
  i = j + 1
end

redis.call('EXPIRE', state_key, ARGV[3])
redis.call('EXPIRE', events_key, ARGV[3])
if last_seq > 0 then
  local cmd, channel = string.match(ARGV[4], '^(%S+) (.+)$')
  redis.call(cmd, channel, ARGV[5] .. ' ' .. last_seq)
end
return 1
