package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"svc/internal/store"
)

// testSetTests cover store.TestSets: owners' tests, their runs and results.
var testSetTests = []suiteTest{
	{"TestCasesAddDedupeAndCap", testTestCasesAdd},
	{"TestCasesEditAndTenants", testTestCasesEdit},
	{"TestRunLifecycle", testTestRunLifecycle},
	{"TestRunOnePerAccount", testTestRunOnePerAccount},
	{"TestRunStaleAndPrune", testTestRunStaleAndPrune},
	{"TestSetsGoWithAccount", testTestSetsGoWithAccount},
}

// tcase is a test of question in lang keyed by the question itself (the store does not
// fold; testsets.Key does).
func tcase(question, lang string, expect ...string) store.TestCase {
	return store.TestCase{Question: question, Lang: lang, Key: question, Expect: expect, Answerable: len(expect) > 0,
		Origin: store.TestOriginImport}
}

func testTestCasesAdd(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Tester", 0)
	cases := []store.TestCase{tcase("shipping", "en", "5 days", "free"), tcase("kargo", "tr", "5 gün"),
		tcase("shipping", "en", "other"), tcase("gift cards", "en")}
	cases[0].Product, cases[1].OriginRef = "Kestrel X2", "42"
	added, dups, err := s.AddTestCases(ctx(), a.ID, cases, 10)
	if err != nil || added != 3 || dups != 1 {
		t.Fatalf("add: %d added, %d dups, %v", added, dups, err)
	}
	if cases[0].ID == 0 || cases[1].ID == 0 || cases[2].ID != 0 || cases[3].ID == 0 || cases[0].CreatedAt.IsZero() {
		t.Fatalf("ids: %+v", cases)
	}
	got, err := s.TestCases(ctx(), a.ID)
	if err != nil || len(got) != 3 {
		t.Fatalf("list: %v %+v", err, got)
	}
	first := got[0]
	if first.ID != cases[0].ID || first.Question != "shipping" || first.Lang != "en" || !first.Answerable ||
		!slices.Equal(first.Expect, []string{"5 days", "free"}) || first.Product != "Kestrel X2" ||
		first.Origin != store.TestOriginImport || first.AccountID != a.ID || first.CreatedAt.Location() != time.UTC {
		t.Fatalf("round trip: %+v", first)
	}
	if got[1].OriginRef != "42" || got[2].Answerable || got[2].Expect == nil || len(got[2].Expect) != 0 {
		t.Fatalf("round trip: %+v %+v", got[1], got[2])
	}
	// Again: every one is a duplicate now.
	again := []store.TestCase{tcase("shipping", "en"), tcase("kargo", "tr")}
	if added, dups, err := s.AddTestCases(ctx(), a.ID, again, 10); err != nil || added != 0 || dups != 2 {
		t.Fatalf("again: %d %d %v", added, dups, err)
	}
	// Past the cap nothing of the list is stored.
	over := []store.TestCase{tcase("q1", "en"), tcase("q2", "en"), tcase("q3", "en")}
	if _, _, err := s.AddTestCases(ctx(), a.ID, over, 5); !errors.Is(err, store.ErrLimitReached) {
		t.Fatalf("over the cap: %v", err)
	}
	if over[0].ID != 0 {
		t.Fatalf("ids of a refused list: %+v", over)
	}
	if n, err := s.CountTestCases(ctx(), a.ID); err != nil || n != 3 {
		t.Fatalf("count after a refused list: %d %v", n, err)
	}
	// Up to the cap is fine; duplicates do not count against it.
	if added, _, err := s.AddTestCases(ctx(), a.ID, append(over[:2], tcase("shipping", "en")), 5); err != nil || added != 2 {
		t.Fatalf("up to the cap: %d %v", added, err)
	}
	if _, _, err := s.AddTestCases(ctx(), a.ID+1000, []store.TestCase{tcase("x", "en")}, 5); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("no account: %v", err)
	}
}

