--[[
  advanceCheckpoint-1: records that every message of a partition before an offset is applied,
  if the log hash is still where the caller left it (compare and set).

  KEYS[1] the generation's log hash (see openEpoch-1.lua)
  ARGV[1] the epoch the caller works in
  ARGV[2] "<topic>:<partition>"
  ARGV[3] the checkpoint the caller last saw ("" = none)
  ARGV[4] the new checkpoint (the next offset to consume; the same one again only refreshes ARGV[5])
  ARGV[5] the partition's "as of" instant (Unix time, ms): every message produced
          before it is below the new checkpoint. Stored as "asof:<topic>:<partition>" with the
          checkpoint, in the same call, so the two never disagree; "": left as it is
  ARGV[6], ARGV[7], ... pairs <shard>, write count (a cluster): the partition's counts the apply
          calls below the new checkpoint left on their shards, kept as
          "writes:<shard>:<topic>:<partition>" (the highest seen). A shard found below its
          recorded count lost writes the checkpoints say are applied

  Returns
    {1, state}       advanced; the view's state afterwards ("live" once a replay reached its targets)
    {-1, epoch}      another epoch ("" = none: Redis lost its state): the caller starts over
    {-2, next}       the checkpoint is elsewhere ("" = none): another consumer moved it on, or Redis
                     went back to an older snapshot; the caller resumes from there
]]
--- @include "includes/settleReplay"

local key = KEYS[1]
local epoch = redis.call("HGET", key, "epoch") or ""
if epoch ~= ARGV[1] then
  return {-1, epoch}
end
local field = "next:" .. ARGV[2]
local current = redis.call("HGET", key, field) or ""
-- A checkpoint never goes back: every message before it is applied, whoever moved it.
if current ~= ARGV[3] or (current ~= "" and tonumber(ARGV[4]) < tonumber(current)) then
  return {-2, current}
end
local updates = {field, ARGV[4]}
if ARGV[5] ~= nil and ARGV[5] ~= "" then
  updates[#updates + 1] = "asof:" .. ARGV[2]
  updates[#updates + 1] = ARGV[5]
end
for i = 6, #ARGV, 2 do
  local shardField = "writes:" .. ARGV[i] .. ":" .. ARGV[2]
  local recorded = tonumber(redis.call("HGET", key, shardField) or "0")
  if tonumber(ARGV[i + 1]) > recorded then
    updates[#updates + 1] = shardField
    updates[#updates + 1] = ARGV[i + 1]
  end
end
redis.call("HSET", key, unpack(updates))
return {1, settleReplay(key)}
