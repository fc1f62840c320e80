package ratelimit_test

import (
	"bytes"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"svc/internal/ratelimit"
	"svc/internal/redisconn"
	"svc/internal/redisconn/redistest"

	"github.com/redis/go-redis/v9"
)

// GCRA in redis_rate runs on Redis's clock, not the now these tests pass: they count exact
// allowances within one burst (a few milliseconds of Redis time) instead of waiting.

func newRedis(t *testing.T, prefix string) *ratelimit.Redis {
	t.Helper()
	return ratelimit.NewRedis(redistest.Client(t), ratelimit.RedisOptions{Prefix: prefix, Timeout: 5 * time.Second})
}

func TestRedisAllowsBurstThenRefuses(t *testing.T) {
	t.Parallel()
	l := newRedis(t, redistest.Prefix(t))
	now := time.Now()
	for i := range 15 {
		if ok, _ := l.Allow("send:key:1", 15, now); !ok {
			t.Fatalf("send %d refused", i+1)
		}
	}
	ok, wait := l.Allow("send:key:1", 15, now)
	if ok || wait <= 0 || wait > 4*time.Second {
		t.Fatalf("16th: ok=%v wait=%v; want refused with ~4s", ok, wait)
	}
	if got := ratelimit.RetryAfterSeconds(wait); got != 4 {
		t.Fatalf("retry after %d, want 4 (wait %v)", got, wait)
	}
	// A refusal does not consume: the bucket is still exactly empty, not in debt.
	ok, again := l.Allow("send:key:1", 15, now)
	if ok || again > wait {
		t.Fatalf("17th: ok=%v wait=%v after %v; a refusal must not push the wait further", ok, again, wait)
	}
	if ok, _ := l.Allow("send:key:2", 15, now); !ok {
		t.Fatal("another key was limited")
	}
}

func TestRedisLimitChangeAndUnlimited(t *testing.T) {
	t.Parallel()
	l := newRedis(t, redistest.Prefix(t))
	now := time.Now()
	for range 2 {
		l.Allow("k", 2, now)
	}
	if ok, _ := l.Allow("k", 2, now); ok {
		t.Fatal("third of two allowed")
	}
	if ok, _ := l.Allow("k", 5, now); !ok {
		t.Fatal("raised limit not applied")
	}
	for range 100 {
		if ok, _ := l.Allow("u", 0, now); !ok {
			t.Fatal("unlimited refused")
		}
	}
}

// Two replicas (two clients, two limiters) with one prefix spend one budget; a replica with
// another prefix (another deployment on the same Redis) has its own.
func TestRedisReplicasShareOneBudget(t *testing.T) {
	t.Parallel()
	prefix := redistest.Prefix(t)
	a, b := newRedis(t, prefix), newRedis(t, prefix)
	now := time.Now()
	for i := range 15 {
		l := a
		if i%2 == 1 {
			l = b
		}
		if ok, _ := l.Allow("embed:token:9", 15, now); !ok {
			t.Fatalf("request %d of 15 refused", i+1)
		}
	}
	for name, l := range map[string]*ratelimit.Redis{"a": a, "b": b} {
		if ok, wait := l.Allow("embed:token:9", 15, now); ok || wait <= 0 {
			t.Fatalf("replica %s allowed the 16th of a shared 15 a minute (wait %v)", name, wait)
		}
	}
	other := newRedis(t, redistest.Prefix(t))
	if ok, _ := other.Allow("embed:token:9", 15, now); !ok {
		t.Fatal("another prefix shares the budget")
	}
}

// Many goroutines on two replicas never let more than the budget through.
func TestRedisConcurrentReplicasAllowExactlyTheBudget(t *testing.T) {
	t.Parallel()
	prefix := redistest.Prefix(t)
	replicas := []*ratelimit.Redis{newRedis(t, prefix), newRedis(t, prefix)}
	var allowed atomic.Int64
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for range 10 {
				if ok, _ := replicas[w%2].Allow("marketing:acct:3", 50, time.Now()); ok {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if got := allowed.Load(); got != 50 {
		t.Fatalf("%d of 80 allowed on a budget of 50", got)
	}
}

type fallbacks struct{ n atomic.Int64 }

func (f *fallbacks) RateLimitFallback(component string) {
	if component == "limiter" {
		f.n.Add(1)
	}
}

// closedAddr is an address nothing listens on: a port the kernel just gave us, closed again.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// With Redis unreachable, requests are decided by the replica's memory with the same limit,
// every such decision is counted, and the outage is logged once.
func TestRedisUnreachableFallsBackToMemory(t *testing.T) {
	t.Parallel()
	opts := &redis.Options{Addr: closedAddr(t)}
	client := redisconn.NewClient(opts)
	defer client.Close()
	var buf syncBuffer
	count := &fallbacks{}
	health := redisconn.NewHealth("limiter", redisconn.Describe(opts), slog.New(slog.NewTextHandler(&buf, nil)), count, nil)
	l := ratelimit.NewRedis(client, ratelimit.RedisOptions{Health: health})
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	start := time.Now()
	for i := range 15 {
		if ok, _ := l.Allow("send:key:1", 15, now); !ok {
			t.Fatalf("send %d refused with Redis down", i+1)
		}
	}
	ok, wait := l.Allow("send:key:1", 15, now)
	if ok || ratelimit.RetryAfterSeconds(wait) != 4 {
		t.Fatalf("16th with Redis down: ok=%v wait=%v; want the memory limit's refusal, 4s", ok, wait)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("16 decisions with Redis down took %v", took)
	}
	if got := count.n.Load(); got != 16 {
		t.Errorf("fallbacks counted = %d, want 16", got)
	}
	if !health.Down() {
		t.Error("health does not say Redis is down")
	}
	if n := strings.Count(buf.String(), "redis unreachable"); n != 1 {
		t.Errorf("outage logged %d times, want once:\n%s", n, buf.String())
	}
	if strings.Contains(buf.String(), "send:key:1") {
		t.Errorf("a limiter key's id reached the log:\n%s", buf.String())
	}
}

// syncBuffer is a bytes.Buffer safe for the logger's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// BenchmarkRedisAllow is one limiter decision on the test Redis (a GCRA script round trip).
func BenchmarkRedisAllow(b *testing.B) {
	l := ratelimit.NewRedis(redistest.Client(b), ratelimit.RedisOptions{Prefix: redistest.Prefix(b)})
	now := time.Now()
	for b.Loop() {
		l.Allow("bench:key:1", 1_000_000, now)
	}
}
