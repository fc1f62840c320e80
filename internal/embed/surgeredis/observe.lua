-- One question on one token: Surge.Observe on the memory store, step for step, in one atomic
-- script so that replicas counting the same token never lose or double a question.
--
-- KEYS[1]  the token's state (hash: bucket, count, baseline, ub, excess)
-- KEYS[2]  the current bucket's questions per client address (hash)
-- ARGV     k (bucket of now), r (ns of now into it), W (window, ns), C (cooldown, ns),
--          cb (ceil(C/W)), alpha, floor, factor, perAddress, SurgeMaxAddresses, SurgeMaxCatchUp,
--          addr, idle (ms the state is kept after its last question)
--
-- Times are kept as bucket numbers, not nanoseconds: a Lua number is a double, exact only to
-- 2^53, and Unix nanoseconds are past 2^60. "until" (surge ends) is always the end of a
-- bucket plus the cooldown, so it is stored as ub, the bucket after the spiking one:
-- until = ub*W + C. A state without ub has never surged (until = 0 in memory).
local k = tonumber(ARGV[1])
local r = tonumber(ARGV[2])
local W = tonumber(ARGV[3])
local C = tonumber(ARGV[4])
local cb = tonumber(ARGV[5])
local alpha = tonumber(ARGV[6])
local floor = tonumber(ARGV[7])
local factor = tonumber(ARGV[8])
local perAddress = tonumber(ARGV[9])
local SurgeMaxAddresses = tonumber(ARGV[10])
local SurgeMaxCatchUp = tonumber(ARGV[11])
local addr = ARGV[12]
local idle = tonumber(ARGV[13])

local st = redis.call('HMGET', KEYS[1], 'bucket', 'count', 'baseline', 'ub', 'excess')
local bucket = tonumber(st[1]) or k
local count = tonumber(st[2]) or 0
local baseline = tonumber(st[3]) or 0
local ub = tonumber(st[4])
local excess = tonumber(st[5]) or 0

-- advance: fold the finished bucket (unless it began before until: part of a surge), then
-- the empty ones skipped since, from the first that began at or after until.
if k > bucket then
  if ub == nil or (bucket - ub) * W >= C then
    baseline = alpha * count + (1 - alpha) * baseline
  end
  local first = bucket + 1
  if ub ~= nil and ub + cb > first then
    first = ub + cb
  end
  local empty = k - first
  if empty > SurgeMaxCatchUp then
    baseline = 0
  else
    for _ = 1, empty do
      baseline = baseline * (1 - alpha)
    end
  end
  bucket, count, excess = k, 0, 0
  redis.call('DEL', KEYS[2])
end

count = count + 1
local n = tonumber(redis.call('HGET', KEYS[2], addr))
if n ~= nil or redis.call('HLEN', KEYS[2]) < SurgeMaxAddresses then
  n = (n or 0) + 1
  redis.call('HSET', KEYS[2], addr, n)
  if n > perAddress then
    excess = excess + 1
  end
end

-- threshold: max(floor, factor*baseline) rounded down, capped like the Go int32 bound
local t = factor * baseline
local threshold
if t < floor then
  threshold = floor
elseif t >= 2147483647 then
  threshold = 2147483647
else
  threshold = math.floor(t)
end
if count > threshold and excess > math.floor(floor / 2) then
  if ub == nil or bucket + 1 > ub then
    ub = bucket + 1
  end
end

-- %.17g keeps the baseline's double exactly (tostring would round it to 14 digits).
redis.call('HSET', KEYS[1], 'bucket', bucket, 'count', count, 'baseline', string.format('%.17g', baseline),
  'excess', excess)
local active = false
local keep = idle
if ub ~= nil then
  redis.call('HSET', KEYS[1], 'ub', ub)
  -- now < until  <=>  k*W + r < ub*W + C  <=>  (k - ub)*W + r < C, in small numbers
  active = (k - ub) * W + r < C
  local left = math.ceil(((ub - k) * W + C - r) / 1e6)
  if left > keep then
    keep = left
  end
end
-- Expiry replaces the memory store's sweep: an idle token is forgotten (its baseline had
-- decayed to nothing), a token in surge is kept until the surge is over.
redis.call('PEXPIRE', KEYS[1], keep)
redis.call('PEXPIRE', KEYS[2], math.ceil(2 * W / 1e6))
if active then
  return 1
end
return 0
