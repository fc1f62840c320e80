package throttleredis_test

import (
	"context"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"svc/internal/redisconn"
	"svc/internal/redisconn/redistest"
	"svc/internal/users"
	"svc/internal/users/throttleredis"

	"github.com/redis/go-redis/v9"
)

var t0 = time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)

func newThrottle(t *testing.T, prefix string) *throttleredis.Throttle {
	t.Helper()
	return throttleredis.New(redistest.Client(t), throttleredis.Options{Prefix: prefix, Timeout: 5 * time.Second,
		Health: failOnFallback{t}})
}

// The sliding window of users.MemoryThrottle, on memory and on Redis alike.
func TestThrottleSlidingWindow(t *testing.T) {
	t.Parallel()
	for name, newT := range map[string]func(t *testing.T) users.Throttle{
		"memory": func(*testing.T) users.Throttle { return users.NewMemoryThrottle() },
		"redis":  func(t *testing.T) users.Throttle { return newThrottle(t, redistest.Prefix(t)) },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := newT(t)
			key := "signin-email:a@x.io"
			for i := range 5 {
				if b, _ := m.Blocked(key, t0.Add(time.Duration(i)*time.Minute)); b {
					t.Fatalf("blocked after %d failures", i)
				}
				m.Fail(key, t0.Add(time.Duration(i)*time.Minute))
			}
			b, wait := m.Blocked(key, t0.Add(5*time.Minute))
			if !b || wait != 10*time.Minute {
				t.Fatalf("after 5 failures: blocked %v, wait %s; want 10m (the first failure leaves the window at 15m)", b, wait)
			}
			if b, _ := m.Blocked(key, t0.Add(15*time.Minute-time.Second)); !b {
				t.Fatal("not blocked a second before the oldest failure leaves the window")
			}
			if b, _ := m.Blocked(key, t0.Add(15*time.Minute+time.Second)); b {
				t.Fatal("still blocked after the oldest failure left the window")
			}
			if b, _ := m.Blocked("signin-email:b@x.io", t0); b {
				t.Fatal("another key is blocked")
			}
			// More failures than the limit keep only the newest: the wait follows them.
			for i := range 3 {
				m.Fail(key, t0.Add(time.Duration(10+i)*time.Minute))
			}
			if b, wait := m.Blocked(key, t0.Add(13*time.Minute)); !b || wait != 5*time.Minute {
				t.Fatalf("after 8 failures: blocked %v, wait %v; want 5m (the 4th failure, at 4m, is the oldest that counts)", b, wait)
			}
			m.Reset(key)
			if b, _ := m.Blocked(key, t0.Add(13*time.Minute)); b {
				t.Fatal("blocked after Reset")
			}
		})
	}
}

// Two replicas share one count: failures on either block both. Redis holds no e-mail.
func TestReplicasShareFailures(t *testing.T) {
	t.Parallel()
	prefix := redistest.Prefix(t)
	a, b := newThrottle(t, prefix), newThrottle(t, prefix)
	key := "signin-email:victim@example.com"
	for i := range 5 {
		[]*throttleredis.Throttle{a, b}[i%2].Fail(key, t0) // same instant: each is counted
	}
	for name, th := range map[string]*throttleredis.Throttle{"a": a, "b": b} {
		if blocked, _ := th.Blocked(key, t0.Add(time.Second)); !blocked {
			t.Fatalf("replica %s not blocked after 5 failures across both", name)
		}
	}
	keys, err := redistest.Client(t).Keys(context.Background(), prefix+"*").Result()
	if err != nil || len(keys) != 1 || !strings.HasPrefix(keys[0], prefix+"throttle:signin-email:") ||
		strings.Contains(keys[0], "victim") {
		t.Fatalf("keys %v (%v); want one hashed signin-email key", keys, err)
	}
}

type fallbacks struct{ n atomic.Int64 }

func (f *fallbacks) RateLimitFallback(component string) {
	if component == "signin" {
		f.n.Add(1)
	}
}

// With Redis unreachable the replica's memory throttles, and it is counted.
func TestUnreachableFallsBackToMemory(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opts := &redis.Options{Addr: ln.Addr().String()}
	ln.Close()
	client := redisconn.NewClient(opts)
	defer client.Close()
	count := &fallbacks{}
	th := throttleredis.New(client, throttleredis.Options{Health: redisconn.NewHealth("signin", redisconn.Describe(opts), nil, count, nil)})
	for range 5 {
		th.Fail("signin-email:a@x.io", t0)
	}
	if b, wait := th.Blocked("signin-email:a@x.io", t0); !b || wait != 15*time.Minute {
		t.Fatalf("blocked %v, wait %v with Redis down; want the memory throttle's 15m", b, wait)
	}
	if got := count.n.Load(); got != 6 {
		t.Fatalf("fallbacks counted = %d, want 6", got)
	}
}

// failOnFallback fails the test when Redis errs: a memory decision would test nothing.
type failOnFallback struct{ t *testing.T }

func (failOnFallback) Try() bool          { return true }
func (f failOnFallback) Failed(err error) { f.t.Errorf("the Redis throttle failed: %v", err) }
func (failOnFallback) OK()                {}
