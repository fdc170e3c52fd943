-- The 1-based indexes of `ids` found in either dedupe set, usually none. SMISMEMBER answers a
-- whole chunk per call.
local function findCounted(currentSet, previousSet, ids, chunk)
  local counted = {}
  for first = 1, #ids, chunk do
    local last = math.min(first + chunk - 1, #ids)
    local inCurrent = redis.call("SMISMEMBER", currentSet, unpack(ids, first, last))
    local inPrevious = redis.call("SMISMEMBER", previousSet, unpack(ids, first, last))
    for i = 1, last - first + 1 do
      if inCurrent[i] == 1 or inPrevious[i] == 1 then
        counted[#counted + 1] = first + i - 1
      end
    end
  end
  return counted
end
