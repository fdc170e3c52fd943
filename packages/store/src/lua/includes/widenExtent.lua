-- Widens an organization's extent (the first and last counted recorded_at, ms) to a batch's.
-- Only the caller's strings are stored, never a number formatted by Lua, so values stay exact.
local function widenExtent(key, current, first, last)
  local updates = {}
  if not current[1] or tonumber(first) < tonumber(current[1]) then
    updates[#updates + 1] = "first"
    updates[#updates + 1] = first
  end
  if not current[2] or tonumber(last) > tonumber(current[2]) then
    updates[#updates + 1] = "last"
    updates[#updates + 1] = last
  end
  if #updates > 0 then
    redis.call("HSET", key, unpack(updates))
  end
end
