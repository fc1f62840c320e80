package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/term"

	"svc/internal/config"
	"svc/internal/crawl"
	"svc/internal/store"
)

func cmdSiteAdd(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("site add", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	rawURL := c.fs.String("url", "", "the site's address, e.g. https://shop.example")
	name := c.fs.String("name", "", "a name for the site (default: its host)")
	allowPrivate := c.fs.Bool("allow-private", c.cfg.CrawlAllowPrivate, "allow a loopback or private address (env SVC_CRAWL_ALLOW_PRIVATE=1)")
	st, err := c.openForAccount(ctx, args, id)
	if err != nil {
		return err
	}
	defer st.Close()
	if *rawURL == "" {
		return usagef("site add: --url URL is required")
	}
	site, err := addSite(ctx, st, *id, *rawURL, *name, *allowPrivate, "site add")
	if err != nil {
		return err
	}
	return c.print(map[string]int64{"site_id": site.ID})
}

// addSite creates the account's site for rawURL, or returns the one it already has, so that
// scripts can run `svc site add` repeatedly. An address the crawler would refuse is refused
// first (crawl.CheckStart, allowPrivate as the crawler's), worded for cmd.
func addSite(ctx context.Context, st store.Store, accountID int64, rawURL, name string, allowPrivate bool, cmd string) (store.Site, error) {
	site, _, err := crawl.AddSite(ctx, st, accountID, rawURL, name, allowPrivate)
	switch {
	case errors.Is(err, crawl.ErrSiteAddress):
		return store.Site{}, startRefused(cmd, err)
	case errors.Is(err, crawl.ErrSiteURL):
		return store.Site{}, usagef("%s: %q is not an http or https URL with a host", cmd, rawURL)
	case errors.Is(err, crawl.ErrSiteName):
		return store.Site{}, usagef("%s: --name may be at most %d characters", cmd, crawl.MaxSiteNameLen)
	}
	return site, err
}

func cmdSiteList(ctx context.Context, args []string, env Env) error {
	c, st, id, err := accountCommand(ctx, "site list", args, env)
	if err != nil {
		return err
	}
	defer st.Close()
	sites, err := st.ListSites(ctx, id)
	if err != nil {
		return err
	}
	type siteJSON struct {
		ID          int64  `json:"site_id"`
		URL         string `json:"url"`
		Name        string `json:"name"`
		CreatedAt   string `json:"created_at"`
		LastCrawlAt string `json:"last_crawl_at,omitempty"`
	}
	out := make([]siteJSON, 0, len(sites))
	for _, s := range sites {
		j := siteJSON{ID: s.ID, URL: s.URL, Name: s.Name, CreatedAt: s.CreatedAt.Format(time.RFC3339)}
		if !s.LastCrawlAt.IsZero() {
			j.LastCrawlAt = s.LastCrawlAt.Format(time.RFC3339)
		}
		out = append(out, j)
	}
	return c.print(map[string]any{"sites": out})
}

func cmdCrawl(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("crawl", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	siteID := c.fs.Int64("site", 0, "site id to crawl into (default: the account's site for the URL's host, created when missing)")
	maxPages := c.fs.Int("max-pages", c.cfg.CrawlMaxPages, "most pages to fetch (env SVC_CRAWL_MAX_PAGES)")
	allowPrivate := c.fs.Bool("allow-private", c.cfg.CrawlAllowPrivate, "allow loopback and private addresses (env SVC_CRAWL_ALLOW_PRIVATE=1)")
	pos, err := c.parse(args)
	if err != nil {
		return err
	}
	if err := c.requireAccount(*id); err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("crawl: one URL at most, got %d", len(pos))
	}
	if len(pos) == 0 && *siteID == 0 {
		return usagef("crawl: a URL (or --site ID) is required")
	}
	if *maxPages < 1 || *maxPages > config.MaxCrawlPages {
		return usagef("crawl: --max-pages must be from 1 to %d", config.MaxCrawlPages)
	}
	start := ""
	if len(pos) == 1 {
		start = pos[0]
		if _, err := crawl.NormalizeURL(start); err != nil {
			return usagef("crawl: %q is not an http or https URL with a host", start)
		}
		if err := checkStartAddress(ctx, start, *allowPrivate); err != nil {
			return err
		}
	}
	st, err := c.openAccount(ctx, *id)
	if err != nil {
		return err
	}
	defer st.Close()
	site, err := crawlSite(ctx, st, *id, *siteID, start, *allowPrivate)
	if err != nil {
		return err
	}
	if start == "" {
		if err := checkStartAddress(ctx, site.URL, *allowPrivate); err != nil {
			return err
		}
	}
	cr := crawl.New(st, crawl.Options{MaxPages: *maxPages, AllowPrivate: *allowPrivate}, c.logger())
	bar := newProgressBar(env.Stderr)
	res, err := cr.Crawl(ctx, site, start, bar.update)
	bar.done()
	if errors.Is(err, crawl.ErrBusy) {
		return fmt.Errorf("crawl: site %d is being crawled by another process; try again when it finishes", site.ID)
	}
	if err != nil {
		return err
	}
	blockedHint(env.Stderr, res.SkippedBy["blocked"], *allowPrivate)
	return c.print(res)
}

// crawlSite finds the site a crawl goes into: the given one (which must contain the URL), or
// the account's site on the URL's host, or a new site for the URL.
func crawlSite(ctx context.Context, st store.Store, accountID, siteID int64, start string, allowPrivate bool) (store.Site, error) {
	if siteID != 0 {
		site, err := st.GetSite(ctx, accountID, siteID)
		if errors.Is(err, store.ErrNotFound) {
			return site, usagef("crawl: account %d has no site %d", accountID, siteID)
		}
		if err != nil || start == "" {
			return site, err
		}
		su, _ := crawl.NormalizeURL(site.URL)
		u, _ := crawl.NormalizeURL(start)
		if su == nil || u == nil || !crawl.InScope(su, u) {
			return site, usagef("crawl: %s is not on site %d (%s)", start, site.ID, site.URL)
		}
		return site, nil
	}
	u, _ := crawl.NormalizeURL(start)
	sites, err := st.ListSites(ctx, accountID)
	if err != nil {
		return store.Site{}, err
	}
	for _, s := range sites {
		if su, err := crawl.NormalizeURL(s.URL); err == nil && su.Port() == u.Port() && s.Host == crawl.BaseHost(u.Hostname()) {
			return s, nil
		}
	}
	return addSite(ctx, st, accountID, start, "", allowPrivate, "crawl")
}

// progressBar draws the crawl's progress on stderr when stderr is a terminal; otherwise it
// does nothing, so logs and CI output stay clean.
type progressBar struct {
	out  *os.File
	last time.Time
	drew bool
}

func newProgressBar(w any) *progressBar {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return &progressBar{}
	}
	return &progressBar{out: f}
}

func (b *progressBar) update(p crawl.ProgressInfo) {
	if b.out == nil || time.Since(b.last) < 100*time.Millisecond {
		return
	}
	b.last = time.Now()
	total := min(p.Done+p.Queued, p.Max)
	if total == 0 {
		return
	}
	const width = 30
	filled := min(width, p.Done*width/total)
	bar := make([]byte, width)
	for i := range bar {
		bar[i] = ' '
		if i < filled {
			bar[i] = '#'
		}
	}
	fmt.Fprintf(b.out, "\rcrawling [%s] %d/%d pages, %d queued ", bar, p.Done, total, p.Queued)
	b.drew = true
}

func (b *progressBar) done() {
	if b.out != nil && b.drew {
		fmt.Fprint(b.out, "\r\033[K")
	}
}
