package surgeredis_test

import (
	"context"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"svc/internal/embed"
	"svc/internal/embed/surgeredis"
	"svc/internal/redisconn"
	"svc/internal/redisconn/redistest"

	"github.com/redis/go-redis/v9"
)

var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// Two replicas (clients of their own) with one prefix are one detector: a script whose
// questions are split between them spikes at its 21st question of the minute, and the other
// replica sees the surge at once.
func TestReplicasShareOneDetector(t *testing.T) {
	t.Parallel()
	prefix := redistest.Prefix(t)
	replica := func() *embed.Surge {
		return embed.NewSharedSurge(embed.SurgeOptions{},
			surgeredis.New(redistest.Client(t), surgeredis.Options{Prefix: prefix, Timeout: 5 * time.Second}), failOnFallback{t})
	}
	a, b := replica(), replica()
	for i := 1; i <= 20; i++ {
		s := a
		if i%2 == 0 {
			s = b
		}
		if s.Observe(1, "script", t0.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("question %d surged", i)
		}
	}
	if !b.Observe(1, "script", t0.Add(21*time.Second)) {
		t.Fatal("the 21st question, the 11th on this replica, did not surge")
	}
	if !a.Active(1, t0.Add(22*time.Second)) {
		t.Fatal("the other replica does not see the surge")
	}
}

// The state expires: an hour after its last question a token's keys are gone; a token in
// surge keeps them until the surge ends.
func TestStateExpires(t *testing.T) {
	t.Parallel()
	prefix := redistest.Prefix(t)
	client := redistest.Client(t)
	s := embed.NewSharedSurge(embed.SurgeOptions{Cooldown: 3 * time.Hour},
		surgeredis.New(client, surgeredis.Options{Prefix: prefix, Timeout: 5 * time.Second}), failOnFallback{t})
	s.Observe(1, "", t0)
	for i := range 30 {
		s.Observe(2, "", t0.Add(time.Duration(i)*time.Second))
	}
	ctx := context.Background()
	ttl := func(key string) time.Duration {
		d, err := client.PTTL(ctx, prefix+key).Result()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d := ttl("surge:{1}"); d <= 59*time.Minute || d > time.Hour {
		t.Errorf("an idle token's state expires in %v, want an hour", d)
	}
	if d := ttl("surge:{2}"); d < 3*time.Hour {
		t.Errorf("a token in surge for 3 hours expires in %v", d)
	}
	if d := ttl("surge:{1}:addrs"); d <= 0 || d > 2*time.Minute {
		t.Errorf("a bucket's addresses expire in %v, want two windows", d)
	}
}

type fallbacks struct{ n atomic.Int64 }

func (f *fallbacks) RateLimitFallback(component string) {
	if component == "surge" {
		f.n.Add(1)
	}
}

// With Redis unreachable the replica's memory decides, with the memory detector's answers,
// and each decision is counted.
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
	health := redisconn.NewHealth("surge", redisconn.Describe(opts), nil, count, nil)
	s := embed.NewSharedSurge(embed.SurgeOptions{}, surgeredis.New(client, surgeredis.Options{}), health)
	for i := 1; i <= 20; i++ {
		if s.Observe(1, "", t0.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("question %d surged", i)
		}
	}
	if !s.Observe(1, "", t0.Add(21*time.Second)) || !s.Active(1, t0.Add(22*time.Second)) {
		t.Fatal("the memory fallback did not surge at the 21st question")
	}
	if got := count.n.Load(); got != 22 {
		t.Fatalf("fallbacks counted = %d, want 22", got)
	}
}
