-- Reads a block's current cells for its fields (one HMGET per chunk) into `block.olds`, with
-- combination indexes turned into ids: form 1, index -> id; form 2 (a split hour block),
-- 4 * index + quarter -> quarter digit .. id. In a container every field is led by the block's
-- prefix ("<index>:"). Reads only: `writeBlock` writes.
local function readBlock(base, block, comboIds, chunk)
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
  block.olds = {}
  for first = 1, #fields, chunk do
    local olds = redis.call("HMGET", block.key, unpack(fields, first, math.min(first + chunk - 1, #fields)))
    for j = 1, #olds do
      block.olds[first + j - 1] = olds[j]
    end
  end
end
