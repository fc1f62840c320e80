package llm

import (
	"context"
	"errors"
	"sync"
	"time"
)

// breakerState is where the circuit breaker stands.
type breakerState int

const (
	closed   breakerState = iota // calls go through; consecutive failures are counted
	open                         // calls fail fast until the cooldown ends
	halfOpen                     // one probe at a time decides between closed and open
)

// breaker stops calling a provider that keeps failing, so requests fail in microseconds
// instead of each waiting out timeouts and retries, and the provider gets room to recover.
// Only failures that say something about the provider's health count: retryable ones
// (timeouts, 429, 5xx, connection errors). A 400 or a caller that gave up says nothing.
type breaker struct {
	next      Client
	provider  string
	threshold int
	cooldown  time.Duration
	now       func() time.Time

	mu        sync.Mutex
	state     breakerState
	failures  int       // consecutive counted failures while closed
	openUntil time.Time // while open
	probing   bool      // while half-open: a probe is in flight
}

func newBreaker(next Client, provider string, threshold int, cooldown time.Duration, now func() time.Time) *breaker {
	return &breaker{next: next, provider: provider, threshold: threshold, cooldown: cooldown, now: now}
}

// outcome is what a finished call tells the breaker.
type outcome int

const (
	succeeded outcome = iota
	failed            // counts towards opening
	neutral           // says nothing about the provider's health
)

func (b *breaker) Complete(ctx context.Context, req Request) (Response, error) {
	probe, err := b.admit()
	if err != nil {
		return Response{}, err
	}
	resp, err := b.next.Complete(ctx, req)
	b.settle(probe, judge(ctx, err))
	return resp, err
}

// admit lets a call through or refuses it with ErrCircuitOpen; probe reports that the call is
// the single half-open trial.
func (b *breaker) admit() (probe bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case closed:
		return false, nil
	case open:
		now := b.now()
		if now.Before(b.openUntil) {
			return false, b.refuse(b.openUntil.Sub(now))
		}
		b.state, b.probing = halfOpen, false
	}
	if b.probing {
		return false, b.refuse(0)
	}
	b.probing = true
	return true, nil
}

// settle records a finished call. Results of calls admitted before the breaker last opened
// arrive late and are ignored: only the probe decides a half-open breaker.
func (b *breaker) settle(probe bool, o outcome) {
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

func (b *breaker) trip() {
	b.state, b.failures = open, 0
	b.openUntil = b.now().Add(b.cooldown)
}

// refuse is the fail-fast error; RetryAfter tells the caller when a probe will be allowed.
func (b *breaker) refuse(wait time.Duration) *Error {
	return &Error{Provider: b.provider, RetryAfter: wait, Err: ErrCircuitOpen}
}

// judge classifies a call's result for the breaker.
func judge(ctx context.Context, err error) outcome {
	if err == nil {
		return succeeded
	}
	if ctx.Err() != nil {
		return neutral
	}
	var e *Error
	if errors.As(err, &e) && e.Retryable {
		return failed
	}
	return neutral
}
