-- The stored form of a cell's sums (SUM_COUNT of them, in a table): small while every sum fits 32
-- bits, so that it never wraps.
local function packCell(sums)
  local form = math.max(unpack(sums, 1, SUM_COUNT)) <= SMALL_CELL_MAX and SMALL_CELL or LARGE_CELL
  return struct.pack(form, unpack(sums, 1, SUM_COUNT))
end
