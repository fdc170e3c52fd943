--[[
  Counts one organization's batch of recordings into its rollups, exactly once per recording.
  Atomic: either every recording of the batch is counted, or nothing is written. The script runs
  in three phases so that no failure can leave a half-applied batch (Redis does not undo the
  writes of a script that fails): it decodes the whole batch, then reads every key it will write
  (a key of the wrong type, or a truncated batch, fails there), and writes only after that.
  Work is per key, not per recording: a few commands per block touched and per 1000 ids.

  Input:
    KEYS[1] base: "<prefix>:v2:g<generation>:{<org>}:". Dedupe and block keys are built from it,
            so every key touched shares the organization's hash tag (one Redis Cluster slot).
    KEYS[2] combos: hash, combination JSON -> combination id
    KEYS[3] dim:member_email    KEYS[4] dim:voice_model
    KEYS[5] dim:language_model  KEYS[6] dim:app_name        (sets of distinct values)
    KEYS[7] extent: hash, first / last = the earliest / latest counted recorded_at (ms), which
            lets readers skip blocks where the organization has no data; writes = how many
            batches have counted anything (the write stamp: an answer computed when it had a
            value is still the answer while it has that value)

    ARGV[1] this dedupe window's set suffix   ARGV[2] the previous window's   ARGV[3] expiry of the
            current one (ms)
    ARGV[4] the batch, binary, little-endian; "str" is a u16 byte length and the UTF-8 bytes
            (src/batchEncoding.ts writes it):
      u32 n, n × str        recording ids, none repeated
      u32 n, n × combination:
        str key             JSON [member_email, voice_model, language_model|null, app_name]
        4 × str             the same four values; "" is a null language model
      u32 n, n × block:
        str suffix, str expiry in ms ("0" = never), u8 isCombos, u8 cellBytes, u32 cells,
        cells × field       isCombos 1: u32, 1-based index into the combinations;
                            isCombos 2 (a split hour block): u32, 4 × index + quarter, stored as
                            the quarter's digit .. combination id; isCombos 0: str
        cells × cellBytes   the cells' sums (count, words, durationMs, voiceMsSum, voiceMsCount,
                            llmMsSum, llmMsCount) in a stored cell's form: seven u32 (28 bytes)
                            when all of the block's sums fit, else seven doubles (56 bytes)
      fields are unique within a block.
    ARGV[5] the earliest recorded_at of the batch (ms)   ARGV[6] the latest (they widen KEYS[7])

  Output:
     {1, n}           n recordings counted
    {-1, {i, ...}}    nothing written: the ids at these 1-based indexes were counted before;
                      the caller drops them and calls again
  Errors (nothing written): a malformed batch, or a key of the wrong type.
]]
local base = KEYS[1]
local CHUNK = 1000
local SMALL_CELL, SMALL_CELL_BYTES, SMALL_CELL_MAX = "<I4I4I4I4I4I4I4", 28, 4294967295
local LARGE_CELL = "<ddddddd"

--- @include "includes/readBatch"
--- @include "includes/findCounted"
--- @include "includes/lookupCombos"
--- @include "includes/storeCombos"
--- @include "includes/addToBlock"
--- @include "includes/widenExtent"

-- Phase 1: decode everything.
local ids, combos, blocks = readBatch(ARGV[4])
local currentSet, previousSet = base .. ARGV[1], base .. ARGV[2]

-- Phase 2: read every key that phase 3 writes.
local counted = findCounted(currentSet, previousSet, ids, CHUNK)
if #counted > 0 then
  return {-1, counted}
end
local comboIds, fresh = lookupCombos(KEYS, combos, CHUNK)
for _, block in ipairs(blocks) do
  readBlock(base, block, comboIds, CHUNK)
end
local extent = redis.call("HMGET", KEYS[7], "first", "last")

-- Phase 3: write.
for first = 1, #ids, CHUNK do
  redis.call("SADD", currentSet, unpack(ids, first, math.min(first + CHUNK - 1, #ids)))
end
if #ids > 0 then
  redis.call("PEXPIREAT", currentSet, ARGV[3])
end
storeCombos(KEYS, combos, comboIds, fresh, CHUNK)
for _, block in ipairs(blocks) do
  writeBlock(block, ARGV[4], CHUNK)
end
if #ids > 0 then
  widenExtent(KEYS[7], extent, ARGV[5], ARGV[6])
  redis.call("HINCRBY", KEYS[7], "writes", 1)
end

return {1, #ids}
