// Package throttleredis keeps the dashboard's sign-in and reset throttle (users.Throttle) in
// Redis, so that a password guesser spreading its attempts over several `svc serve`
// replicas is held to the same few failures as on one.
package throttleredis

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"svc/internal/redisconn"
	"svc/internal/users"

	"github.com/redis/go-redis/v9"
)

// DefaultPrefix namespaces the keys (redisconn.DefaultPrefix).
const DefaultPrefix = redisconn.DefaultPrefix

// Health decides when to ask Redis and hears how each call went (redisconn.Health).
type Health interface {
	Try() bool
	Failed(err error)
	OK()
}

// Options configure a Throttle; zero fields take their defaults.
type Options struct {
	Prefix  string        // key prefix; default DefaultPrefix
	Timeout time.Duration // one call's bound; default 75 ms
	Health  Health        // nil: always ask Redis, report nothing
}

// failScript records one failure: it drops the key's failures that left the window, adds
// this one and keeps only the newest Max, as users.MemoryThrottle keeps a key's times, in one
// atomic step. Scores are Unix microseconds (exact in a Lua double; nanoseconds are not).
var failScript = redis.NewScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) / 1000))
return 1
`)

// Throttle is a users.Throttle in Redis: for each key, a sorted set of its latest failures
// (at most the key's Max), expiring with its window. The key names the class and a hash of
// the value (<prefix>throttle:signin-email:<sha256/16>), so Redis never holds a user's
// e-mail address or client address. Time is the callers' now, as in memory. A call Redis
// does not answer is decided by this replica's users.MemoryThrottle instead.
type Throttle struct {
	rdb     redis.UniversalClient
	prefix  string
	timeout time.Duration
	health  Health
	mem     *users.MemoryThrottle
}

var _ users.Throttle = (*Throttle)(nil)

// New returns a throttle on client's Redis.
func New(client redis.UniversalClient, o Options) *Throttle {
	if o.Prefix == "" {
		o.Prefix = DefaultPrefix
	}
	if o.Timeout <= 0 {
		o.Timeout = redisconn.Timeout
	}
	if o.Health == nil {
		o.Health = alwaysTry{}
	}
	return &Throttle{rdb: client, prefix: o.Prefix, timeout: o.Timeout, health: o.Health, mem: users.NewMemoryThrottle()}
}

// Key is the Redis key of a throttle key "<class>:<value>".
func (t *Throttle) Key(key string) string {
	class, value, _ := strings.Cut(key, ":")
	sum := sha256.Sum256([]byte(value))
	return t.prefix + "throttle:" + class + ":" + hex.EncodeToString(sum[:16])
}

// Blocked implements users.Throttle.
func (t *Throttle) Blocked(key string, now time.Time) (bool, time.Duration) {
	if t.health.Try() {
		b, wait, err := t.blocked(key, now)
		if err == nil {
			t.health.OK()
			return b, wait
		}
		t.health.Failed(err)
	}
	return t.mem.Blocked(key, now)
}

func (t *Throttle) blocked(key string, now time.Time) (bool, time.Duration, error) {
	l := users.KeyLimit(key)
	ctx, cancel := context.WithTimeout(context.Background(), t.timeout)
	defer cancel()
	cut := now.Add(-l.Window).UnixMicro()
	// Failures strictly after the cut count, as in memory.
	scores, err := t.rdb.ZRangeArgsWithScores(ctx, redis.ZRangeArgs{Key: t.Key(key), ByScore: true,
		Start: "(" + strconv.FormatInt(cut, 10), Stop: "+inf"}).Result()
	if err != nil {
		return false, 0, fmt.Errorf("redis throttle %s: %w", classOf(key), err)
	}
	if len(scores) < l.Max {
		return false, 0, nil
	}
	// Blocked until the oldest failure that counts leaves the window.
	oldest := time.UnixMicro(int64(scores[len(scores)-l.Max].Score))
	return true, max(oldest.Add(l.Window).Sub(now), time.Second), nil
}

// Fail implements users.Throttle.
func (t *Throttle) Fail(key string, now time.Time) {
	if t.health.Try() {
		err := t.fail(key, now)
		if err == nil {
			t.health.OK()
			return
		}
		t.health.Failed(err)
	}
	t.mem.Fail(key, now)
}

func (t *Throttle) fail(key string, now time.Time) error {
	l := users.KeyLimit(key)
	ctx, cancel := context.WithTimeout(context.Background(), t.timeout)
	defer cancel()
	// Two failures in the same microsecond (two replicas) are two members.
	b := make([]byte, 8)
	rand.Read(b)
	at := now.UnixMicro()
	member := strconv.FormatInt(at, 10) + ":" + hex.EncodeToString(b)
	if err := failScript.Run(ctx, t.rdb, []string{t.Key(key)}, at, l.Window.Microseconds(), l.Max, member).Err(); err != nil {
		return fmt.Errorf("redis throttle %s: %w", classOf(key), err)
	}
	return nil
}

// Reset implements users.Throttle. Memory is reset too: failures recorded there during an
// outage must not block a user who has since signed in.
func (t *Throttle) Reset(key string) {
	t.mem.Reset(key)
	if !t.health.Try() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), t.timeout)
	defer cancel()
	if err := t.rdb.Del(ctx, t.Key(key)).Err(); err != nil {
		t.health.Failed(fmt.Errorf("redis throttle %s: %w", classOf(key), err))
		return
	}
	t.health.OK()
}

// classOf is the key's class: its value (an e-mail, an address) is not for logs.
func classOf(key string) string {
	class, _, _ := strings.Cut(key, ":")
	return class
}

type alwaysTry struct{}

func (alwaysTry) Try() bool    { return true }
func (alwaysTry) Failed(error) {}
func (alwaysTry) OK()          {}
