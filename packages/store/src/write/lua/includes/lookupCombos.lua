-- The small ids of `combos` (one HMGET per chunk), the indexes of the new ones with the ids they
-- will get (1..HLEN are taken, ids are never reused), and how many the table held (read only when
-- some are new, else 0). Reads only: `storeCombos` writes.
local function lookupCombos(keys, combos, chunk)
  local ids = {}
  local newIndexes = {}
  for first = 1, #combos, chunk do
    local last = math.min(first + chunk - 1, #combos)
    local names = {}
    for i = first, last do
      names[#names + 1] = combos[i].key
    end
    local found = redis.call("HMGET", keys[ORG_KEY_COMBOS], unpack(names))
    for i = first, last do
      ids[i] = found[i - first + 1]
      if not ids[i] then
        newIndexes[#newIndexes + 1] = i
      end
    end
  end
  local stored = 0
  if #newIndexes > 0 then
    stored = redis.call("HLEN", keys[ORG_KEY_COMBOS])
    local lastId = stored
    -- As text once here, not in every field name that carries it.
    for _, index in ipairs(newIndexes) do
      lastId = lastId + 1
      ids[index] = string.format("%d", lastId)
    end
  end
  return ids, newIndexes, stored
end
