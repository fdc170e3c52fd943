--[[
  Counts one organization's batch of recordings into its rollups, exactly once per recording.
  Atomic: either every recording of the batch is counted, or (duplicates found) nothing is written.

  Input:
    KEYS[1] base: "<prefix>:v1:g<generation>:{<org>}:". Dedupe and block keys are built from it,
            so every key touched shares the organization's hash tag (one Redis Cluster slot).
    KEYS[2] combos: hash, combination JSON -> combination id
    KEYS[3] dim:member_email    KEYS[4] dim:voice_model
    KEYS[5] dim:language_model  KEYS[6] dim:app_name        (sets of distinct values)

    ARGV[1] the batch, JSON:
      ids     recording ids, none repeated; each is counted once within the dedupe window
      window  the dedupe window, ms
      combos  combination JSON strings: [member_email, voice_model, language_model|null, app_name]
      cells   [blockSuffix, comboIndex (1-based into combos), count, words, durationMs,
               voiceMsSum, voiceMsCount, llmMsSum, llmMsCount]
      expire  [blockSuffix, expireAtMs] once per block of a tier that expires

  Output:
     {1, n}           n recordings counted
    {-1, {i, ...}}    nothing written: the ids at these 1-based indexes were counted before;
                      the caller drops them and calls again
]]
local base = KEYS[1]
local batch = cjson.decode(ARGV[1])

--- @include "includes/findCounted"
--- @include "includes/internCombo"
--- @include "includes/addToCell"

local counted = findCounted(base, batch.ids)
if #counted > 0 then
  return {-1, counted}
end

for _, id in ipairs(batch.ids) do
  redis.call("SET", base .. "seen:" .. id, "1", "PX", batch.window)
end

local comboIds = {}
for i, combo in ipairs(batch.combos) do
  comboIds[i] = internCombo(KEYS, combo)
end

for _, cell in ipairs(batch.cells) do
  addToCell(base .. cell[1], comboIds[cell[2]], cell)
end

for _, e in ipairs(batch.expire) do
  redis.call("PEXPIREAT", base .. e[1], e[2])
end

return {1, #batch.ids}
