-- Sketch cells (src/format/sketches.ts) are pairs of a u16 key and a u32 count in ascending key
-- order. A batch adds a few keys to a cell that may hold hundreds, so the merge finds each added
-- key by binary search and copies the stored runs between them whole (string.sub, in C): Lua's
-- work is per added pair, not per stored one.
local SKETCH_PAIR_FORMAT = "<" .. SKETCH_PAIR
local SKETCH_KEY_FORMAT = "<" .. SKETCH_KEY

-- The first pair at or after `lo` (1-based) whose key is not below `key`; n + 1 if none.
local function sketchSearch(cell, n, key, lo)
  local hi = n + 1
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if struct.unpack(SKETCH_KEY_FORMAT, cell, (mid - 1) * SKETCH_PAIR_BYTES + 1) < key then
      lo = mid + 1
    else
      hi = mid
    end
  end
  return lo
end

-- The stored sketch cell `old` (nil: none yet) with a batch's cell `added` counted into it.
local function mergeSketch(old, added)
  if not old then
    return added
  end
  local n = #old / SKETCH_PAIR_BYTES
  if n ~= math.floor(n) then
    error("malformed sketch cell of " .. #old .. " bytes")
  end
  local parts, from = {}, 1
  for at = 1, #added, SKETCH_PAIR_BYTES do
    local key, count = struct.unpack(SKETCH_PAIR_FORMAT, added, at)
    local i = sketchSearch(old, n, key, from)
    if i > from then
      parts[#parts + 1] = string.sub(old, (from - 1) * SKETCH_PAIR_BYTES + 1, (i - 1) * SKETCH_PAIR_BYTES)
    end
    from = i
    if i <= n then
      local stored, storedCount = struct.unpack(SKETCH_PAIR_FORMAT, old, (i - 1) * SKETCH_PAIR_BYTES + 1)
      if stored == key then
        count = count + storedCount
        from = i + 1
      end
    end
    if count > SKETCH_COUNT_MAX then
      error("sketch count past " .. SKETCH_COUNT_MAX)
    end
    parts[#parts + 1] = struct.pack(SKETCH_PAIR_FORMAT, key, count)
  end
  if from <= n then
    parts[#parts + 1] = string.sub(old, (from - 1) * SKETCH_PAIR_BYTES + 1)
  end
  return table.concat(parts)
end
