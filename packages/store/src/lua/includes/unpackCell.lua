-- The sums of a stored cell (or a batch's cell at byte `at`), by its form (see applyBatches.lua):
-- SUM_COUNT values, then the byte after the cell.
local function unpackCell(cell, bytes, at)
  return struct.unpack(bytes == SMALL_CELL_BYTES and SMALL_CELL or LARGE_CELL, cell, at)
end
