-- A dedupe window's ids (16-byte digests) of one organization, in one of two forms by its size
-- (the store README's "Dedupe tables"). Small: the hash "<base>seen:<window>", digest -> "", with
-- the count of its ids in the field "~", at most SEEN_SMALL of them so that Redis keeps it as a
-- listpack (an id costs about its 18 bytes). Large: the set "<base>seen:<window>:all" of the
-- digests, with "~" = SEEN_LARGE alone in the hash. A large table answers a batch's ids in one
-- SMISMEMBER and takes them in one SADD (per chunk), however many there are: a hashtable's ~70
-- bytes an id buy commands per batch instead of per id. A table moves from small to large once,
-- when a batch would take it past SEEN_SMALL ids.
local SEEN_SMALL = 120

local function seenSetKey(table0)
  return table0 .. ":" .. SEEN_LARGE
end

-- Marks in `counted` the indexes of `ids` found in `found`, a reply to a lookup of ids[from..].
local function markFound(found, offset, from, last, counted)
  for i = from, last do
    if found[i - from + 1 + offset] then
      counted[i] = true
    end
  end
end

-- Marks in `counted` the ids a large table holds: one SMISMEMBER per chunk.
local function findInSet(table0, ids, counted, chunk)
  local key = seenSetKey(table0)
  for first = 1, #ids, chunk do
    local last = math.min(first + chunk - 1, #ids)
    local found = redis.call("SMISMEMBER", key, unpack(ids, first, last))
    for i = first, last do
      if found[i - first + 1] == 1 then
        counted[i] = true
      end
    end
  end
end

-- Marks in `counted` the ids the window's table holds and returns its state ("~": nil for no table,
-- SEEN_LARGE, else the count of a small table's ids as a string). A batch of at most SEEN_PROBE ids
-- (a small organization's) asks the hash for the state and the ids in one HMGET, which answers them
-- all while the table is small; a larger batch reads a small table's ids whole (HKEYS: at most
-- SEEN_SMALL of them) rather than asking each.
local SEEN_PROBE = 128
local function findInWindow(table0, ids, counted, chunk)
  local state
  if #ids > SEEN_PROBE then
    state = redis.call("HGET", table0, "~")
    if state and state ~= SEEN_LARGE then
      local held = {}
      for _, field in ipairs(redis.call("HKEYS", table0)) do
        held[field] = true
      end
      for i = 1, #ids do
        if held[ids[i]] then
          counted[i] = true
        end
      end
    end
  else
    local found = redis.call("HMGET", table0, "~", unpack(ids))
    state = found[1]
    if state and state ~= SEEN_LARGE then
      markFound(found, 1, 1, #ids, counted)
    end
  end
  if state == SEEN_LARGE then
    findInSet(table0, ids, counted, chunk)
  end
  return state or nil
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

-- Whether adding `added` ids to a table in `state` makes (or keeps) it large.
local function seenLarge(state, added)
  return state == SEEN_LARGE or (tonumber(state) or 0) + added > SEEN_SMALL
end

-- The read phase's part of the write: a table about to become large has its set's key checked
-- (SCARD), so that a key of the wrong type fails before anything is written (a large one's was by
-- SMISMEMBER).
local function checkSeenMove(table0, state, added)
  if added > 0 and state ~= SEEN_LARGE and seenLarge(state, added) then
    redis.call("SCARD", seenSetKey(table0))
  end
end

-- SADD of `members` to `key`, a chunk at a time.
local function addMembers(key, members, chunk)
  for first = 1, #members, chunk do
    redis.call("SADD", key, unpack(members, first, math.min(first + chunk - 1, #members)))
  end
end

-- Adds `ids` (none in the table) to the current window's table, whose state `findCounted` read
-- (nil: a new table); a small table that would pass SEEN_SMALL ids moves its ids to the set first.
local function addToSeenTable(table0, state, ids, expireAt, chunk)
  if #ids == 0 then
    return
  end
  if not seenLarge(state, #ids) then
    local entries = {"~", string.format("%d", (tonumber(state) or 0) + #ids)}
    for i = 1, #ids do
      entries[#entries + 1] = ids[i]
      entries[#entries + 1] = ""
    end
    redis.call("HSET", table0, unpack(entries))
    if not state then
      redis.call("PEXPIREAT", table0, expireAt)
    end
    return
  end
  local key = seenSetKey(table0)
  if state ~= SEEN_LARGE then
    if state then
      local held = {}
      for _, field in ipairs(redis.call("HKEYS", table0)) do
        if field ~= "~" then
          held[#held + 1] = field
        end
      end
      addMembers(key, held, chunk)
      redis.call("DEL", table0)
    end
    redis.call("HSET", table0, "~", SEEN_LARGE)
    redis.call("PEXPIREAT", table0, expireAt)
  end
  addMembers(key, ids, chunk)
  if state ~= SEEN_LARGE then
    redis.call("PEXPIREAT", key, expireAt)
  end
end
