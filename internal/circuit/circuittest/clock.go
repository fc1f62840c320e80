// Package circuittest gives tests of retrying clients a clock that never sleeps.
package circuittest

import (
	"context"
	"sync"
	"time"

	"svc/internal/circuit"
)

// Clock stands in for time in circuit.Retry and circuit.Breaker: sleeping is recorded and
// advances the clock at once, and jitter always picks the top of its range so that waits are
// predictable. It is safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	t      time.Time
	sleeps []time.Duration
	limits []time.Duration
}

// NewClock starts at the current wall time, so that HTTP dates in Retry-After read sensibly.
func NewClock() *Clock { return &Clock{t: time.Now()} }

// Clock is the circuit.Clock made of c.
func (c *Clock) Clock() circuit.Clock {
	return circuit.Clock{Now: c.Now, Sleep: c.Sleep, Jitter: c.Jitter}
}

// Now is the fake time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Sleep records d and advances the time by it, unless ctx is already done.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	c.t = c.t.Add(d)
	return nil
}

// Jitter returns limit, the top of the range, and records it.
func (c *Clock) Jitter(limit time.Duration) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.limits = append(c.limits, limit)
	return limit
}

// Advance moves the time on by d, as a cooldown passing.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Slept is every wait Sleep was asked for, in order.
func (c *Clock) Slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}
