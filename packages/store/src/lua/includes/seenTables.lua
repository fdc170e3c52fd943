-- A dedupe window's ids (16-byte digests) as a linear hash table of hashes small enough for
-- Redis' listpack encoding (at most 128 fields by default), so an id costs about its 18 bytes
-- rather than a hashtable entry's 70 (the store README's "Dedupe tables"). Bucket 0 is the key
-- "<base>seen:<window>", which also holds the table's state in the field "~":
-- "<level>:<split>:<ids>"; bucket b > 0 is "<base>seen:<window>:<b>", made by a split with the
-- field "~" = "" so that it has its expiry from the start. A digest's bucket is its first four
-- bytes as a number x, x mod 2^level, or x mod 2^(level + 1) below the split pointer (those
-- buckets were split). The table splits one bucket at a time while it holds more than SEEN_LOAD
-- ids per bucket: a bucket not split yet holds twice that on average, well under 128.
local SEEN_LOAD = 40

local function seenBucketKey(table0, b)
  return b == 0 and table0 or (table0 .. ":" .. b)
end

-- A digest's first four bytes as a number (big-endian).
local function digestNumber(d)
  return (struct.unpack(">I4", d))
end

-- The table's state from its "~" field, or nil while the window holds no id of the organization.
local function seenState(field)
  if not field then
    return nil
  end
  local level, split, n = string.match(field, "^(%d+):(%d+):(%d+)$")
  return {level = tonumber(level), split = tonumber(split), n = tonumber(n)}
end

-- The ids' indexes by bucket, buckets in the order first met.
local function seenBuckets(ids, state)
  local groups, order = {}, {}
  local low, high, split = 2 ^ state.level, 2 ^ (state.level + 1), state.split
  for i = 1, #ids do
    local x = digestNumber(ids[i])
    local b = x % low
    if b < split then
      b = x % high
    end
    local group = groups[b]
    if not group then
      group = {}
      groups[b] = group
      order[#order + 1] = b
    end
    group[#group + 1] = i
  end
  return groups, order
end

-- Marks in `counted` the indexes of `ids` the table holds: one HMGET per bucket and chunk.
local function findInSeenTable(table0, state, ids, counted, chunk)
  local groups, order = seenBuckets(ids, state)
  for _, b in ipairs(order) do
    local group = groups[b]
    for first = 1, #group, chunk do
      local last = math.min(first + chunk - 1, #group)
      local fields = {}
      for k = first, last do
        fields[#fields + 1] = ids[group[k]]
      end
      local found = redis.call("HMGET", seenBucketKey(table0, b), unpack(fields))
      for k = first, last do
        if found[k - first + 1] then
          counted[group[k]] = true
        end
      end
    end
  end
end

-- Marks in `counted` the ids the window's table holds and returns its state. A batch of at most
-- SEEN_PROBE ids (a small organization's) asks the first key for the state and the ids in one
-- HMGET, which answers them all while the table is that key alone.
local SEEN_PROBE = 128
local function findInWindow(table0, ids, counted, chunk)
  if #ids > SEEN_PROBE then
    local state = seenState(redis.call("HGET", table0, "~"))
    if state then
      findInSeenTable(table0, state, ids, counted, chunk)
    end
    return state
  end
  local found = redis.call("HMGET", table0, "~", unpack(ids))
  local state = seenState(found[1])
  if state and state.level == 0 and state.split == 0 then
    for i = 1, #ids do
      if found[i + 1] then
        counted[i] = true
      end
    end
  elseif state then
    findInSeenTable(table0, state, ids, counted, chunk)
  end
  return state
end

-- The 1-based indexes of `ids` found in either window's table, ascending (usually none); and the
-- current window's state, which the write goes on from.
local function findCounted(currentTable, previousTable, ids, chunk)
  local counted, indexes = {}, {}
  local current = findInWindow(currentTable, ids, counted, chunk)
  findInWindow(previousTable, ids, counted, chunk)
  for i = 1, #ids do
    if counted[i] then
      indexes[#indexes + 1] = i
    end
  end
  return indexes, current
end

-- Moves the split pointer on past the bucket just split, to the next level after the last one.
local function nextSplit(state)
  state.split = state.split + 1
  if state.split == 2 ^ state.level then
    state.level, state.split = state.level + 1, 0
  end
end

-- Splits the bucket at the split pointer: its digests whose next bit is set move to the bucket
-- 2^level above it, which is made here (with its expiry).
local function splitSeenBucket(table0, state, expireAt)
  local from = state.split
  local to = from + 2 ^ state.level
  local size = 2 ^ (state.level + 1)
  local fromKey = seenBucketKey(table0, from)
  local moved, gone = {"~", ""}, {}
  for _, field in ipairs(redis.call("HKEYS", fromKey)) do
    if field ~= "~" and digestNumber(field) % size == to then
      moved[#moved + 1] = field
      moved[#moved + 1] = ""
      gone[#gone + 1] = field
    end
  end
  local toKey = seenBucketKey(table0, to)
  redis.call("HSET", toKey, unpack(moved))
  redis.call("PEXPIREAT", toKey, expireAt)
  if #gone > 0 then
    redis.call("HDEL", fromKey, unpack(gone))
  end
  nextSplit(state)
end

-- The read phase's part of the splits `added` more ids will bring: an HLEN of each bucket a split
-- will read and make, so that a key of the wrong type fails before anything is written.
local function checkSeenSplits(table0, state, added)
  local ahead = {level = 0, split = 0, n = 0}
  if state then
    ahead = {level = state.level, split = state.split, n = state.n}
  end
  ahead.n = ahead.n + added
  while ahead.n > SEEN_LOAD * (2 ^ ahead.level + ahead.split) do
    redis.call("HLEN", seenBucketKey(table0, ahead.split))
    redis.call("HLEN", seenBucketKey(table0, ahead.split + 2 ^ ahead.level))
    nextSplit(ahead)
  end
end

-- Adds `ids` (none in the table) to the current window's table, whose state `findCounted` read
-- (nil: a new table), splitting first so that they land in their final buckets.
local function addToSeenTable(table0, state, ids, expireAt, chunk)
  if #ids == 0 then
    return
  end
  local fresh = not state
  state = state or {level = 0, split = 0, n = 0}
  state.n = state.n + #ids
  while state.n > SEEN_LOAD * (2 ^ state.level + state.split) do
    splitSeenBucket(table0, state, expireAt)
  end
  local stateField = {"~", string.format("%d:%d:%d", state.level, state.split, state.n)}
  local groups, order = seenBuckets(ids, state)
  for _, b in ipairs(order) do
    local group = groups[b]
    for first = 1, #group, chunk do
      local entries = b == 0 and first == 1 and stateField or {}
      for k = first, math.min(first + chunk - 1, #group) do
        entries[#entries + 1] = ids[group[k]]
        entries[#entries + 1] = ""
      end
      redis.call("HSET", seenBucketKey(table0, b), unpack(entries))
    end
  end
  if not groups[0] then
    redis.call("HSET", table0, unpack(stateField))
  end
  if fresh then
    redis.call("PEXPIREAT", table0, expireAt)
  end
end
