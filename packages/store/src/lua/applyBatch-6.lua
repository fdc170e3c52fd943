--[[
  Counts one organization's batch of recordings into its rollups, exactly once per recording.
  Atomic: either every recording of the batch is counted, or (duplicates found) nothing is written.
  Work is per key, not per recording: a few commands per block touched and per 1000 ids.

  Input:
    KEYS[1] base: "<prefix>:v1:g<generation>:{<org>}:". Dedupe and block keys are built from it,
            so every key touched shares the organization's hash tag (one Redis Cluster slot).
    KEYS[2] combos: hash, combination JSON -> combination id
    KEYS[3] dim:member_email    KEYS[4] dim:voice_model
    KEYS[5] dim:language_model  KEYS[6] dim:app_name        (sets of distinct values)

    ARGV[1] the batch, JSON:
      ids     recording ids, none repeated
      seen    {currentSet, previousSet, currentExpireAtMs}: suffixes of the dedupe sets of this
              and the previous dedupe window; an id in either was counted before
      combos  combination JSON strings: [member_email, voice_model, language_model|null, app_name]
      blocks  {suffix, expireAtMs (0 = never), isCombos (1 = fields are 1-based indexes into
              combos, 0 = literal fields), cells = {field, count, words, durationMs, voiceMsSum,
              voiceMsCount, llmMsSum, llmMsCount, field, ...}}; fields unique within a block

  Output:
     {1, n}           n recordings counted
    {-1, {i, ...}}    nothing written: the ids at these 1-based indexes were counted before;
                      the caller drops them and calls again
]]
local base = KEYS[1]
local batch = cjson.decode(ARGV[1])
local CHUNK = 1000

--- @include "includes/findCounted"
--- @include "includes/internCombos"
--- @include "includes/addToBlock"

local seen = batch.seen
local counted = findCounted(base .. seen[1], base .. seen[2], batch.ids, CHUNK)
if #counted > 0 then
  return {-1, counted}
end

for first = 1, #batch.ids, CHUNK do
  redis.call("SADD", base .. seen[1], unpack(batch.ids, first, math.min(first + CHUNK - 1, #batch.ids)))
end
if #batch.ids > 0 then
  redis.call("PEXPIREAT", base .. seen[1], seen[3])
end

local comboIds = internCombos(KEYS, batch.combos, CHUNK)

for _, block in ipairs(batch.blocks) do
  addToBlock(base .. block[1], block[3] == 1 and comboIds or nil, block[4], CHUNK)
  if block[2] > 0 then
    redis.call("PEXPIREAT", base .. block[1], block[2])
  end
end

return {1, #batch.ids}
