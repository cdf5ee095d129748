-- Reads a match in one step. Key layout: see redis.rs.
--
-- KEYS: 1 state hash (fields v, s), 2 list
-- Returns nil when the match does not exist, else {version, state, log}:
-- log is every element of the list when the state is not a whole snapshot
-- (does not begin with '{'), and empty otherwise.
local got = redis.call('HMGET', KEYS[1], 'v', 's')
if not got[1] then
  return false
end
if string.sub(got[2], 1, 1) == '{' then
  return {got[1], got[2], {}}
end
return {got[1], got[2], redis.call('LRANGE', KEYS[2], 0, -1)}
