-- Stores the new combinations under the ids `lookupCombos` chose and adds their values to the
-- dimension sets (no null language model), one HSET and one SADD per dimension and chunk.
local function storeCombos(keys, combos, ids, newIndexes, chunk)
  if #newIndexes == 0 then
    return
  end
  local assignments = {}
  local values = {{}, {}, {}, {}}
  for _, index in ipairs(newIndexes) do
    local combo = combos[index]
    assignments[#assignments + 1] = combo.key
    assignments[#assignments + 1] = ids[index]
    for d = 1, 4 do
      if combo.values[d] ~= "" then
        values[d][#values[d] + 1] = combo.values[d]
      end
    end
  end
  for first = 1, #assignments, 2 * chunk do
    redis.call("HSET", keys[2], unpack(assignments, first, math.min(first + 2 * chunk - 1, #assignments)))
  end
  for d = 1, 4 do
    for first = 1, #values[d], chunk do
      redis.call("SADD", keys[2 + d], unpack(values[d], first, math.min(first + chunk - 1, #values[d])))
    end
  end
end
