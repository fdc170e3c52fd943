-- Sketch cells (src/format/sketches.ts) are pairs of a u16 key and a u32 count in ascending key
-- order. `struct` reads and writes them a run of pairs per call, in C.
local SKETCH_RUN = 32
local SKETCH_RUN_FORMAT = "<" .. string.rep(SKETCH_PAIR, SKETCH_RUN)

local function sketchRunFormat(run)
  return run == SKETCH_RUN and SKETCH_RUN_FORMAT or "<" .. string.rep(SKETCH_PAIR, run)
end

-- A cell's pairs as one flat list: key, count, key, count, ...
local function sketchPairs(cell)
  local n = #cell / SKETCH_PAIR_BYTES
  if n ~= math.floor(n) then
    error("malformed sketch cell of " .. #cell .. " bytes")
  end
  local out, pos = {}, 1
  for first = 1, n, SKETCH_RUN do
    local run = math.min(SKETCH_RUN, n - first + 1)
    local values = {struct.unpack(sketchRunFormat(run), cell, pos)}
    pos = values[2 * run + 1]
    for k = 1, 2 * run do
      out[2 * (first - 1) + k] = values[k]
    end
  end
  return out
end

-- The stored sketch cell `old` (nil: none yet) with a batch's cell `added` counted into it: the
-- two runs merged, counts of a key in both added.
local function mergeSketch(old, added)
  if not old then
    return added
  end
  local a, b, merged = sketchPairs(old), sketchPairs(added), {}
  local i, j, m = 1, 1, 0
  while i <= #a or j <= #b do
    local ka, kb = a[i], b[j]
    if kb == nil or (ka ~= nil and ka < kb) then
      merged[m + 1], merged[m + 2] = ka, a[i + 1]
      i, m = i + 2, m + 2
    elseif ka == nil or kb < ka then
      merged[m + 1], merged[m + 2] = kb, b[j + 1]
      j, m = j + 2, m + 2
    else
      local count = a[i + 1] + b[j + 1]
      if count > SKETCH_COUNT_MAX then
        error("sketch count past " .. SKETCH_COUNT_MAX)
      end
      merged[m + 1], merged[m + 2] = ka, count
      i, j, m = i + 2, j + 2, m + 2
    end
  end
  local parts, n = {}, m / 2
  for first = 1, n, SKETCH_RUN do
    local run = math.min(SKETCH_RUN, n - first + 1)
    parts[#parts + 1] = struct.pack(sketchRunFormat(run), unpack(merged, 2 * first - 1, 2 * (first + run - 1)))
  end
  return table.concat(parts)
end
