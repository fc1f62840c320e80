package users

import (
	"strings"
	"sync"
	"time"
)

// Throttle counts failures per key in a sliding window. Keys are "<class>:<value>" with a
// class of KeyLimit; an implementation takes each key's limit from KeyLimit, so the
// in-memory one here and a shared one (Redis, for several processes) agree.
type Throttle interface {
	// Blocked reports whether key has reached its limit at now, and how long until one
	// more attempt is allowed.
	Blocked(key string, now time.Time) (bool, time.Duration)
	// Fail records one failure of key at now.
	Fail(key string, now time.Time)
	// Reset forgets key's failures.
	Reset(key string)
}

// Limit is at most Max failures within Window.
type Limit struct {
	Max    int
	Window time.Duration
}

// Key classes.
const (
	// A guessed password per e-mail: 5 in 15 minutes is ~480 guesses a day, useless
	// against a 10-character password, while a person who mistypes a few times is not
	// locked out for long.
	classSignInEmail = "signin-email"
	// Per client address, across e-mails: high enough for an office behind one NAT, low
	// enough to stop one machine from spraying one password over many e-mails.
	classSignInAddr = "signin-addr"
	// Reset mails per e-mail: a person needs one or two; more is someone filling a
	// stranger's inbox.
	classResetEmail = "reset-email"
	classResetAddr  = "reset-addr"
)

// KeyLimit is the limit of a key, by its class.
func KeyLimit(key string) Limit {
	class, _, _ := strings.Cut(key, ":")
	switch class {
	case classSignInAddr:
		return Limit{Max: 20, Window: 15 * time.Minute}
	case classResetEmail:
		return Limit{Max: 3, Window: time.Hour}
	case classResetAddr:
		return Limit{Max: 10, Window: time.Hour}
	default: // classSignInEmail, and the strictest for anything unknown
		return Limit{Max: 5, Window: 15 * time.Minute}
	}
}

// sweepEvery is how many failures pass between sweeps of stale keys.
const sweepEvery = 256

// MemoryThrottle is the in-process Throttle: for each key, the times of its last Max
// failures. Keys whose failures are all older than their window are dropped by a sweep every
// sweepEvery failures, so memory follows the recent failures, not every key ever seen.
type MemoryThrottle struct {
	mu    sync.Mutex
	keys  map[string][]time.Time // oldest first, at most the key's Max
	fails int
}

// NewMemoryThrottle returns an empty in-memory throttle.
func NewMemoryThrottle() *MemoryThrottle {
	return &MemoryThrottle{keys: map[string][]time.Time{}}
}

// recent is the key's failures within its window at now.
func recent(times []time.Time, l Limit, now time.Time) []time.Time {
	cut := now.Add(-l.Window)
	i := 0
	for i < len(times) && !times[i].After(cut) {
		i++
	}
	return times[i:]
}

// Blocked implements Throttle.
func (m *MemoryThrottle) Blocked(key string, now time.Time) (bool, time.Duration) {
	l := KeyLimit(key)
	m.mu.Lock()
	defer m.mu.Unlock()
	times := recent(m.keys[key], l, now)
	if len(times) < l.Max {
		return false, 0
	}
	// Blocked until the oldest failure that counts leaves the window.
	return true, max(times[len(times)-l.Max].Add(l.Window).Sub(now), time.Second)
}

// Fail implements Throttle.
func (m *MemoryThrottle) Fail(key string, now time.Time) {
	l := KeyLimit(key)
	m.mu.Lock()
	defer m.mu.Unlock()
	times := append(recent(m.keys[key], l, now), now)
	if len(times) > l.Max {
		times = times[len(times)-l.Max:]
	}
	m.keys[key] = times
	m.fails++
	if m.fails%sweepEvery == 0 {
		for k, ts := range m.keys {
			if len(recent(ts, KeyLimit(k), now)) == 0 {
				delete(m.keys, k)
			}
		}
	}
}

// Reset implements Throttle.
func (m *MemoryThrottle) Reset(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.keys, key)
}

// size is the number of keys held (tests).
func (m *MemoryThrottle) size() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.keys)
}
