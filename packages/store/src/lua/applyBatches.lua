--[[
  Counts the batches of one or more organizations into their rollups, exactly once per recording.
  Atomic per organization: either every recording of its batch is counted, or nothing of it is
  written; an organization's refusal (below) leaves the others of the call counted. The script
  runs in three phases so that no failure can leave a half-applied batch (Redis does not undo the
  writes of a script that fails): it decodes every batch and reads every key it will write (a key
  of the wrong type, or a truncated batch, fails there, and then nothing of the call is written),
  and writes only after that. Work is per key, not per recording: a few commands per block touched,
  and per dedupe bucket touched (a small organization's table is one; a large one's, about one per
  id: includes/seenTables.lua). Organizations share a call when their keys share a hash tag (keyspace.ts
  `slotTag`; on a single Redis any may): what a call costs beyond its keys is paid once.

  Input (n organizations):
    KEYS[1] the guard's key (ARGV[3]): the generation's log hash (logPosition.ts) on a single
            Redis, where the partition's checkpoint is checked in the same atomic step; on a
            cluster, where the log lives in another slot, the shard's write counts
            ("<prefix>:v8:g<generation>:{s<shard>}:writes", a hash: per partition
            "<topic>:<partition>", "<count>:<token>:<fence>", the count of this script's calls
            that wrote the shard for the partition, the token of the last one and the highest
            writer's fence seen here; written before fences as "<count>:<token>", fence 0), which
            the view's checkpoints record as they move; with no guard (ARGV[3] ""), the first
            organization's extent, only so that KEYS[1] is a key of the call's own slot
    Per organization i, KEYS[1 + 7(i-1) + k], k =
      1 base: "<prefix>:v8:g<generation>:{s<shard>}:<org>:". Dedupe and block keys are built
        from it, so every key touched shares the shard's hash tag (one Redis Cluster slot).
      2 combos: hash, combination JSON -> combination id
      3 dim:member_email    4 dim:voice_model
      5 dim:language_model  6 dim:app_name        (sets of distinct values)
      7 extent: hash, first / last = the earliest / latest counted recorded_at (ms), which
        lets readers skip blocks where the organization has no data; writes = how many
        batches have counted anything and stamp = "<writes>@<Redis TIME>" of the last one
        (the write stamp: an answer computed at one stamp is still the answer while it
        holds; TIME makes a stamp unique even after Redis lost or rolled back the counter);
        o:<topic>:<partition> = the highest Kafka offset of that partition whose messages
        of this organization are all applied (offsets live with the state they produced);
        n = how many recordings it counted; layout = where each tier's blocks go, one
        digit per tier (0 container, 1 keyed, 2 views, d derived: not stored; missing = all
        containers if it counted recordings, else a new organization's), mark:<tier code> =
        the latest recorded_at counted when the tier last moved and derived:<tier code> = when
        it stopped being derived (src/blockPlacement.ts)

    ARGV[1] the dedupe window (ms): an id counted at Redis' TIME t goes into the table of window
            floor(t / W) (its digest -> "", includes/seenTables.lua), checked against that
            window's and the previous one's; each expires at the end of the following window.
            Redis' clock, not the worker's, so workers with different clocks share the same windows.
    ARGV[2] the layout rule (src/blockPlacement.ts layoutArguments), applied after writing
    ARGV[3] the guard: the checkpoint field "next:<topic>:<partition>" in KEYS[1]; "writes" (a
            cluster: KEYS[1] is the shard's write counts); or "" for no check (tools, tests)
    ARGV[4] with a checkpoint field, the checkpoint the worker resumed from ("" = none): if Redis
            holds another (it lost its state, or went back to a snapshot), applying past it would
            skip the messages between, so nothing is written. With "writes", five words:
            "<topic>:<partition> <least> <expected> <token> <fence>": the count the checkpoints
            recorded for the partition on this shard; the token the worker's last call here left,
            with those of the calls after it whose replies never came, comma-separated ("-" for
            its first call since it resumed: the count alone is checked); this call's own token;
            and its writer's fence (claimPartition-1.lua).
            A fence below the shard's is an earlier writer's: a later one has claimed the
            partition, and nothing is written. A fence above it is the first call of a new writer
            here, which must say "-" (a writer that wrote here before and finds its own fence gone
            finds lost writes); the shard then takes its fence, even when the call writes nothing.
            Under one fence, a count below `least`, or a token not expected, means the node lost
            writes (no later call can bring a lost token back, as a count could be brought back by
            other calls): writing the organizations' offsets past the lost messages would make a
            replay skip them, so nothing is written. The call's own token found there is this call
            sent again after its reply was lost: it goes ahead (the offsets make it a no-op),
            counting nothing
    Per organization i, ARGV[4 + 7(i-1) + k], k =
      1 its batch (below)
      2 the earliest recorded_at of the batch (ms)   3 the latest (they widen the extent)
      4 the offset field "o:<topic>:<partition>", or "" for a batch from no log (tools, tests)
      5 the lowest offset of the batch's messages    6 the offset the batch covers up to: every
        message of this organization in the partition up to it is in this batch or was before
        it (repeats, invalid messages)
      7 the layout the batch was laid out for: the organization's, or the one the layout rule
        gives it with this batch counted (then its tiers move before the batch is written);
        else nothing of it is written

    the batch, binary, little-endian; "str" is a u16 byte length and the UTF-8 bytes
            (src/batchEncoding.ts writes it):
      u32 n, n × 16 bytes   recording ids' digests (recordingDigest.ts), none repeated
      u32 n, n × combination:
        str key             JSON [member_email, voice_model, language_model|null, app_name]
        4 × str             the same four values; "" is a null language model
      u32 n, n × block:
        str suffix          the key after the base: a block's view (placement views), its
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

  Output:
    {-3, checkpoint}  nothing written: the partition's checkpoint is not the one the worker
                      resumed from; the worker resumes from Redis' instead
    {-5, count}       nothing written: the shard's write count for the partition is below the
                      least the worker expected, or not at the worker's last call (the node lost
                      writes); the worker has the view replayed
    {-6, fence}       nothing written: a later writer has claimed the partition (the shard holds
                      this higher fence); the caller stops writing it
    {1, replies, count, token}  one reply per organization, in order, and with the "writes" guard
                      the partition's write count on the shard after the call and the token in
                      force (the worker's next call expects it; else 0 and ""):
      {1, n, layout}  n recordings counted (n may be 0: an empty batch only moves the offset);
                      layout: the organization's layout now, for its next batch
      {-1, {i, ...}}  nothing of it written: the ids at these 1-based indexes were counted
                      before; the caller drops them and calls again
      {-2, offset}    nothing of it written: messages up to this offset are already applied (a
                      replay); the caller drops them and, if the batch covers more, calls again
      {-4, layout}    nothing of it written: the organization's layout is this; the caller lays
                      the batch out again
  Errors (nothing of the call written): a malformed batch, or a key of the wrong type.
]]
local CHUNK = 1000
local SMALL_CELL, SMALL_CELL_BYTES, SMALL_CELL_MAX = "<I4I4I4I4I4I4I4", 28, 4294967295
local LARGE_CELL = "<ddddddd"
local ORG_KEYS, ORG_ARGS = 7, 7

--- @include "includes/readBatch"
--- @include "includes/seenTables"
--- @include "includes/lookupCombos"
--- @include "includes/storeCombos"
--- @include "includes/unpackCell"
--- @include "includes/packCell"
--- @include "includes/readBlock"
--- @include "includes/writeBlock"
--- @include "includes/widenExtent"
--- @include "includes/dedupeWindows"
--- @include "includes/settleLayout"

-- Compares two fences, decimal strings that may pass 2^53 (where Lua's numbers lose digits).
local function cmpFence(a, b)
  if #a ~= #b then
    return #a < #b and -1 or 1
  end
  return a < b and -1 or (a > b and 1 or 0)
end

-- Phase 0: a worker ahead of what Redis holds must not write past the gap.
local shardGuard
if ARGV[3] == "writes" then
  local field, least, expected, token, fence = string.match(ARGV[4], "^(%S+) (%d+) (%S+) (%S+) (%d+)$")
  local count, current, held = string.match(redis.call("HGET", KEYS[1], field) or "0:", "^(%d+):([^:]*):?(%d*)$")
  count = tonumber(count)
  held = held == "" and "0" or held
  if cmpFence(fence, held) < 0 then
    return {-6, held}
  end
  local newWriter = cmpFence(fence, held) > 0
  local known = expected == "-" or string.find("," .. expected .. ",", "," .. current .. ",", 1, true)
  if newWriter and expected ~= "-" then
    return {-5, count}
  end
  if current ~= token and (count < tonumber(least) or not known) then
    return {-5, count}
  end
  shardGuard = {field = field, count = count, current = current, token = token, fence = fence,
                newWriter = newWriter}
elseif ARGV[3] ~= "" then
  local checkpoint = redis.call("HGET", KEYS[1], ARGV[3]) or ""
  if checkpoint ~= ARGV[4] then
    return {-3, checkpoint}
  end
end
local rule = ARGV[2]
local time = redis.call("TIME")
local currentWindow, previousWindow, currentTableExpireAt = dedupeWindows(time, tonumber(ARGV[1]))

-- One organization's keys and arguments (see the header).
local function organization(i)
  local keys = {}
  for k = 1, ORG_KEYS do
    keys[k] = KEYS[1 + (i - 1) * ORG_KEYS + k]
  end
  local a = 4 + (i - 1) * ORG_ARGS
  return {keys = keys, batch = ARGV[a + 1], first = ARGV[a + 2], last = ARGV[a + 3], offsetField = ARGV[a + 4],
          firstOffset = ARGV[a + 5], throughOffset = ARGV[a + 6], layout = ARGV[a + 7]}
end

-- Phases 1 and 2 for one organization: decodes its batch and reads every key its write touches.
-- Returns its refusal, or nothing when it is to be written (what the write needs is kept in `org`).
local function prepare(org)
  local keys = org.keys
  local offsetField = org.offsetField
  -- Its extent, read once: what this phase checks and the write moves on.
  local state = redis.call("HMGET", keys[7], "layout", "first", "last", "writes", "n",
    offsetField ~= "" and offsetField or "layout")
  -- No layout: every tier in containers if it has counted recordings (an extent written without
  -- a layout), else a new organization's.
  local layout = state[1] or (state[5] and "" or newLayout(rule))
  local applied = offsetField ~= "" and state[6]
  -- A replay of messages this organization already has changes nothing.
  if applied and tonumber(org.firstOffset) <= tonumber(applied) then
    return {-2, applied}
  end
  local ids, combos, blocks = readBatch(org.batch)
  -- The batch's layout: the organization's, or one the rule gives it with this batch counted (a
  -- new tenant's first large batch, a backfill): then its tiers move now, before anything is
  -- written, and whatever they held before (up to the current last recording) is behind the mark.
  local updates = {}
  if layout ~= org.layout and not (layout == "" and tonumber(org.layout) == 0) then
    local first, last = widenExtent({}, state[2], state[3], org.first, org.last)
    local recordings = (tonumber(state[5]) or 0) + #ids
    local ahead = settleLayout(updates, layout, recordings, first, last, rule, state[3])
    if ahead ~= org.layout then
      return {-4, layout}
    end
    layout = ahead
  end
  local base = keys[1]
  org.currentTable, org.previousTable = base .. currentWindow, base .. previousWindow
  local counted, seen = findCounted(org.currentTable, org.previousTable, ids, CHUNK)
  if #counted > 0 then
    return {-1, counted}
  end
  checkSeenSplits(org.currentTable, seen, #ids)
  org.comboIds, org.newIndexes = lookupCombos(keys, combos, CHUNK)
  org.blockKeys = readBlocks(base, blocks, org.comboIds, org.newIndexes, CHUNK)
  org.state, org.layoutNow, org.updates, org.seen = state, layout, updates, seen
  org.ids, org.combos, org.blocks = ids, combos, blocks
  return nil
end

-- Phase 3 for one organization prepared above; returns its reply.
local function write(org)
  local ids, state, updates, layout = org.ids, org.state, org.updates, org.layoutNow
  addToSeenTable(org.currentTable, org.seen, ids, currentTableExpireAt, CHUNK)
  storeCombos(org.keys, org.combos, org.comboIds, org.newIndexes, CHUNK)
  writeBlocks(org.blockKeys, org.batch, CHUNK)
  if #ids > 0 then
    local first, last = widenExtent(updates, state[2], state[3], org.first, org.last)
    local writes = string.format("%d", (tonumber(state[4]) or 0) + 1)
    local recordings = (tonumber(state[5]) or 0) + #ids
    updates[#updates + 1] = "writes"
    updates[#updates + 1] = writes
    updates[#updates + 1] = "stamp"
    updates[#updates + 1] = writes .. "@" .. time[1] .. "." .. time[2]
    updates[#updates + 1] = "n"
    updates[#updates + 1] = string.format("%d", recordings)
    layout = settleLayout(updates, layout, recordings, first, last, rule, last)
  end
  if not state[1] and not state[5] and #ids > 0 then
    -- A new organization's layout is stored with its first recordings: none reads as containers.
    updates[#updates + 1] = "layout"
    updates[#updates + 1] = layout
  end
  if org.offsetField ~= "" then
    updates[#updates + 1] = org.offsetField
    updates[#updates + 1] = org.throughOffset
  end
  if #updates > 0 then
    redis.call("HSET", org.keys[7], unpack(updates))
  end
  return {1, #ids, layout}
end

-- Every organization is read before any is written: a failure of one writes nothing at all (but
-- for dimension values, see addDimensionValues).
local replies, writing = {}, {}
for i = 1, (#KEYS - 1) / ORG_KEYS do
  local org = organization(i)
  replies[i] = prepare(org)
  if not replies[i] then
    org.index = i
    writing[#writing + 1] = org
  end
end
for _, org in ipairs(writing) do
  addDimensionValues(org.keys, org.combos, org.newIndexes, CHUNK)
end
for _, org in ipairs(writing) do
  replies[org.index] = write(org)
end
-- Every call that writes counts on the shard for its partition, under its own token, so that a
-- node that loses writes is found behind.
if not shardGuard then
  return {1, replies, 0, ""}
end
local g = shardGuard
if (#writing == 0 and not g.newWriter) or g.current == g.token then
  return {1, replies, g.count, g.current}
end
local count = #writing == 0 and g.count or g.count + 1
redis.call("HSET", KEYS[1], g.field, string.format("%d", count) .. ":" .. g.token .. ":" .. g.fence)
return {1, replies, count, g.token}
