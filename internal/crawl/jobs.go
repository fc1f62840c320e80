package crawl

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"log/slog"
	"sync"
	"time"

	"svc/internal/store"
)

// States of a Job, as the KB API's crawlStatus names them.
const (
	JobQueued  = "queued"  // waiting for a free slot
	JobRunning = "running" // crawling
	JobDone    = "done"    // finished; Result holds its counts
	JobFailed  = "failed"  // ended with Err (ErrBusy: another crawl of the site held it)
)

// Defaults of JobsOptions.
const (
	// DefaultJobConcurrency is how many crawls started on demand run at once in one
	// process; the others wait queued. Each crawl already fetches with several workers, and
	// the scheduler adds one more: a few at once keep one process from hammering many
	// customer sites and the store's writer together.
	DefaultJobConcurrency = 3
	// DefaultJobsPerAccount bounds an account's crawls queued or running at once, so that
	// one account cannot fill the queue for every other.
	DefaultJobsPerAccount = 5
	// DefaultMaxJobs bounds the crawls queued or running in the process.
	DefaultMaxJobs = 200
	// DefaultJobKeep is how long a finished crawl's figures stay readable; after that the
	// site's stored summary (Site.LastCrawl) tells the same, and the job is forgotten.
	DefaultJobKeep = time.Hour
)

var (
	// ErrJobsStopped: the process is shutting down and starts no crawl.
	ErrJobsStopped = errors.New("crawl: the service is shutting down")
	// ErrTooManyJobs: the account (or the process) has as many crawls queued or running as
	// it may; one must finish first.
	ErrTooManyJobs = errors.New("crawl: too many crawls queued or running")
)

// Job is one crawl started on demand (the dashboard's "crawl now", the KB API's
// crawlStart), as its status display sees it.
type Job struct {
	// ID names the job; it is random (never a count another tenant could read anything
	// from) and below 2^53, so JavaScript clients keep it exact.
	ID        int64
	AccountID int64
	SiteID    int64
	State     string // JobQueued, JobRunning, JobDone, JobFailed
	// Created is when it was asked for, Started when it began crawling, Finished when it
	// ended (zero until then).
	Created, Started, Finished time.Time
	// Progress is the running crawl's last progress report.
	Progress ProgressInfo
	// Result is the finished crawl's counts (what it got to before failing, for a failed one).
	Result Result
	// Err is why a failed crawl failed.
	Err error
}

// JobsOptions configure Jobs; zero fields take their defaults.
type JobsOptions struct {
	Concurrency int
	PerAccount  int
	MaxJobs     int
	Keep        time.Duration
	// Timeout bounds one crawl: by default the crawler's own time limit and a margin for
	// pruning and counting, which still ends a crawl that hangs.
	Timeout time.Duration
	Now     func() time.Time
	Log     *slog.Logger
	// Finished, when set, is told of every job that ended (tests wait on it instead of
	// polling).
	Finished func(Job)
}

// Jobs runs crawls on demand in the background, in memory: their state is a live display,
// not a record (the store keeps each finished crawl's summary on its site). A crawl runs on
// a context of its own, not the request's, so that the caller can leave; Stop ends them on
// shutdown. One Jobs serves every surface of a process (the dashboard and the KB API), so
// that a crawl started by one is the crawl the other shows, and the concurrency bound holds
// for both.
//
// With several replicas, a job is known only to the process that started it; the site's
// lease still keeps two crawls of one site apart, whichever process starts them.
type Jobs struct {
	crawler *Crawler
	opts    JobsOptions
	slots   chan struct{}

	mu      sync.Mutex
	byID    map[int64]*Job
	bySite  map[int64]*Job // the latest job of each site (site ids are unique across accounts)
	active  map[int64]int  // queued or running jobs by account
	running int            // queued or running jobs in all
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	stopped bool
}

