package crawl_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"svc/internal/crawl"
	"svc/internal/crawl/crawltest"
	"svc/internal/store"
)

// TestJobsRunACrawlToDoneAndKeepItsFigures: a job goes from queued to done in the
// background with the crawl's counts, is found by its id and by its site, by its own account
// only, and a second start of the same site while it runs is the same job.
func TestJobsRunACrawlToDoneAndKeepItsFigures(t *testing.T) {
	t.Parallel()
	web := crawltest.Serve(t, filepath.Join("testdata", "sites", "shop"))
	e := newEnv(t, web.URL+"/")
	finished := make(chan crawl.Job, 1)
	jobs := crawl.NewJobs(crawl.New(e.st, crawl.Options{AllowPrivate: true, Timeout: 5 * time.Second}, quiet()),
		crawl.JobsOptions{Finished: func(j crawl.Job) { finished <- j }})
	t.Cleanup(func() { _ = jobs.Stop(context.Background()) })

	job, started, err := jobs.Start(e.site, "")
	if err != nil || !started || job.ID <= 0 || job.ID >= 1<<53 || job.AccountID != e.acct.ID || job.SiteID != e.site.ID {
		t.Fatalf("start: %+v %v %v", job, started, err)
	}
	if job.State != crawl.JobQueued && job.State != crawl.JobRunning {
		t.Fatalf("a new job is %q", job.State)
	}
	if again, started, err := jobs.Start(e.site, ""); err != nil || started || again.ID != job.ID {
		t.Errorf("a second start while it runs: %+v %v %v", again, started, err)
	}
	done := <-finished
	if done.ID != job.ID || done.State != crawl.JobDone || done.Err != nil || done.Result.Products == 0 ||
		done.Started.IsZero() || done.Finished.Before(done.Started) {
		t.Fatalf("finished: %+v", done)
	}
	if got, ok := jobs.Get(e.acct.ID, job.ID); !ok || got.State != crawl.JobDone || got.Result.Products != done.Result.Products {
		t.Errorf("get: %+v %v", got, ok)
	}
	if got, ok := jobs.Site(e.acct.ID, e.site.ID); !ok || got.ID != job.ID {
		t.Errorf("by site: %+v %v", got, ok)
	}
	if _, ok := jobs.Get(e.acct.ID+1, job.ID); ok {
		t.Error("another account reads the job")
	}
	if _, ok := jobs.Site(e.acct.ID+1, e.site.ID); ok {
		t.Error("another account reads the site's job")
	}
	// Finished, the site may be crawled again: a new job.
	next, started, err := jobs.Start(e.site, "")
	if err != nil || !started || next.ID == job.ID {
		t.Fatalf("start after the first finished: %+v %v %v", next, started, err)
	}
	<-finished
}

// TestJobsBoundTheQueueAndStop: past the account's bound a start is refused; jobs beyond
// the concurrency bound wait queued; Stop ends running and queued jobs as failed and
// refuses new ones.
func TestJobsBoundTheQueueAndStop(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(web.Close)
	t.Cleanup(func() { close(release) })
	e := newEnv(t, web.URL+"/a/")
	finished := make(chan crawl.Job, 4)
	jobs := crawl.NewJobs(crawl.New(e.st, crawl.Options{AllowPrivate: true, Timeout: 5 * time.Second}, quiet()),
		crawl.JobsOptions{Concurrency: 1, PerAccount: 2, Finished: func(j crawl.Job) { finished <- j }})
	other := store.Site{AccountID: e.acct.ID, URL: web.URL + "/b/", Host: e.site.Host, Name: "b"}
	if err := e.st.CreateSite(context.Background(), &other); err != nil {
		t.Fatal(err)
	}
	third := store.Site{AccountID: e.acct.ID, URL: web.URL + "/c/", Host: e.site.Host, Name: "c"}
	if err := e.st.CreateSite(context.Background(), &third); err != nil {
		t.Fatal(err)
	}
	first, _, err := jobs.Start(e.site, "")
	if err != nil {
		t.Fatal(err)
	}
	second, _, err := jobs.Start(other, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := jobs.Start(third, ""); !errors.Is(err, crawl.ErrTooManyJobs) {
		t.Fatalf("a third crawl of the account: %v", err)
	}
	// One slot: whichever took it holds it (its fetch waits), so the other waits queued.
	a, _ := jobs.Get(e.acct.ID, first.ID)
	b, _ := jobs.Get(e.acct.ID, second.ID)
	if a.State == crawl.JobRunning && b.State == crawl.JobRunning {
		t.Errorf("two jobs run with one slot")
	}
	if err := jobs.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		j := <-finished
		if j.State != crawl.JobFailed || j.Err == nil {
			t.Errorf("after stop: %+v", j)
		}
	}
	if j, _ := jobs.Get(e.acct.ID, first.ID); j.State != crawl.JobFailed {
		t.Errorf("first after stop: %q", j.State)
	}
	if _, _, err := jobs.Start(third, ""); !errors.Is(err, crawl.ErrJobsStopped) {
		t.Errorf("start after stop: %v", err)
	}
}

// TestStartSiteResolvesAndChecksBeforeStoring: a URL finds the account's site by scope or
// adds one; a site id must be the account's and a URL with it on that site; a private
// address is refused without a site being stored.
func TestStartSiteResolvesAndChecksBeforeStoring(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "http://127.0.0.1:9/")
	ctx := context.Background()
	if _, err := crawl.StartSite(ctx, e.st, e.acct.ID, 0, "http://127.0.0.1:9/x", false); !errors.Is(err, crawl.ErrSiteAddress) {
		t.Errorf("a private start without allow-private: %v", err)
	}
	site, err := crawl.StartSite(ctx, e.st, e.acct.ID, 0, "http://127.0.0.1:9/docs/", true)
	if err != nil || site.ID != e.site.ID {
		t.Errorf("a URL of the account's site: %+v %v", site, err)
	}
	if _, err := crawl.StartSite(ctx, e.st, e.acct.ID, e.site.ID, "http://127.0.0.2:9/", true); !errors.Is(err, crawl.ErrNotOnSite) {
		t.Errorf("a URL off the site: %v", err)
	}
	if _, err := crawl.StartSite(ctx, e.st, e.acct.ID, e.site.ID+100, "", true); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another site id: %v", err)
	}
	if _, err := crawl.StartSite(ctx, e.st, e.acct.ID, e.site.ID, "", false); !errors.Is(err, crawl.ErrSiteAddress) {
		t.Errorf("a stored private site without allow-private: %v", err)
	}
	if _, err := crawl.StartSite(ctx, e.st, e.acct.ID, 0, "http://user:pw@127.0.0.3:9/", true); !errors.Is(err, crawl.ErrSiteURL) {
		t.Errorf("credentials: %v", err)
	}
	added, err := crawl.StartSite(ctx, e.st, e.acct.ID, 0, "http://127.0.0.3:9/", true)
	if err != nil || added.ID == e.site.ID {
		t.Fatalf("a new site: %+v %v", added, err)
	}
	sites, _ := e.st.ListSites(ctx, e.acct.ID)
	if len(sites) != 2 {
		t.Errorf("sites: %+v", sites)
	}
}
