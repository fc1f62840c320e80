package embed

import (
	"sync"
	"time"
)

// memorySurge is the SurgeStore in this process's memory: the whole state of a single
// `svc serve`, and a shared store's fallback. One mutex is enough since each call does a few
// arithmetic steps.
type memorySurge struct {
	mu        sync.Mutex
	tokens    map[int64]*surgeState
	lastSweep time.Time
}

// surgeState is one token's counters. Buckets are numbered from the Unix epoch in windows;
// until is in Unix nanoseconds.
type surgeState struct {
	bucket   int64     // the current bucket
	count    int       // questions in it
	baseline float64   // EWMA of finished buckets outside surges
	until    int64     // in surge while now is before this; 0 if never
	lastSeen time.Time // the latest question
	// addrs counts the current bucket's questions per client address, and excess those
	// asked past PerAddress.
	addrs  map[string]int
	excess int
}

func newMemorySurge() *memorySurge {
	return &memorySurge{tokens: make(map[int64]*surgeState)}
}

// Observe implements SurgeStore.
func (m *memorySurge) Observe(o SurgeOptions, tokenID int64, addr string, now time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep(&o, now)
	k := o.BucketOf(now)
	st := m.tokens[tokenID]
	if st == nil {
		st = &surgeState{bucket: k}
		m.tokens[tokenID] = st
	}
	st.advance(k, &o)
	st.count++
	if st.addrs == nil {
		st.addrs = make(map[string]int)
	}
	if n, seen := st.addrs[addr]; seen || len(st.addrs) < SurgeMaxAddresses {
		st.addrs[addr] = n + 1
		if n+1 > o.PerAddress {
			st.excess++
		}
	}
	if now.After(st.lastSeen) {
		st.lastSeen = now
	}
	if st.count > st.threshold(&o) && st.excess > o.Floor/2 {
		end := (st.bucket+1)*int64(o.Window) + int64(o.Cooldown)
		st.until = max(st.until, end)
	}
	return now.UnixNano() < st.until, nil
}

// Active implements SurgeStore.
func (m *memorySurge) Active(_ SurgeOptions, tokenID int64, now time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := m.tokens[tokenID]
	return st != nil && now.UnixNano() < st.until, nil
}

// Threshold implements SurgeStore.
func (m *memorySurge) Threshold(o SurgeOptions, tokenID int64, now time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := m.tokens[tokenID]
	if st == nil {
		return o.Floor, nil
	}
	c := *st
	c.addrs = nil // advance clears the map, which c shares with st
	c.advance(o.BucketOf(now), &o)
	return c.threshold(&o), nil
}

// sweep forgets tokens idle for SurgeIdle (or SurgeMaxCatchUp windows, if longer) and not in
// surge, at most once every sweepEvery, so memory follows the tokens in use. A forgotten
// token starts again from a zero baseline, which is where its baseline had decayed to.
func (m *memorySurge) sweep(o *SurgeOptions, now time.Time) {
	if !m.lastSweep.IsZero() && !now.Before(m.lastSweep) && now.Sub(m.lastSweep) < sweepEvery {
		return
	}
	m.lastSweep = now
	idle := max(SurgeIdle, SurgeMaxCatchUp*o.Window)
	n := now.UnixNano()
	for id, st := range m.tokens {
		if now.Sub(st.lastSeen) >= idle && n >= st.until {
			delete(m.tokens, id)
		}
	}
}
