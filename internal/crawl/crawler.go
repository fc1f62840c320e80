package crawl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sort"
	"sync"
	"time"

	"svc/internal/fetch"
	"svc/internal/store"
)

// ErrBusy is returned when another crawl (the scheduler, or an operator's svc crawl in
// another process) holds the site's lease.
var ErrBusy = errors.New("crawl: another crawl of this site is running")

// Result counts one crawl. Pages, Products, Articles and QA are what the site holds in the KB
// after the crawl; the other counts are what this crawl did.
type Result struct {
	SiteID     int64          `json:"site_id"`
	Pages      int            `json:"pages"`
	Products   int            `json:"products"`
	Articles   int            `json:"articles"`
	QA         int            `json:"qa"`
	Skipped    int            `json:"skipped"`
	Fetched    int            `json:"fetched"`
	Updated    int            `json:"updated"`
	Unchanged  int            `json:"unchanged"`
	Removed    int            `json:"removed"`
	Errors     int            `json:"errors"`
	Complete   bool           `json:"complete"`
	Stopped    string         `json:"stopped,omitempty"` // why an incomplete crawl ended
	SkippedBy  map[string]int `json:"skipped_by"`
	DurationMS int64          `json:"duration_ms"`
}

// ProgressInfo is a snapshot for a progress display.
type ProgressInfo struct {
	Done, Queued, Max int
}

// Crawler crawls sites into the store.
type Crawler struct {
	st   store.Store
	opts Options
	log  *slog.Logger
	now  func() time.Time
}

// New returns a Crawler; opts' zero fields take their defaults.
func New(st store.Store, opts Options, log *slog.Logger) *Crawler {
	if log == nil {
		log = slog.Default()
	}
	return &Crawler{st: st, opts: opts.withDefaults(), log: log, now: time.Now}
}

// task is one URL to visit.
type task struct {
	u     *url.URL
	depth int
}

// outcome is what visiting a task found.
type outcome struct {
	task
	links     []*url.URL
	skip      string // reason when the page was not stored
	err       error
	updated   bool
	unchanged bool
	gone      string // a stored page that no longer exists
}

// run is the shared state of one crawl. The coordinator goroutine owns the queue; seen and
// kept are shared with the workers.
type run struct {
	c       *Crawler
	site    store.Site
	scope   scope
	client  *fetch.Client
	robots  *fetch.Robots
	states  map[string]store.PageState
	gates   *hostGates
	mu      sync.Mutex
	seen    map[string]bool // URLs queued, visited or claimed as a redirect or canonical target
	kept    map[string]bool // stored pages that are still there
	removed map[string]bool
}

// claim marks u as taken and reports whether it was free.
func (r *run) claim(u *url.URL) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := u.String()
	if r.seen[k] {
		return false
	}
	r.seen[k] = true
	return true
}

func (r *run) keep(u string) {
	r.mu.Lock()
	r.kept[u] = true
	r.mu.Unlock()
}

// Crawl crawls site from start (the site's URL when empty) and brings the site's documents
// in step with what it found. Pages that are gone (404, 410, noindex) are removed at once;
// pages no longer reachable are removed only when the crawl was complete, since a crawl cut
// short by its limits has not proven them gone.
func (c *Crawler) Crawl(ctx context.Context, site store.Site, start string, progress func(ProgressInfo)) (Result, error) {
	began := c.now()
	res := Result{SiteID: site.ID, SkippedBy: map[string]int{}}
	if start == "" {
		start = site.URL
	}
	startURL, err := NormalizeURL(start)
	if err != nil {
		return res, fmt.Errorf("start URL %q: %w", start, err)
	}
	siteURL, err := NormalizeURL(site.URL)
	if err != nil {
		return res, fmt.Errorf("site URL %q: %w", site.URL, err)
	}
	sc := newScope(siteURL)
	if !sc.contains(startURL) {
		return res, fmt.Errorf("start URL %s is not on the site %s", startURL, site.URL)
	}

	won, err := c.st.ClaimSite(ctx, site.AccountID, site.ID, began.Add(c.opts.MaxDuration+5*time.Minute))
	if err != nil {
		return res, err
	}
	if !won {
		return res, ErrBusy
	}
	summary := ""
	defer func() {
		// A fresh context: the lease must be released even when ctx was cancelled.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if err := c.st.ReleaseSite(rctx, site.AccountID, site.ID, c.now(), summary); err != nil {
			c.log.Error("release site lease", "site", site.ID, "err", err)
		}
	}()

	states, err := c.st.PageStates(ctx, site.AccountID, site.ID)
	if err != nil {
		return res, err
	}
	client := fetch.New(fetch.Options{
		AllowPrivate: c.opts.AllowPrivate, UserAgent: c.opts.UserAgent, Timeout: c.opts.Timeout,
		MaxBodyBytes: c.opts.MaxBodyBytes, MaxRedirects: c.opts.MaxRedirects, InScope: sc.contains,
	})
	defer client.CloseIdleConnections()
	r := &run{c: c, site: site, scope: sc, client: client, robots: fetch.NewRobots(client, robotsAgent),
		states: states, gates: newHostGates(c.opts.PerHost, c.opts.MinDelay), seen: map[string]bool{},
		kept: map[string]bool{}, removed: map[string]bool{}}

	cctx, cancel := context.WithTimeout(ctx, c.opts.MaxDuration)
	defer cancel()
	stopped := r.loop(cctx, r.seeds(cctx, startURL, siteURL), &res, progress)
	switch {
	case ctx.Err() != nil:
		stopped = "cancelled"
	case cctx.Err() != nil && stopped == "":
		stopped = "time"
	}
	res.Stopped, res.Complete = stopped, stopped == ""

	// Pruning and counting run on a context of their own so that a crawl stopped by its time
	// limit still leaves the store consistent.
	fctx, fcancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer fcancel()
	if err := r.prune(fctx, &res); err != nil {
		return res, err
	}
	if err := r.count(fctx, &res); err != nil {
		return res, err
	}
	res.DurationMS = c.now().Sub(began).Milliseconds()
	if b, err := json.Marshal(res); err == nil && res.Stopped != "cancelled" {
		summary = string(b)
	}
	c.log.Info("crawl finished", "account", site.AccountID, "site", site.ID, "fetched", res.Fetched,
		"updated", res.Updated, "unchanged", res.Unchanged, "removed", res.Removed, "skipped", res.Skipped,
		"complete", res.Complete, "ms", res.DurationMS)
	return res, nil
}

