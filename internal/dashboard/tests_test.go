package dashboard_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"svc/internal/config"
	"svc/internal/i18n"
	"svc/internal/llm/llmtest"
	"svc/internal/store"
	"svc/internal/testsets"
)

// tsTests are tests of the demo KB: the first four pass on it, the last fails (the KB does
// not say whether the shop delivers on Saturdays).
const tsTests = `{"q":"How much does the Uludag 2 Tent cost?","lang":"en","expect":["$199.00"],"product":"Uludag 2 Tent","answerable":true}
{"q":"Kargo ne kadar sürer?","lang":"tr","expect":["1–3 iş günü"],"answerable":true}
{"q":"Wie lange dauert der Versand?","expect":["5–7 Werktage"],"answerable":true}
{"q":"Do you offer gift wrapping?","answerable":false}
{"q":"Do you deliver on Saturdays?","lang":"en","expect":["Saturday"],"answerable":true}
`

// tsSaturday is the test of tsTests that fails on the demo KB.
const tsSaturday = "Do you deliver on Saturdays?"

// tsImport imports tests into the account through the service.
func tsImport(t testing.TB, h *harness, accountID int64, body string) {
	t.Helper()
	if _, err := h.app.Tests.Import(context.Background(), accountID, strings.NewReader(body)); err != nil {
		t.Fatal(err)
	}
}

