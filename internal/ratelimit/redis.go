package ratelimit

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"svc/internal/redisconn"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

// DefaultRedisPrefix namespaces the limiter's keys (redisconn.DefaultPrefix).
const DefaultRedisPrefix = redisconn.DefaultPrefix

// Health decides when to ask Redis and hears how each call went; redisconn.Health logs each
// change between up and down once and counts every decision made in memory.
type Health interface {
	Try() bool
	Failed(err error)
	OK()
}

// RedisOptions configure a Redis limiter; zero fields take their defaults.
type RedisOptions struct {
	Prefix  string        // key prefix; default DefaultRedisPrefix
	Timeout time.Duration // one call's bound; default 75 ms
	Health  Health        // nil: always ask Redis, report nothing
}

// Redis is the Limiter shared by several `svc serve` replicas: one GCRA bucket per key in
// Redis (redis_rate), with the semantics of Memory: a bucket of perMinute that refills at
// perMinute a minute, so perMinute in a burst and then one every 60/perMinute seconds, and a
// refusal that says how long until the next one fits. GCRA keeps one timestamp per key and
// decides in one Lua script with Redis's own clock, so replicas need neither a lock nor
// synchronised clocks; the now that Allow is given is only used by the fallback.
//
// When Redis does not answer within the timeout (down, refusing connections, overloaded),
// that call is decided by this replica's own Memory: requests still succeed, each replica
// then allowing up to the full limit by itself. Nothing about money depends on these limits
// (budgets and balances are in the store), so a looser limit for the length of an outage is
// the right trade against refusing every request.
type Redis struct {
	lim     *redis_rate.Limiter
	prefix  string
	timeout time.Duration
	health  Health
	mem     *Memory
}

// NewRedis returns a limiter on client's Redis with o's settings.
func NewRedis(client redis.UniversalClient, o RedisOptions) *Redis {
	if o.Prefix == "" {
		o.Prefix = DefaultRedisPrefix
	}
	if o.Timeout <= 0 {
		o.Timeout = redisconn.Timeout
	}
	if o.Health == nil {
		o.Health = alwaysUp{}
	}
	return &Redis{lim: redis_rate.NewLimiter(client), prefix: o.Prefix, timeout: o.Timeout, health: o.Health, mem: NewMemory()}
}

// Allow implements Limiter. A perMinute <= 0 means no limit, and Redis is not asked.
func (r *Redis) Allow(key string, perMinute int, now time.Time) (bool, time.Duration) {
	if perMinute <= 0 {
		return true, 0
	}
	if r.health.Try() {
		ok, wait, err := r.allow(key, perMinute)
		if err == nil {
			r.health.OK()
			return ok, wait
		}
		r.health.Failed(err)
	}
	return r.mem.Allow(key, perMinute, now)
}

func (r *Redis) allow(key string, perMinute int) (bool, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	res, err := r.lim.Allow(ctx, r.Key(key, perMinute), redis_rate.PerMinute(perMinute))
	if err != nil {
		// The key's class only: its ids (addresses, visitors) are not for logs.
		return false, 0, fmt.Errorf("redis rate limit %s: %w", keyClass(key), err)
	}
	if res.Allowed > 0 {
		return true, 0, nil
	}
	// A refusal always waits for something; guard against a zero from rounding.
	return false, max(res.RetryAfter, time.Millisecond), nil
}

// Key is the key under which Redis holds key's bucket at perMinute (redis_rate adds its own
// "rate:" in front). The limit is part of it because Memory starts a fresh bucket when an
// account's limit changes: GCRA would otherwise carry the old limit's debt over, and a
// raised limit would not apply until it had drained.
func (r *Redis) Key(key string, perMinute int) string {
	return r.prefix + key + "@" + strconv.Itoa(perMinute)
}

// keyClass is key up to its first digit, for errors: "send:key:12" → "send:key".
func keyClass(key string) string {
	if i := strings.IndexAny(key, "0123456789"); i >= 0 {
		key = key[:i]
	}
	return strings.TrimRight(key, ":")
}

// alwaysUp is the Health of a limiter given none.
type alwaysUp struct{}

func (alwaysUp) Try() bool    { return true }
func (alwaysUp) Failed(error) {}
func (alwaysUp) OK()          {}
