package dashboard_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"svc/internal/kb"
	"svc/internal/store"
)

// In Chromium, as an owner would: a visitor's question that the assistant could not answer
// becomes a test from its transcript ("add as a test", the form filled in with the question
// and the reply); "Run all" runs the set in the background while the page shows the progress
// and then, without a reload, the results: the test failed, with why. "Answer this" on it
// stores the answer and the test, asked again, passes, in place.
func TestBrowserTestFromTranscriptFixedWithAnswerThis(t *testing.T) {
	t.Parallel()
	bctx := uiStart(t)
	h := newHarness(t)
	a, key, email, pw := h.tenant("Browser Tests Shop")
	sent := cvAsk(t, h, key, tsSaturday)
	u := uiOpen(t, bctx, h.srv.URL)
	u.signIn(email, pw)

	u.open(fmt.Sprintf("/dashboard/conversations/%d", sent.ConversationID))
	add := fmt.Sprintf(`#m%d a[href^="/dashboard/tests/new?"]`, sent.question().ID)
	if !uiMust[bool](u, `!!document.querySelector(`+uiJS(add)+`)`) {
		t.Fatal("the visitor's question has no add-as-a-test button")
	}
	if uiMust[bool](u, fmt.Sprintf(`!!document.querySelector('#m%d a[href^="/dashboard/tests/new?"]')`, sent.reply().ID)) {
		t.Error("the assistant's reply has an add-as-a-test button")
	}
	u.navigatesBy("add as a test", func() { u.click("add as a test", add) })
	if got := uiMust[string](u, `document.querySelector('#tf-question').value`); got != tsSaturday {
		t.Fatalf("the form's question is %q", got)
	}
	if got := uiMust[string](u, `document.querySelector('#tf-lang').value`); got != "en" {
		t.Errorf("the form's language is %q", got)
	}
	if hint := u.text(".tests-hint"); !strings.Contains(hint, "What the assistant replied") || len(hint) < 40 {
		t.Errorf("the reply beside the form: %q", hint)
	}
	u.fill("#tf-expect", "Saturday")
	u.submit("save the test", `form[action="/dashboard/tests"] button[type="submit"]`)
	if p := u.location(); p != "/dashboard/tests" {
		t.Fatalf("after saving: %s", p)
	}
	tc := tsTest(t, h, a.ID, tsSaturday)
	if tc.Origin != store.TestOriginTranscript || len(tc.Expect) != 1 {
		t.Fatalf("the test %+v", tc)
	}
	if !strings.Contains(u.text("main table"), tsSaturday) {
		t.Fatal("the list does not show the new test")
	}

	// Run all: the run's page, its progress polled, then its results swapped in.
	u.submit("run all", `form[action="/dashboard/tests/runs"] button[type="submit"]`)
	if !tsRunLocation.MatchString(u.location()) {
		t.Fatalf("run all opened %s", u.location())
	}
	u.js(`window.__uiStay = true`)
	u.wait("the run's results", `document.querySelector('#run-body .tests-ended')`)
	if !uiMust[bool](u, `window.__uiStay === true`) {
		t.Error("the results came by reloading the page, not by the progress poll")
	}
	res := fmt.Sprintf("#result-%d", tc.ID)
	if got := u.text(res + " .badge.bad"); got != "failed" {
		t.Fatalf("the test's badge reads %q", got)
	}
	if got := u.text(res + " .test-reason"); got != "The assistant said it does not know." {
		t.Errorf("the reason reads %q", got)
	}

	// Answer this: open it, answer, and the result in place passes.
	u.click("open answer this", res+" details.test-fix summary")
	u.wait("the answer form", fmt.Sprintf(`document.querySelector('#fix-%d-answer') && document.querySelector('#fix-%d-answer').offsetParent`, tc.ID, tc.ID))
	u.fill(fmt.Sprintf("#fix-%d-answer", tc.ID), "Yes: we deliver on Saturday in Istanbul, Ankara and Izmir.")
	u.click("save the answer", res+` form button[type="submit"]`)
	u.wait("the test asked again", `document.querySelector(`+uiJS(res+" .badge.good")+`)`)
	if !uiMust[bool](u, `window.__uiStay === true`) {
		t.Error("answer this reloaded the page")
	}
	if got := u.text(res + ` [role="status"]`); got != "Saved as a Q&A entry. Asked again, the test passes." {
		t.Errorf("the notice reads %q", got)
	}
	if got := u.text(res + " .msg-body"); !strings.Contains(got, "Saturday in Istanbul") {
		t.Errorf("the new reply reads %q", got)
	}
	if d := u.seenDialogs(); len(d) > 0 {
		t.Errorf("dialogs opened: %v", d)
	}
	// The next run, from the list: everything passes, and the run says the test was fixed.
	u.open("/dashboard/tests")
	u.submit("run all again", `form[action="/dashboard/tests/runs"] button[type="submit"]`)
	u.wait("the second run's results", `document.querySelector('#run-body .tests-ended')`)
	if got := u.text("#run-body"); !strings.Contains(got, "1 test was fixed") || !strings.Contains(got, "Every test passed.") {
		t.Errorf("the second run:\n%s", got)
	}
}