// tsTest is the account's test of the question.
func tsTest(t testing.TB, h *harness, accountID int64, question string) store.TestCase {
	t.Helper()
	cases, err := h.app.Tests.List(context.Background(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.Question == question {
			return c
		}
	}
	t.Fatalf("no test %q among %d", question, len(cases))
	return store.TestCase{}
}

// tsWait waits for the run to end and returns it.
func tsWait(t testing.TB, h *harness, accountID, runID int64) store.TestRun {
	t.Helper()
	var run store.TestRun
	ok := uiUntil(60*time.Second, func() bool {
		var err error
		run, err = h.app.Tests.Progress(context.Background(), accountID, runID)
		if err != nil {
			t.Fatal(err)
		}
		return run.Status != store.TestRunRunning
	})
	if !ok {
		t.Fatalf("run %d still running: %+v", runID, run)
	}
	return run
}

var tsRunLocation = regexp.MustCompile(`^/dashboard/tests/runs/(\d+)$`)

// tsStart presses "Run all" and returns the run it opened.
func tsStart(t testing.TB, b *browser, form url.Values) int64 {
	t.Helper()
	p := b.post("/dashboard/tests/runs", form)
	m := tsRunLocation.FindStringSubmatch(p.Header.Get("Location"))
	if p.Status != http.StatusSeeOther || m == nil {
		t.Fatalf("run all: %d %q\n%s", p.Status, p.Header.Get("Location"), kbClip(p.Body))
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	return id
}

// The page lists the set for an owner and for an agent, each test with what it expects and
// its last result; both may add, edit, run and delete tests (agents keep the curated Q&A the
// tests check, so the set is theirs to keep too).
func TestTestsPageForOwnerAndAgent(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Tests Shop")
	tsImport(t, h, a.ID, tsTests)
	agentEmail, agentPW := h.user(a.ID, store.UserAgent)
	owner, agent := h.kbOwner(email, pw), h.kbOwner(agentEmail, agentPW)
	for who, b := range map[string]*browser{"owner": owner, "agent": agent} {
		p := b.get("/dashboard/tests")
		kbMustStatus(t, who+" list", p, http.StatusOK)
		mustContain(t, p.Body, `href="/dashboard/tests" aria-current="page"`, "How much does the Uludag 2 Tent cost?",
			"Kargo ne kadar sürer?", tsSaturday, "<q>$199.00</q>", "should say it does not know", "not run yet",
			`action="/dashboard/tests/runs"`, `href="/dashboard/tests/export" download`, "Uludag 2 Tent")
		if n := strings.Count(p.Body, `<tr id="test-`); n != 5 {
			t.Errorf("%s: %d rows, want 5", who, n)
		}
	}
	// The agent runs the set; both then see each test's result.
	run := tsWait(t, h, a.ID, tsStart(t, agent, nil))
	if run.Status != store.TestRunDone || run.Passed != 4 || run.Failed != 1 || run.Trigger != store.TestTriggerManual {
		t.Fatalf("run %+v", run)
	}
	for who, b := range map[string]*browser{"owner": owner, "agent": agent} {
		p := b.get("/dashboard/tests")
		if n := strings.Count(p.Body, `<span class="badge good">passed</span>`); n != 4 {
			t.Errorf("%s: %d passed badges, want 4", who, n)
		}
		mustContain(t, p.Body, `<span class="badge bad">failed</span>`, "The assistant said it does not know.", "80.0%", "4 of 5 passed")
	}
	// The agent adds, edits and deletes a test.
	p := agent.post("/dashboard/tests", url.Values{"question": {"Can I return a tent?"}, "lang": {"en"}, "answerable": {"yes"},
		"expect": {"return\n\n  30 days "}})
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/dashboard/tests" {
		t.Fatalf("agent adds: %d %s", p.Status, kbClip(p.Body))
	}
	tc := tsTest(t, h, a.ID, "Can I return a tent?")
	if !slices.Equal(tc.Expect, []string{"return", "30 days"}) || tc.Lang != "en" || !tc.Answerable || tc.Origin != store.TestOriginHand {
		t.Fatalf("added %+v", tc)
	}
	p = agent.get(fmt.Sprintf("/dashboard/tests/%d", tc.ID))
	kbMustStatus(t, "the test's page with its edit form", p, http.StatusOK)
	mustContain(t, p.Body, ">Can I return a tent?</textarea>", ">return\n30 days</textarea>")
	p = agent.post(fmt.Sprintf("/dashboard/tests/%d", tc.ID), url.Values{"question": {"Can I return a tent?"}, "lang": {"detect"},
		"answerable": {"no"}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("agent edits: %d %s", p.Status, kbClip(p.Body))
	}
	if tc = tsTest(t, h, a.ID, "Can I return a tent?"); tc.Answerable || len(tc.Expect) != 0 {
		t.Fatalf("edited %+v", tc)
	}
	if p = agent.post(fmt.Sprintf("/dashboard/tests/%d/delete", tc.ID), nil); p.Status != http.StatusSeeOther {
		t.Fatalf("agent deletes: %d", p.Status)
	}
	if n, _ := h.st.CountTestCases(context.Background(), a.ID); n != 5 {
		t.Fatalf("%d tests after the delete, want 5", n)
	}
	// A refused test shows the form again with why, in the user's language.
	de := inLang(t, h, email, pw, "de")
	p = de.post("/dashboard/tests", url.Values{"question": {tsSaturday}, "lang": {"en"}, "answerable": {"yes"}})
	kbMustStatus(t, "duplicate", p, http.StatusBadRequest)
	mustShowKeyed(t, i18n.MustLoad(), p, "de", "This question is already a test in that language.", "err.tests.duplicate")
	p = de.post("/dashboard/tests", url.Values{"question": {"Gift cards?"}, "answerable": {"no"}, "expect": {"card"}})
	kbMustStatus(t, "unanswerable with a text", p, http.StatusBadRequest)
	mustShowKeyed(t, i18n.MustLoad(), p, "de", "", "err.tests.unanswerable_expect")
	mustContain(t, p.Body, ">Gift cards?</textarea>")
	if p = owner.get("/dashboard/tests?page=x"); p.Status != http.StatusBadRequest {
		t.Errorf("a bad page number: %d", p.Status)
	}
}

// An import with bad lines lists each by its number, with its reason in the user's
// language, and stores nothing; a good file is imported, and again it adds nothing.
func TestTestsImportListsBadLinesAndStoresNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Import Shop")
	b := h.kbOwner(email, pw)
	mustContain(t, b.get("/dashboard/tests/import").Body, `enctype="multipart/form-data"`, `<label for="ti-file">`)
	bad := tsTests + `{"q":"Returns?","lang":"en"}` + "\n" + `{"q":"Versand?","lang":"fr","answerable":true}` + "\n" + "not json\n"
	p := b.kbUpload("/dashboard/tests/import", "file", "tests.jsonl", []byte(bad), nil)
	kbMustStatus(t, "bad file", p, http.StatusBadRequest)
	mustContain(t, p.Body, "Nothing was imported", `Line 6: &#34;answerable&#34; is required`,
		`Line 7: The language must be tr, en or de, not &#34;fr&#34;.`, "Line 8: The line is not a test object:")
	if n, _ := h.st.CountTestCases(context.Background(), a.ID); n != 0 {
		t.Fatalf("a bad file stored %d tests", n)
	}
	p = b.kbUpload("/dashboard/tests/import", "", "", nil, nil)
	kbMustStatus(t, "no file", p, http.StatusBadRequest)
	mustContain(t, p.Body, "Choose a file to import.")
	p = b.kbUpload("/dashboard/tests/import", "file", "empty.jsonl", []byte("\n\n"), nil)
	kbMustStatus(t, "empty file", p, http.StatusBadRequest)
	mustContain(t, p.Body, "The file holds no tests.")

	p = b.kbUpload("/dashboard/tests/import", "file", "tests.jsonl", []byte(tsTests), nil)
	kbMustStatus(t, "good file", p, http.StatusOK)
	mustContain(t, p.Body, "5 tests added.", "The set now holds 5 tests.")
	p = b.kbUpload("/dashboard/tests/import", "file", "tests.jsonl", []byte(tsTests), nil)
	mustContain(t, p.Body, "0 tests added.", "5 were in the set already.", "The set now holds 5 tests.")

	// In the user's language (the language is the user's: b reads Turkish from now on).
	tr := inLang(t, h, email, pw, "tr")
	p = tr.kbUpload("/dashboard/tests/import", "file", "tests.jsonl", []byte(bad), nil)
	kbMustStatus(t, "bad file (tr)", p, http.StatusBadRequest)
	mustContain(t, p.Body, "Satır 6: &#34;answerable&#34; zorunlu", "Satır 7: Dil tr, en ya da de olmalı")
}

// The export is the import format: imported into another account it makes the same set.
func TestTestsExportRoundTrip(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Export Shop")
	tsImport(t, h, a.ID, tsTests)
	b := h.kbOwner(email, pw)
	p := b.get("/dashboard/tests/export")
	kbMustStatus(t, "export", p, http.StatusOK)
	if ct := p.Header.Get("Content-Type"); ct != "application/x-ndjson; charset=utf-8" {
		t.Errorf("content type %q", ct)
	}
	if cd := p.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") {
		t.Errorf("disposition %q", cd)
	}
	if n := strings.Count(p.Body, "\n"); n != 5 {
		t.Fatalf("%d lines:\n%s", n, p.Body)
	}
	mustContain(t, p.Body, `{"q":"Wie lange dauert der Versand?","lang":"de","expect":["5–7 Werktage"],"answerable":true}`)

	a2, _, email2, pw2 := h.tenant("Second Shop")
	b2 := h.kbOwner(email2, pw2)
	up := b2.kbUpload("/dashboard/tests/import", "file", "svc-tests.jsonl", []byte(p.Body), nil)
	kbMustStatus(t, "import the export", up, http.StatusOK)
	key := func(c store.TestCase) string {
		return fmt.Sprint(c.Question, c.Lang, c.Expect, c.Answerable, c.Product)
	}
	one, _ := h.app.Tests.List(context.Background(), a.ID)
	two, _ := h.app.Tests.List(context.Background(), a2.ID)
	if len(one) != 5 || len(two) != 5 {
		t.Fatalf("%d and %d tests", len(one), len(two))
	}
	for i := range one {
		if key(one[i]) != key(two[i]) {
			t.Errorf("test %d: %s, exported and imported %s", i, key(one[i]), key(two[i]))
		}
	}
	if again := b2.get("/dashboard/tests/export"); again.Body != p.Body {
		t.Errorf("the second account's export differs:\n%s\n%s", p.Body, again.Body)
	}
}

