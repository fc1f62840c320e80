package testsets

import (
	"context"
	"errors"
	"sync"
	"time"

	"svc/internal/store"
)

// KBHook is told when an account's knowledge base changed: what the regression runs
// follow. trigger is store.TestTriggerCrawl, TestTriggerUpload or TestTriggerQA. It must
// not block: it is called after the change committed, on the path that made it.
type KBHook interface {
	KBChanged(accountID int64, trigger string)
}

// HookFunc is a function as a KBHook.
type HookFunc func(accountID int64, trigger string)

// KBChanged calls f.
func (f HookFunc) KBChanged(accountID int64, trigger string) { f(accountID, trigger) }

// Defaults of a Runner.
const (
	// DefaultWorkers is how many runs (of different accounts) a Runner asks at once.
	DefaultWorkers = 2
	// DefaultDebounce is how long a Runner waits after an account's KB changed for further
	// changes before its regression run starts: a batch of edits makes one run.
	DefaultDebounce = 30 * time.Second
)

// RunnerOptions tune a Runner.
type RunnerOptions struct {
	Workers  int           // DefaultWorkers when 0
	Debounce time.Duration // DefaultDebounce when 0
	// Kick is called when a run queued an owner notice (the outbox worker's Kick); may be nil.
	Kick func()
	// Finished, when set, is called with every run the Runner finished (tests wait on it).
	Finished func(store.TestRun)
}

// Runner runs test sets in the background: a run started from the dashboard, and the
// regression run that follows a change of the KB (KBChanged, debounced per account). At most
// Workers runs ask questions at once, one per account (the store refuses a second running
// run of an account, across processes too); the rest wait for a worker, their heartbeat
// moving. Run's context ends them: an interrupted run is marked failed.
type Runner struct {
	svc  *Service
	opts RunnerOptions
	slot chan struct{}
	// base is the context of every run: cancelled when Run's context ends.
	base   context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	timers  map[int64]*time.Timer
	pending map[int64]string // the trigger of each account's debounced change
	again   map[int64]string // a change that came while the account's run was running
	wg      sync.WaitGroup
	serving bool // Serve was called: KB changes are followed
	closed  bool
}

// NewRunner returns a Runner of svc's runs. Start works at once, KB changes are followed
// once Serve was called; Close stops it.
func NewRunner(svc *Service, opts RunnerOptions) *Runner {
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	base, cancel := context.WithCancel(context.Background())
	return &Runner{svc: svc, opts: opts, slot: make(chan struct{}, opts.Workers), base: base, cancel: cancel,
		timers: map[int64]*time.Timer{}, pending: map[int64]string{}, again: map[int64]string{}}
}

// Serve marks failed the runs of processes that died and follows KB changes from now on
// (KBChanged does nothing before); stop (Close) ends every run in progress, each marked
// failed, and returns once they have. serve calls it; an app built without serving starts
// no run by itself.
func (r *Runner) Serve(ctx context.Context) (stop func()) {
	if n, err := r.svc.FailStale(ctx); err != nil && ctx.Err() == nil {
		r.svc.log.Error("fail interrupted test runs", "err", err)
	} else if n > 0 {
		r.svc.log.Warn("test runs interrupted by a stop were marked failed", "runs", n)
	}
	r.mu.Lock()
	r.serving = true
	r.mu.Unlock()
	return r.Close
}

// Close stops every run in progress (each marked failed) and every debounced change, and
// returns once the runs have ended. Start is refused afterwards.
func (r *Runner) Close() {
	r.mu.Lock()
	r.closed = true
	for id, t := range r.timers {
		t.Stop()
		delete(r.timers, id)
	}
	r.mu.Unlock()
	r.cancel()
	r.wg.Wait()
}

// errNotRunning is a Start after Close.
var errNotRunning = errors.New("test runner is stopped")

