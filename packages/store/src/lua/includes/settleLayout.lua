-- Moves the organization's tiers to the placement the layout rule gives them (src/blockPlacement.ts,
-- passed as "minRecordings perPeriod perBlock, then per tier: code blockMs periodMs from"), for
-- `recordings` counted between `first` and `last` (recorded_at, ms strings). `layout` holds one
-- digit per tier: 0 container, 1 keyed, 2 views, or "d" derived (not stored: read from the tier at
-- position `from`, which it stays while that one is in containers); a placement never moves back.
-- A tier that moves gets its mark (mark:<code> = `mark`, the latest recorded_at whose cells may be
-- in an earlier place; nil when there are none), after which its blocks hold cells in the new place
-- only; a derived tier that moves also gets derived:<code> = `mark` (its blocks that started by
-- then are read from their source tier). Adds the changed fields to `updates` and returns the new
-- layout ("" is every tier in containers, what a missing layout stands for).
local ruleWords = {}
local function layoutRule(rule)
  -- Every organization of a call has the same rule: its words are split once.
  local words = ruleWords[rule]
  if not words then
    words = {}
    for word in string.gmatch(rule, "%S+") do
      words[#words + 1] = word
    end
    ruleWords[rule] = words
  end
  return words
end

local DERIVED = "d"
local function placementRank(digit)
  if digit == DERIVED then
    return -1
  end
  return tonumber(digit) or 0
end

-- The layout of an organization with nothing counted: its derived tiers "d", the others containers.
local function newLayout(rule)
  local words, layout = layoutRule(rule), ""
  for i = 4, #words, 4 do
    layout = layout .. (words[i + 3] ~= "0" and DERIVED or "0")
  end
  return layout
end

local function settleLayout(updates, layout, recordings, first, last, rule, mark)
  local words = layoutRule(rule)
  if recordings < tonumber(words[1]) then
    return layout
  end
  local span = tonumber(last) - tonumber(first)
  local perPeriod, perBlock = tonumber(words[2]), tonumber(words[3])
  local settled, moved = "", false
  local tier = 0
  for i = 4, #words, 4 do
    tier = tier + 1
    local code, blockMs, periodMs, from = words[i], tonumber(words[i + 1]), tonumber(words[i + 2]), tonumber(words[i + 3])
    local digit = string.sub(layout, tier, tier)
    local current = placementRank(digit)
    local reached = 0
    if recordings * blockMs >= perBlock * math.max(span, blockMs) then
      reached = 2
    elseif recordings * periodMs >= perPeriod * math.max(span, periodMs) then
      reached = 1
    end
    -- A derived tier stays so while its source is in containers (and the rule still derives it).
    if current < 0 and from > 0 and placementRank(string.sub(settled, from, from)) == 0 then
      reached = current
    end
    if reached > current then
      if mark then
        updates[#updates + 1] = "mark:" .. code
        updates[#updates + 1] = mark
        if current < 0 then
          updates[#updates + 1] = "derived:" .. code
          updates[#updates + 1] = mark
        end
      end
      current, moved = reached, true
    end
    settled = settled .. (current < 0 and DERIVED or current)
  end
  if moved then
    updates[#updates + 1] = "layout"
    updates[#updates + 1] = settled
  end
  return settled
end
