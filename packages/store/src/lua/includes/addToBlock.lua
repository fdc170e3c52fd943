-- Adds cells {field, 7 sums, field, 7 sums, ...} to one block hash: one HMGET and one HSET per
-- chunk of fields. Stored values are "c,w,d,vs,vn,ls,ln"; "%.0f" keeps integers exact to 2^53.
-- With `comboIds`, a cell's field is an index into it.
local function addToBlock(key, comboIds, cells, chunk)
  local n = #cells / 8
  for first = 1, n, chunk do
    local last = math.min(first + chunk - 1, n)
    local fields = {}
    for i = first, last do
      local field = cells[(i - 1) * 8 + 1]
      if comboIds then
        field = comboIds[field]
      end
      fields[#fields + 1] = field
    end
    local olds = redis.call("HMGET", key, unpack(fields))
    local updates = {}
    for j = 1, #fields do
      local at = (first + j - 2) * 8
      local s = {cells[at + 2], cells[at + 3], cells[at + 4], cells[at + 5], cells[at + 6], cells[at + 7], cells[at + 8]}
      local old = olds[j]
      if old then
        local k = 1
        for v in string.gmatch(old, "%d+") do
          s[k] = s[k] + tonumber(v)
          k = k + 1
        end
      end
      updates[#updates + 1] = fields[j]
      updates[#updates + 1] = string.format("%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f", s[1], s[2], s[3], s[4], s[5], s[6], s[7])
    end
    redis.call("HSET", key, unpack(updates))
  end
end