// In Chromium: the owner saves a Q&A entry in the dashboard that breaks a passing test; the
// regression run starts by itself, and the overview then says so, naming the question, with
// a link to the run.
func TestBrowserOverviewShowsTheTestRegression(t *testing.T) {
	t.Parallel()
	bctx := uiStart(t)
	finished := make(chan store.TestRun, 4)
	h := newHarness(t, withRegressionRuns(time.Millisecond, func(r store.TestRun) { finished <- r }))
	a, _, email, pw := h.tenant("Regression Browser Shop")
	tsImport(t, h, a.ID, tsTests)
	if _, err := h.app.Tests.RunNow(context.Background(), a.ID, store.TestTriggerCLI); err != nil {
		t.Fatal(err)
	}
	u := uiOpen(t, bctx, h.srv.URL)
	u.signIn(email, pw)
	if uiMust[bool](u, `!!document.querySelector('.tests-broken')`) {
		t.Fatal("the overview shows a regression before any")
	}
	u.open("/dashboard/kb/qa/new")
	u.fill("#qa-question", "How much does the Uludag 2 Tent cost?")
	u.fill("#qa-answer", "Please ask in one of our stores.")
	u.fill("#qa-lang", "en")
	u.submit("save the Q&A entry", `form[action="/dashboard/kb/qa"] button[type="submit"]`)
	var run store.TestRun
	select {
	case run = <-finished:
	case <-time.After(60 * time.Second):
		t.Fatal("no regression run after the Q&A edit")
	}
	if !run.Regressed || run.Trigger != store.TestTriggerQA {
		t.Fatalf("run %+v", run)
	}
	u.open("/dashboard/")
	got := u.text(".tests-broken")
	for _, want := range []string{"1 test broke after the Q&A change of " + formatUTC(run.StartedAt),
		"How much does the Uludag 2 Tent cost?", "The reply lacks: $199.00"} {
		if !strings.Contains(got, want) {
			t.Errorf("the notice lacks %q:\n%s", want, got)
		}
	}
	u.navigatesBy("open the run", func() { u.click("open the run", ".tests-broken a.btn") })
	if p := u.location(); p != fmt.Sprintf("/dashboard/tests/runs/%d", run.ID) {
		t.Fatalf("the notice's link opened %s", p)
	}
	if got := u.text("#run-body"); !strings.Contains(got, "1 test broke") || !strings.Contains(got, "tests broke") {
		t.Errorf("the run's page:\n%s", got)
	}
}