// "Add as a test" on a transcript's question and on a review item opens the form filled in
// with the question, its language and the reply it got; the test remembers where it came
// from. Another account's message or item is a 404.
func TestTestsAddFromTranscriptAndReview(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, key, email, pw := h.tenant("Origin Shop")
	_, key2, _, _ := h.tenant("Other Shop")
	b := h.kbOwner(email, pw)
	sent := cvAsk(t, h, key, tsSaturday)
	q, reply := sent.question(), sent.reply()
	p := b.get(fmt.Sprintf("/dashboard/conversations/%d", sent.ConversationID))
	link := fmt.Sprintf("/dashboard/tests/new?conversation=%d&amp;message=%d", sent.ConversationID, q.ID)
	mustContain(t, p.Body, `href="`+link+`"`, "Add as a test")
	if strings.Contains(p.Body, fmt.Sprintf("message=%d\"", reply.ID)) {
		t.Error("the assistant's reply has an add-as-a-test link")
	}
	p = b.get(strings.ReplaceAll(link, "&amp;", "&"))
	kbMustStatus(t, "form from a transcript", p, http.StatusOK)
	mustContain(t, p.Body, ">"+tsSaturday+"</textarea>", `<option value="en" selected>`, "What the assistant replied",
		`name="origin" value="transcript"`, fmt.Sprintf(`name="ref" value="%d"`, q.ID))
	mustContain(t, p.Body, htmlText(strings.SplitN(reply.Body, "\n", 2)[0]))
	p = b.post("/dashboard/tests", url.Values{"question": {tsSaturday}, "lang": {"en"}, "answerable": {"yes"},
		"expect": {"Saturday"}, "origin": {"transcript"}, "ref": {strconv.FormatInt(q.ID, 10)}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("add: %d %s", p.Status, kbClip(p.Body))
	}
	if tc := tsTest(t, h, a.ID, tsSaturday); tc.Origin != store.TestOriginTranscript || tc.OriginRef != strconv.FormatInt(q.ID, 10) {
		t.Errorf("test from a transcript: %+v", tc)
	}

	// The review queue: the fallback reply's question is an open item.
	var items []store.ReviewQueueItem
	items, _, err := h.st.ReviewQueue(context.Background(), a.ID, store.ReviewFallback, 0, 10)
	if err != nil || len(items) == 0 {
		t.Fatalf("review queue: %v %+v", err, items)
	}
	it := items[0]
	p = b.get("/dashboard/review/fallback/" + strconv.FormatInt(it.ID, 10))
	mustContain(t, p.Body, fmt.Sprintf(`href="/dashboard/tests/new?review=fallback&amp;item=%d"`, it.ID))
	p = b.get(fmt.Sprintf("/dashboard/tests/new?review=fallback&item=%d", it.ID))
	kbMustStatus(t, "form from the review queue", p, http.StatusOK)
	mustContain(t, p.Body, `name="origin" value="review"`, fmt.Sprintf(`name="ref" value="fallback:%d"`, it.ID), ">"+it.Question+"</textarea>")
	p = b.post("/dashboard/tests", url.Values{"question": {"Do you deliver on Sundays?"}, "lang": {"en"}, "answerable": {"yes"},
		"origin": {"review"}, "ref": {fmt.Sprintf("fallback:%d", it.ID)}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("add from review: %d %s", p.Status, kbClip(p.Body))
	}
	if tc := tsTest(t, h, a.ID, "Do you deliver on Sundays?"); tc.Origin != store.TestOriginReview || tc.OriginRef != testsets.ReviewRef(store.ReviewFallback, it.ID) {
		t.Errorf("test from review: %+v", tc)
	}
	// A forged origin is a test typed in.
	p = b.post("/dashboard/tests", url.Values{"question": {"Forged?"}, "lang": {"en"}, "answerable": {"no"},
		"origin": {"review"}, "ref": {"bogus:1"}})
	if tc := tsTest(t, h, a.ID, "Forged?"); tc.Origin != store.TestOriginHand || tc.OriginRef != "" {
		t.Errorf("forged origin: %+v", tc)
	}
	// The overview's link: a question and a language.
	p = b.get("/dashboard/tests/new?q=" + url.QueryEscape("Kargo ücreti ne kadar?") + "&lang=tr")
	mustContain(t, p.Body, ">Kargo ücreti ne kadar?</textarea>", `<option value="tr" selected>`, `name="origin" value="hand"`)

	// Another account's message and item.
	other := cvAsk(t, h, key2, "Do you deliver on Mondays?")
	for _, path := range []string{
		fmt.Sprintf("/dashboard/tests/new?conversation=%d&message=%d", other.ConversationID, other.question().ID),
		fmt.Sprintf("/dashboard/tests/new?conversation=%d&message=%d", sent.ConversationID, reply.ID), // not a question
		"/dashboard/tests/new?conversation=x&message=1",
		"/dashboard/tests/new?review=fallback&item=" + strconv.FormatInt(other.question().ID, 10),
		"/dashboard/tests/new?review=nope&item=1",
	} {
		if p := b.get(path); p.Status != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, p.Status)
		}
	}
}

