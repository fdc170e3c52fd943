--[[
  countHit-1: counts one request of one client in a fixed window (the per-token rate limit).

  KEYS[1]  the client's counter, e.g. <prefix>:v3:ratelimit:<token id>
  ARGV[1]  the window length in milliseconds

  Returns { hits, msLeft }: the requests counted in the current window including this one, and the
  milliseconds until the window ends. A counter without a time to live (which only a hand-made key
  can be) starts a new window rather than counting forever.
]]
local windowMs = tonumber(ARGV[1])
local msLeft = redis.call("PTTL", KEYS[1])
if msLeft <= 0 then
  redis.call("SET", KEYS[1], 1, "PX", windowMs)
  return { 1, windowMs }
end
return { redis.call("INCR", KEYS[1]), msLeft }
