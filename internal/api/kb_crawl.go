package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"svc/internal/account"
	"svc/internal/crawl"
	"svc/internal/errs"
)

// crawlBusyRetry is when a client refused for having too many crawls queued or running is
// told to try again: a crawl of a small site takes about that long.
const crawlBusyRetry = time.Minute

// kbCrawlStart starts a crawl in the background, as the dashboard's "crawl now" does, on the
// process's crawl jobs (crawl.Jobs, which serve shares with the dashboard): by url (the
// account's site whose scope holds it, else a new site for it, as `svc crawl URL`), by
// site_id, or both (the crawl starts at url, which must be on that site). The address is
// checked by the crawler's guard (crawl.CheckStart) before anything is stored, so a private
// one is refused with the reason unless private addresses are allowed. A crawl of the site
// already queued or running here is the answer's crawl_id.
func (s *Server) kbCrawlStart(w http.ResponseWriter, r *http.Request, c account.Caller) error {
	p, err := readParams(r)
	if err != nil {
		return err
	}
	if s.crawls == nil {
		return errs.New(errs.Unavailable, "Crawling is not available on this server.")
	}
	start := strings.TrimSpace(p["url"])
	var siteID int64
	if strings.TrimSpace(p["site_id"]) != "" {
		if siteID, err = p.idParam("site_id"); err != nil {
			return err
		}
	}
	if start == "" && siteID == 0 {
		return errs.New(errs.BadRequest, "Send url (the address to crawl) or site_id (one of your sites).")
	}
	site, err := crawl.StartSite(r.Context(), s.st, c.Account.ID, siteID, start, s.crawlAllowPrivate)
	if err != nil {
		return notFound(err, "No site with id %d on this account.", siteID)
	}
	if start != "" {
		if u, err := crawl.NormalizeURL(start); err == nil {
			start = u.String()
		}
	}
	job, _, err := s.crawls.Start(site, start)
	switch {
	case errors.Is(err, crawl.ErrTooManyJobs):
		return &errs.Error{Kind: errs.RateLimited, RetryAfter: crawlBusyRetry, Cause: err,
			Safe: "This account has as many crawls queued or running as it may; start this one when one of them is done."}
	case errors.Is(err, crawl.ErrJobsStopped):
		return &errs.Error{Kind: errs.Unavailable, Cause: err, Safe: "The server is shutting down; start the crawl again shortly."}
	case err != nil:
		return err
	}
	writeData(w, map[string]int64{"crawl_id": job.ID, "site_id": site.ID})
	return nil
}

// crawlStatusView is a crawl's state and, once it is done, its counts: pages, products and
// articles are what the site holds after the crawl, skipped what this crawl skipped.
type crawlStatusView struct {
	State    string `json:"state"`
	SiteID   int64  `json:"site_id"`
	Pages    int    `json:"pages"`
	Products int    `json:"products"`
	Articles int    `json:"articles"`
	Skipped  int    `json:"skipped"`
	// Error says why a failed crawl failed.
	Error string `json:"error,omitempty"`
}

func (s *Server) kbCrawlStatus(w http.ResponseWriter, r *http.Request, c account.Caller) error {
	p, err := readParams(r)
	if err != nil {
		return err
	}
	id, err := p.idParam("crawl_id")
	if err != nil {
		return err
	}
	var job crawl.Job
	ok := false
	if s.crawls != nil {
		job, ok = s.crawls.Get(c.Account.ID, id)
	}
	if !ok {
		return errs.Newf(errs.NotFound, "No crawl with id %d on this account (a crawl is kept for an hour after it ends).", id)
	}
	v := crawlStatusView{State: job.State, SiteID: job.SiteID, Pages: job.Result.Pages, Products: job.Result.Products,
		Articles: job.Result.Articles, Skipped: job.Result.Skipped}
	if job.State == crawl.JobFailed {
		v.Error = crawlFailure(job.Err)
	}
	writeData(w, v)
	return nil
}

// crawlFailure words why a crawl failed, without its internal detail.
func crawlFailure(err error) string {
	switch {
	case errors.Is(err, crawl.ErrBusy):
		return "Another crawl of this site was running (the scheduler, another server, or svc crawl); start it again when that one is done."
	case errors.Is(err, context.Canceled):
		return "The crawl was stopped because the server shut down; start it again."
	case errors.Is(err, context.DeadlineExceeded):
		return "The crawl took longer than its time limit and was stopped."
	}
	return "The crawl failed on our side; start it again shortly."
}
