-- Stores the new combinations under the ids `lookupCombos` chose: one HSET per chunk.
local function storeCombos(keys, combos, ids, newIndexes, chunk)
  local assignments = {}
  for _, index in ipairs(newIndexes) do
    assignments[#assignments + 1] = combos[index].key
    assignments[#assignments + 1] = ids[index]
  end
  for first = 1, #assignments, 2 * chunk do
    redis.call("HSET", keys[ORG_KEY_COMBOS], unpack(assignments, first, math.min(first + 2 * chunk - 1, #assignments)))
  end
end

-- Adds the new combinations' values to the dimension sets (no null language model): one SADD per
-- dimension and chunk. The apply script does this before any other write of the call, since a
-- set of the wrong type fails here: what it added before failing is values of batches that pass
-- every check, added again (sets ignore repeats) when each is applied alone.
local function addDimensionValues(keys, combos, newIndexes, chunk)
  local values = {}
  for d = 1, DIMENSION_COUNT do
    values[d] = {}
  end
  for _, index in ipairs(newIndexes) do
    local combo = combos[index]
    for d = 1, DIMENSION_COUNT do
      if combo.values[d] ~= "" then
        values[d][#values[d] + 1] = combo.values[d]
      end
    end
  end
  for d = 1, DIMENSION_COUNT do
    local key = keys[ORG_KEY_FIRST_DIMENSION + d - 1]
    for first = 1, #values[d], chunk do
      redis.call("SADD", key, unpack(values[d], first, math.min(first + chunk - 1, #values[d])))
    end
  end
end
