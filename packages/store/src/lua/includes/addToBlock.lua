-- The sums of a stored cell (or a batch's cell at byte `at`), by its form (see applyBatch-7.lua).
local function unpackCell(cell, bytes, at)
  return struct.unpack(bytes == SMALL_CELL_BYTES and SMALL_CELL or LARGE_CELL, cell, at)
end

-- The stored form of seven sums: small while every sum fits 32 bits, so that it never wraps.
local function packCell(c, w, d, vs, vn, ls, ln)
  local form = math.max(c, w, d, vs, vn, ls, ln) <= SMALL_CELL_MAX and SMALL_CELL or LARGE_CELL
  return struct.pack(form, c, w, d, vs, vn, ls, ln)
end

-- Reads a block's current cells for its fields (one HMGET per chunk) into `block.olds`, with
-- combination indexes turned into ids: form 1, index -> id; form 2 (a split hour block),
-- 4 * index + quarter -> quarter digit .. id. Reads only: `writeBlock` writes.
local function readBlock(base, block, comboIds, chunk)
  block.key = base .. block.suffix
  local fields = block.fields
  if block.combosForm == 1 then
    for i = 1, #fields do
      fields[i] = comboIds[fields[i]]
    end
  elseif block.combosForm == 2 then
    for i = 1, #fields do
      local quarter = fields[i] % 4
      fields[i] = quarter .. comboIds[(fields[i] - quarter) / 4]
    end
  end
  block.olds = {}
  for first = 1, #fields, chunk do
    local olds = redis.call("HMGET", block.key, unpack(fields, first, math.min(first + chunk - 1, #fields)))
    for j = 1, #olds do
      block.olds[first + j - 1] = olds[j]
    end
  end
end

-- Adds the batch's cells (in `cells` from byte `block.at`) to the cells `readBlock` found: one
-- HSET per chunk. A field not yet in the block takes its cell as it is; only existing ones are
-- unpacked, added and packed again (struct works in C: a fifth of the cost of text in Lua).
local function writeBlock(block, cells, chunk)
  local fields, olds, cellBytes = block.fields, block.olds, block.cellBytes
  for first = 1, #fields, chunk do
    local last = math.min(first + chunk - 1, #fields)
    local updates = {}
    for i = first, last do
      local from = block.at + (i - 1) * cellBytes
      local old = olds[i]
      local value
      if old then
        local c1, w1, d1, vs1, vn1, ls1, ln1 = unpackCell(old, #old, 1)
        local c2, w2, d2, vs2, vn2, ls2, ln2 = unpackCell(cells, cellBytes, from)
        value = packCell(c1 + c2, w1 + w2, d1 + d2, vs1 + vs2, vn1 + vn2, ls1 + ls2, ln1 + ln2)
      else
        value = string.sub(cells, from, from + cellBytes - 1)
      end
      updates[#updates + 1] = fields[i]
      updates[#updates + 1] = value
    end
    redis.call("HSET", block.key, unpack(updates))
  end
  if block.expireAt ~= "0" then
    redis.call("PEXPIREAT", block.key, block.expireAt)
  end
end
