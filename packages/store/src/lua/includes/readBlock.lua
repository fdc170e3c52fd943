local QUARTER_DIGITS = {}
for quarter = 0, QUARTERS_PER_HOUR - 1 do
  QUARTER_DIGITS[quarter] = string.format("%d", quarter)
end

-- Turns a block's fields into the names they have in its key: combination indexes into ids
-- (FIELD_FORM_COMBO, index -> id; FIELD_FORM_QUARTER_COMBO, a split hour block,
-- QUARTERS_PER_HOUR * index + quarter -> quarter digit .. id), each led by the block's prefix
-- ("<index>:" in a container). Returns, per field, whether it names a combination this call gives
-- its id (in `newCombos`): no key can hold such a field yet.
local function nameFields(block, comboIds, newCombos)
  local fields, prefix, new = block.fields, block.prefix, {}
  if block.fieldForm == FIELD_FORM_COMBO then
    for i = 1, #fields do
      local combo = fields[i]
      fields[i] = prefix .. comboIds[combo]
      new[i] = newCombos[combo]
    end
  elseif block.fieldForm == FIELD_FORM_QUARTER_COMBO then
    for i = 1, #fields do
      local quarter = fields[i] % QUARTERS_PER_HOUR
      local combo = (fields[i] - quarter) / QUARTERS_PER_HOUR
      fields[i] = prefix .. QUARTER_DIGITS[quarter] .. comboIds[combo]
      new[i] = newCombos[combo]
    end
  elseif prefix ~= "" then
    for i = 1, #fields do
      fields[i] = prefix .. fields[i]
    end
  end
  return new
end

-- Reads the current cells of every block's fields. Blocks that share a key (the blocks of one
-- container) are read together: one HMGET per key and chunk, not per block, of the fields that
-- may exist (a field of a new combination cannot); a key with none of those gets an HLEN, which
-- fails on a key of the wrong type as HMGET would, before anything is written. Returns the keys in
-- the order met, each with its blocks and `olds`, the cells found for its fields in block order
-- (a block's i-th field is at `block.from + i`; nil: none), for `writeBlocks`. Reads only.
local function readBlocks(base, blocks, comboIds, newIndexes, chunk)
  local newCombos = {}
  for _, index in ipairs(newIndexes) do
    newCombos[index] = true
  end
  local keys, byKey = {}, {}
  for _, block in ipairs(blocks) do
    local key = base .. block.suffix
    local group = byKey[key]
    if not group then
      group = {key = key, blocks = {}, size = 0, asked = {}, at = {}}
      byKey[key] = group
      keys[#keys + 1] = group
    end
    local from, asked, at = group.size, group.asked, group.at
    block.from = from
    group.blocks[#group.blocks + 1] = block
    local new, fields = nameFields(block, comboIds, newCombos), block.fields
    for i = 1, #fields do
      if not new[i] then
        asked[#asked + 1] = fields[i]
        at[#at + 1] = from + i
      end
    end
    group.size = from + #fields
  end
  for _, group in ipairs(keys) do
    local asked, at, olds = group.asked, group.at, {}
    if #asked == 0 then
      redis.call("HLEN", group.key)
    end
    for first = 1, #asked, chunk do
      local found = redis.call("HMGET", group.key, unpack(asked, first, math.min(first + chunk - 1, #asked)))
      for j = 1, #found do
        olds[at[first + j - 1]] = found[j]
      end
    end
    group.olds = olds
  end
  return keys
end
