// Package redistest connects tests to a real Redis: SVC_TEST_REDIS_URL, or the local one at
// 127.0.0.1:6379. A test skips when none answers, unless SVC_REQUIRE_REDIS=1 (CI), where
// that fails it. Each test gets its own random key prefix, so tests running in parallel, or
// two runs on one server, never see each other's keys; the prefix's keys are deleted when the
// test ends.
package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"svc/internal/redisconn"

	"github.com/redis/go-redis/v9"
)

// DefaultURL is the Redis tests use when SVC_TEST_REDIS_URL is unset.
const DefaultURL = "redis://127.0.0.1:6379/0"

// Options are the parsed test server's options: skips or fails t when there is none.
func Options(t testing.TB) *redis.Options {
	t.Helper()
	raw := os.Getenv("SVC_TEST_REDIS_URL")
	if raw == "" {
		raw = DefaultURL
	}
	opts, err := redis.ParseURL(raw)
	if err != nil {
		t.Fatalf("SVC_TEST_REDIS_URL: %v", err)
	}
	probe := *opts
	probe.MaxRetries, probe.DialerRetries = -1, 1 // one try: a refused connection skips at once
	c := redis.NewClient(&probe)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		msg := "no Redis at " + redisconn.Describe(opts) + " (" + err.Error() + "); set SVC_TEST_REDIS_URL, or start one: redis-server --save '' --appendonly no"
		if os.Getenv("SVC_REQUIRE_REDIS") == "1" {
			t.Fatal(msg + "; SVC_REQUIRE_REDIS=1 makes this a failure")
		}
		t.Skip(msg)
	}
	return opts
}

// Client is a new client of the test server, like serve's (no retries) but with timeouts
// generous enough for a loaded machine running the race detector: a timeout would turn a
// test's Redis decision into a memory one. It is closed when the test ends.
func Client(t testing.TB) *redis.Client {
	t.Helper()
	o := *Options(t)
	o.MaxRetries = -1
	o.DialTimeout, o.ReadTimeout, o.WriteTimeout, o.PoolTimeout = 5*time.Second, 5*time.Second, 5*time.Second, 5*time.Second
	c := redis.NewClient(&o)
	t.Cleanup(func() { c.Close() })
	return c
}

// Prefix is a fresh key prefix for one test, "svctest:<random>:". Every key holding it is
// deleted when the test ends (whatever a library puts before it, such as redis_rate's
// "rate:"), so a test leaves nothing behind.
func Prefix(t testing.TB) string {
	t.Helper()
	b := make([]byte, 8)
	rand.Read(b)
	p := "svctest:" + hex.EncodeToString(b) + ":"
	opts := Options(t)
	t.Cleanup(func() {
		c := redis.NewClient(opts)
		defer c.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		iter := c.Scan(ctx, 0, "*"+p+"*", 1000).Iterator()
		var keys []string
		for iter.Next(ctx) {
			keys = append(keys, iter.Val())
		}
		if len(keys) > 0 {
			c.Del(ctx, keys...)
		}
	})
	return p
}
