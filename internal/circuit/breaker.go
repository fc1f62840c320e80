package circuit

import (
	"context"
	"sync"
	"time"
)

// state is where a Breaker stands.
type state int

const (
	closed   state = iota // calls go through; consecutive failures are counted
	open                  // calls fail fast until the cooldown ends
	halfOpen              // one probe at a time decides between closed and open
)

// Breaker stops calling a service that keeps failing. Only failures that say something about
// the service's health count: Retryable ones (timeouts, 429, 5xx, connection errors). A
// refused request or a caller that gave up says nothing. It is safe for concurrent use.
type Breaker struct {
	threshold int
	cooldown  time.Duration
	now       func() time.Time

	mu        sync.Mutex
	state     state
	failures  int       // consecutive counted failures while closed
	openUntil time.Time // while open
	probing   bool      // while half-open: a probe is in flight
}

// NewBreaker opens after threshold failed calls in a row and stays open for cooldown, after
// which one probe is let through: its success closes the breaker, its failure opens it again.
func NewBreaker(threshold int, cooldown time.Duration, now func() time.Time) *Breaker {
	return &Breaker{threshold: max(threshold, 1), cooldown: cooldown, now: now}
}

// Call runs call unless the breaker refuses it, in which case it returns refused(wait)
// without calling; wait is how long until a probe will be let through (0 while a probe is in
// flight). One Call counts once, however many attempts call makes inside.
func Call[T any](ctx context.Context, b *Breaker, call func(context.Context) (T, error), refused func(wait time.Duration) error) (T, error) {
	probe, wait, ok := b.admit()
	if !ok {
		var zero T
		return zero, refused(wait)
	}
	v, err := call(ctx)
	b.settle(probe, judge(ctx, err))
	return v, err
}

// admit lets a call through or refuses it; probe reports that the call is the single
// half-open trial.
func (b *Breaker) admit() (probe bool, wait time.Duration, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case closed:
		return false, 0, true
	case open:
		now := b.now()
		if now.Before(b.openUntil) {
			return false, b.openUntil.Sub(now), false
		}
		b.state, b.probing = halfOpen, false
	}
	if b.probing {
		return false, 0, false
	}
	b.probing = true
	return true, 0, true
}

// outcome is what a finished call tells the breaker.
type outcome int

const (
	succeeded outcome = iota
	failed            // counts towards opening
	neutral           // says nothing about the service's health
)

// settle records a finished call. Results of calls admitted before the breaker last opened
// arrive late and are ignored: only the probe decides a half-open breaker.
func (b *Breaker) settle(probe bool, o outcome) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if probe {
		b.probing = false
		switch o {
		case succeeded:
			b.state, b.failures = closed, 0
		case failed:
			b.trip()
		}
		// neutral: stay half-open; the next call probes.
		return
	}
	if b.state != closed {
		return
	}
	switch o {
	case succeeded:
		b.failures = 0
	case failed:
		b.failures++
		if b.failures >= b.threshold {
			b.trip()
		}
	}
}

func (b *Breaker) trip() {
	b.state, b.failures = open, 0
	b.openUntil = b.now().Add(b.cooldown)
}

// judge classifies a call's result for the breaker.
func judge(ctx context.Context, err error) outcome {
	if err == nil {
		return succeeded
	}
	if ctx.Err() != nil {
		return neutral
	}
	if retry, _ := hint(err); retry {
		return failed
	}
	return neutral
}
