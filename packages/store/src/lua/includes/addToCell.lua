-- Adds a cell's seven sums to the stored "c,w,d,vs,vn,ls,ln" of one combination in one block.
-- Integers only; "%.0f" keeps them exact up to 2^53 (Lua numbers are doubles).
local function addToCell(key, field, cell)
  local s = {cell[3], cell[4], cell[5], cell[6], cell[7], cell[8], cell[9]}
  local old = redis.call("HGET", key, field)
  if old then
    local i = 1
    for v in string.gmatch(old, "%d+") do
      s[i] = s[i] + tonumber(v)
      i = i + 1
    end
  end
  redis.call("HSET", key, field,
    string.format("%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f", s[1], s[2], s[3], s[4], s[5], s[6], s[7]))
end
