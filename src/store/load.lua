-- Reads a match in one step. Key layout: see redis.rs.
--
-- KEYS: 1 state hash (fields v, s), 2 list
-- ARGV: 1 the first list element to return (0-based), 2 '1' to return the
--       state, '0' to leave it out (a whole snapshot is always returned)
-- Returns nil when the match does not exist, else {version, state, log}:
-- log is the list from element ARGV[1] on when the state is not a whole
-- snapshot (does not begin with '{'), and empty otherwise.
local got = redis.call('HMGET', KEYS[1], 'v', 's')
if not got[1] then
  return false
end
if string.sub(got[2], 1, 1) == '{' then
  return {got[1], got[2], {}}
end
local state = ''
if ARGV[2] == '1' then
  state = got[2]
end
return {got[1], state, redis.call('LRANGE', KEYS[2], tonumber(ARGV[1]), -1)}