// seeds are the start URL, the site's own URL, and every in-scope URL of its in-scope
// sitemaps (from robots.txt, else /sitemap.xml), which finds pages no link reaches.
func (r *run) seeds(ctx context.Context, start, site *url.URL) []task {
	out := []task{{u: start}}
	r.seen[start.String()] = true
	if r.claim(site) {
		out = append(out, task{u: site})
	}
	maps := r.robots.Sitemaps(ctx, start)
	if len(maps) == 0 {
		root := *start
		root.Path, root.RawQuery = "/sitemap.xml", ""
		maps = []string{root.String()}
	}
	for _, m := range maps {
		// robots.txt may name a sitemap on any host, but the crawl stays on the site's host
		// and subdomains; the fetch client checks an index's children the same way.
		if u, err := url.Parse(m); err != nil || !r.scope.contains(u) {
			r.c.log.Info("sitemap on another host skipped", "site", r.site.ID, "url", m)
			continue
		}
		urls, err := r.client.Sitemap(ctx, m, r.c.opts.MaxQueue)
		if err != nil {
			r.c.log.Debug("sitemap skipped", "url", m, "err", err)
		}
		for _, su := range urls {
			u, err := NormalizeURL(su.Loc)
			if err != nil || !r.scope.contains(u) || len(out) >= r.c.opts.MaxQueue || !r.claim(u) {
				continue
			}
			out = append(out, task{u: u, depth: 1})
		}
	}
	return out
}

// loop runs the workers until the queue is empty or a limit is reached; it returns why it
// stopped early, or "".
func (r *run) loop(ctx context.Context, queue []task, res *Result, progress func(ProgressInfo)) string {
	results := make(chan outcome)
	inflight, stopped := 0, ""
	for {
		for inflight < r.c.opts.Workers && len(queue) > 0 && ctx.Err() == nil {
			if res.Fetched >= r.c.opts.MaxPages {
				stopped = "max_pages"
				break
			}
			t := queue[0]
			queue = queue[1:]
			res.Fetched++
			inflight++
			go func() { results <- r.visit(ctx, t) }()
		}
		if inflight == 0 {
			break
		}
		o := <-results
		inflight--
		r.record(o, res)
		for _, l := range o.links {
			if o.depth+1 > r.c.opts.MaxDepth {
				break
			}
			u, ok := r.follow(l)
			if !ok {
				continue
			}
			if len(queue) >= r.c.opts.MaxQueue {
				stopped = "max_queue"
				continue
			}
			if r.claim(u) {
				queue = append(queue, task{u: u, depth: o.depth + 1})
			}
		}
		if progress != nil {
			progress(ProgressInfo{Done: res.Fetched - inflight, Queued: len(queue), Max: r.c.opts.MaxPages})
		}
	}
	if stopped == "" && len(queue) > 0 {
		stopped = "max_pages"
	}
	return stopped
}

// follow normalises a link and reports whether the crawl should visit it.
func (r *run) follow(l *url.URL) (*url.URL, bool) {
	u, err := normalize(l)
	if err != nil || !r.scope.contains(u) || mazeLike(u) {
		return nil, false
	}
	if ext := extOf(u.Path); skippedExtensions[ext] {
		return nil, false
	}
	return u, true
}

func (r *run) record(o outcome, res *Result) {
	if r.c.opts.Metrics != nil {
		r.c.opts.Metrics.CrawlPage(o.result())
	}
	switch {
	case o.updated:
		res.Updated++
	case o.unchanged:
		res.Unchanged++
	case o.skip != "":
		res.Skipped++
		res.SkippedBy[o.skip]++
	}
	if o.err != nil {
		res.Errors++
		r.c.log.Debug("crawl page failed", "url", o.u.String(), "err", o.err)
	}
	if o.gone != "" {
		r.mu.Lock()
		r.removed[o.gone] = true
		r.mu.Unlock()
	}
}

// prune removes pages found gone and, after a complete crawl, pages no longer reached.
func (r *run) prune(ctx context.Context, res *Result) error {
	var urls []string
	for u := range r.states {
		if r.removed[u] || (res.Complete && !r.kept[u]) {
			urls = append(urls, u)
		}
	}
	if len(urls) == 0 {
		return nil
	}
	sort.Strings(urls)
	n, err := r.c.st.RemovePages(ctx, r.site.AccountID, r.site.ID, urls)
	res.Removed = n
	return err
}

// count fills the site's totals. The page count is derived rather than read back: the
// pages stored before, plus those this crawl stored, less those it removed.
func (r *run) count(ctx context.Context, res *Result) error {
	counts, err := r.c.st.SiteDocuments(ctx, r.site.AccountID, r.site.ID)
	if err != nil {
		return err
	}
	pages := len(r.states)
	for u := range r.kept {
		if _, before := r.states[u]; !before {
			pages++
		}
	}
	res.Pages = pages - res.Removed
	res.Products, res.Articles, res.QA = counts[store.DocProduct], counts[store.DocArticle], counts[store.DocQA]
	return nil
}
