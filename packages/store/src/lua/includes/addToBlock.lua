-- The sums of a stored cell (or a batch's cell at byte `at`), by its form (see applyBatch-6.lua).
local function unpackCell(cell, bytes, at)
  return struct.unpack(bytes == SMALL_CELL_BYTES and SMALL_CELL or LARGE_CELL, cell, at)
end

-- The stored form of seven sums: small while every sum fits 32 bits, so that it never wraps.
local function packCell(c, w, d, vs, vn, ls, ln)
  local form = math.max(c, w, d, vs, vn, ls, ln) <= SMALL_CELL_MAX and SMALL_CELL or LARGE_CELL
  return struct.pack(form, c, w, d, vs, vn, ls, ln)
end

-- Adds the cells of `fields` to one block hash: one HMGET and one HSET per chunk of fields. Their
-- sums are `cellBytes` each in `cells` from byte `at`. A field not yet in the block takes its cell
-- as it is; only existing ones are unpacked, added and packed again (struct works in C: a fifth of
-- the cost of parsing and formatting text in Lua).
local function addToBlock(key, fields, cells, at, cellBytes, chunk)
  for first = 1, #fields, chunk do
    local last = math.min(first + chunk - 1, #fields)
    local olds = redis.call("HMGET", key, unpack(fields, first, last))
    local updates = {}
    for j = 1, last - first + 1 do
      local from = at + (first + j - 2) * cellBytes
      local old = olds[j]
      local value
      if old then
        local c1, w1, d1, vs1, vn1, ls1, ln1 = unpackCell(old, #old, 1)
        local c2, w2, d2, vs2, vn2, ls2, ln2 = unpackCell(cells, cellBytes, from)
        value = packCell(c1 + c2, w1 + w2, d1 + d2, vs1 + vs2, vn1 + vn2, ls1 + ls2, ln1 + ln2)
      else
        value = string.sub(cells, from, from + cellBytes - 1)
      end
      updates[2 * j - 1] = fields[first + j - 1]
      updates[2 * j] = value
    end
    redis.call("HSET", key, unpack(updates))
  end
end
