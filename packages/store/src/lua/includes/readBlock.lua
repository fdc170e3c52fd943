-- Turns a block's fields into the names it has in its key: combination indexes into ids (form 1,
-- index -> id; form 2, a split hour block, 4 * index + quarter -> quarter digit .. id), each led by
-- the block's prefix ("<index>:" in a container).
local function nameFields(base, block, comboIds)
  block.key = base .. block.suffix
  local fields, prefix = block.fields, block.prefix
  if block.fieldForm == 1 then
    for i = 1, #fields do
      fields[i] = prefix .. comboIds[fields[i]]
    end
  elseif block.fieldForm == 2 then
    for i = 1, #fields do
      local quarter = fields[i] % 4
      fields[i] = prefix .. quarter .. comboIds[(fields[i] - quarter) / 4]
    end
  elseif prefix ~= "" then
    for i = 1, #fields do
      fields[i] = prefix .. fields[i]
    end
  end
end

-- Reads the current cells of every block's fields into `block.olds`. Blocks that share a key (the
-- blocks of one container) are read together: one HMGET per key and chunk, not per block.
-- Returns the keys in the order met, each with its blocks, for `writeBlocks`. Reads only.
local function readBlocks(base, blocks, comboIds, chunk)
  local keys, byKey = {}, {}
  for _, block in ipairs(blocks) do
    nameFields(base, block, comboIds)
    block.olds = {}
    local group = byKey[block.key]
    if not group then
      group = {key = block.key, blocks = {}}
      byKey[block.key] = group
      keys[#keys + 1] = group
    end
    group.blocks[#group.blocks + 1] = block
  end
  for _, group in ipairs(keys) do
    -- The key's fields in one list, with the block and place each came from.
    local fields, owners, places = {}, {}, {}
    for _, block in ipairs(group.blocks) do
      for i, field in ipairs(block.fields) do
        fields[#fields + 1] = field
        owners[#owners + 1] = block
        places[#places + 1] = i
      end
    end
    for first = 1, #fields, chunk do
      local last = math.min(first + chunk - 1, #fields)
      local olds = redis.call("HMGET", group.key, unpack(fields, first, last))
      for j = 1, #olds do
        owners[first + j - 1].olds[places[first + j - 1]] = olds[j]
      end
    end
  end
  return keys
end
