-- Moves the organization's tiers to the placement the layout rule gives them (src/blockPlacement.ts,
-- passed as "minRecordings perPeriod perBlock, then per tier: code blockMs periodMs"), for
-- `recordings` counted between `first` and `last` (recorded_at, ms strings). `layout` holds one
-- digit per tier: 0 container, 1 keyed, 2 views; a placement never moves back. A tier that moves
-- gets its mark (mark:<code> = `mark`, the latest recorded_at whose cells may be in an earlier
-- place; nil when there are none), after which its blocks hold cells in the new place only.
-- Adds the changed fields to `updates` and returns the new layout.
local ruleWords = {}
local function settleLayout(updates, layout, recordings, first, last, rule, mark)
  -- Every organization of a call has the same rule: its words are split once.
  local words = ruleWords[rule]
  if not words then
    words = {}
    for word in string.gmatch(rule, "%S+") do
      words[#words + 1] = word
    end
    ruleWords[rule] = words
  end
  if recordings < tonumber(words[1]) then
    return layout
  end
  local span = tonumber(last) - tonumber(first)
  local perPeriod, perBlock = tonumber(words[2]), tonumber(words[3])
  local settled, moved = "", false
  local tier = 0
  for i = 4, #words, 3 do
    tier = tier + 1
    local code, blockMs, periodMs = words[i], tonumber(words[i + 1]), tonumber(words[i + 2])
    local current = tonumber(string.sub(layout, tier, tier)) or 0
    local reached = 0
    if recordings * blockMs >= perBlock * math.max(span, blockMs) then
      reached = 2
    elseif recordings * periodMs >= perPeriod * math.max(span, periodMs) then
      reached = 1
    end
    if reached > current then
      current, moved = reached, true
      if mark then
        updates[#updates + 1] = "mark:" .. code
        updates[#updates + 1] = mark
      end
    end
    settled = settled .. current
  end
  if moved then
    updates[#updates + 1] = "layout"
    updates[#updates + 1] = settled
  end
  return settled
end
