-- The stored form of seven sums: small while every sum fits 32 bits, so that it never wraps.
local function packCell(c, w, d, vs, vn, ls, ln)
  local form = math.max(c, w, d, vs, vn, ls, ln) <= SMALL_CELL_MAX and SMALL_CELL or LARGE_CELL
  return struct.pack(form, c, w, d, vs, vn, ls, ln)
end
