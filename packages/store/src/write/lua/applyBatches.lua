--[[
  Counts the batches of one or more organizations into their rollups, exactly once per recording.
  Atomic per organization: either every recording of its batch is counted, or nothing of it is
  written; an organization's refusal (below) leaves the others of the call counted. The script
  runs in three phases so that no failure can leave a half-applied batch (Redis does not undo the
  writes of a script that fails): it decodes every batch and reads every key it will write (a key
  of the wrong type, or a truncated batch, fails there, and then nothing of the call is written),
  and writes only after that. Work is per key, not per recording: a few commands per block touched,
  and a few per dedupe table (a small organization's is one listpack hash, a large one's a set:
  includes/seenTables.lua). Organizations share a call when their keys share a hash tag (keyspace.ts
  `slotTag`; on a single Redis any may): what a call costs beyond its keys is paid once.

  Input (n organizations). KEYS and ARGV are laid out by src/applyCall.ts; the names below are
  the indexes the script reads them by (constants generated from it: src/luaConstants.ts). First
  the call's own keys (CALL_KEYS of them) and arguments (CALL_ARGS), then each organization's:
  organization i's key k is KEYS[CALL_KEYS + ORG_KEYS × (i - 1) + k], its argument k
  ARGV[CALL_ARGS + ORG_ARGS × (i - 1) + k].

    KEYS[CALL_KEY_GUARD] the guard's key (ARGV[CALL_ARG_GUARD]): the generation's log hash
            (logPosition.ts) on a single Redis, where the partition's checkpoint is checked in
            the same atomic step; on a cluster, where the log lives in another slot, the shard's
            write counts ("<prefix>:v9:g<generation>:{s<shard>}:writes", a hash: per partition
            "<topic>:<partition>", "<count>:<call id>:<fence>", the count of this script's calls
            that wrote the shard for the partition, the id of the last one and the highest
            writer's fence seen here; written before fences as "<count>:<call id>", fence 0), which
            the view's checkpoints record as they move; with no guard (ARGV[CALL_ARG_GUARD] ""),
            the first organization's extent, only so that the key is one of the call's own slot
    Per organization, its keys k =
      ORG_KEY_BASE: "<prefix>:v9:g<generation>:{s<shard>}:<org>:". Dedupe and block keys are
        built from it, so every key touched shares the shard's hash tag (one Redis Cluster slot).
      ORG_KEY_COMBOS: hash, combination JSON -> combination id
      from ORG_KEY_FIRST_DIMENSION on, DIMENSION_COUNT sets of distinct values, "dim:<dimension>",
        one per dimension in the order of DIMENSIONS (@vu/events), kept once the combination
        table passes DIMENSION_SETS_FROM (extent EXTENT_DIMENSIONS, keepDimensionValues)
      ORG_KEY_EXTENT: hash, first / last = the earliest / latest counted recorded_at (ms), which
        lets readers skip blocks where the organization has no data; writes = how many
        batches have counted anything and stamp = "<writes>@<Redis TIME>" of the last one
        (the write stamp: an answer computed at one stamp is still the answer while it
        holds; TIME makes a stamp unique even after Redis lost or rolled back the counter);
        o:<topic>:<partition> = the highest Kafka offset of that partition whose messages
        of this organization are all applied (offsets live with the state they produced);
        n = how many recordings it counted; layout = where each tier's blocks go, one
        digit per tier (PLACEMENT_CONTAINER, PLACEMENT_KEYED, PLACEMENT_PROJECTED, or DERIVED: not
        stored; missing = all containers if it counted recordings, else a new organization's),
        mark:<tier code> = the latest recorded_at counted when the tier last moved and
        derived:<tier code> = when it stopped being derived (src/blockPlacement.ts);
        EXTENT_SKETCHED = EXTENT_SKETCHED_MARK while every recording was counted with percentile
        sketches (ARGV[CALL_ARG_SKETCHES]); another value: set by a writer that kept sketches
        beside the combination cells only, which readers take as not sketched

    ARGV[CALL_ARG_DEDUPE_WINDOW_MS] the dedupe window (ms): an id counted at Redis' TIME t goes
            into the table of window floor(t / W) (its digest, includes/seenTables.lua),
            checked against that window's and the previous one's; each expires at the end of the
            following window. Redis' clock, not the worker's, so workers with different clocks
            share the same windows.
    ARGV[CALL_ARG_LAYOUT_RULE] the layout rule (src/blockPlacement.ts layoutArguments), applied
            after writing
    ARGV[CALL_ARG_GUARD] the guard: the checkpoint field "next:<topic>:<partition>" in the guard's
            key; "writes" (a cluster: the guard's key is the shard's write counts); or "" for no
            check (tools, tests)
    ARGV[CALL_ARG_SKETCHES] "1" when the batches carry percentile sketches (the writer keeps them,
            src/format/sketches.ts), else "": an organization's first recordings counted with them
            set EXTENT_SKETCHED in its extent, and a batch counted without them removes it, so
            readers know whether the sketches hold every recording (a mark of another value stays
            as it is: it never becomes EXTENT_SKETCHED_MARK without a rebuild)
    ARGV[CALL_ARG_EXPECTED] with a checkpoint field, the checkpoint the worker resumed from ("" =
            none): if Redis holds another (it lost its state, or went back to a snapshot),
            applying past it would skip the messages between, so nothing is written. With
            "writes", five words: "<topic>:<partition> <least> <expected> <call id> <fence>": the
            count the checkpoints recorded for the partition on this shard; the id of the
            worker's last call here, with those of the calls after it whose replies never
            came, comma-separated ("-" for its first call since it resumed: the count alone is
            checked); this call's own id; and its writer's fence (claimPartition-1.lua).
            A fence below the shard's is an earlier writer's: a later one has claimed the
            partition, and nothing is written. A fence above it is the first call of a new
            writer here, which must say "-" (a writer that wrote here before and finds its own
            fence gone finds lost writes); the shard then takes its fence, even when the call
            writes nothing. Under one fence, a count below `least`, or a call id not expected,
            means the node lost writes (no later call can bring a lost call id back, as a count
            could be brought back by other calls): writing the organizations' offsets past the
            lost messages would make a replay skip them, so nothing is written. The call's own
            id found there is this call sent again after its reply was lost: it goes ahead
            (the offsets make it a no-op), counting nothing
    Per organization, its arguments k =
      ORG_ARG_BATCH its batch (below)
      ORG_ARG_FIRST_RECORDED_AT, ORG_ARG_LAST_RECORDED_AT the earliest and the latest
        recorded_at of the batch (ms; they widen the extent)
      ORG_ARG_OFFSET_FIELD the offset field "o:<topic>:<partition>", or "" for a batch from no
        log (tools, tests)
      ORG_ARG_FIRST_OFFSET the lowest offset of the batch's messages
      ORG_ARG_THROUGH_OFFSET the offset the batch covers up to: every message of this
        organization in the partition up to it is in this batch or was before it (repeats,
        invalid messages)
      ORG_ARG_LAYOUT the layout the batch was laid out for: the organization's, or the one the
        layout rule gives it with this batch counted (then its tiers move before the batch is
        written); else nothing of it is written

    the batch, binary, little-endian; "str" is a u16 byte length and the UTF-8 bytes
            (src/batchEncoding.ts writes it):
      u32 n, n × DIGEST_BYTES recording ids' digests (recordingDigest.ts), none repeated
      u32 n, n × combination:
        str key             JSON [member_email, voice_model, language_model|null, app_name]
        DIMENSION_COUNT × str the same values; "" is a null language model
      u32 n, n × block:
        str suffix          the key after the base: a block's projection (projected), its
                            combinations (keyed), or the container of its period (container)
        str prefix          what leads every field of the block in that key ("" in a block key,
                            "<index>:" in a container)
        str expiry in ms ("0" = never), u8 fieldForm, u8 cellBytes, u32 cells,
        cells × field       FIELD_FORM_COMBO: u32, 1-based index into the combinations;
                            FIELD_FORM_QUARTER_COMBO (a split hour block): u32,
                            QUARTERS_PER_HOUR × index + quarter, stored as the quarter's digit ..
                            combination id; FIELD_FORM_LITERAL: str
        cells × cellBytes   the cells' sums in SUM_FIELDS order (src/sums.ts) in a stored cell's
                            form: SUM_COUNT u32 (SMALL_CELL, SMALL_CELL_BYTES) when all of the
                            block's sums fit, else SUM_COUNT doubles (LARGE_CELL);
                            or, when cellBytes is SKETCH_CELLS (a block of percentile sketches
                            beside combination cells, src/format/sketches.ts), per cell a u16
                            number of pairs and the pairs (SKETCH_PAIR, SKETCH_PAIR_BYTES each),
                            merged into the stored cell (includes/mergeSketch)
      fields are unique within a block.

  Output (codes: src/applyCall.ts APPLY_REPLY):
    {REPLY_CHECKPOINT_MOVED, checkpoint}  nothing written: the partition's checkpoint is not the
                      one the worker resumed from; the worker resumes from Redis' instead
    {REPLY_SHARD_BEHIND, count}  nothing written: the shard's write count for the partition is
                      below the least the worker expected, or not at the worker's last call (the
                      node lost writes); the worker has the view replayed
    {REPLY_FENCED, fence}  nothing written: a later writer has claimed the partition (the shard
                      holds this higher fence); the caller stops writing it
    {REPLY_OK, replies, count, callId}  one reply per organization, in order, and with the
                      "writes" guard the partition's write count on the shard after the call and
                      the call id in force (the worker's next call expects it; else 0 and ""):
      {REPLY_OK, n, layout}  n recordings counted (n may be 0: an empty batch only moves the
                      offset); layout: the organization's layout now, for its next batch
      {REPLY_DUPLICATES, {i, ...}}  nothing of it written: the ids at these 1-based indexes were
                      counted before; the caller drops them and calls again
      {REPLY_REPLAYED, offset}  nothing of it written: messages up to this offset are already
                      applied (a replay); the caller drops them and, if the batch covers more,
                      calls again
      {REPLY_LAYOUT_MOVED, layout}  nothing of it written: the organization's layout is this; the
                      caller lays the batch out again
  Errors (nothing of the call written): a malformed batch, or a key of the wrong type.
]]
--- @constants
local CHUNK = 1000

--- @include "includes/readBatch"
--- @include "includes/seenTables"
--- @include "includes/lookupCombos"
--- @include "includes/storeCombos"
--- @include "includes/unpackCell"
--- @include "includes/packCell"
--- @include "includes/mergeSketch"
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
local guardKey, guard, guardExpected = KEYS[CALL_KEY_GUARD], ARGV[CALL_ARG_GUARD], ARGV[CALL_ARG_EXPECTED]
local shardGuard
if guard == "writes" then
  local field, least, expected, callId, fence = string.match(guardExpected, "^(%S+) (%d+) (%S+) (%S+) (%d+)$")
  local count, current, held = string.match(redis.call("HGET", guardKey, field) or "0:", "^(%d+):([^:]*):?(%d*)$")
  count = tonumber(count)
  held = held == "" and "0" or held
  if cmpFence(fence, held) < 0 then
    return {REPLY_FENCED, held}
  end
  local newWriter = cmpFence(fence, held) > 0
  local known = expected == "-" or string.find("," .. expected .. ",", "," .. current .. ",", 1, true)
  if newWriter and expected ~= "-" then
    return {REPLY_SHARD_BEHIND, count}
  end
  if current ~= callId and (count < tonumber(least) or not known) then
    return {REPLY_SHARD_BEHIND, count}
  end
  shardGuard = {field = field, count = count, current = current, callId = callId, fence = fence,
                newWriter = newWriter}
elseif guard ~= "" then
  local checkpoint = redis.call("HGET", guardKey, guard) or ""
  if checkpoint ~= guardExpected then
    return {REPLY_CHECKPOINT_MOVED, checkpoint}
  end
end
local rule = ARGV[CALL_ARG_LAYOUT_RULE]
local sketching = ARGV[CALL_ARG_SKETCHES] == "1"
local time = redis.call("TIME")
local currentWindow, previousWindow, currentTableExpireAt =
  dedupeWindows(time, tonumber(ARGV[CALL_ARG_DEDUPE_WINDOW_MS]))

-- One organization's keys and arguments (see the header).
local function organization(i)
  local keys = {}
  for k = 1, ORG_KEYS do
    keys[k] = KEYS[CALL_KEYS + (i - 1) * ORG_KEYS + k]
  end
  local a = CALL_ARGS + (i - 1) * ORG_ARGS
  return {keys = keys, batch = ARGV[a + ORG_ARG_BATCH], first = ARGV[a + ORG_ARG_FIRST_RECORDED_AT],
          last = ARGV[a + ORG_ARG_LAST_RECORDED_AT], offsetField = ARGV[a + ORG_ARG_OFFSET_FIELD],
          firstOffset = ARGV[a + ORG_ARG_FIRST_OFFSET], throughOffset = ARGV[a + ORG_ARG_THROUGH_OFFSET],
          layout = ARGV[a + ORG_ARG_LAYOUT]}
end

-- The extent's fields an organization's write starts from, by name in `state`.
local STATE_FIELDS = {"layout", "first", "last", "writes", "n", EXTENT_SKETCHED, EXTENT_DIMENSIONS}

-- The organization's extent, read once: what phases 1 and 2 check and the write moves on; and the
-- offset it has applied from the batch's partition (nil: none, or a batch from no log).
local function readState(keys, offsetField)
  local values = redis.call("HMGET", keys[ORG_KEY_EXTENT], offsetField ~= "" and offsetField or "layout",
    unpack(STATE_FIELDS))
  local state = {}
  for k, field in ipairs(STATE_FIELDS) do
    state[field] = values[k + 1]
  end
  return state, offsetField ~= "" and values[1]
end

-- Phases 1 and 2 for one organization: decodes its batch and reads every key its write touches.
-- Returns its refusal, or nothing when it is to be written (what the write needs is kept in `org`).
local function prepare(org)
  local keys = org.keys
  local state, applied = readState(keys, org.offsetField)
  -- No layout: every tier in containers if it has counted recordings (an extent written without
  -- a layout), else a new organization's.
  local layout = state.layout or (state.n and "" or newLayout(rule))
  -- A replay of messages this organization already has changes nothing.
  if applied and tonumber(org.firstOffset) <= tonumber(applied) then
    return {REPLY_REPLAYED, applied}
  end
  local ids, combos, blocks = readBatch(org.batch)
  -- The batch's layout: the organization's, or one the rule gives it with this batch counted (a
  -- new tenant's first large batch, a backfill): then its tiers move now, before anything is
  -- written, and whatever they held before (up to the current last recording) is behind the mark.
  local updates = {}
  if layout ~= org.layout and not (layout == "" and tonumber(org.layout) == 0) then
    local first, last = widenExtent({}, state.first, state.last, org.first, org.last)
    local recordings = (tonumber(state.n) or 0) + #ids
    local ahead = settleLayout(updates, layout, recordings, first, last, rule, state.last)
    if ahead ~= org.layout then
      return {REPLY_LAYOUT_MOVED, layout}
    end
    layout = ahead
  end
  local base = keys[ORG_KEY_BASE]
  org.currentTable, org.previousTable = base .. currentWindow, base .. previousWindow
  local counted, seen = findCounted(org.currentTable, org.previousTable, ids, CHUNK)
  if #counted > 0 then
    return {REPLY_DUPLICATES, counted}
  end
  checkSeenMove(org.currentTable, seen, #ids)
  org.comboIds, org.newIndexes, org.storedCombos = lookupCombos(keys, combos, CHUNK)
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
    local first, last = widenExtent(updates, state.first, state.last, org.first, org.last)
    local writes = string.format("%d", (tonumber(state.writes) or 0) + 1)
    local recordings = (tonumber(state.n) or 0) + #ids
    updates[#updates + 1] = "writes"
    updates[#updates + 1] = writes
    updates[#updates + 1] = "stamp"
    updates[#updates + 1] = writes .. "@" .. time[1] .. "." .. time[2]
    updates[#updates + 1] = "n"
    updates[#updates + 1] = string.format("%d", recordings)
    layout = settleLayout(updates, layout, recordings, first, last, rule, last)
    -- Whether the sketches hold every recording of the organization (EXTENT_SKETCHED).
    if sketching and not state.n then
      updates[#updates + 1] = EXTENT_SKETCHED
      updates[#updates + 1] = EXTENT_SKETCHED_MARK
    elseif not sketching and state[EXTENT_SKETCHED] then
      redis.call("HDEL", org.keys[ORG_KEY_EXTENT], EXTENT_SKETCHED)
    end
  end
  if not state.layout and not state.n and #ids > 0 then
    -- A new organization's layout is stored with its first recordings: none reads as containers.
    updates[#updates + 1] = "layout"
    updates[#updates + 1] = layout
  end
  if org.offsetField ~= "" then
    updates[#updates + 1] = org.offsetField
    updates[#updates + 1] = org.throughOffset
  end
  if #updates > 0 then
    redis.call("HSET", org.keys[ORG_KEY_EXTENT], unpack(updates))
  end
  return {REPLY_OK, #ids, layout}
end

-- Every organization is read before any is written: a failure of one writes nothing at all (but
-- for dimension values, see keepDimensionValues).
local replies, writing = {}, {}
for i = 1, (#KEYS - CALL_KEYS) / ORG_KEYS do
  local org = organization(i)
  replies[i] = prepare(org)
  if not replies[i] then
    org.index = i
    writing[#writing + 1] = org
  end
end
for _, org in ipairs(writing) do
  keepDimensionValues(org, CHUNK)
end
for _, org in ipairs(writing) do
  replies[org.index] = write(org)
end
-- Every call that writes counts on the shard for its partition, under its own call id, so that a
-- node that loses writes is found behind.
if not shardGuard then
  return {REPLY_OK, replies, 0, ""}
end
local g = shardGuard
if (#writing == 0 and not g.newWriter) or g.current == g.callId then
  return {REPLY_OK, replies, g.count, g.current}
end
local count = #writing == 0 and g.count or g.count + 1
redis.call("HSET", guardKey, g.field, string.format("%d", count) .. ":" .. g.callId .. ":" .. g.fence)
return {REPLY_OK, replies, count, g.callId}
