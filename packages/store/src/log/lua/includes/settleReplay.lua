-- A replaying view becomes live once every partition's checkpoint has reached the offset its
-- epoch was opened to replay to ("target:<topic>:<partition>" vs "next:<topic>:<partition>").
-- Returns the state after the check.
local function settleReplay(key)
  local state = redis.call("HGET", key, "state")
  if state ~= "replaying" then
    return state
  end
  local fields = redis.call("HGETALL", key)
  local values = {}
  for i = 1, #fields, 2 do
    values[fields[i]] = fields[i + 1]
  end
  for field, target in pairs(values) do
    if string.sub(field, 1, 7) == "target:" then
      local next = values["next:" .. string.sub(field, 8)]
      if not next or tonumber(next) < tonumber(target) then
        return state
      end
    end
  end
  redis.call("HSET", key, "state", "live")
  redis.call("HDEL", key, "reason")
  return "live"
end