func testTestCasesEdit(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Editor", 0)
	b, _ := NewAccount(t, s, "Other", 0)
	cases := []store.TestCase{tcase("returns", "en", "30 days"), tcase("warranty", "en", "2 years")}
	if _, _, err := s.AddTestCases(ctx(), a.ID, cases, 10); err != nil {
		t.Fatal(err)
	}
	wantNotFound(t, "another account's test", func() error { _, err := s.GetTestCase(ctx(), b.ID, cases[0].ID); return err }())
	edit := cases[0]
	edit.Question, edit.Key, edit.Expect, edit.Answerable = "refunds", "refunds", nil, false
	if err := s.UpdateTestCase(ctx(), &edit); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetTestCase(ctx(), a.ID, edit.ID)
	if err != nil || got.Question != "refunds" || got.Answerable || len(got.Expect) != 0 || got.Origin != store.TestOriginImport {
		t.Fatalf("edited: %v %+v", err, got)
	}
	clash := cases[1]
	clash.Key, clash.Question = "refunds", "refunds"
	if err := s.UpdateTestCase(ctx(), &clash); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("edit onto another test's key: %v", err)
	}
	stranger := cases[1]
	stranger.AccountID = b.ID
	wantNotFound(t, "edit another account's test", s.UpdateTestCase(ctx(), &stranger))
	if n, err := s.DeleteTestCases(ctx(), b.ID, []int64{cases[0].ID, cases[1].ID}); err != nil || n != 0 {
		t.Fatalf("delete another account's tests: %d %v", n, err)
	}
	if n, err := s.DeleteTestCases(ctx(), a.ID, []int64{cases[0].ID, cases[1].ID, 999999}); err != nil || n != 2 {
		t.Fatalf("delete: %d %v", n, err)
	}
	if n, _ := s.CountTestCases(ctx(), a.ID); n != 0 {
		t.Fatalf("left after delete: %d", n)
	}
}

// result is a test's result for SaveTestResults.
func result(testID int64, ord int, passed bool) store.TestResult {
	r := store.TestResult{TestID: testID, Ord: ord, Question: fmt.Sprint("question ", testID), Lang: "en",
		Reply: "reply", Source: store.SourceAI, Passed: passed}
	if !passed {
		r.Reason, r.LowConfidence, r.Source = "low_confidence", true, store.SourceFallback
	}
	return r
}

