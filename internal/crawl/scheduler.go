package crawl

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"svc/internal/store"
)

// Scheduler re-crawls every site whose last crawl is older than the interval, one site at a
// time, inside `svc serve`. One at a time keeps a single process from hammering many
// customer sites and the store's writer at once; the site lease keeps a second process (an
// operator's svc crawl, or another replica) off a site this one is crawling.
type Scheduler struct {
	crawler  *Crawler
	st       store.Store
	interval time.Duration
	poll     time.Duration
	log      *slog.Logger
}

// NewScheduler returns a scheduler; interval 0 means never re-crawl.
func NewScheduler(c *Crawler, st store.Store, interval time.Duration, log *slog.Logger) *Scheduler {
	if log == nil {
		log = slog.Default()
	}
	poll := min(max(interval/20, 10*time.Second), 5*time.Minute)
	return &Scheduler{crawler: c, st: st, interval: interval, poll: poll, log: log}
}

// Run re-crawls due sites until ctx ends.
func (s *Scheduler) Run(ctx context.Context) {
	if s.interval <= 0 {
		return
	}
	t := time.NewTicker(s.poll)
	defer t.Stop()
	for {
		s.RunOnce(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// RunOnce crawls the sites due now and returns how many it crawled.
func (s *Scheduler) RunOnce(ctx context.Context) int {
	due, err := s.st.DueSites(ctx, s.crawler.now().Add(-s.interval), 10)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Error("list sites due for a crawl", "err", err)
		}
		return 0
	}
	n := 0
	for _, site := range due {
		if ctx.Err() != nil {
			break
		}
		_, err := s.crawler.Crawl(ctx, site, "", nil)
		switch {
		case errors.Is(err, ErrBusy):
			continue
		case err != nil:
			s.log.Warn("scheduled crawl failed", "account", site.AccountID, "site", site.ID, "err", err)
			// Record the attempt so a broken site waits a full interval instead of being
			// retried on every poll.
			_ = s.st.ReleaseSite(context.WithoutCancel(ctx), site.AccountID, site.ID, s.crawler.now(), `{"error":true}`)
		}
		n++
	}
	return n
}
