-- The small ids of `combos` (one HMGET per chunk), and the indexes of the new ones with the ids
-- they will get (1..HLEN are taken, ids are never reused). Reads only: `storeCombos` writes.
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
  if #newIndexes > 0 then
    local lastId = redis.call("HLEN", keys[ORG_KEY_COMBOS])
    -- As text once here, not in every field name that carries it.
    for _, index in ipairs(newIndexes) do
      lastId = lastId + 1
      ids[index] = string.format("%d", lastId)
    end
  end
  return ids, newIndexes
end
