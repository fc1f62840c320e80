// Package ratelimit limits request rates per key. The in-process limiter serves a single
// `svc serve`; a Redis-backed limiter with the same interface serves several processes.
package ratelimit

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limiter decides whether one more event for key fits within perMinute events a minute.
type Limiter interface {
	// Allow consumes one event when it fits and reports true; otherwise it reports false and
	// how long until one would fit.
	Allow(key string, perMinute int, now time.Time) (ok bool, retryAfter time.Duration)
}

// Memory is a token-bucket limiter per key, held in memory. A bucket holds perMinute tokens and
// refills at perMinute a minute, so a burst of perMinute is allowed and the next event waits
// for the refill. Buckets idle for longer than a full refill are dropped, since a fresh
// bucket is then the same as the old one.
type Memory struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	sweepAt time.Time
}

type bucket struct {
	lim       *rate.Limiter
	perMinute int
	lastSeen  time.Time
}

// NewMemory returns an empty in-memory limiter.
func NewMemory() *Memory {
	return &Memory{buckets: map[string]*bucket{}}
}

// Allow implements Limiter. A perMinute <= 0 means no limit.
func (m *Memory) Allow(key string, perMinute int, now time.Time) (bool, time.Duration) {
	if perMinute <= 0 {
		return true, 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(now)
	b := m.buckets[key]
	if b == nil || b.perMinute != perMinute {
		// A changed limit (the operator updated the account) starts a fresh bucket.
		b = &bucket{lim: rate.NewLimiter(rate.Limit(float64(perMinute)/60), perMinute), perMinute: perMinute}
		m.buckets[key] = b
	}
	b.lastSeen = now
	r := b.lim.ReserveN(now, 1)
	if !r.OK() {
		return false, time.Minute
	}
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

func (m *Memory) sweep(now time.Time) {
	if now.Before(m.sweepAt) {
		return
	}
	m.sweepAt = now.Add(time.Minute)
	for k, b := range m.buckets {
		if now.Sub(b.lastSeen) > time.Minute {
			delete(m.buckets, k)
		}
	}
}

// RetryAfterSeconds rounds a wait up to whole seconds, at least one, as the Retry-After header
// wants.
func RetryAfterSeconds(d time.Duration) int {
	s := int(math.Ceil(d.Seconds()))
	if s < 1 {
		return 1
	}
	return s
}