// A run from the button: its page shows the progress, then the results with the failed
// test's reason; "answer this" stores the curated entry and the test passes when asked
// again. The next run shows it fixed.
func TestTestsRunAndAnswerThis(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Run Shop")
	tsImport(t, h, a.ID, tsTests)
	b := h.kbOwner(email, pw)
	id := tsStart(t, b, nil)
	p := b.get(fmt.Sprintf("/dashboard/tests/runs/%d", id))
	kbMustStatus(t, "run page", p, http.StatusOK)
	mustContain(t, p.Body, "The run has started.", `id="run-body"`, "Started by hand")
	run := tsWait(t, h, a.ID, id)
	if run.Passed != 4 {
		t.Fatalf("run %+v", run)
	}
	// The poll after the end answers the results in place of the run's section.
	p = b.hxGet(fmt.Sprintf("/dashboard/tests/runs/%d/progress", id))
	kbMustStatus(t, "progress", p, http.StatusOK)
	if p.Header.Get("HX-Retarget") != "#run-body" || strings.Contains(p.Body, "hx-trigger") {
		t.Errorf("the ended run's poll: retarget %q\n%s", p.Header.Get("HX-Retarget"), kbClip(p.Body))
	}
	mustContain(t, p.Body, "The run has finished: 4 of 5 passed.", "1 failed", tsSaturday, "The assistant said it does not know.")
	if p := b.get(fmt.Sprintf("/dashboard/tests/runs/%d/progress", id)); p.Status != http.StatusSeeOther {
		t.Errorf("the progress without htmx: %d", p.Status)
	}
	tc := tsTest(t, h, a.ID, tsSaturday)
	p = b.get(fmt.Sprintf("/dashboard/tests/runs/%d", id))
	mustContain(t, p.Body, fmt.Sprintf(`id="result-%d"`, tc.ID), fmt.Sprintf(`hx-post="/dashboard/tests/%d/answer"`, tc.ID),
		"4 passed", "Show the tests that passed")
	if strings.Count(p.Body, `class="test-fix"`) != 1 {
		t.Errorf("answer-this forms: %d, want 1 (the failed answerable test)", strings.Count(p.Body, `class="test-fix"`))
	}
	runs := b.get("/dashboard/tests/runs")
	mustContain(t, runs.Body, fmt.Sprintf(`href="/dashboard/tests/runs/%d"`, id), "4 of 5 passed (80.0%)", "finished")

	// A refused answer: the form again, with why.
	p = b.hxPost(fmt.Sprintf("/dashboard/tests/%d/answer", tc.ID), url.Values{"answer": {"  "}})
	kbMustStatus(t, "empty answer (htmx)", p, http.StatusOK)
	mustContain(t, p.Body, `role="alert"`, "The answer is missing or empty.", fmt.Sprintf(`id="fix-%d"`, tc.ID), " open>")
	p = b.post(fmt.Sprintf("/dashboard/tests/%d/answer", tc.ID), url.Values{"answer": {""}})
	kbMustStatus(t, "empty answer", p, http.StatusBadRequest)
	mustContain(t, p.Body, "The answer is missing or empty.")
	decline := tsTest(t, h, a.ID, "Do you offer gift wrapping?")
	p = b.hxPost(fmt.Sprintf("/dashboard/tests/%d/answer", decline.ID), url.Values{"answer": {"Yes."}})
	mustContain(t, p.Body, "make it answerable first")

	// The answer: the test passes when asked again, in place.
	p = b.hxPost(fmt.Sprintf("/dashboard/tests/%d/answer", tc.ID),
		url.Values{"answer": {"Yes: we deliver on Saturday in Istanbul, Ankara and Izmir."}})
	kbMustStatus(t, "answer this", p, http.StatusOK)
	if p.Header.Get("HX-Retarget") != fmt.Sprintf("#result-%d", tc.ID) {
		t.Errorf("retarget %q", p.Header.Get("HX-Retarget"))
	}
	mustContain(t, p.Body, "Saved as a Q&amp;A entry. Asked again, the test passes.", `<span class="badge good">passed</span>`,
		"we deliver on Saturday")
	docs, _, err := h.st.ListDocuments(context.Background(), a.ID, store.DocQuery{Type: store.DocQA, Query: "Saturdays", Limit: 5})
	if err != nil || len(docs) != 1 || docs[0].Title != tsSaturday {
		t.Fatalf("the curated entry: %v %+v", err, docs)
	}
	// Without JavaScript: the test's page with the new result.
	p = b.post(fmt.Sprintf("/dashboard/tests/%d/answer", tc.ID), url.Values{"answer": {"Yes: every Saturday, in every city."}})
	kbMustStatus(t, "answer this without htmx", p, http.StatusOK)
	mustContain(t, p.Body, "Asked again, the test passes.", "every Saturday, in every city")

	next := tsWait(t, h, a.ID, tsStart(t, b, nil))
	if next.Passed != 5 || next.Fixed != 1 || next.Broken != 0 {
		t.Fatalf("the next run %+v", next)
	}
	p = b.get(fmt.Sprintf("/dashboard/tests/runs/%d", next.ID))
	mustContain(t, p.Body, "1 test was fixed", "Every test passed.", "The run before")
	// The test's own page shows its latest result.
	p = b.get(fmt.Sprintf("/dashboard/tests/%d", tc.ID))
	mustContain(t, p.Body, "Latest result", `<span class="badge good">passed</span>`, fmt.Sprintf(`href="/dashboard/tests/runs/%d"`, next.ID))
}

