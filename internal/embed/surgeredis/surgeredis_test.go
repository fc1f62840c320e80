package surgeredis_test

import (
	"strconv"
	"testing"
	"time"

	"svc/internal/embed"
	"svc/internal/embed/surgeredis"
	"svc/internal/embed/surgetest"
	"svc/internal/redisconn/redistest"
)

// The Redis store shows the behaviour of the memory store, test for test.
func TestSurgeRedis(t *testing.T) {
	t.Parallel()
	redistest.Options(t) // skip (or fail, under SVC_REQUIRE_REDIS=1) before the subtests
	surgetest.Run(t, func(t *testing.T, o embed.SurgeOptions) *embed.Surge {
		store := surgeredis.New(redistest.Client(t), surgeredis.Options{Prefix: redistest.Prefix(t), Timeout: 5 * time.Second})
		return embed.NewSharedSurge(o, store, failOnFallback{t})
	})
}

// failOnFallback fails the test when the store errs: a test decided by the memory fallback
// would pass without testing Redis.
type failOnFallback struct{ t *testing.T }

func (failOnFallback) Try() bool          { return true }
func (f failOnFallback) Failed(err error) { f.t.Errorf("the Redis store failed: %v", err) }
func (failOnFallback) OK()                {}

// BenchmarkObserve is one counted question on the test Redis (the Lua script's round trip).
func BenchmarkObserve(b *testing.B) {
	s := embed.NewSharedSurge(embed.SurgeOptions{},
		surgeredis.New(redistest.Client(b), surgeredis.Options{Prefix: redistest.Prefix(b)}), nil)
	now := time.Now()
	i := 0
	for b.Loop() {
		i++
		s.Observe(1, "addr-"+strconv.Itoa(i%100), now)
	}
}