// NewJobs returns the on-demand crawls of a process, run by c.
func NewJobs(c *Crawler, opts JobsOptions) *Jobs {
	if opts.Concurrency <= 0 {
		opts.Concurrency = DefaultJobConcurrency
	}
	if opts.PerAccount <= 0 {
		opts.PerAccount = DefaultJobsPerAccount
	}
	if opts.MaxJobs <= 0 {
		opts.MaxJobs = DefaultMaxJobs
	}
	if opts.Keep <= 0 {
		opts.Keep = DefaultJobKeep
	}
	if opts.Timeout <= 0 {
		opts.Timeout = c.opts.MaxDuration + 5*time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = c.log
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Jobs{crawler: c, opts: opts, slots: make(chan struct{}, opts.Concurrency), byID: map[int64]*Job{},
		bySite: map[int64]*Job{}, active: map[int64]int{}, ctx: ctx, cancel: cancel}
}

// Start queues a crawl of site from start ("" for the site's URL), which the caller has
// checked (CheckStart) and found to be the account's, and returns its job. When a crawl of
// the site started here is queued or running already, that one is returned with started
// false: a second one would only wait for the site's lease. ErrTooManyJobs and
// ErrJobsStopped refuse a new one.
func (j *Jobs) Start(site store.Site, start string) (job Job, started bool, err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	now := j.opts.Now()
	j.sweep(now)
	if j.stopped {
		return Job{}, false, ErrJobsStopped
	}
	if cur := j.bySite[site.ID]; cur != nil && (cur.State == JobQueued || cur.State == JobRunning) {
		return *cur, false, nil
	}
	if j.active[site.AccountID] >= j.opts.PerAccount || j.running >= j.opts.MaxJobs {
		return Job{}, false, ErrTooManyJobs
	}
	nj := &Job{ID: j.newID(), AccountID: site.AccountID, SiteID: site.ID, State: JobQueued, Created: now}
	j.byID[nj.ID], j.bySite[site.ID] = nj, nj
	j.active[site.AccountID]++
	j.running++
	j.wg.Add(1)
	go j.run(nj, site, start)
	return *nj, true, nil
}

// newID draws a job id no job holds; j.mu is held.
func (j *Jobs) newID() int64 {
	for {
		var b [8]byte
		_, _ = rand.Read(b[:])
		id := int64(binary.BigEndian.Uint64(b[:]) >> 11) // 53 bits
		if _, taken := j.byID[id]; id > 0 && !taken {
			return id
		}
	}
}

// run waits for a slot, crawls, and records the outcome.
func (j *Jobs) run(job *Job, site store.Site, start string) {
	defer j.wg.Done()
	var res Result
	var err error
	select {
	case j.slots <- struct{}{}:
		j.mu.Lock()
		job.State, job.Started = JobRunning, j.opts.Now()
		j.mu.Unlock()
		ctx, cancel := context.WithTimeout(j.ctx, j.opts.Timeout)
		res, err = j.crawler.Crawl(ctx, site, start, func(p ProgressInfo) {
			j.mu.Lock()
			job.Progress = p
			j.mu.Unlock()
		})
		cancel()
		<-j.slots
		if err != nil && !errors.Is(err, ErrBusy) {
			j.opts.Log.Warn("crawl failed", "account", site.AccountID, "site", site.ID, "job", job.ID, "err", err)
		}
	case <-j.ctx.Done():
		err = context.Cause(j.ctx)
	}
	j.mu.Lock()
	job.Finished, job.Result, job.Err = j.opts.Now(), res, err
	job.State = JobDone
	if err != nil {
		job.State = JobFailed
	}
	j.active[job.AccountID]--
	if j.active[job.AccountID] <= 0 {
		delete(j.active, job.AccountID)
	}
	j.running--
	done := *job
	j.mu.Unlock()
	if j.opts.Finished != nil {
		j.opts.Finished(done)
	}
}

// Get returns the account's job id; another account's job is not found, as a job that
// never existed or was forgotten.
func (j *Jobs) Get(accountID, id int64) (Job, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.sweep(j.opts.Now())
	job := j.byID[id]
	if job == nil || job.AccountID != accountID {
		return Job{}, false
	}
	return *job, true
}

// Site returns the latest job of the account's site, if one is still in memory.
func (j *Jobs) Site(accountID, siteID int64) (Job, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.sweep(j.opts.Now())
	job := j.bySite[siteID]
	if job == nil || job.AccountID != accountID {
		return Job{}, false
	}
	return *job, true
}

// sweep forgets the jobs that finished more than Keep ago; j.mu is held. It runs on every
// access rather than on a timer: the maps only grow when someone starts a crawl.
func (j *Jobs) sweep(now time.Time) {
	for id, job := range j.byID {
		if !job.Finished.IsZero() && now.Sub(job.Finished) > j.opts.Keep {
			delete(j.byID, id)
			if j.bySite[job.SiteID] == job {
				delete(j.bySite, job.SiteID)
			}
		}
	}
}

// Stop cancels every queued and running crawl, refuses new ones and waits, until ctx ends,
// for the crawls to return (each releases its site's lease on the way out). `svc serve`
// calls it on shutdown, after the HTTP server has drained and before the store closes;
// without it a crawl in progress is cut off with the process and its lease lapses on its
// own (the crawler's lease time).
func (j *Jobs) Stop(ctx context.Context) error {
	j.mu.Lock()
	j.stopped = true
	j.mu.Unlock()
	j.cancel()
	done := make(chan struct{})
	go func() { j.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return errors.Join(errors.New("crawl: crawls still stopping"), ctx.Err())
	}
}
