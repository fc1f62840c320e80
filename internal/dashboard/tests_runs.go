package dashboard

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"svc/internal/errs"
	"svc/internal/store"
	"svc/internal/testsets"
)

// Runs of the test set: "Run all" (with a model, after the cost estimate), the run's page
// with its progress while it runs (htmx polls a small fragment, which once the run has ended
// is replaced by the results), and the list of the runs kept.

func runURL(id int64) string { return "/dashboard/tests/runs/" + strconv.FormatInt(id, 10) }

// testsConfirmData is the page before a run: what it asks and, with a model, what it costs.
type testsConfirmData struct {
	Estimate testsets.Estimate
}

// testsConfirm shows what a run of the whole set would cost (testsets.Estimate) and the form
// that starts it. With the built-in engine a run is free and the list's button starts it at
// once; this page is then only reached by its address.
func (s *Server) testsConfirm(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d, err := s.confirmData(r.Context(), c)
	if err != nil {
		return err
	}
	s.render(w, r, c, pageTests, 0, d)
	return nil
}

func (s *Server) confirmData(ctx context.Context, c *reqCtx) (testsData, error) {
	d := testsView("confirm", "runs")
	est, err := s.d.Tests.Estimate(ctx, c.Account.ID)
	if err != nil {
		return d, err
	}
	d.Confirm = &testsConfirmData{Estimate: est}
	return d, nil
}

// runConfirmed is the value of the confirm page's hidden field: a run with a model starts
// only from that page, after its estimate was shown.
const runConfirmed = "yes"

// testsStart starts a run of the whole set in the background and opens its page. A run in
// progress is opened instead of a second one; a run the service refuses (no tests, no
// balance) is the confirm page again with why.
func (s *Server) testsStart(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	ctx := r.Context()
	if s.d.Tests.Billed() && r.PostFormValue("confirm") != runConfirmed {
		http.Redirect(w, r, "/dashboard/tests/run", http.StatusSeeOther)
		return nil
	}
	run, err := s.d.TestRunner.Start(ctx, c.Account.ID, store.TestTriggerManual)
	if errors.Is(err, testsets.ErrRunning) {
		runs, rerr := s.d.Tests.Runs(ctx, c.Account.ID, 1)
		if rerr != nil {
			return rerr
		}
		if len(runs) > 0 && runs[0].Status == store.TestRunRunning {
			s.redirect(w, r, runURL(runs[0].ID), "flash.tests_run_busy")
			return nil
		}
		// Ended meanwhile: the list, where the button is.
		s.redirect(w, r, "/dashboard/tests", "flash.tests_run_busy")
		return nil
	}
	if err != nil {
		if k := errs.KindOf(err); k != errs.BadRequest && k != errs.TooMany {
			return err
		}
		d, derr := s.confirmData(ctx, c)
		if derr != nil {
			return derr
		}
		s.formError(w, r, c, pageTests, err, d)
		return nil
	}
	s.redirect(w, r, runURL(run.ID), "flash.tests_run_started")
	return nil
}

// testsRunsData is the list of the runs kept.
type testsRunsData struct {
	Runs   []store.TestRun
	Billed bool
	Keep   int
}

func (s *Server) testsRuns(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	runs, err := s.d.Tests.Runs(r.Context(), c.Account.ID, testsets.KeepRuns)
	if err != nil {
		return err
	}
	d := testsView("runs", "runs")
	d.Runs = &testsRunsData{Runs: runs, Billed: s.d.Tests.Billed(), Keep: testsets.KeepRuns}
	s.render(w, r, c, pageTests, 0, d)
	return nil
}

// runPageData is a run's page: while it runs, the run alone (its progress); once it has
// ended, its comparison with the run before and its results, the failed ones first.
type runPageData struct {
	Run      store.TestRun
	Previous *store.TestRun
	Broken   []testsets.Change
	Fixed    []testsets.Change
	Failed   []resultItem
	Passed   []resultItem
}

// Running reports whether the run is still asking.
func (d *runPageData) Running() bool { return d.Run.Status == store.TestRunRunning }

// runPage reads a run of the account for its page; another account's is a 404.
func (s *Server) runPage(ctx context.Context, c *reqCtx, id int64) (*runPageData, error) {
	run, err := s.d.Tests.Progress(ctx, c.Account.ID, id)
	if err != nil {
		return nil, err
	}
	d := &runPageData{Run: run}
	if d.Running() {
		return d, nil
	}
	diff, err := s.d.Tests.Diff(ctx, c.Account.ID, id)
	if err != nil {
		return nil, err
	}
	v, err := s.d.Tests.GetRun(ctx, c.Account.ID, id)
	if err != nil {
		return nil, err
	}
	cases, err := s.d.Tests.List(ctx, c.Account.ID)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*store.TestCase, len(cases))
	for i := range cases {
		byID[cases[i].ID] = &cases[i]
	}
	d.Run, d.Previous, d.Broken, d.Fixed = v.Run, diff.Previous, diff.Broken, diff.Fixed
	for _, res := range v.Results {
		it := newResultItem(res, byID[res.TestID])
		if res.Passed {
			d.Passed = append(d.Passed, it)
		} else {
			d.Failed = append(d.Failed, it)
		}
	}
	return d, nil
}

func (s *Server) testsRunPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id, err := routeItemID(r)
	if err != nil {
		return err
	}
	run, err := s.runPage(r.Context(), c, id)
	if err != nil {
		return err
	}
	d := testsView("run", "runs")
	d.Run = run
	s.render(w, r, c, pageTests, 0, d)
	return nil
}

// testsRunProgress is what htmx polls every second while a run runs: the progress alone,
// with the trigger that polls again. Once the run has ended it answers the results instead,
// in place of the whole run section (HX-Retarget), without a trigger, so the polling stops.
// A browser that opens the address itself (no htmx) is sent to the run's page.
func (s *Server) testsRunProgress(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id, err := routeItemID(r)
	if err != nil {
		return err
	}
	d, err := s.runPage(r.Context(), c, id)
	if err != nil {
		return err
	}
	if !isHTMX(r) {
		http.Redirect(w, r, runURL(id), http.StatusSeeOther)
		return nil
	}
	if d.Running() {
		s.renderFragment(w, r, c, pageTests, "tests-progress-fragment", d)
		return nil
	}
	w.Header().Set("HX-Retarget", "#run-body")
	w.Header().Set("HX-Reswap", "outerHTML")
	s.renderFragment(w, r, c, pageTests, "tests-run-body-fragment", d)
	return nil
}
