-- Decodes the batch argument (layout in the script header) without touching Redis. Cells stay in
-- the batch string: a block records where its cells start. Fails on a truncated batch.
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

  -- Ids come as their 16-byte digests (recordingDigest.ts).
  local ids = {}
  local n = u32()
  if pos - 1 + 16 * n > #batch then
    error("batch truncated in its recording digests")
  end
  for i = 1, n do
    ids[i] = string.sub(batch, pos, pos + 15)
    pos = pos + 16
  end
  local combos = {}
  for i = 1, u32() do
    combos[i] = {key = str(), values = {str(), str(), str(), str()}}
  end
  local blocks = {}
  for b = 1, u32() do
    local suffix, prefix, expireAt, fieldForm, cellBytes, n
    suffix, prefix, expireAt, fieldForm, cellBytes, n, pos = struct.unpack("<I2c0I2c0I2c0BBI4", batch, pos)
    local fields = {}
    for i = 1, n do
      fields[i] = fieldForm ~= 0 and u32() or str()
    end
    blocks[b] = {suffix = suffix, prefix = prefix, expireAt = expireAt, fieldForm = fieldForm, fields = fields,
                 cellBytes = cellBytes, at = pos}
    pos = pos + n * cellBytes
    if pos - 1 > #batch then
      error("batch truncated in the cells of block " .. suffix)
    end
  end
  if pos - 1 ~= #batch then
    error("batch has " .. (#batch - pos + 1) .. " bytes after its last block")
  end
  return ids, combos, blocks
end
