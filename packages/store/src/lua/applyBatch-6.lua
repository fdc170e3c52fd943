--[[
  Counts one organization's batch of recordings into its rollups, exactly once per recording.
  Atomic: either every recording of the batch is counted, or (duplicates found) nothing is written.
  Work is per key, not per recording: a few commands per block touched and per 1000 ids.

  Input:
    KEYS[1] base: "<prefix>:v2:g<generation>:{<org>}:". Dedupe and block keys are built from it,
            so every key touched shares the organization's hash tag (one Redis Cluster slot).
    KEYS[2] combos: hash, combination JSON -> combination id
    KEYS[3] dim:member_email    KEYS[4] dim:voice_model
    KEYS[5] dim:language_model  KEYS[6] dim:app_name        (sets of distinct values)

    ARGV[1] this dedupe window's set suffix   ARGV[2] the previous window's   ARGV[3] expiry of the
            current one (ms)
    ARGV[4] the batch, binary, little-endian; "str" is a u16 byte length and the UTF-8 bytes
            (src/batchEncoding.ts writes it):
      u32 n, n × str        recording ids, none repeated
      u32 n, n × str        combinations, JSON [member_email, voice_model, language_model|null, app_name]
      u32 n, n × block:
        str suffix, str expiry in ms ("0" = never), u8 isCombos, u8 cellBytes, u32 cells,
        cells × field       isCombos: u32, 1-based index into the combinations; else str
        cells × cellBytes   the cells' sums (count, words, durationMs, voiceMsSum, voiceMsCount,
                            llmMsSum, llmMsCount) in a stored cell's form: seven u32 (28 bytes)
                            when all of the block's sums fit, else seven doubles (56 bytes)
      fields are unique within a block.

  Output:
     {1, n}           n recordings counted
    {-1, {i, ...}}    nothing written: the ids at these 1-based indexes were counted before;
                      the caller drops them and calls again
]]
local base = KEYS[1]
local batch = ARGV[4]
local CHUNK = 1000
local SMALL_CELL, SMALL_CELL_BYTES, SMALL_CELL_MAX = "<I4I4I4I4I4I4I4", 28, 4294967295
local LARGE_CELL = "<ddddddd"

--- @include "includes/findCounted"
--- @include "includes/internCombos"
--- @include "includes/addToBlock"

local pos = 1
local function readStrings()
  local n
  n, pos = struct.unpack("<I4", batch, pos)
  local strings = {}
  for i = 1, n do
    strings[i], pos = struct.unpack("<I2c0", batch, pos)
  end
  return strings
end

local ids = readStrings()
local combos = readStrings()
local currentSet, previousSet = base .. ARGV[1], base .. ARGV[2]

local counted = findCounted(currentSet, previousSet, ids, CHUNK)
if #counted > 0 then
  return {-1, counted}
end

for first = 1, #ids, CHUNK do
  redis.call("SADD", currentSet, unpack(ids, first, math.min(first + CHUNK - 1, #ids)))
end
if #ids > 0 then
  redis.call("PEXPIREAT", currentSet, ARGV[3])
end

local comboIds = internCombos(KEYS, combos, CHUNK)

local blockCount
blockCount, pos = struct.unpack("<I4", batch, pos)
for _ = 1, blockCount do
  local suffix, expireAt, isCombos, cellBytes, n
  suffix, expireAt, isCombos, cellBytes, n, pos = struct.unpack("<I2c0I2c0BBI4", batch, pos)
  local fields = {}
  if isCombos == 1 then
    local index
    for i = 1, n do
      index, pos = struct.unpack("<I4", batch, pos)
      fields[i] = comboIds[index]
    end
  else
    for i = 1, n do
      fields[i], pos = struct.unpack("<I2c0", batch, pos)
    end
  end
  local key = base .. suffix
  addToBlock(key, fields, batch, pos, cellBytes, CHUNK)
  pos = pos + n * cellBytes
  if expireAt ~= "0" then
    redis.call("PEXPIREAT", key, expireAt)
  end
end

return {1, #ids}
