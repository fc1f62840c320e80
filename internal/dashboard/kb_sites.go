package dashboard

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"svc/internal/crawl"
	"svc/internal/errs"
	"svc/internal/store"
)

// kbLeaseProbe is how long "crawl now" holds a site's lease to learn whether another crawl
// (the scheduler, an operator's svc crawl, another replica) has it; it is released at once.
const kbLeaseProbe = time.Minute

// kbAddSite adds a site as `svc site add` does (crawl.AddSite): the same validation, an
// address the crawler would refuse refused with the reason before anything is stored, and
// adding a site the account already has is not an error.
func (s *Server) kbAddSite(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	rawURL, name := strings.TrimSpace(r.PostFormValue("url")), strings.TrimSpace(r.PostFormValue("name"))
	_, existed, err := crawl.AddSite(r.Context(), s.st, c.Account.ID, rawURL, name, s.d.CrawlAllowPrivate)
	var formErr error
	switch {
	case errors.Is(err, crawl.ErrSiteURL) || errors.Is(err, crawl.ErrSiteName) || errors.Is(err, crawl.ErrSiteAddress):
		// The crawl package's own reason, in the user's language (its catalog key).
		formErr = err
	case err != nil:
		return err
	}
	if formErr != nil {
		d, err := s.kbOverviewData(r.Context(), c)
		if err != nil {
			return err
		}
		d.Overview.SiteURL, d.Overview.SiteName = rawURL, name
		d.Overview.SiteError = s.errorText(c, formErr)
		s.render(w, r, c, pageKB, http.StatusBadRequest, d)
		return nil
	}
	if existed {
		s.redirect(w, r, "/dashboard/kb", "flash.kb_site_exists")
		return nil
	}
	s.redirect(w, r, "/dashboard/kb", "flash.kb_site_added")
	return nil
}

// kbCrawlNow starts a crawl of the site in the background (the process's crawl jobs, which
// the KB API's crawlStart shares) and sends the user back to the overview, which shows its
// progress (polled by htmx, or at each reload without JS).
//
// A second crawl of a site is refused while one runs: one started here is known to the
// jobs; one elsewhere holds the site's lease, which is probed (taken and given back) so that
// the user hears it now rather than from the progress display. Crawler.Crawl then takes the
// lease for the crawl itself and releases it with the finished crawl's summary, as for the
// scheduler's crawls; should another crawl slip in between, the job reports it.
func (s *Server) kbCrawlNow(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	site, err := routeItem(r, c, s.accountSite)
	if err != nil {
		return err
	}
	if s.d.Crawls == nil {
		return errs.New(errs.NotFound, "Crawling is not available.")
	}
	// A site stored before its address was checked (or whose name now resolves elsewhere)
	// is refused with the reason, rather than crawled to "skipped: 1".
	if err := crawl.CheckStart(r.Context(), site.URL, s.d.CrawlAllowPrivate); err != nil {
		return err
	}
	back := "/dashboard/kb#site-" + strconv.FormatInt(site.ID, 10)
	if j, ok := s.d.Crawls.Site(c.Account.ID, site.ID); ok && (j.State == crawl.JobQueued || j.State == crawl.JobRunning) {
		s.redirectError(w, r, back, "flash.kb_crawl_busy")
		return nil
	}
	now := s.now()
	won, err := s.st.ClaimSite(r.Context(), c.Account.ID, site.ID, now.Add(kbLeaseProbe))
	if err != nil {
		return err
	}
	if !won {
		s.redirectError(w, r, back, "flash.kb_crawl_busy")
		return nil
	}
	if err := s.st.ReleaseSite(r.Context(), c.Account.ID, site.ID, now, ""); err != nil {
		return err
	}
	_, started, err := s.d.Crawls.Start(site, "")
	switch {
	case errors.Is(err, crawl.ErrTooManyJobs):
		s.redirectError(w, r, back, "flash.kb_crawl_too_many")
		return nil
	case errors.Is(err, crawl.ErrJobsStopped):
		return errs.Wrap(errs.Unavailable, "The service is restarting; start the crawl again in a minute.", err)
	case err != nil:
		return err
	case !started:
		s.redirectError(w, r, back, "flash.kb_crawl_busy")
		return nil
	}
	s.redirect(w, r, back, "flash.kb_crawl_started")
	return nil
}

// kbProgressData is what the progress display shows of a crawl started here.
type kbProgressData struct {
	SiteID int64
	// State: "queued" (waiting for a free slot), "running", "finished", "busy" (another
	// crawl held the lease) or "failed".
	State             string
	Done, Total       int // Total is an estimate (fetched + queued, capped by the page budget); 0 unknown
	Started, Finished time.Time
	Result            crawl.Result
}

func (s *Server) progressData(site store.Site, j crawl.Job) *kbProgressData {
	p := &kbProgressData{SiteID: site.ID, Done: j.Progress.Done, Total: min(j.Progress.Done+j.Progress.Queued, j.Progress.Max),
		Started: j.Started, Finished: j.Finished, Result: j.Result}
	switch {
	case j.State == crawl.JobQueued:
		p.State = "queued"
	case j.State == crawl.JobRunning:
		p.State = "running"
	case errors.Is(j.Err, crawl.ErrBusy):
		p.State = "busy"
	case j.State == crawl.JobFailed:
		p.State = "failed"
	default:
		p.State = "finished"
	}
	return p
}

// kbCrawlProgress is the progress fragment htmx polls every second while a crawl runs; the
// fragment of a finished crawl carries no trigger, so the polling stops. A browser that
// opens the address itself (no htmx) is sent to the overview, which shows the same state.
func (s *Server) kbCrawlProgress(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	site, err := routeItem(r, c, s.accountSite)
	if err != nil {
		return err
	}
	if !isHTMX(r) {
		http.Redirect(w, r, "/dashboard/kb#site-"+strconv.FormatInt(site.ID, 10), http.StatusSeeOther)
		return nil
	}
	var p *kbProgressData
	if j, ok := s.crawlJob(c, site.ID); ok {
		p = s.progressData(site, j)
	} else {
		// Nothing in memory (finished long ago, or another replica crawls): the stored state.
		p = &kbProgressData{SiteID: site.ID, State: "idle"}
	}
	s.renderFragment(w, r, c, pageKB, "kb-progress-fragment", p)
	return nil
}

// StoppedKey is why the crawl ended early ("" when it was complete).
func (p *kbProgressData) StoppedKey() string {
	if p.Result.Complete {
		return ""
	}
	return kbStoppedKey(p.Result.Stopped)
}

// crawlJob is the latest crawl of the account's site started in this process, if one is
// still in memory.
func (s *Server) crawlJob(c *reqCtx, siteID int64) (crawl.Job, bool) {
	if s.d.Crawls == nil {
		return crawl.Job{}, false
	}
	return s.d.Crawls.Site(c.Account.ID, siteID)
}
