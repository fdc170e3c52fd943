-- The 1-based indexes of `ids` already counted (a live "seen:<id>" key), usually none.
-- One multi-key EXISTS per chunk answers the common case; only a hit checks ids one by one.
-- Chunks stay well below Lua's limit on unpacked values.
local function findCounted(base, ids)
  local keys = {}
  for i, id in ipairs(ids) do
    keys[i] = base .. "seen:" .. id
  end
  local any = false
  for first = 1, #keys, 500 do
    if redis.call("EXISTS", unpack(keys, first, math.min(first + 499, #keys))) > 0 then
      any = true
      break
    end
  end
  local counted = {}
  if any then
    for i, key in ipairs(keys) do
      if redis.call("EXISTS", key) == 1 then
        counted[#counted + 1] = i
      end
    end
  end
  return counted
end
