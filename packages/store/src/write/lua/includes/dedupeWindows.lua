-- The dedupe tables' suffixes for Redis' TIME reply `time` and a window of `windowMs`: this
-- window's table, the previous window's, and when this window's table may expire (the end of the
-- next window). Each table is one or more keys (includes/seenTables.lua).
local function dedupeWindows(time, windowMs)
  local nowMs = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  local window = math.floor(nowMs / windowMs)
  return "seen:" .. window, "seen:" .. (window - 1), string.format("%.0f", (window + 2) * windowMs)
end
