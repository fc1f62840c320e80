package redisconn

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) RateLimitFallback(component string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[component]++
}

// A failure logs once, pauses Redis for RetryEvery (each decision meanwhile counted), and the
// first success after it logs once that Redis is back.
func TestHealthLogsTransitionsOnceAndCountsEveryFallback(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	c := &counter{n: map[string]int{}}
	h := NewHealth("limiter", "127.0.0.1:6379/0", log, c, func() time.Time { return now })

	if !h.Try() || h.Down() {
		t.Fatal("a fresh health does not try Redis")
	}
	h.OK() // up and staying up: nothing logged
	for range 3 {
		h.Failed(errors.New("connection refused"))
	}
	for range 5 {
		if h.Try() {
			t.Fatal("tried Redis again within RetryEvery of a failure")
		}
	}
	now = now.Add(RetryEvery)
	if !h.Try() {
		t.Fatal("did not try Redis again after RetryEvery")
	}
	// While that probe is out, the others stay in memory: a hung Redis costs one call its
	// timeout, not every call that arrives meanwhile.
	if h.Try() {
		t.Fatal("a second caller probed Redis while the first probe was out")
	}
	h.OK()
	h.OK()
	if h.Down() {
		t.Fatal("still down after a success")
	}
	if got := c.n["limiter"]; got != 9 {
		t.Errorf("fallbacks counted = %d, want 9 (3 failures + 5 paused + 1 during the probe)", got)
	}
	out := buf.String()
	if n := strings.Count(out, "redis unreachable"); n != 1 {
		t.Errorf("down logged %d times, want once:\n%s", n, out)
	}
	if n := strings.Count(out, "redis reachable again"); n != 1 || !strings.Contains(out, "in_memory=9") {
		t.Errorf("back up logged %d times, want once with in_memory=9:\n%s", n, out)
	}
}

func TestDescribeHidesCredentials(t *testing.T) {
	t.Parallel()
	opts, err := redis.ParseURL("redis://svc:s3cret@cache.internal:6380/4")
	if err != nil {
		t.Fatal(err)
	}
	if got := Describe(opts); got != "cache.internal:6380/4" {
		t.Fatalf("Describe = %q", got)
	}
	c := NewClient(opts)
	defer c.Close()
	got := c.Options()
	if got.MaxRetries > 0 || got.ReadTimeout != Timeout || got.DialTimeout > 2*Timeout || opts.ReadTimeout == Timeout {
		// Not the whole options: they hold the password.
		t.Fatalf("client: retries %d, read timeout %v, dial timeout %v (opts' read timeout %v); want short timeouts, no retries, opts unchanged",
			got.MaxRetries, got.ReadTimeout, got.DialTimeout, opts.ReadTimeout)
	}
}
