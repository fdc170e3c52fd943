--[[
  openEpoch-1: starts a new epoch of the view: what a worker does when the store has no epoch
  (Redis lost its state, or never had one) or went back in time (restored from an older snapshot).
  Readers compare epochs to know that what they cached belongs to the state they read.

  KEYS[1] the generation's log hash (keyspace.log): epoch, state, reason, opened, per partition
          "next:<topic>:<partition>" (checkpoint: every message before it is applied) and
          "target:<topic>:<partition>" (the offset a replay must reach to be live again), and per
          topic "topicid:<topic>" (the id of the topic the view counts)
  ARGV[1] the new epoch's id
  ARGV[2] the epoch the caller saw ("" = none): if another worker opened one since, nothing changes
  ARGV[3] the state while targets remain: "replaying", or "incomplete" (the topic no longer holds
          all the events the view needs: it never becomes live by itself)
  ARGV[4] why (for readiness and the 503s), e.g. "Redis lost its state; replaying the topic"
  ARGV[5] "reset" to drop the checkpoints (and the shards' recorded write counts): the whole topic
          is replayed (a cluster node lost writes the checkpoints say are applied); the topic ids
          stay, as the sums and the offsets kept with them do; else ""
  ARGV[6], ARGV[7], ... pairs "<topic>:<partition>", target offset

  Returns {1, epoch} when opened, {0, epoch} when the epoch the caller saw was stale (the current epoch).
  A first epoch starts from an empty hash, a reset one from the topic ids alone; a reopened one
  keeps the checkpoints (they describe the restored state) and replaces the targets.
]]
--- @include "includes/settleReplay"

local key = KEYS[1]
local current = redis.call("HGET", key, "epoch") or ""
if current ~= ARGV[2] then
  return {0, current}
end
if current == "" then
  redis.call("DEL", key)
else
  local reset = ARGV[5] == "reset"
  local fields = redis.call("HKEYS", key)
  for _, field in ipairs(fields) do
    if string.sub(field, 1, 7) == "target:" or (reset and string.sub(field, 1, 8) ~= "topicid:") then
      redis.call("HDEL", key, field)
    end
  end
end
local time = redis.call("TIME")
local updates = {"epoch", ARGV[1], "state", ARGV[3], "reason", ARGV[4], "opened", time[1]}
for i = 6, #ARGV, 2 do
  updates[#updates + 1] = "target:" .. ARGV[i]
  updates[#updates + 1] = ARGV[i + 1]
end
redis.call("HSET", key, unpack(updates))
settleReplay(key)
return {1, ARGV[1]}