// A second "Run all" while a run runs opens that run rather than starting another; a set
// without tests cannot be run.
func TestTestsRunWhileRunningAndWithoutTests(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Busy Shop")
	b := h.kbOwner(email, pw)
	p := b.post("/dashboard/tests/runs", nil)
	kbMustStatus(t, "no tests", p, http.StatusBadRequest)
	mustContain(t, p.Body, "The account has no tests to run; add or import some first.")
	tsImport(t, h, a.ID, tsTests)
	// A run held open: the store's own start, as another process's run would be.
	held := &store.TestRun{AccountID: a.ID, Trigger: store.TestTriggerCLI, Total: 5}
	if err := h.st.StartTestRun(context.Background(), held, time.Now().Add(-time.Hour), testsets.KeepRuns); err != nil {
		t.Fatal(err)
	}
	p = b.post("/dashboard/tests/runs", nil)
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != fmt.Sprintf("/dashboard/tests/runs/%d", held.ID) {
		t.Fatalf("run while running: %d %q", p.Status, p.Header.Get("Location"))
	}
	p = b.get(p.Header.Get("Location"))
	mustContain(t, p.Body, "A run of the tests is in progress already.", `hx-trigger="every 1s"`, "0 of 5 asked", `aria-live="polite"`)
	p = b.hxGet(fmt.Sprintf("/dashboard/tests/runs/%d/progress", held.ID))
	if p.Header.Get("HX-Retarget") != "" || !strings.Contains(p.Body, `id="run-progress"`) || !strings.Contains(p.Body, `hx-trigger="every 1s"`) {
		t.Errorf("the running run's poll:\n%s", p.Body)
	}
	mustContain(t, b.get("/dashboard/tests").Body, "A run is in progress: 0 of 5 asked.")
}

