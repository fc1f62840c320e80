package redisconn

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// RetryEvery is how long a component decides in memory after a failed Redis call before it
// asks Redis again. Without it, a Redis that hangs (rather than refusing connections) would
// add the whole call timeout to every request for as long as it is down; with it, one call a
// second pays it, and that call is also how the component notices that Redis is back.
const RetryEvery = time.Second

// Counter counts decisions made in memory instead of Redis (metrics.Metrics.RateLimitFallback).
type Counter interface {
	RateLimitFallback(component string)
}

// Health follows one component's use of Redis (the limiter, the surge detector): Try says
// whether to call Redis now, Failed and OK report how the call went. Every decision made in
// memory is counted; the change from up to down and back is logged once each, never per
// request. Safe for concurrent use.
type Health struct {
	component string
	server    string
	log       *slog.Logger
	count     Counter
	clock     func() time.Time // the wall clock: the retry pause is real time, not a caller's now

	// isDown mirrors down for the fast path: while Redis is up, Try and OK take no lock.
	isDown atomic.Bool

	mu      sync.Mutex
	down    bool
	since   time.Time // when it went down
	retryAt time.Time // while down, Redis is not tried before this
	missed  int       // decisions in memory since it went down
}

// NewHealth returns the health of component talking to server (Describe's text, for logs).
// A nil log discards, a nil count counts nothing, a nil clock is time.Now.
func NewHealth(component, server string, log *slog.Logger, count Counter, clock func() time.Time) *Health {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if clock == nil {
		clock = time.Now
	}
	return &Health{component: component, server: server, log: log, count: count, clock: clock}
}

// Try reports whether to call Redis now: always while it is up, and once RetryEvery has
// passed since the last failure while it is down. A false is a decision in memory, counted.
func (h *Health) Try() bool {
	if !h.isDown.Load() {
		return true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.down {
		return true
	}
	if now := h.clock(); !now.Before(h.retryAt) {
		// One caller probes; the others stay in memory until its call reports (OK clears
		// down, Failed sets the next retry). Without moving retryAt here, every request
		// arriving while a hung Redis is probed would wait out its timeout too.
		h.retryAt = now.Add(RetryEvery)
		return true
	}
	h.missed++
	h.counted()
	return false
}

// Failed reports a failed Redis call, decided in memory instead (counted). The first failure
// after Redis was up logs a warning with its cause.
func (h *Health) Failed(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.clock()
	h.retryAt = now.Add(RetryEvery)
	h.missed++
	h.counted()
	if h.down {
		return
	}
	h.down, h.since = true, now
	h.isDown.Store(true)
	h.log.Warn("redis unreachable: deciding in this replica's memory until it answers",
		"component", h.component, "redis", h.server, "err", err)
}

// OK reports a Redis call that succeeded. The first one after a failure logs that Redis is
// back, with how long it was away and how many decisions were made in memory meanwhile.
func (h *Health) OK() {
	if !h.isDown.Load() {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.down {
		return
	}
	h.log.Info("redis reachable again: shared state back in use",
		"component", h.component, "redis", h.server,
		"down_for", h.clock().Sub(h.since).Round(time.Millisecond), "in_memory", h.missed)
	h.down, h.missed = false, 0
	h.isDown.Store(false)
}

// Down reports whether the last call failed (tests, and a health report).
func (h *Health) Down() bool { return h.isDown.Load() }

func (h *Health) counted() {
	if h.count != nil {
		h.count.RateLimitFallback(h.component)
	}
}