// Every view of the tests pages, filled with data, is axe-core clean and no wider than a
// phone, in each language: the list (with the regression notice and a failed result), the
// add form made from a transcript, a test's page (answer this open, and the edit form), the
// import page with the bad lines of a file, the estimate, the runs, a finished run with what
// broke and a running run's progress; and the overview with the regression, the transcript
// and the review item with their add-as-a-test links.
func TestBrowserTestsPagesAccessibleAndNarrow(t *testing.T) {
	t.Parallel()
	bctx := uiStart(t)
	src := uiAxeSource(t)
	h := newHarness(t)
	ctx := context.Background()
	a, key, email, pw := h.tenant("Outdoor & Camping Supplies International GmbH")
	long := "Do you deliver the Trailblazer Ultralight 2-person tent with its spare poles to the Black Forest on a Saturday morning?"
	sent := cvAsk(t, h, key, long)
	tsImport(t, h, a.ID, tsTests+`{"q":"`+long+`","lang":"en","expect":["Black Forest","Saturday morning delivery"],"product":"Trailblazer Ultralight 2-person tent with spare poles","answerable":true}`+"\n")
	if _, err := h.app.Tests.RunNow(ctx, a.ID, store.TestTriggerCLI); err != nil {
		t.Fatal(err)
	}
	// A Q&A entry that breaks a test, then the regression run.
	recs, err := kb.ParseJSONL(strings.NewReader(`{"type":"qa","question":"How much does the Uludag 2 Tent cost?","answer":"Please ask in one of our stores.","lang":"en"}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	docs, err := kb.BuildAll(recs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.st.ImportDocuments(ctx, a.ID, docs); err != nil {
		t.Fatal(err)
	}
	rep, err := h.app.Tests.RunNow(ctx, a.ID, store.TestTriggerQA)
	if err != nil || rep.Broken != 1 {
		t.Fatalf("regression run %+v %v", rep, err)
	}
	failed := tsTest(t, h, a.ID, tsSaturday)
	passed := tsTest(t, h, a.ID, "Kargo ne kadar sürer?")
	items, _, err := h.st.ReviewQueue(ctx, a.ID, store.ReviewFallback, 0, 1)
	if err != nil || len(items) == 0 {
		t.Fatalf("review queue %v %+v", err, items)
	}
	// A second account with a run in progress, for the progress view.
	b, _, email2, pw2 := h.tenant("Running Shop")
	tsImport(t, h, b.ID, tsTests)
	held := &store.TestRun{AccountID: b.ID, Trigger: store.TestTriggerManual, Total: 5}
	if err := h.st.StartTestRun(ctx, held, time.Now().Add(-time.Hour), 50); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "tests.jsonl")
	badLines := tsTests + `{"q":"Returns?","lang":"en"}` + "\n" + `{"q":"` + long + `","lang":"fr","answerable":true}` + "\n" +
		`{"q":"x","answerable":true,"expect":["` + strings.Repeat("averyveryverylongwordwithoutanyspace", 8) + `"]}` + "\n"
	if err := os.WriteFile(bad, []byte(badLines), 0o600); err != nil {
		t.Fatal(err)
	}

	owner := uiOpen(t, bctx, h.srv.URL)
	owner.signIn(email, pw)
	running := uiOpen(t, bctx, h.srv.URL)
	running.signIn(email2, pw2)
	type view struct {
		name string
		tab  *uiTab
		open func()
	}
	path := func(u *uiTab, p string) func() {
		return func() {
			if st := u.open(p); st != http.StatusOK {
				t.Errorf("%s: HTTP %d", p, st)
			}
			// Every "answer this" and "show the passed tests" open: their content is checked too.
			u.js(`document.querySelectorAll('main details.test-fix, main details.tests-passed').forEach(d => d.open = true)`)
		}
	}
	views := []view{
		{"the list", owner, path(owner, "/dashboard/tests")},
		{"the form from a transcript", owner, path(owner, fmt.Sprintf("/dashboard/tests/new?conversation=%d&message=%d", sent.ConversationID, sent.question().ID))},
		{"a failed test", owner, path(owner, fmt.Sprintf("/dashboard/tests/%d", failed.ID))},
		{"a passed test", owner, path(owner, fmt.Sprintf("/dashboard/tests/%d", passed.ID))},
		{"the import's bad lines", owner, func() {
			path(owner, "/dashboard/tests/import")()
			owner.must("choose the file", chromedp.SetUploadFiles(chromedp.CSS("#ti-file"), []string{bad}))
			owner.submit("import", `form[action="/dashboard/tests/import"] button[type="submit"]`)
			if n := uiMust[int](owner, `document.querySelectorAll('.tests-line-errors li').length`); n != 3 {
				t.Errorf("the import lists %d bad lines, want 3", n)
			}
		}},
		{"the estimate", owner, path(owner, "/dashboard/tests/run")},
		{"the runs", owner, path(owner, "/dashboard/tests/runs")},
		{"the regression run", owner, path(owner, fmt.Sprintf("/dashboard/tests/runs/%d", rep.RunID))},
		{"the overview", owner, path(owner, "/dashboard/")},
		{"the transcript", owner, path(owner, fmt.Sprintf("/dashboard/conversations/%d", sent.ConversationID))},
		{"the review item", owner, path(owner, fmt.Sprintf("/dashboard/review/fallback/%d", items[0].ID))},
		{"a running run", running, path(running, fmt.Sprintf("/dashboard/tests/runs/%d", held.ID))},
	}
	if got := func() string { owner.open("/dashboard/"); return owner.text(".tests-broken") }(); !strings.Contains(got, "1 test broke") {
		t.Fatalf("the overview's notice: %q", got)
	}
	checked := 0
	for _, lang := range []string{"en", "tr", "de"} {
		owner.setLang(lang)
		running.setLang(lang)
		for _, w := range uiWidths {
			owner.viewport(w)
			running.viewport(w)
			for _, v := range views {
				v.open()
				what := fmt.Sprintf("%s (%s, %d px)", v.name, lang, w)
				v.tab.fits(what)
				if w == 390 || lang == "en" {
					v.tab.axeInto(t, src, &uiAxeResult{page: what})
				}
				checked++
			}
		}
	}
	t.Logf("%d views checked", checked)
}