// Another account's test and run ids answer 404 on every route, and change nothing.
func TestTestsOtherAccountsIDsAre404(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, email, pw := h.tenant("Mine")
	other, _, _, _ := h.tenant("Theirs")
	tsImport(t, h, other.ID, tsTests)
	run, err := h.app.Tests.RunNow(context.Background(), other.ID, store.TestTriggerCLI)
	if err != nil {
		t.Fatal(err)
	}
	theirs := tsTest(t, h, other.ID, tsSaturday)
	b := h.kbOwner(email, pw)
	tid, rid := strconv.FormatInt(theirs.ID, 10), strconv.FormatInt(run.RunID, 10)
	for _, path := range []string{"/dashboard/tests/" + tid, "/dashboard/tests/runs/" + rid,
		"/dashboard/tests/runs/0", "/dashboard/tests/x", "/dashboard/tests/runs/" + rid + "/progress"} {
		if p := b.get(path); p.Status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, p.Status)
		}
		if p := b.hxGet(path); p.Status != http.StatusNotFound {
			t.Errorf("GET %s (htmx): %d, want 404", path, p.Status)
		}
	}
	for path, form := range map[string]url.Values{
		"/dashboard/tests/" + tid:             {"question": {"Mine now?"}, "answerable": {"no"}},
		"/dashboard/tests/" + tid + "/delete": nil,
		"/dashboard/tests/" + tid + "/answer": {"answer": {"Yes, on Saturdays."}},
	} {
		if p := b.post(path, form); p.Status != http.StatusNotFound {
			t.Errorf("POST %s: %d, want 404", path, p.Status)
		}
	}
	if after := tsTest(t, h, other.ID, tsSaturday); after.Question != theirs.Question || !after.UpdatedAt.Equal(theirs.UpdatedAt) {
		t.Errorf("their test changed: %+v", after)
	}
	if docs, _, _ := h.st.ListDocuments(context.Background(), other.ID, store.DocQuery{Type: store.DocQA, Query: "Saturdays", Limit: 5}); len(docs) != 0 {
		t.Errorf("an answer went into their KB: %+v", docs)
	}
}