// Start starts a run of the account's whole set in the background and returns it as
// started (Done 0): read its progress with Service.Progress. ErrRunning when a run of the
// account is in progress.
func (r *Runner) Start(ctx context.Context, accountID int64, trigger string) (store.TestRun, error) {
	r.mu.Lock()
	closed := r.closed
	if !closed {
		r.wg.Add(1) // under the lock, so Close's Wait cannot begin before it
	}
	r.mu.Unlock()
	if closed {
		return store.TestRun{}, errNotRunning
	}
	base := r.base
	run, cases, err := r.svc.begin(ctx, accountID, trigger)
	if err != nil {
		r.wg.Done()
		return store.TestRun{}, err
	}
	started := *run
	go func() {
		defer r.wg.Done()
		stop := r.svc.beat(base, run)
		defer stop()
		select {
		case r.slot <- struct{}{}:
			defer func() { <-r.slot }()
		case <-base.Done():
		}
		final, err := r.svc.execute(base, run, cases)
		if err != nil {
			r.svc.log.Error("test run not finished", "account", accountID, "run", run.ID, "err", err)
		}
		if final.Regressed && automatic(final.Trigger) && r.opts.Kick != nil {
			r.opts.Kick()
		}
		r.finished(accountID)
		if r.opts.Finished != nil {
			r.opts.Finished(final)
		}
	}()
	return started, nil
}

// KBChanged schedules the account's regression run: Debounce after the last of a burst of
// changes. A change while the account's run is running schedules another run after it.
func (r *Runner) KBChanged(accountID int64, trigger string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || !r.serving {
		return
	}
	r.pending[accountID] = stronger(r.pending[accountID], trigger)
	if t, ok := r.timers[accountID]; ok {
		t.Reset(r.opts.Debounce)
		return
	}
	r.timers[accountID] = time.AfterFunc(r.opts.Debounce, func() { r.fire(accountID) })
}

// stronger is the trigger a batch of changes is named after: a crawl over an upload over a
// Q&A edit (the crawl is what the owner reads "tests broke after" of).
func stronger(a, b string) string {
	rank := func(t string) int {
		switch t {
		case store.TestTriggerCrawl:
			return 3
		case store.TestTriggerUpload:
			return 2
		case store.TestTriggerQA:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// fire starts the regression run of a debounced change, unless nothing changed since the
// account's last run (the KB's version is the same: a re-crawl that found every page
// unchanged) or the account has no tests.
func (r *Runner) fire(accountID int64) {
	r.mu.Lock()
	trigger := r.pending[accountID]
	delete(r.pending, accountID)
	delete(r.timers, accountID)
	closed := r.closed
	r.mu.Unlock()
	base := r.base
	if closed || trigger == "" {
		return
	}
	ctx := base
	if n, err := r.svc.st.CountTestCases(ctx, accountID); err != nil || n == 0 {
		return
	}
	if !r.changedSinceLastRun(ctx, accountID) {
		return
	}
	_, err := r.Start(ctx, accountID, trigger)
	switch {
	case errors.Is(err, ErrRunning):
		r.mu.Lock()
		r.again[accountID] = stronger(r.again[accountID], trigger)
		r.mu.Unlock()
	case err != nil && base.Err() == nil:
		r.svc.log.Warn("regression test run not started", "account", accountID, "trigger", trigger, "err", err)
	}
}

// changedSinceLastRun reports whether the account's KB moved since its newest run started.
func (r *Runner) changedSinceLastRun(ctx context.Context, accountID int64) bool {
	runs, err := r.svc.st.TestRuns(ctx, accountID, 1)
	if err != nil || len(runs) == 0 {
		return true
	}
	kbs, err := r.svc.st.KBState(ctx, accountID)
	if err != nil {
		return true
	}
	return kbs.Version != runs[0].KBVersion
}

// finished runs the change that came while the account's run was running.
func (r *Runner) finished(accountID int64) {
	r.mu.Lock()
	trigger, ok := r.again[accountID]
	delete(r.again, accountID)
	r.mu.Unlock()
	if ok {
		r.KBChanged(accountID, trigger)
	}
}
