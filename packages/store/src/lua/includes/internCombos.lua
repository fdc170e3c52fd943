-- The small ids of `combos` (one HMGET per chunk), assigning the next ids (1..HLEN, never reused)
-- to new ones and adding their values to the dimension sets, with one SADD per dimension.
local function internCombos(keys, combos, chunk)
  local ids = {}
  local fresh = {}
  for first = 1, #combos, chunk do
    local last = math.min(first + chunk - 1, #combos)
    local found = redis.call("HMGET", keys[2], unpack(combos, first, last))
    for i = 1, last - first + 1 do
      ids[first + i - 1] = found[i]
      if not found[i] then
        fresh[#fresh + 1] = first + i - 1
      end
    end
  end
  if #fresh == 0 then
    return ids
  end
  local lastId = redis.call("HLEN", keys[2])
  local assignments = {}
  local values = {{}, {}, {}, {}}
  for _, index in ipairs(fresh) do
    lastId = lastId + 1
    ids[index] = lastId
    assignments[#assignments + 1] = combos[index]
    assignments[#assignments + 1] = lastId
    local combo = cjson.decode(combos[index])
    for d = 1, 4 do
      if combo[d] ~= cjson.null then
        values[d][#values[d] + 1] = combo[d]
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
  return ids
end
