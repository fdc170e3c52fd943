-- The small id of a combination of dimension values, assigning the next one (ids are 1..HLEN,
-- never reused) and recording each value in its dimension's set the first time it is seen.
local function internCombo(keys, combo)
  local id = redis.call("HGET", keys[2], combo)
  if id then
    return id
  end
  id = redis.call("HLEN", keys[2]) + 1
  redis.call("HSET", keys[2], combo, id)
  local values = cjson.decode(combo)
  for d = 1, 4 do
    if values[d] ~= cjson.null then
      redis.call("SADD", keys[2 + d], values[d])
    end
  end
  return id
end
