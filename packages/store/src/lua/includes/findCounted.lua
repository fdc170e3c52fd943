-- The 1-based indexes of `ids` found in either dedupe hash, usually none. HMGET answers a whole
-- chunk per call (a counted id has a value, "").
local function findCounted(currentSet, previousSet, ids, chunk)
  local counted = {}
  for first = 1, #ids, chunk do
    local last = math.min(first + chunk - 1, #ids)
    local inCurrent = redis.call("HMGET", currentSet, unpack(ids, first, last))
    local inPrevious = redis.call("HMGET", previousSet, unpack(ids, first, last))
    for i = 1, last - first + 1 do
      if inCurrent[i] or inPrevious[i] then
        counted[#counted + 1] = first + i - 1
      end
    end
  end
  return counted
end