// Every POST of the tests pages from another origin is refused before it does anything.
func TestTestsPostsRefuseCrossOrigin(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Origin Guard")
	tsImport(t, h, a.ID, tsTests)
	tc := tsTest(t, h, a.ID, tsSaturday)
	b := h.kbOwner(email, pw)
	id := strconv.FormatInt(tc.ID, 10)
	for path, form := range map[string]url.Values{
		"/dashboard/tests":                   {"question": {"Evil?"}, "answerable": {"no"}},
		"/dashboard/tests/" + id:             {"question": {"Evil?"}, "answerable": {"no"}},
		"/dashboard/tests/" + id + "/delete": nil,
		"/dashboard/tests/" + id + "/answer": {"answer": {"Evil."}},
		"/dashboard/tests/runs":              nil,
		"/dashboard/tests/import":            {"file": {"{}"}},
	} {
		req := b.newPost(path, form)
		req.Header.Set("Origin", "https://evil.example")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		if p := b.do(req); p.Status != http.StatusForbidden {
			t.Errorf("cross-origin POST %s: %d, want 403", path, p.Status)
		}
	}
	if n, _ := h.st.CountTestCases(context.Background(), a.ID); n != 5 {
		t.Errorf("%d tests, want 5", n)
	}
	if runs, _ := h.app.Tests.Runs(context.Background(), a.ID, 5); len(runs) != 0 {
		t.Errorf("a cross-origin POST started %d runs", len(runs))
	}
	if after := tsTest(t, h, a.ID, tsSaturday); after.Question != tsSaturday || !after.UpdatedAt.Equal(tc.UpdatedAt) {
		t.Errorf("the test changed: %+v", after)
	}
}

// With a model configured a run is billed: "Run all" opens the estimate first, and only its
// confirmation starts the run.
func TestTestsRunWithModelShowsTheEstimateFirst(t *testing.T) {
	t.Parallel()
	srv := llmtest.Start(t, llmtest.Options{APIKey: "provider-key", Script: func(c llmtest.Call) llmtest.Step {
		return llmtest.Step{Text: `{"answer":"We deliver in 1–3 business days.","sources":[{"passage":1,"quote":"1–3"}]}`,
			InputTokens: 800, OutputTokens: 100}
	}})
	h := newHarness(t, withConfig(func(c *config.Config) {
		c.LLMProvider, c.LLMBaseURL, c.LLMAPIKey, c.LLMModel = "openai", srv.OpenAIBaseURL(), "provider-key", "gpt-test"
		c.LLMTimeout, c.LLMMaxRetries = 5*time.Second, 0
	}))
	a, _, email, pw := h.tenant("Billed Shop")
	tsImport(t, h, a.ID, tsTests)
	b := h.kbOwner(email, pw)
	p := b.get("/dashboard/tests")
	mustContain(t, p.Body, `<a class="btn" href="/dashboard/tests/run">Run all</a>`, "billed like a Studio call")
	if strings.Contains(p.Body, `action="/dashboard/tests/runs"`) {
		t.Error("with a model the list starts a run without the estimate")
	}
	if p = b.post("/dashboard/tests/runs", nil); p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/dashboard/tests/run" {
		t.Fatalf("unconfirmed run: %d %q", p.Status, p.Header.Get("Location"))
	}
	if runs, _ := h.app.Tests.Runs(context.Background(), a.ID, 5); len(runs) != 0 {
		t.Fatalf("an unconfirmed run started: %+v", runs)
	}
	est, err := h.app.Tests.Estimate(context.Background(), a.ID)
	if err != nil || !est.Billed || est.WorstMicro == 0 {
		t.Fatalf("estimate %+v %v", est, err)
	}
	p = b.get("/dashboard/tests/run")
	kbMustStatus(t, "estimate", p, http.StatusOK)
	mustContain(t, p.Body, "The run asks 5 questions.", "Estimated cost", "At most", "Free balance", `name="confirm" value="yes"`)
	run := tsWait(t, h, a.ID, tsStart(t, b, url.Values{"confirm": {"yes"}}))
	if run.Status != store.TestRunDone {
		t.Fatalf("billed run %+v", run)
	}
}

