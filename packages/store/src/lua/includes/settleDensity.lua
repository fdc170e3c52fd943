-- Turns the organization's tiers dense once its recordings are dense enough in them (the rule of
-- src/blockPlacement.ts, passed as "minRecordings recordingsPerBlock code blockMs code blockMs ...").
-- `dense` is the string of the dense tiers' codes; the switch never goes back. Returns the new string.
local function settleDensity(extentKey, dense, recordings, rule)
  local words = {}
  for word in string.gmatch(rule, "%S+") do
    words[#words + 1] = word
  end
  if recordings < tonumber(words[1]) then
    return dense
  end
  local bounds = redis.call("HMGET", extentKey, "first", "last")
  local span = tonumber(bounds[2]) - tonumber(bounds[1])
  local perBlock = tonumber(words[2])
  local settled = ""
  for i = 3, #words, 2 do
    local code, blockMs = words[i], tonumber(words[i + 1])
    if string.find(dense, code, 1, true) or recordings * blockMs >= perBlock * math.max(span, blockMs) then
      settled = settled .. code
    end
  end
  if settled ~= dense then
    redis.call("HSET", extentKey, "dense", settled)
  end
  return settled
end
