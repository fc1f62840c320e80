package semantic

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// outage logs a provider's trouble once when it starts and once when it ends, however many
// requests meet it meanwhile: a provider that is down for an hour under a busy widget must
// not write a line per question.
type outage struct {
	what string // "embedding provider", "reranker", …
	log  *slog.Logger
	now  func() time.Time

	down     atomic.Bool // read without the lock on every success
	mu       sync.Mutex
	since    time.Time
	failures int
}

func newOutage(what string, log *slog.Logger, now func() time.Time) *outage {
	return &outage{what: what, log: log, now: now}
}

// failed records a failure; the first of an outage is logged with its error (which never
// holds a key: remote.Error cleans it).
func (o *outage) failed(err error, attrs ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.failures++
	if o.down.Load() {
		return
	}
	o.down.Store(true)
	o.since = o.now()
	o.log.Warn(o.what+" failing; going on without it until it answers again", append(attrs, "err", err)...)
}

// ok records a success, which ends an outage (logged with how long it lasted).
func (o *outage) ok() {
	if !o.down.Load() {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.down.Load() {
		return
	}
	o.log.Info(o.what+" answering again", "after", o.now().Sub(o.since).Round(time.Millisecond), "failures", o.failures)
	o.down.Store(false)
	o.failures = 0
}
