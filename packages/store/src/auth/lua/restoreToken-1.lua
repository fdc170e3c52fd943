--[[
  restoreToken-1: writes an API token's durable fields from its record in the tokens topic (a
  restore, or the tokens CLI once the topic has the record), never moving an existing token.

  KEYS[1]  the token's hash, <prefix>:v3:token:<sha256-hex>
  ARGV[1]  id
  ARGV[2]  org
  ARGV[3]  label
  ARGV[4]  created_at
  ARGV[5]  revoked_at, "" when the record is active

  Returns 1 when written (or already so), -1 when the key holds another organization's token, -2
  when it holds another token id; nothing is written then. Never un-revokes: an existing
  `revoked_at` stays (HSETNX), and a record's revocation is added when missing. `last_used_at` is
  left as it is (it is not durable).
]]
local held = redis.call("HMGET", KEYS[1], "org", "id")
if held[1] and held[1] ~= ARGV[2] then return -1 end
if held[2] and held[2] ~= ARGV[1] then return -2 end
if ARGV[5] ~= "" then redis.call("HSETNX", KEYS[1], "revoked_at", ARGV[5]) end
redis.call("HSET", KEYS[1], "id", ARGV[1], "org", ARGV[2], "label", ARGV[3], "created_at", ARGV[4])
return 1
