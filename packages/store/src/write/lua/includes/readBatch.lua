-- Decodes the batch argument (layout in the script header) without touching Redis. Cells stay in
-- the batch string: a block records where its cells start. Fails on a truncated batch.
local U32_RUN = 64
local U32_RUN_FORMAT = "<" .. string.rep("I4", U32_RUN)
local function readBatch(batch)
  local pos = 1
  local function str()
    local s
    s, pos = struct.unpack("<I2c0", batch, pos)
    return s
  end
  local function u32()
    local n
    n, pos = struct.unpack("<I4", batch, pos)
    return n
  end

  -- n u32s in one table, U32_RUN at a time (struct parses a format once per call, not per value).
  local function u32s(n)
    local out = {}
    for first = 1, n, U32_RUN do
      local run = math.min(U32_RUN, n - first + 1)
      local unpacked = {struct.unpack(run == U32_RUN and U32_RUN_FORMAT or "<" .. string.rep("I4", run), batch, pos)}
      pos = unpacked[run + 1]
      for k = 1, run do
        out[first + k - 1] = unpacked[k]
      end
    end
    return out
  end

  -- Ids come as their digests (recordingDigest.ts).
  local ids = {}
  local n = u32()
  if pos - 1 + DIGEST_BYTES * n > #batch then
    error("batch truncated in its recording digests")
  end
  for i = 1, n do
    ids[i] = string.sub(batch, pos, pos + DIGEST_BYTES - 1)
    pos = pos + DIGEST_BYTES
  end
  local combos = {}
  for i = 1, u32() do
    local key, values = str(), {}
    for d = 1, DIMENSION_COUNT do
      values[d] = str()
    end
    combos[i] = {key = key, values = values}
  end
  local blocks = {}
  for b = 1, u32() do
    local suffix, prefix, expireAt, fieldForm, cellBytes, n
    suffix, prefix, expireAt, fieldForm, cellBytes, n, pos = struct.unpack("<I2c0I2c0I2c0BBI4", batch, pos)
    local fields
    if fieldForm ~= FIELD_FORM_LITERAL then
      fields = u32s(n)
    else
      fields = {}
      for i = 1, n do
        fields[i] = str()
      end
    end
    local block = {suffix = suffix, prefix = prefix, expireAt = expireAt, fieldForm = fieldForm, fields = fields,
                   cellBytes = cellBytes, at = pos}
    if cellBytes == SKETCH_CELLS then
      -- Sketch cells differ in length: each is its number of pairs, then the pairs as stored.
      local starts, ends = {}, {}
      for i = 1, n do
        local count
        count, pos = struct.unpack("<I2", batch, pos)
        starts[i], ends[i] = pos, pos + count * SKETCH_PAIR_BYTES - 1
        pos = ends[i] + 1
      end
      block.starts, block.ends = starts, ends
    else
      pos = pos + n * cellBytes
    end
    blocks[b] = block
    if pos - 1 > #batch then
      error("batch truncated in the cells of block " .. suffix)
    end
  end
  if pos - 1 ~= #batch then
    error("batch has " .. (#batch - pos + 1) .. " bytes after its last block")
  end
  return ids, combos, blocks
end
