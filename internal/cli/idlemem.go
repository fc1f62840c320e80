package cli

import (
	"context"
	"net/http"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// idleMemory hands the memory a burst of requests made the heap grow to back to the
// operating system once the server falls idle. Go's own scavenger returns it over minutes;
// a service that answers in bursts and idles in between (most small deployments) would hold
// its peak all that time. One forced collection after each burst costs a few milliseconds
// of a core while nothing else runs.
type idleMemory struct {
	requests atomic.Int64
	free     func() // debug.FreeOSMemory when nil; a test's probe otherwise
	// forget, when set, drops what is remembered only for speed (the engine's memos) before
	// the memory is returned: an idle server keeps no warm cache, and the first questions
	// of the next burst rebuild it in a millisecond or two each.
	forget func()
}

// wrap counts the requests h serves.
func (m *idleMemory) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.requests.Add(1)
		h.ServeHTTP(w, r)
	})
}

// run checks every tick whether a request arrived since the last tick, and returns the
// memory once after each burst: when none arrived and some did since the last return.
func (m *idleMemory) run(ctx context.Context, tick time.Duration) {
	t := time.NewTicker(tick)
	defer t.Stop()
	var last, released int64
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		n := m.requests.Load()
		if n == last && n != released {
			if m.forget != nil {
				m.forget()
			}
			if m.free != nil {
				m.free()
			} else {
				debug.FreeOSMemory()
			}
			released = n
		}
		last = n
	}
}
