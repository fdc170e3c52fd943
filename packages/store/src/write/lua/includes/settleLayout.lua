-- Moves the organization's tiers to the placement the layout rule gives them (src/blockPlacement.ts
-- layoutArguments: its thresholds, then from word RULE_FIRST_TIER on RULE_TIER_WORDS words per
-- tier, read by the RULE_* indexes), for `recordings` counted between `first` and `last`
-- (recorded_at, ms strings). `layout` holds one digit per tier: PLACEMENT_CONTAINER,
-- PLACEMENT_KEYED, PLACEMENT_PROJECTED, or DERIVED (not stored: read from the tier at position `from`,
-- which it stays while that one is in containers); a placement never moves back.
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

-- A placement's order: derived before every stored placement, which are ranked by their digit.
local function placementRank(digit)
  if digit == DERIVED then
    return -1
  end
  return tonumber(digit) or PLACEMENT_CONTAINER
end

-- The layout of an organization with nothing counted: its derived tiers DERIVED, the others containers.
local function newLayout(rule)
  local words, layout = layoutRule(rule), ""
  for i = RULE_FIRST_TIER, #words, RULE_TIER_WORDS do
    layout = layout .. (tonumber(words[i + RULE_TIER_FROM]) ~= 0 and DERIVED or PLACEMENT_CONTAINER)
  end
  return layout
end

local function settleLayout(updates, layout, recordings, first, last, rule, mark)
  local words = layoutRule(rule)
  if recordings < tonumber(words[RULE_MIN_RECORDINGS]) then
    return layout
  end
  -- At least a day (LAYOUT_RULE.leastSpanMs): a burst is not a rate, and a placement never moves back.
  local span = math.max(tonumber(last) - tonumber(first), tonumber(words[RULE_LEAST_SPAN_MS]))
  local perPeriod, perBlock = tonumber(words[RULE_PER_PERIOD]), tonumber(words[RULE_PER_BLOCK])
  local settled, moved = "", false
  local tier = 0
  for i = RULE_FIRST_TIER, #words, RULE_TIER_WORDS do
    tier = tier + 1
    local code = words[i + RULE_TIER_CODE]
    local blockMs, periodMs = tonumber(words[i + RULE_TIER_BLOCK_MS]), tonumber(words[i + RULE_TIER_PERIOD_MS])
    local from = tonumber(words[i + RULE_TIER_FROM])
    local digit = string.sub(layout, tier, tier)
    local current = placementRank(digit)
    local reached = PLACEMENT_CONTAINER
    if recordings * blockMs >= perBlock * math.max(span, blockMs) then
      reached = PLACEMENT_PROJECTED
    elseif recordings * periodMs >= perPeriod * math.max(span, periodMs) then
      reached = PLACEMENT_KEYED
    end
    -- A derived tier stays so while its source is in containers (and the rule still derives it).
    if current < 0 and from > 0 and placementRank(string.sub(settled, from, from)) == PLACEMENT_CONTAINER then
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
