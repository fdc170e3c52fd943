--[[
  Counts one organization's batch of recordings into its rollups, exactly once per recording.
  Atomic: either every recording of the batch is counted, or nothing is written. The script runs
  in three phases so that no failure can leave a half-applied batch (Redis does not undo the
  writes of a script that fails): it decodes the whole batch, then reads every key it will write
  (a key of the wrong type, or a truncated batch, fails there), and writes only after that.
  Work is per key, not per recording: a few commands per block touched and per 1000 ids.

  Input:
    KEYS[1] base: "<prefix>:v4:g<generation>:{<org>}:". Dedupe and block keys are built from it,
            so every key touched shares the organization's hash tag (one Redis Cluster slot).
    KEYS[2] combos: hash, combination JSON -> combination id
    KEYS[3] dim:member_email    KEYS[4] dim:voice_model
    KEYS[5] dim:language_model  KEYS[6] dim:app_name        (sets of distinct values)
    KEYS[7] extent: hash, first / last = the earliest / latest counted recorded_at (ms), which
            lets readers skip blocks where the organization has no data; writes = how many
            batches have counted anything and stamp = "<writes>@<Redis TIME>" of the last one
            (the write stamp: an answer computed at one stamp is still the answer while it
            holds; TIME makes a stamp unique even after Redis lost or rolled back the counter);
            o:<topic>:<partition> = the highest Kafka offset of that partition whose messages
            of this organization are all applied (offsets live with the state they produced);
            n = how many recordings it counted; layout = where each tier's blocks go, one
            digit per tier (0 container, 1 keyed, 2 views; missing = all containers) and
            mark:<tier code> = the latest recorded_at counted when the tier last moved
            (src/blockPlacement.ts)

    KEYS[8] the generation's log hash (logPosition.ts) on a single Redis, where the partition's
            checkpoint is checked in the same atomic step; on a cluster, where it lives in another
            slot, the extent key again (and ARGV[8] is "")

    ARGV[1] the dedupe window (ms): an id counted at Redis' TIME t goes into the hash of window
            floor(t / W) (the id → ""), checked against that window's and the previous one's;
            each expires at the end of the following window. Redis' clock, not the worker's, so
            workers with different clocks share the same windows.
    ARGV[2] the batch, binary, little-endian; "str" is a u16 byte length and the UTF-8 bytes
            (src/batchEncoding.ts writes it):
      u32 n, n × str        recording ids, none repeated
      u32 n, n × combination:
        str key             JSON [member_email, voice_model, language_model|null, app_name]
        4 × str             the same four values; "" is a null language model
      u32 n, n × block:
        str suffix          the key after KEYS[1]: a block's view (placement views), its
                            combinations (keyed), or the container of its period (container)
        str prefix          what leads every field of the block in that key ("" in a block key,
                            "<index>:" in a container)
        str expiry in ms ("0" = never), u8 fieldForm, u8 cellBytes, u32 cells,
        cells × field       fieldForm 1: u32, 1-based index into the combinations;
                            fieldForm 2 (a split hour block): u32, 4 × index + quarter, stored as
                            the quarter's digit .. combination id; fieldForm 0: str
        cells × cellBytes   the cells' sums (count, words, durationMs, voiceMsSum, voiceMsCount,
                            llmMsSum, llmMsCount) in a stored cell's form: seven u32 (28 bytes)
                            when all of the block's sums fit, else seven doubles (56 bytes)
      fields are unique within a block.
    ARGV[3] the earliest recorded_at of the batch (ms)   ARGV[4] the latest (they widen KEYS[7])
    ARGV[5] the offset field "o:<topic>:<partition>", or "" for a batch from no log (tools, tests)
    ARGV[6] the lowest offset of the batch's messages   ARGV[7] the offset the batch covers up to:
            every message of this organization in the partition up to it is in this batch or
            was before it (repeats, invalid messages)
    ARGV[8] the checkpoint field "next:<topic>:<partition>" in KEYS[8], or "" for no check
    ARGV[9] the checkpoint the worker resumed from ("" = none): if Redis holds another (it lost its
            state, or went back to a snapshot), applying past it would skip the messages between,
            so nothing is written
    ARGV[10] the layout the batch was laid out for: the organization's, or the one the layout
            rule gives it with this batch counted (then its tiers move before the batch is
            written); else nothing is written
    ARGV[11] the layout rule (src/blockPlacement.ts layoutArguments), applied after writing

  Output:
     {1, n, layout}   n recordings counted (n may be 0: an empty batch only moves the offset);
                      layout: the organization's layout now, for the next batch
    {-1, {i, ...}}    nothing written: the ids at these 1-based indexes were counted before;
                      the caller drops them and calls again
    {-2, offset}      nothing written: messages up to this offset are already applied (a replay);
                      the caller drops them and, if the batch covers more, calls again
    {-3, checkpoint}  nothing written: the partition's checkpoint is not the one the worker
                      resumed from; the worker resumes from Redis' instead
    {-4, layout}      nothing written: the organization's layout is this; the caller lays the
                      batch out again
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
--- @include "includes/unpackCell"
--- @include "includes/packCell"
--- @include "includes/readBlock"
--- @include "includes/writeBlock"
--- @include "includes/widenExtent"
--- @include "includes/dedupeWindows"
--- @include "includes/settleLayout"

-- Phase 0: a worker ahead of what Redis holds must not write past the gap; a replay of messages
-- this organization already has changes nothing.
if ARGV[8] ~= "" then
  local checkpoint = redis.call("HGET", KEYS[8], ARGV[8]) or ""
  if checkpoint ~= ARGV[9] then
    return {-3, checkpoint}
  end
end
-- The organization's extent, read once: what phase 0 checks and phase 3 moves on.
local offsetField = ARGV[5]
local state = redis.call("HMGET", KEYS[7], "layout", "first", "last", "writes", "n",
  offsetField ~= "" and offsetField or "layout")
local layout = state[1] or ""
local applied = offsetField ~= "" and state[6]
if applied and tonumber(ARGV[6]) <= tonumber(applied) then
  return {-2, applied}
end

-- Phase 1: decode everything.
local ids, combos, blocks = readBatch(ARGV[2])

-- The batch's layout: the organization's, or one the rule gives it with this batch counted (a
-- new tenant's first large batch, a backfill): then its tiers move now, before anything is
-- written, and whatever they held before (up to the current last recording) is behind the mark.
local updates = {}
if layout ~= ARGV[10] and not (layout == "" and tonumber(ARGV[10]) == 0) then
  local first, last = widenExtent({}, state[2], state[3], ARGV[3], ARGV[4])
  local recordings = (tonumber(state[5]) or 0) + #ids
  local ahead = settleLayout(updates, layout, recordings, first, last, ARGV[11], state[3])
  if ahead ~= ARGV[10] then
    return {-4, layout}
  end
  layout = ahead
end
local time = redis.call("TIME")
local currentSet, previousSet, currentSetExpireAt = dedupeWindows(time, tonumber(ARGV[1]))
currentSet, previousSet = base .. currentSet, base .. previousSet

-- Phase 2: read every key that phase 3 writes.
local counted = findCounted(currentSet, previousSet, ids, CHUNK)
if #counted > 0 then
  return {-1, counted}
end
local comboIds, newIndexes = lookupCombos(KEYS, combos, CHUNK)
for _, block in ipairs(blocks) do
  readBlock(base, block, comboIds, CHUNK)
end

-- Phase 3: write.
for first = 1, #ids, CHUNK do
  local entries = {}
  for i = first, math.min(first + CHUNK - 1, #ids) do
    entries[#entries + 1] = ids[i]
    entries[#entries + 1] = ""
  end
  redis.call("HSET", currentSet, unpack(entries))
end
if #ids > 0 then
  redis.call("PEXPIREAT", currentSet, currentSetExpireAt)
end
storeCombos(KEYS, combos, comboIds, newIndexes, CHUNK)
for _, block in ipairs(blocks) do
  writeBlock(block, ARGV[2], CHUNK)
end
if #ids > 0 then
  local first, last = widenExtent(updates, state[2], state[3], ARGV[3], ARGV[4])
  local writes = string.format("%d", (tonumber(state[4]) or 0) + 1)
  local recordings = (tonumber(state[5]) or 0) + #ids
  updates[#updates + 1] = "writes"
  updates[#updates + 1] = writes
  updates[#updates + 1] = "stamp"
  updates[#updates + 1] = writes .. "@" .. time[1] .. "." .. time[2]
  updates[#updates + 1] = "n"
  updates[#updates + 1] = string.format("%d", recordings)
  layout = settleLayout(updates, layout, recordings, first, last, ARGV[11], last)
end
if offsetField ~= "" then
  updates[#updates + 1] = offsetField
  updates[#updates + 1] = ARGV[7]
end
if #updates > 0 then
  redis.call("HSET", KEYS[7], unpack(updates))
end

return {1, #ids, layout}
