package testsets_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/chat"
	"svc/internal/demo/demotest"
	"svc/internal/engine"
	"svc/internal/errs"
	"svc/internal/kb"
	"svc/internal/store"
	"svc/internal/store/storetest"
	"svc/internal/store/teststore"
	"svc/internal/testsets"
)

func ctx() context.Context { return context.Background() }

// fixture is an account holding the demo KB, and a Service over it.
type fixture struct {
	st  store.Store
	eng *engine.Engine
	svc *testsets.Service
	a   store.Account
}

func newFixture(t *testing.T, d testsets.Deps) *fixture {
	t.Helper()
	st := teststore.Open(t, d.Now)
	a, _ := storetest.NewAccount(t, st, "Yolcu Outdoor", 5_000_000)
	if _, err := st.ImportDocuments(ctx(), a.ID, demotest.Docs(t)); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(st, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.Store = st
	if d.Answerer == nil {
		d.Answerer = eng
	}
	return &fixture{st: st, eng: eng, svc: testsets.New(d), a: a}
}

// demoTests are tests of the demo KB: three it answers, one it must decline, one it cannot
// answer (it fails: the fallback), one whose expectation is wrong (it fails).
const demoTests = `{"q":"How much does the Uludağ 2 Tent cost?","lang":"en","expect":["$199.00"],"product":"Uludag 2 tent","answerable":true}
{"q":"Kargo ne kadar sürer?","lang":"tr","expect":["1–3 İŞ GÜNÜ"],"answerable":true}
{"q":"Wie lange dauert der Versand?","expect":["5–7 werktage"],"answerable":true}
{"q":"Do you offer gift wrapping?","answerable":false}
{"q":"Do you deliver on Saturdays?","lang":"en","expect":["Saturday"],"answerable":true}
{"q":"How long is the warranty?","lang":"en","expect":["10-year"],"answerable":true}
`

func (f *fixture) importDemo(t *testing.T) []store.TestCase {
	t.Helper()
	res, err := f.svc.Import(ctx(), f.a.ID, strings.NewReader(demoTests))
	if err != nil || res.Added != 6 || res.Total != 6 {
		t.Fatalf("import: %+v %v", res, err)
	}
	cases, err := f.svc.List(ctx(), f.a.ID)
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestParseRejectsEveryBadLineByNumber(t *testing.T) {
	t.Parallel()
	file := `{"q":"Do you ship to Austria?","lang":"en","expect":["Austria"],"answerable":true}

{"q":"Versand?","lang":"fr","answerable":true}
{"q":"Gift cards?","answerable":false,"expect":["x"]}
{"q":"Returns?","lang":"en"}
not json
{"q":"ok","lang":"en","answerable":true,"expected":["x"]}
{"q":"` + strings.Repeat("a", 2001) + `","lang":"en","answerable":true}
{"q":"a\u0000b","lang":"en","answerable":true}
{"q":"?!","lang":"en","answerable":true}
{"q":"Do you ship to Austria?","lang":"en","answerable":true}
`
	_, err := testsets.Parse(strings.NewReader(file))
	var ie *testsets.ImportError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v, want an ImportError", err)
	}
	var lines []int
	for _, l := range ie.Lines {
		lines = append(lines, l.Line)
	}
	if !slices.Equal(lines, []int{3, 4, 5, 6, 7, 8, 9, 10}) {
		t.Fatalf("bad lines %v, want 3 to 10:\n%v", lines, err)
	}
	for _, want := range []string{`line 3: The language must be tr, en or de, not "fr".`, "line 4: A question the assistant should not know",
		`line 5: "answerable" is required`, "line 6: not a test object", `unknown field "expected"`,
		"line 8: The question is longer than 2000 characters.", "line 9: The question contains a NUL", "line 10: The question has no words.",
		"(nothing was imported)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if e := ie.AsClientError(); e.Kind != errs.BadRequest {
		t.Errorf("client error kind %v", e.Kind)
	}
	for file, want := range map[string]string{"\n\n": "The file holds no tests.",
		strings.Repeat(`{"q":"x","answerable":false}`+"\n", 1+testsets.MaxImportBytes/28): "larger than 4 MiB"} {
		if _, err := testsets.Parse(strings.NewReader(file)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	}
}

func TestExportImportsAgainAsTheSameSet(t *testing.T) {
	t.Parallel()
	f := newFixture(t, testsets.Deps{})
	cases := f.importDemo(t)
	if c := cases[2]; c.Lang != "de" || c.Origin != store.TestOriginImport || c.Key != "wie lange dauert der versand" {
		t.Fatalf("detected language, origin, key: %+v", c)
	}
	var out bytes.Buffer
	if err := f.svc.Export(ctx(), f.a.ID, &out); err != nil {
		t.Fatal(err)
	}
	if got := strings.Split(out.String(), "\n")[3]; got != `{"q":"Do you offer gift wrapping?","lang":"en","answerable":false}` {
		t.Errorf("exported line %q", got)
	}
	again, err := testsets.Parse(bytes.NewReader(out.Bytes()))
	if err != nil || len(again) != len(cases) {
		t.Fatalf("re-parse: %v %d", err, len(again))
	}
	for i := range again {
		c, d := cases[i], again[i]
		if c.Question != d.Question || c.Lang != d.Lang || !slices.Equal(c.Expect, d.Expect) || c.Answerable != d.Answerable ||
			c.Product != d.Product || c.Key != d.Key {
			t.Errorf("line %d: %+v, exported as %+v", i+1, c, d)
		}
	}
	// Importing it again adds nothing: every line is a duplicate (the question folded).
	res, err := f.svc.Import(ctx(), f.a.ID, strings.NewReader(strings.ToUpper(out.String()[:0])+out.String()))
	if err != nil || res.Added != 0 || res.Duplicates != 6 || res.Total != 6 {
		t.Fatalf("again: %+v %v", res, err)
	}
	if _, err := f.svc.Add(ctx(), f.a.ID, testsets.Input{Question: "  do you offer GIFT wrapping ", Lang: "en"}); errs.KindOf(err) != errs.BadRequest ||
		!strings.Contains(err.Error(), "already a test") {
		t.Fatalf("duplicate add: %v", err)
	}
}

func TestImportIsCappedAndAllOrNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, testsets.Deps{})
	var b strings.Builder
	for i := range testsets.MaxTests - 1 {
		fmt.Fprintf(&b, `{"q":"Question number %d","lang":"en","answerable":true}`+"\n", i)
	}
	if res, err := f.svc.Import(ctx(), f.a.ID, strings.NewReader(b.String())); err != nil || res.Added != testsets.MaxTests-1 {
		t.Fatalf("import %d: %+v %v", testsets.MaxTests-1, res, err)
	}
	two := `{"q":"One more","lang":"en","answerable":true}` + "\n" + `{"q":"And another","lang":"en","answerable":true}`
	if _, err := f.svc.Import(ctx(), f.a.ID, strings.NewReader(two)); errs.KindOf(err) != errs.TooMany {
		t.Fatalf("past the cap: %v", err)
	}
	if n, _ := f.st.CountTestCases(ctx(), f.a.ID); n != testsets.MaxTests-1 {
		t.Fatalf("%d tests after a refused import", n)
	}
	bad := `{"q":"Fine","lang":"en","answerable":true}` + "\n" + `{"q":"Broken","lang":"xx","answerable":true}`
	if _, err := f.svc.Import(ctx(), f.a.ID, strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("bad line: %v", err)
	}
	if n, _ := f.st.CountTestCases(ctx(), f.a.ID); n != testsets.MaxTests-1 {
		t.Fatalf("%d tests after a file with a bad line", n)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	answer := store.Message{Body: "Teslimat 1–3 İş Günü sürer; Größe: 42. See https://x.test/p/tent", Source: store.SourceAI,
		Products: []store.Product{{Name: "Uludağ 2 Tent", URL: "https://x.test/p/tent/"}}, DocIDs: []int64{7, 9}}
	fallback := store.Message{Body: "I could not find an answer.", Source: store.SourceFallback, LowConfidence: true}
	for _, c := range []struct {
		name   string
		tc     store.TestCase
		reply  store.Message
		passed bool
		reason string
	}{
		{"accents and case", store.TestCase{Answerable: true, Expect: []string{"is gunu", "GROSSE", "  1–3  iş"}}, answer, true, ""},
		{"missing texts", store.TestCase{Answerable: true, Expect: []string{"sürer", "Saturday", "Sunday"}}, answer, false, "missing_text: Saturday | Sunday"},
		{"product by name", store.TestCase{Answerable: true, Product: "uludag 2 tent"}, answer, true, ""},
		{"product by URL", store.TestCase{Answerable: true, Product: "https://x.test/p/tent"}, answer, true, ""},
		{"product by id", store.TestCase{Answerable: true, Product: "9"}, answer, true, ""},
		{"another product", store.TestCase{Answerable: true, Product: "Aladağ 35"}, answer, false, "missing_product: Aladağ 35"},
		{"the fallback to an answerable question", store.TestCase{Answerable: true}, fallback, false, "low_confidence"},
		{"declined as it should", store.TestCase{}, fallback, true, ""},
		{"answered instead of declining", store.TestCase{}, answer, false, "answered"},
	} {
		passed, reason := testsets.Check(c.tc, c.reply)
		if passed != c.passed || reason != c.reason {
			t.Errorf("%s: %v %q, want %v %q", c.name, passed, reason, c.passed, c.reason)
		}
	}
	if code, detail := testsets.ReasonCode("missing_text: a | b"); code != "missing_text" || detail != "a | b" {
		t.Errorf("reason code %q %q", code, detail)
	}
}

// accountState is what a run must leave as it found it.
type accountState struct {
	balance, reserved int64
	events, ledger    int
	conversations     int
}

func stateOf(t *testing.T, st store.Store, accountID int64) accountState {
	t.Helper()
	a, err := st.GetAccount(ctx(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.UsageSummary(ctx(), accountID, time.Time{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	l, err := st.Ledger(ctx(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	convs, err := st.ListConversations(ctx(), accountID, store.ConversationFilter{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return accountState{a.BalanceMicro, a.ReservedMicro, u.AllTimeCount, len(l), len(convs)}
}

func TestRunAsksEveryTestWritesNothingAndDiffs(t *testing.T) {
	t.Parallel()
	f := newFixture(t, testsets.Deps{})
	cases := f.importDemo(t)
	before := stateOf(t, f.st, f.a.ID)
	rep, err := f.svc.RunNow(ctx(), f.a.ID, store.TestTriggerCLI)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != store.TestRunDone || rep.Total != 6 || rep.Passed != 4 || rep.Failed != 2 || len(rep.Results) != 6 || rep.CostUSD != 0 {
		t.Fatalf("report %+v", rep)
	}
	for i, r := range rep.Results {
		if r.TestID != cases[i].ID || r.Q != cases[i].Question || r.Reply == "" || r.Source == "" {
			t.Errorf("result %d: %+v", i, r)
		}
	}
	if r := rep.Results[4]; r.Passed || r.Reason != "low_confidence" || !r.LowConfidence || r.Source != store.SourceFallback {
		t.Errorf("unanswered: %+v", r)
	}
	if r := rep.Results[5]; r.Passed || r.Reason != "missing_text: 10-year" {
		t.Errorf("wrong expectation: %+v", r)
	}
	if r := rep.Results[3]; !r.Passed || r.Source != store.SourceFallback {
		t.Errorf("declined: %+v", r)
	}
	if after := stateOf(t, f.st, f.a.ID); after != before {
		t.Fatalf("a run changed the account: %+v, was %+v", after, before)
	}
	// A change of the KB breaks the tent's test: its product is gone.
	rows, _, err := f.st.ListDocuments(ctx(), f.a.ID, store.DocQuery{Type: store.DocProduct, Query: "Uluda", Limit: 10})
	if err != nil || len(rows) == 0 {
		t.Fatalf("tent: %v %v", rows, err)
	}
	for _, r := range rows {
		if err := f.st.DeleteDocument(ctx(), f.a.ID, r.ID); err != nil {
			t.Fatal(err)
		}
	}
	// An answer fixes the warranty's: its expectation becomes the curated answer.
	fix, err := f.svc.AnswerThis(ctx(), f.a.ID, cases[5].ID, "Every product has a 10-year warranty.")
	if err != nil || !fix.Result.Passed || fix.QAID == 0 || fix.Result.Source != store.SourceCacheTenant {
		t.Fatalf("answer this: %+v %v", fix, err)
	}
	qa, err := f.st.GetDocument(ctx(), f.a.ID, fix.QAID)
	if err != nil || qa.Type != store.DocQA || qa.Title != cases[5].Question {
		t.Fatalf("the curated entry: %+v %v", qa, err)
	}
	second, err := f.svc.RunNow(ctx(), f.a.ID, store.TestTriggerQA)
	if err != nil {
		t.Fatal(err)
	}
	if second.Passed != 4 || second.Broken != 1 || second.Fixed != 1 {
		t.Fatalf("second run %+v", second)
	}
	d, err := f.svc.Diff(ctx(), f.a.ID, second.RunID)
	if err != nil || d.Previous == nil || d.Previous.ID != rep.RunID || len(d.Broken) != 1 || len(d.Fixed) != 1 ||
		d.Broken[0].TestID != cases[0].ID || d.Fixed[0].TestID != cases[5].ID || d.Broken[0].Reason == "" {
		t.Fatalf("diff %+v %v", d, err)
	}
	// The same pass rate: no regression, no notice.
	if _, ok, err := f.svc.LatestRegression(ctx(), f.a.ID); ok || err != nil {
		t.Fatalf("regression at the same rate: %v %v", ok, err)
	}
	// Deleting the curated entry again lowers the rate after a Q&A edit: a regression with
	// its owner notice.
	if err := f.st.DeleteDocument(ctx(), f.a.ID, fix.QAID); err != nil {
		t.Fatal(err)
	}
	third, err := f.svc.RunNow(ctx(), f.a.ID, store.TestTriggerQA)
	if err != nil || third.Passed != 3 || third.Broken != 1 {
		t.Fatalf("third run %+v %v", third, err)
	}
	reg, ok, err := f.svc.LatestRegression(ctx(), f.a.ID)
	if err != nil || !ok || reg.Run.ID != third.RunID || !reg.Current || reg.Trigger != store.TestTriggerQA || len(reg.Broken) != 1 ||
		reg.Broken[0].Question != cases[5].Question {
		t.Fatalf("regression %+v %v %v", reg, ok, err)
	}
	notices, err := f.st.Notices(ctx(), f.a.ID)
	if err != nil || len(notices) != 1 || notices[0].Kind != store.NoticeTestsBroken ||
		!strings.Contains(notices[0].Payload, `"q":"How long is the warranty?"`) {
		t.Fatalf("notices %+v %v", notices, err)
	}
	runs, err := f.svc.Runs(ctx(), f.a.ID, 0)
	if err != nil || len(runs) != 3 || runs[0].ID != third.RunID {
		t.Fatalf("runs %+v %v", runs, err)
	}
	sum, err := f.svc.Summary(ctx(), f.a.ID)
	if err != nil || sum.Tests != 6 || sum.Last == nil || sum.Last.ID != third.RunID || sum.Regression == nil ||
		sum.Regression.Run.ID != third.RunID {
		t.Fatalf("summary %+v %v", sum, err)
	}
	// Runs started by a person regress without a mail: they are watching.
	if err := f.st.DeleteDocument(ctx(), f.a.ID, mustDoc(t, f, "kargo-ve-teslimat")); err != nil {
		t.Fatal(err)
	}
	manual, err := f.svc.RunNow(ctx(), f.a.ID, store.TestTriggerCLI)
	if err != nil || manual.Broken == 0 {
		t.Fatalf("manual run %+v %v", manual, err)
	}
	if n, _ := f.st.Notices(ctx(), f.a.ID); len(n) != 1 {
		t.Fatalf("a manual run queued a notice: %+v", n)
	}
}

// mustDoc is the id of a page of the account whose text holds q.
func mustDoc(t *testing.T, f *fixture, q string) int64 {
	t.Helper()
	rows, _, err := f.st.ListDocuments(ctx(), f.a.ID, store.DocQuery{Type: store.DocPage, Lang: "tr", Query: q, Limit: 1})
	if err != nil || len(rows) == 0 {
		t.Fatalf("document %q: %v", q, err)
	}
	return rows[0].ID
}

// budgeted is an answerer that holds a token budget per answer, as a model's does.
type budgeted struct{ chat.Answerer }

func (budgeted) Budget(engine.Request, []engine.Turn) (int, int) { return 2000, 500 }

func TestBilledRunChargesWhatItsAnswersCost(t *testing.T) {
	t.Parallel()
	f := newFixture(t, testsets.Deps{Billed: true})
	f.svc = testsets.New(testsets.Deps{Store: f.st, Answerer: budgeted{f.eng}, Billed: true})
	f.importDemo(t)
	est, err := f.svc.Estimate(ctx(), f.a.ID)
	if err != nil || !est.Billed || est.Tests != 6 || est.WorstMicro == 0 || est.TypicalMicro != est.WorstMicro || !est.Affordable {
		t.Fatalf("estimate %+v %v", est, err)
	}
	before := stateOf(t, f.st, f.a.ID)
	rep, err := f.svc.RunNow(ctx(), f.a.ID, store.TestTriggerCLI)
	if err != nil || rep.Status != store.TestRunDone {
		t.Fatalf("run %+v %v", rep, err)
	}
	after := stateOf(t, f.st, f.a.ID)
	run, err := f.svc.Progress(ctx(), f.a.ID, rep.RunID)
	if err != nil || run.CostMicro <= 0 || run.CostMicro > est.WorstMicro {
		t.Fatalf("cost %d of at most %d: %v", run.CostMicro, est.WorstMicro, err)
	}
	// One usage event and one ledger row for the one batch; no conversation; nothing held.
	if after.balance != before.balance-run.CostMicro || after.reserved != 0 || after.events != before.events+1 ||
		after.ledger != before.ledger+1 || after.conversations != 0 {
		t.Fatalf("after a billed run %+v, before %+v, cost %d", after, before, run.CostMicro)
	}
	u, _ := f.st.UsageSummary(ctx(), f.a.ID, time.Time{}, 0)
	if u.ByEvent[testsets.EventTestRun].CostMicro != run.CostMicro {
		t.Fatalf("usage %+v", u.ByEvent)
	}
	// Without money the run is refused before it starts.
	if _, err := f.st.AddBalance(ctx(), f.a.ID, -after.balance, "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.RunNow(ctx(), f.a.ID, store.TestTriggerCLI); errs.KindOf(err) != errs.TooMany {
		t.Fatalf("run without balance: %v", err)
	}
}

func TestStaleRunReadsAsFailed(t *testing.T) {
	t.Parallel()
	clock := storetest.ClockAt(time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC))
	f := newFixture(t, testsets.Deps{Now: clock.Now})
	f.importDemo(t)
	run := &store.TestRun{AccountID: f.a.ID, Trigger: store.TestTriggerManual, Total: 6}
	if err := f.st.StartTestRun(ctx(), run, clock.Now().Add(-time.Hour), testsets.KeepRuns); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.RunNow(ctx(), f.a.ID, store.TestTriggerCLI); !errors.Is(err, testsets.ErrRunning) {
		t.Fatalf("beside a live run: %v", err)
	}
	clock.Advance(testsets.DefaultStaleAfter + time.Second) // its process died
	got, err := f.svc.Progress(ctx(), f.a.ID, run.ID)
	if err != nil || got.Status != store.TestRunFailed || !strings.Contains(got.Error, "interrupted") {
		t.Fatalf("a dead run reads %+v %v", got, err)
	}
	if rep, err := f.svc.RunNow(ctx(), f.a.ID, store.TestTriggerCLI); err != nil || rep.Status != store.TestRunDone {
		t.Fatalf("a run after a dead one: %+v %v", rep, err)
	}
	if n, err := f.svc.FailStale(ctx()); err != nil || n != 0 {
		t.Fatalf("fail stale: %d %v", n, err)
	}
	if _, err := f.svc.Progress(ctx(), f.a.ID+1, run.ID); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("another account's run: %v", err)
	}
}

// The runner starts one run per account however many are asked for at once, runs it in the
// background, and a burst of KB changes makes one regression run.
func TestRunnerOneRunPerAccountAndDebounce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, testsets.Deps{})
	f.importDemo(t)
	finished := make(chan store.TestRun, 10)
	r := testsets.NewRunner(f.svc, testsets.RunnerOptions{Debounce: 20 * time.Millisecond,
		Finished: func(run store.TestRun) { finished <- run }})
	defer r.Serve(ctx())()
	var started []store.TestRun
	var mu sync.Mutex
	var wg sync.WaitGroup
	refused := 0
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run, err := r.Start(ctx(), f.a.ID, store.TestTriggerManual)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				started = append(started, run)
			case errors.Is(err, testsets.ErrRunning):
				refused++
			default:
				t.Errorf("start: %v", err)
			}
		}()
	}
	wg.Wait()
	if len(started) != 1 || refused != 1 || started[0].Status != store.TestRunRunning || started[0].Total != 6 {
		t.Fatalf("two starts at once: %+v, %d refused", started, refused)
	}
	run := <-finished
	if run.ID != started[0].ID || run.Status != store.TestRunDone || run.Done != 6 || run.Passed != 4 {
		t.Fatalf("finished %+v", run)
	}
	// A change of the KB reported three times starts one run, named after the strongest
	// trigger.
	if _, err := f.st.ImportDocuments(ctx(), f.a.ID, []store.Document{qaDoc(t, "Do you deliver on Saturdays?", "Yes, on Saturdays too.")}); err != nil {
		t.Fatal(err)
	}
	r.KBChanged(f.a.ID, store.TestTriggerQA)
	r.KBChanged(f.a.ID, store.TestTriggerCrawl)
	r.KBChanged(f.a.ID, store.TestTriggerQA)
	run = <-finished
	if run.Trigger != store.TestTriggerCrawl || run.Passed != 5 || run.Fixed != 1 {
		t.Fatalf("regression run %+v", run)
	}
	runs, _ := f.svc.Runs(ctx(), f.a.ID, 0)
	if len(runs) != 2 {
		t.Fatalf("%d runs after one burst of changes, want 2", len(runs))
	}
}

func qaDoc(t *testing.T, q, a string) store.Document {
	t.Helper()
	d, err := kb.CuratedAnswer(q, a, "en")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestAnswerThisRefusesWhatCannotBeAnEntry(t *testing.T) {
	t.Parallel()
	f := newFixture(t, testsets.Deps{})
	cases := f.importDemo(t)
	docs, _ := f.st.CountDocuments(ctx(), f.a.ID)
	for _, c := range []struct {
		test   int64
		answer string
		kind   errs.Kind
		want   string
	}{
		{cases[3].ID, "We wrap gifts.", errs.BadRequest, "make it answerable first"},
		{cases[4].ID, "  ", errs.BadRequest, "missing or empty"},
		{cases[4].ID, strings.Repeat("a", testsets.MaxAnswerChars+1), errs.BadRequest, "longer than 2000"},
		{cases[4].ID + 100, "Yes.", errs.NotFound, "no test"},
	} {
		_, err := f.svc.AnswerThis(ctx(), f.a.ID, c.test, c.answer)
		if errs.KindOf(err) != c.kind || !strings.Contains(err.Error(), c.want) {
			t.Errorf("answer %q to test %d: %v, want %q", c.answer, c.test, err, c.want)
		}
	}
	// Another account's test is not found either.
	b, _ := storetest.NewAccount(t, f.st, "Other", 0)
	if _, err := f.svc.AnswerThis(ctx(), b.ID, cases[4].ID, "Yes."); errs.KindOf(err) != errs.NotFound {
		t.Errorf("another account's test: %v", err)
	}
	if n, _ := f.st.CountDocuments(ctx(), f.a.ID); n[store.DocQA] != docs[store.DocQA] {
		t.Errorf("refused answers stored %d entries", n[store.DocQA]-docs[store.DocQA])
	}
}
