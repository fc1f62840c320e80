package circuit

import (
	"context"
	"math/rand/v2"
	"time"
)

// Clock holds what tests replace, so that retry and breaker tests neither sleep nor depend on
// chance: time, sleeping and randomness.
type Clock struct {
	Now    func() time.Time
	Sleep  func(ctx context.Context, d time.Duration) error // waits d or until ctx is done
	Jitter func(limit time.Duration) time.Duration          // uniform in [0, limit]
}

// RealClock is the wall clock, a timer and math/rand.
func RealClock() Clock {
	return Clock{Now: time.Now, Sleep: sleep, Jitter: jitter}
}

// sleep waits d or until ctx is done, whichever comes first.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// jitter is uniform in [0, limit]; math/rand is enough, since nobody gains by predicting it.
func jitter(limit time.Duration) time.Duration {
	if limit <= 0 {
		return 0
	}
	return rand.N(limit + 1)
}