// The overview shows the set's regression while it stands: after a KB change (a Q&A entry
// saved in the dashboard) breaks a test, the regression run starts by itself, and the
// overview names what broke and links to the run. The next run that passes clears it.
func TestOverviewShowsTheRegressionAfterAKBChange(t *testing.T) {
	t.Parallel()
	finished := make(chan store.TestRun, 8)
	h := newHarness(t, withRegressionRuns(time.Millisecond, func(r store.TestRun) { finished <- r }))
	a, _, email, pw := h.tenant("Regression Shop")
	tsImport(t, h, a.ID, tsTests)
	if _, err := h.app.Tests.RunNow(context.Background(), a.ID, store.TestTriggerCLI); err != nil {
		t.Fatal(err)
	}
	b := h.kbOwner(email, pw)
	if strings.Contains(b.get("/dashboard/").Body, "tests-broken") {
		t.Fatal("the overview shows a regression before any")
	}
	p := b.post("/dashboard/kb/qa", url.Values{"question": {"How much does the Uludag 2 Tent cost?"},
		"answer": {"Please ask in one of our stores."}, "lang": {"en"}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("save the Q&A entry: %d %s", p.Status, kbClip(p.Body))
	}
	var run store.TestRun
	select {
	case run = <-finished:
	case <-time.After(60 * time.Second):
		t.Fatal("no regression run after the Q&A edit")
	}
	if run.Trigger != store.TestTriggerQA || !run.Regressed || run.Broken != 1 {
		t.Fatalf("regression run %+v", run)
	}
	p = b.get("/dashboard/")
	kbMustStatus(t, "overview", p, http.StatusOK)
	mustContain(t, p.Body, `class="card tests-broken"`, "1 test broke after the Q&amp;A change of "+formatUTC(run.StartedAt),
		"How much does the Uludag 2 Tent cost?", "The reply lacks: $199.00", "3 of your tests pass now, of 5.",
		fmt.Sprintf(`href="/dashboard/tests/runs/%d"`, run.ID))
	mustContain(t, b.get("/dashboard/tests").Body, `class="card tests-broken"`)
	de := inLang(t, h, email, pw, "de")
	mustContain(t, de.get("/dashboard/").Body, "1 Test ist nach der Änderung der Antworten vom")

	// Fixed (the entry answers with the price again) and run: the notice goes.
	tc := tsTest(t, h, a.ID, "How much does the Uludag 2 Tent cost?")
	if p := b.post(fmt.Sprintf("/dashboard/tests/%d/answer", tc.ID), url.Values{"answer": {"The Uludag 2 Tent costs $199.00."}}); p.Status != http.StatusOK {
		t.Fatalf("answer this: %d", p.Status)
	}
	select {
	case run = <-finished: // the answer is a Q&A edit too
	case <-time.After(60 * time.Second):
		t.Fatal("no run after answer this")
	}
	if run.Passed != 4 {
		t.Fatalf("run after the fix %+v", run)
	}
	if p := b.get("/dashboard/"); strings.Contains(p.Body, "tests-broken") {
		t.Error("the overview still shows the regression after a run that passed")
	}
}

// formatUTC is a time as the English pages write it.
func formatUTC(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") + " UTC" }
