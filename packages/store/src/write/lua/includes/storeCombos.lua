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

-- Adds the values `combos` name (each DIMENSION_COUNT values, "" or cjson.null for no language
-- model) to the dimension sets: one SADD per dimension and chunk.
local function addToDimensionSets(keys, combos, chunk)
  local values = {}
  for d = 1, DIMENSION_COUNT do
    values[d] = {}
  end
  for _, combo in ipairs(combos) do
    for d = 1, DIMENSION_COUNT do
      local value = combo[d]
      if value ~= "" and value ~= cjson.null then
        values[d][#values[d] + 1] = value
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

-- The values of the batch's new combinations, appended to `into`.
local function newCombinationValues(into, combos, newIndexes)
  for _, index in ipairs(newIndexes) do
    into[#into + 1] = combos[index].values
  end
  return into
end

-- The values of the organization's stored combinations: the table's fields are JSON arrays.
local function storedCombinationValues(keys)
  local values = {}
  for _, field in ipairs(redis.call("HKEYS", keys[ORG_KEY_COMBOS])) do
    values[#values + 1] = cjson.decode(field)
  end
  return values
end

-- An organization's dimension values as the extent says they are kept (src/format/organizationExtent.ts
-- DIMENSIONS_FIELD): a new organization's are its combination table's, no sets, until the table
-- would pass DIMENSION_SETS_FROM combinations; then the sets are built from the whole table and the
-- batch's new combinations, and the field goes. An organization without the field keeps its sets.
-- A new organization's field is set with the extent's other updates (`org.updates`, by `write`).
-- The apply script does this before any other write of the call, since a set of the wrong type
-- fails here: what it added before failing is values of batches that pass every check, added
-- again (sets ignore repeats) when each is applied alone.
local function keepDimensionValues(org, chunk)
  -- No new combination, no new value (a new organization's first batch always has one).
  if #org.newIndexes == 0 then
    return
  end
  local fromCombos = org.state[EXTENT_DIMENSIONS] == EXTENT_DIMENSIONS_FROM_COMBOS
  if not fromCombos and org.state.n then
    addToDimensionSets(org.keys, newCombinationValues({}, org.combos, org.newIndexes), chunk)
    return
  end
  -- The table's size as lookupCombos read it, before this call's combinations are stored.
  local stored = org.storedCombos
  if stored + #org.newIndexes <= DIMENSION_SETS_FROM then
    if not fromCombos then
      org.updates[#org.updates + 1] = EXTENT_DIMENSIONS
      org.updates[#org.updates + 1] = EXTENT_DIMENSIONS_FROM_COMBOS
    end
    return
  end
  local all = stored > 0 and storedCombinationValues(org.keys) or {}
  addToDimensionSets(org.keys, newCombinationValues(all, org.combos, org.newIndexes), chunk)
  if fromCombos then
    redis.call("HDEL", org.keys[ORG_KEY_EXTENT], EXTENT_DIMENSIONS)
  end
end