func testTestRunLifecycle(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Runner", 0)
	b, _ := NewAccount(t, s, "Bystander", 0)
	first := &store.TestRun{AccountID: a.ID, Trigger: store.TestTriggerCLI, Total: 3, KBVersion: 7}
	if err := s.StartTestRun(ctx(), first, time.Now().Add(-time.Hour), 50); err != nil {
		t.Fatal(err)
	}
	if first.ID == 0 || first.Status != store.TestRunRunning || first.StartedAt.IsZero() || first.HeartbeatAt.IsZero() {
		t.Fatalf("started: %+v", first)
	}
	withCards := result(1, 0, true)
	withCards.Products = []string{"Kestrel X2 Pro", "Kestrel X2 Lite"}
	if err := s.SaveTestResults(ctx(), a.ID, first.ID, []store.TestResult{withCards, result(2, 1, false)}, time.Now()); err != nil {
		t.Fatal(err)
	}
	wantNotFound(t, "results of another account's run", s.SaveTestResults(ctx(), b.ID, first.ID, nil, time.Now()))
	progress, err := s.GetTestRun(ctx(), a.ID, first.ID)
	if err != nil || progress.Done != 2 || progress.Passed != 1 || progress.Failed != 1 || progress.Status != store.TestRunRunning ||
		progress.KBVersion != 7 || progress.Trigger != store.TestTriggerCLI || progress.Total != 3 {
		t.Fatalf("progress: %v %+v", err, progress)
	}
	if err := s.SaveTestResults(ctx(), a.ID, first.ID, []store.TestResult{result(3, 2, true)}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.TouchTestRun(ctx(), a.ID, first.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	first.Status, first.CostMicro = store.TestRunDone, 1234
	if err := s.FinishTestRun(ctx(), first, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTestRun(ctx(), first, nil); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("finish twice: %v", err)
	}
	if err := s.SaveTestResults(ctx(), a.ID, first.ID, []store.TestResult{result(4, 3, true)}, time.Now()); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("results after the end: %v", err)
	}
	if err := s.TouchTestRun(ctx(), a.ID, first.ID, time.Now()); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("heartbeat after the end: %v", err)
	}
	results, err := s.TestResults(ctx(), a.ID, first.ID)
	if err != nil || len(results) != 3 {
		t.Fatalf("results: %v %+v", err, results)
	}
	if r := results[0]; r.TestID != 1 || !r.Passed || !slices.Equal(r.Products, withCards.Products) || r.RunID != first.ID ||
		r.Question != "question 1" || r.CreatedAt.IsZero() {
		t.Fatalf("result round trip: %+v", r)
	}
	if r := results[1]; r.Passed || !r.LowConfidence || r.Reason != "low_confidence" || r.Source != store.SourceFallback || len(r.Products) != 0 {
		t.Fatalf("failed result: %+v", r)
	}
	if other, err := s.TestResults(ctx(), b.ID, first.ID); err != nil || len(other) != 0 {
		t.Fatalf("another account reads the results: %v %d", err, len(other))
	}

	// A second run that regressed, with its notice queued in the same transaction.
	second := &store.TestRun{AccountID: a.ID, Trigger: store.TestTriggerCrawl, Total: 3}
	if err := s.StartTestRun(ctx(), second, time.Now().Add(-time.Hour), 50); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LatestTestRegression(ctx(), a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("regression before any: %v", err)
	}
	last, err := s.LastDoneTestRun(ctx(), a.ID, 0)
	if err != nil || last.ID != first.ID || last.CostMicro != 1234 || last.FinishedAt.IsZero() || last.Status != store.TestRunDone {
		t.Fatalf("last done while another runs: %v %+v", err, last)
	}
	payload, _ := json.Marshal(store.TestsBrokenPayload{RunID: second.ID, Broken: []store.BrokenTest{{Question: "q", Lang: "en"}}})
	n := &store.Notice{AccountID: a.ID, Kind: store.NoticeTestsBroken, DedupeKey: fmt.Sprint("tests:", second.ID), Payload: string(payload)}
	second.Status, second.PrevRunID, second.Broken, second.Fixed, second.Regressed = store.TestRunDone, first.ID, 1, 0, true
	if err := s.FinishTestRun(ctx(), second, n); err != nil {
		t.Fatal(err)
	}
	if n.ID == 0 {
		t.Fatalf("notice not queued: %+v", n)
	}
	reg, err := s.LatestTestRegression(ctx(), a.ID)
	if err != nil || reg.ID != second.ID || reg.PrevRunID != first.ID || reg.Broken != 1 || !reg.Regressed {
		t.Fatalf("regression: %v %+v", err, reg)
	}
	if prev, err := s.LastDoneTestRun(ctx(), a.ID, second.ID); err != nil || prev.ID != first.ID {
		t.Fatalf("done before the second: %v %+v", err, prev)
	}
	notices, err := s.Notices(ctx(), a.ID)
	if err != nil || len(notices) != 1 || notices[0].Kind != store.NoticeTestsBroken || notices[0].Payload != string(payload) {
		t.Fatalf("notices: %v %+v", err, notices)
	}
	runs, err := s.TestRuns(ctx(), a.ID, 10)
	if err != nil || len(runs) != 2 || runs[0].ID != second.ID || runs[1].ID != first.ID {
		t.Fatalf("runs newest first: %v %+v", err, runs)
	}
	if runs, _ := s.TestRuns(ctx(), b.ID, 10); len(runs) != 0 {
		t.Fatalf("another account's runs: %+v", runs)
	}
	wantNotFound(t, "another account's run", func() error { _, err := s.GetTestRun(ctx(), b.ID, first.ID); return err }())
	if _, err := s.LastDoneTestRun(ctx(), b.ID, 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another account's last run: %v", err)
	}
}

func testTestRunOnePerAccount(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Racer", 0)
	b, _ := NewAccount(t, s, "Neighbour", 0)
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.StartTestRun(ctx(), &store.TestRun{AccountID: a.ID, Trigger: store.TestTriggerManual, Total: 1},
				time.Now().Add(-time.Hour), 50)
		}()
	}
	wg.Wait()
	started := 0
	for _, err := range errs {
		switch {
		case err == nil:
			started++
		case !errors.Is(err, store.ErrConflict):
			t.Fatalf("start: %v", err)
		}
	}
	if started != 1 {
		t.Fatalf("%d runs started at once for one account, want 1", started)
	}
	// Another account is not held up.
	if err := s.StartTestRun(ctx(), &store.TestRun{AccountID: b.ID, Trigger: store.TestTriggerManual, Total: 1},
		time.Now().Add(-time.Hour), 50); err != nil {
		t.Fatalf("another account: %v", err)
	}
	if err := s.StartTestRun(ctx(), &store.TestRun{AccountID: a.ID + 1000, Trigger: store.TestTriggerManual},
		time.Now(), 50); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("no account: %v", err)
	}
}

