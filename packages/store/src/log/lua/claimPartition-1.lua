--[[
  claimPartition-1: makes the caller the partition's writer for one generation: its fence is
  higher than any claimed before, so a shard that has seen it refuses the calls of every earlier
  writer (applyBatches.lua, the "writes" guard). A worker claims each partition once per group
  assignment; a rebuild claims the generation it fills.

  KEYS[1] the generation's log hash (see openEpoch-1.lua), which keeps the claim's fence in
          "fence:<topic>:<partition>"
  ARGV[1] "<topic>:<partition>"
  ARGV[2] a fence the claim must pass ("" = none): one a shard holds from a claim this hash no
          longer records (it was emptied, or went back to a snapshot)

  Returns the fence, a decimal string: the larger of one more than any the hash or ARGV[2] holds,
  and Redis' TIME in microseconds, so a claim after the hash lost its fences still passes them.
]]
local field = "fence:" .. ARGV[1]
local time = redis.call("TIME")
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local stored = tonumber(redis.call("HGET", KEYS[1], field) or "0") or 0
local floor = tonumber(ARGV[2]) or 0
local fence = string.format("%.0f", math.max(stored + 1, floor + 1, now))
redis.call("HSET", KEYS[1], field, fence)
return fence
