package dashboard

import (
	"context"
	"errors"
	"sync"
	"time"

	"svc/internal/crawl"
)

// crawlJobTimeout bounds a crawl started from the dashboard. The crawler stops fetching at
// its own limit (crawl.DefaultMaxDuration unless configured otherwise) and then prunes and
// counts; the margin leaves it time for that, and still ends a crawl that hangs.
const crawlJobTimeout = crawl.DefaultMaxDuration + 5*time.Minute

// crawlJobKeep is how long a finished crawl's figures stay in memory for the page to show;
// after that the site's stored summary (Site.LastCrawl) tells the same.
const crawlJobKeep = 15 * time.Minute

// crawlJob is one crawl started from the dashboard, as the progress display sees it.
type crawlJob struct {
	accountID         int64
	started, finished time.Time
	running           bool
	done, queued, max int
	result            crawl.Result
	err               error
}

// crawlJobs tracks the crawls started from the dashboard, in memory: progress is a live
// display, not a record (the store keeps each finished crawl's summary). With several
// replicas, a page served by another process than the one crawling shows the site's stored
// state instead; the site's lease still keeps two crawls of one site apart.
//
// Crawls run in the background on a context of their own, not the request's, so that
// leaving the page does not stop them; Server.StopCrawls ends them on shutdown.
type crawlJobs struct {
	mu      sync.Mutex
	jobs    map[int64]*crawlJob // by site id, which is unique across accounts
	ctx     context.Context     // parent of every crawl; cancelled by stop
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	stopped bool
}

func newCrawlJobs() *crawlJobs {
	ctx, cancel := context.WithCancel(context.Background())
	return &crawlJobs{jobs: map[int64]*crawlJob{}, ctx: ctx, cancel: cancel}
}

// crawlRun runs one crawl, reporting progress as it goes.
type crawlRun func(ctx context.Context, progress func(crawl.ProgressInfo)) (crawl.Result, error)

// running reports whether a crawl of the site started here is still running.
func (j *crawlJobs) running(siteID int64) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	job := j.jobs[siteID]
	return job != nil && job.running
}

// start runs a crawl of the site in the background unless one started here is running (or
// the dashboard is shutting down); it reports whether it started one. now is the clock the
// job's times are read from.
func (j *crawlJobs) start(accountID, siteID int64, now func() time.Time, run crawlRun) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.sweep(now())
	if j.stopped {
		return false
	}
	if job := j.jobs[siteID]; job != nil && job.running {
		return false
	}
	job := &crawlJob{accountID: accountID, started: now(), running: true}
	j.jobs[siteID] = job
	j.wg.Add(1)
	go func() {
		defer j.wg.Done()
		ctx, cancel := context.WithTimeout(j.ctx, crawlJobTimeout)
		defer cancel()
		res, err := run(ctx, func(p crawl.ProgressInfo) {
			j.mu.Lock()
			job.done, job.queued, job.max = p.Done, p.Queued, p.Max
			j.mu.Unlock()
		})
		j.mu.Lock()
		job.running, job.finished, job.result, job.err = false, now(), res, err
		j.mu.Unlock()
	}()
	return true
}

// get returns a copy of the site's job, if the account has one in memory.
func (j *crawlJobs) get(accountID, siteID int64, now time.Time) (crawlJob, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.sweep(now)
	job := j.jobs[siteID]
	if job == nil || job.accountID != accountID {
		return crawlJob{}, false
	}
	return *job, true
}

// sweep drops the jobs that finished more than crawlJobKeep ago. It runs on every access
// rather than on a timer: the map only grows when someone starts a crawl.
func (j *crawlJobs) sweep(now time.Time) {
	for id, job := range j.jobs {
		if !job.running && now.Sub(job.finished) > crawlJobKeep {
			delete(j.jobs, id)
		}
	}
}

// stop cancels every running crawl, refuses new ones and waits, until ctx ends, for the
// crawls to return (each releases its site's lease on the way out).
func (j *crawlJobs) stop(ctx context.Context) error {
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
		return errors.Join(errors.New("dashboard: crawls still stopping"), ctx.Err())
	}
}

// StopCrawls cancels the crawls started from the dashboard and waits, until ctx ends, for
// them to release their sites' leases. `svc serve` should call it on shutdown, after the
// HTTP server has drained and before the store closes; without it a crawl in progress is
// cut off with the process and its lease lapses on its own (crawl.Crawler's lease time).
func (s *Server) StopCrawls(ctx context.Context) error { return s.crawls.stop(ctx) }
