-- Widens an organization's extent (the first and last counted recorded_at, ms, as strings) to a
-- batch's, adding the changed fields to `updates`; returns the new first and last. Only the
-- caller's strings are stored, never a number formatted by Lua, so values stay exact.
local function widenExtent(updates, currentFirst, currentLast, first, last)
  if not currentFirst or tonumber(first) < tonumber(currentFirst) then
    updates[#updates + 1] = "first"
    updates[#updates + 1] = first
  else
    first = currentFirst
  end
  if not currentLast or tonumber(last) > tonumber(currentLast) then
    updates[#updates + 1] = "last"
    updates[#updates + 1] = last
  else
    last = currentLast
  end
  return first, last
end