func testTestRunStaleAndPrune(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Crasher", 0)
	dead := &store.TestRun{AccountID: a.ID, Trigger: store.TestTriggerCLI, Total: 2}
	if err := s.StartTestRun(ctx(), dead, time.Now().Add(-time.Hour), 3); err != nil {
		t.Fatal(err)
	}
	// Its heartbeat is fresh: a second run is refused.
	if err := s.StartTestRun(ctx(), &store.TestRun{AccountID: a.ID, Trigger: store.TestTriggerCLI}, time.Now().Add(-time.Hour), 3); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("second run beside a live one: %v", err)
	}
	// Seen from an hour later, it died: the next start marks it failed and runs.
	later := time.Now().Add(time.Hour)
	next := &store.TestRun{AccountID: a.ID, Trigger: store.TestTriggerCLI, Total: 2}
	if err := s.StartTestRun(ctx(), next, later, 3); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetTestRun(ctx(), a.ID, dead.ID)
	if err != nil || got.Status != store.TestRunFailed || got.Error == "" || got.FinishedAt.IsZero() {
		t.Fatalf("dead run: %v %+v", err, got)
	}
	// FailStaleTestRuns does the same across accounts.
	if n, err := s.FailStaleTestRuns(ctx(), time.Now().Add(-time.Hour)); err != nil || n != 0 {
		t.Fatalf("nothing stale yet: %d %v", n, err)
	}
	if n, err := s.FailStaleTestRuns(ctx(), later); err != nil || n != 1 {
		t.Fatalf("stale: %d %v", n, err)
	}
	if got, _ := s.GetTestRun(ctx(), a.ID, next.ID); got.Status != store.TestRunFailed {
		t.Fatalf("stale run: %+v", got)
	}
	// keep 3: with each new run the oldest finished go, with their results.
	var ids []int64
	for i := range 4 {
		r := &store.TestRun{AccountID: a.ID, Trigger: store.TestTriggerCLI, Total: 1}
		if err := s.StartTestRun(ctx(), r, time.Now().Add(-time.Hour), 3); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveTestResults(ctx(), a.ID, r.ID, []store.TestResult{result(int64(i+1), 0, true)}, time.Now()); err != nil {
			t.Fatal(err)
		}
		r.Status = store.TestRunDone
		if err := s.FinishTestRun(ctx(), r, nil); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
	}
	runs, err := s.TestRuns(ctx(), a.ID, 50)
	if err != nil || len(runs) != 3 {
		t.Fatalf("runs kept: %v %d", err, len(runs))
	}
	for i, r := range runs {
		if want := ids[len(ids)-1-i]; r.ID != want {
			t.Fatalf("kept %d, want the newest %v", r.ID, ids[1:])
		}
	}
	wantNotFound(t, "a pruned run", func() error { _, err := s.GetTestRun(ctx(), a.ID, ids[0]); return err }())
	if res, err := s.TestResults(ctx(), a.ID, ids[0]); err != nil || len(res) != 0 {
		t.Fatalf("a pruned run's results: %v %d", err, len(res))
	}
}

func testTestSetsGoWithAccount(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Leaver", 0)
	if _, _, err := s.AddTestCases(ctx(), a.ID, []store.TestCase{tcase("q", "en", "x")}, 10); err != nil {
		t.Fatal(err)
	}
	r := &store.TestRun{AccountID: a.ID, Trigger: store.TestTriggerCLI, Total: 1}
	if err := s.StartTestRun(ctx(), r, time.Now().Add(-time.Hour), 50); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveTestResults(ctx(), a.ID, r.ID, []store.TestResult{result(1, 0, true)}, time.Now()); err != nil {
		t.Fatal(err)
	}
	r.Status = store.TestRunDone
	if err := s.FinishTestRun(ctx(), r, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeleteAccount(ctx(), a.ID); err != nil {
		t.Fatal(err)
	}
	if n, err := s.CountTestCases(ctx(), a.ID); err != nil || n != 0 {
		t.Fatalf("tests left: %d %v", n, err)
	}
	if runs, err := s.TestRuns(ctx(), a.ID, 50); err != nil || len(runs) != 0 {
		t.Fatalf("runs left: %v %d", err, len(runs))
	}
	if res, err := s.TestResults(ctx(), a.ID, r.ID); err != nil || len(res) != 0 {
		t.Fatalf("results left: %v %d", err, len(res))
	}
}
