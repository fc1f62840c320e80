package dashboard

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"svc/internal/errs"
	"svc/internal/i18n"
	"svc/internal/store"
	"svc/internal/testsets"
)

// The test set's pages (issue 26): the tests an owner keeps of what the assistant must answer
// (or decline), added by hand, from a transcript's question, from a review item or from a
// JSON Lines file; the runs that ask them all (tests_runs.go); "answer this" that fixes a
// failed test in one step. Everything is testsets.Service's and Runner's: these handlers read
// the forms, call them and show what they return. One template (tests.html) holds every view,
// as kb.html does, since its views share the tab bar and the result block.

var pageTests = page{name: "tests", title: "tests.title", nav: "tests"}

const (
	// testsPerPage is the list's page size.
	testsPerPage = 50
	// testsUploadSlack is what a multipart body holds beside the file: part headers and the
	// form token.
	testsUploadSlack = 64 << 10
	// maxTestHint bounds the reply shown beside the form (carried in a hidden field, so that
	// a form shown again with its error still shows it).
	maxTestHint = 4000
)

// testsStore is what the tests pages read of the store beside testsets.Service: the visitor's
// message and the reply after it, for "add as a test" on a transcript.
type testsStore interface {
	Messages(ctx context.Context, accountID, conversationID, sinceID int64, limit int) ([]store.Message, error)
}

// testsRoutes: a test's page (/dashboard/tests/{id}) is also where it is edited: a separate
// /dashboard/tests/{id}/edit could not live beside /dashboard/tests/runs/{id} (both would
// match /dashboard/tests/runs/edit).
//
// Owners and agents alike may do everything here. Agents keep the curated Q&A
// that the tests check and answer the review queue the tests are made from; the set is that
// work's check list, so it is theirs to keep, deleting a test included (as deleting a Q&A
// entry is). A run with a model costs money, and the page shows its estimate to whoever
// starts it first.
func (s *Server) testsRoutes(rt router) {
	rt.handle("GET /dashboard/tests", member, s.testsList)
	rt.handle("GET /dashboard/tests/new", member, s.testsNew)
	rt.handle("POST /dashboard/tests", member, s.testsCreate)
	rt.handle("GET /dashboard/tests/import", member, s.testsImportPage)
	rt.upload("POST /dashboard/tests/import", member, testsets.MaxImportBytes+testsUploadSlack, s.testsImport)
	rt.handle("GET /dashboard/tests/export", member, s.testsExport)
	rt.handle("GET /dashboard/tests/run", member, s.testsConfirm)
	rt.handle("GET /dashboard/tests/runs", member, s.testsRuns)
	rt.handle("POST /dashboard/tests/runs", member, s.testsStart)
	rt.handle("GET /dashboard/tests/runs/{id}", member, s.testsRunPage)
	rt.handle("GET /dashboard/tests/runs/{id}/progress", member, s.testsRunProgress)
	rt.handle("GET /dashboard/tests/{id}", member, s.testsTestPage)
	rt.handle("POST /dashboard/tests/{id}", member, s.testsUpdate)
	rt.handle("POST /dashboard/tests/{id}/delete", member, s.testsDelete)
	rt.handle("POST /dashboard/tests/{id}/answer", member, s.testsAnswer)
}

// testsData is the dot's Data of every tests view; View picks the section tests.html
// renders, and the view's field is set.
type testsData struct {
	View string // which block of tests.html renders: the template named "tests-" + View
	Tabs []testsTab

	List    *testsListData
	Form    *testForm
	Test    *testPageData
	Import  *testsImportData
	Confirm *testsConfirmData
	Runs    *testsRunsData
	Run     *runPageData
}

// testsTab is one entry of the section's tab bar.
type testsTab struct {
	Href, Label string
	Current     bool
}

func testsView(view, current string) testsData {
	return testsData{View: view, Tabs: []testsTab{
		{Href: "/dashboard/tests", Label: "tests.tab_tests", Current: current == "tests"},
		{Href: "/dashboard/tests/runs", Label: "tests.tab_runs", Current: current == "runs"},
		{Href: "/dashboard/tests/import", Label: "tests.tab_import", Current: current == "import"},
	}}
}

func testURL(id int64) string { return "/dashboard/tests/" + strconv.FormatInt(id, 10) }

// TestReason words why a test failed (a testsets Reason: a code and what was missing) in the
// page's language; a code the catalog does not know shows as it is.
func (v *view) TestReason(reason string) string {
	code, detail := testsets.ReasonCode(reason)
	key := "tests.reason." + code
	m, ok := v.cat.Raw(i18n.Default, key)
	if !ok {
		return reason
	}
	if strings.Contains(m, "%s") {
		return v.T(key, detail)
	}
	return v.T(key)
}

// testsListData is the list of tests with the latest finished run's result of each.
type testsListData struct {
	Summary testsets.Summary
	// Regression is the set's regression that still stands (Summary's), as the notice
	// shows it.
	Regression *testsRegression
	Billed     bool
	Rows       []testRow
	// LastRun is the run the rows' results come from: the newest that is not running
	// (nil: none yet).
	LastRun     *store.TestRun
	Page, Pages int
	Pager       []pagerLink
}

// testRow is one test of the list.
type testRow struct {
	store.TestCase
	Result *store.TestResult // in LastRun; nil when the test was not in it
}

func testsListURL(page int) string {
	if page <= 1 {
		return "/dashboard/tests"
	}
	return "/dashboard/tests?" + url.Values{"page": {strconv.Itoa(page)}}.Encode()
}

func (s *Server) testsList(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	ctx, id := r.Context(), c.Account.ID
	d := testsView("list", "tests")
	l := &testsListData{Page: 1, Billed: s.d.Tests.Billed()}
	d.List = l
	if v := r.URL.Query().Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return invalid("tests.error_page")
		}
		l.Page = n
	}
	var err error
	if l.Summary, err = s.d.Tests.Summary(ctx, id); err != nil {
		return err
	}
	l.Regression = regressionView(l.Summary.Regression)
	cases, err := s.d.Tests.List(ctx, id)
	if err != nil {
		return err
	}
	last, results, err := s.lastResults(ctx, id)
	if err != nil {
		return err
	}
	l.LastRun = last
	l.Pages = max(1, (len(cases)+testsPerPage-1)/testsPerPage)
	l.Page = min(l.Page, l.Pages)
	for _, tc := range cases[(l.Page-1)*testsPerPage : min(l.Page*testsPerPage, len(cases))] {
		row := testRow{TestCase: tc}
		if res, ok := results[tc.ID]; ok {
			row.Result = &res
		}
		l.Rows = append(l.Rows, row)
	}
	l.Pager = numberPages(l.Page, l.Pages, testsListURL)
	s.render(w, r, c, pageTests, 0, d)
	return nil
}

// lastResults reads the account's newest run that is not running (one runs at most, so it is
// the newest or the one before) and its results by test. A run in progress shows its
// progress elsewhere; the list keeps showing complete figures meanwhile.
func (s *Server) lastResults(ctx context.Context, accountID int64) (*store.TestRun, map[int64]store.TestResult, error) {
	runs, err := s.d.Tests.Runs(ctx, accountID, 2)
	if err != nil {
		return nil, nil, err
	}
	for _, run := range runs {
		if run.Status == store.TestRunRunning {
			continue
		}
		v, err := s.d.Tests.GetRun(ctx, accountID, run.ID)
		if err != nil {
			return nil, nil, err
		}
		m := make(map[int64]store.TestResult, len(v.Results))
		for _, res := range v.Results {
			m[res.TestID] = res
		}
		return &v.Run, m, nil
	}
	return nil, map[int64]store.TestResult{}, nil
}

// testForm is the add and edit form.
type testForm struct {
	ID         int64  // 0: a new test
	Question   string //
	Lang       string // kbLangDetect or a language
	Answerable bool
	Expect     string // one expected text a line
	Product    string
	// Origin and Ref say what the test is made from (a transcript's message, a review
	// item); Hint is the assistant's reply to it, HintSource that reply's source.
	Origin, Ref      string
	Hint, HintSource string
}

// Limits of the form's fields, for the template.
func (testForm) MaxQuestion() int    { return testsets.MaxQuestionChars }
func (testForm) MaxExpect() int      { return testsets.MaxExpect }
func (testForm) MaxExpectChars() int { return testsets.MaxExpectChars }
func (testForm) MaxProduct() int     { return testsets.MaxProductChars }

func (s *Server) renderTestForm(w http.ResponseWriter, r *http.Request, c *reqCtx, f testForm) {
	d := testsView("form", "tests")
	d.Form = &f
	s.render(w, r, c, pageTests, 0, d)
}

// testFormError shows the form again with what was wrong: a test the service refuses (each
// refusal has a catalog message), or the limit of tests. Anything else is the error page's.
func (s *Server) testFormError(w http.ResponseWriter, r *http.Request, c *reqCtx, f testForm, err error) error {
	if k := errs.KindOf(err); k != errs.BadRequest && k != errs.TooMany {
		return err
	}
	d := testsView("form", "tests")
	d.Form = &f
	s.formError(w, r, c, pageTests, err, d)
	return nil
}

// testsNew is the empty form, or the form filled in from what a test is made of: a question
// and language (?q=, ?lang=: the overview's "add as a test"), a transcript's visitor message
// (?conversation=, ?message=) or a review item (?review=<kind>, ?item=), with the reply the
// assistant gave beside it. A message or item that is not the account's is a 404.
func (s *Server) testsNew(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	q := r.URL.Query()
	f := testForm{Lang: kbLangDetect, Answerable: true, Question: strings.TrimSpace(q.Get("q")), Origin: store.TestOriginHand}
	if l := q.Get("lang"); i18n.Supported(l) {
		f.Lang = l
	}
	switch {
	case q.Get("message") != "":
		conv, err1 := strconv.ParseInt(q.Get("conversation"), 10, 64)
		msg, err2 := strconv.ParseInt(q.Get("message"), 10, 64)
		if err1 != nil || err2 != nil || conv <= 0 || msg <= 0 {
			return errNoMessage
		}
		// The question and the message after it, the reply.
		msgs, err := s.st.Messages(r.Context(), c.Account.ID, conv, msg-1, 2)
		if err != nil {
			return err
		}
		if len(msgs) == 0 || msgs[0].ID != msg || msgs[0].Role != store.RoleUser {
			return errNoMessage
		}
		f.Question, f.Origin, f.Ref = msgs[0].Body, store.TestOriginTranscript, strconv.FormatInt(msg, 10)
		if i18n.Supported(msgs[0].Lang) {
			f.Lang = msgs[0].Lang
		}
		if len(msgs) > 1 && msgs[1].Role == store.RoleAssistant {
			f.Hint, f.HintSource = transcriptMsg{TranscriptMessage: store.TranscriptMessage{Message: msgs[1]}}.Text(), msgs[1].Source
		}
	case q.Get("review") != "":
		kind := q.Get("review")
		id, err := strconv.ParseInt(q.Get("item"), 10, 64)
		if !validKind(kind) || err != nil || id <= 0 {
			return errNoReviewItem
		}
		it, err := s.st.ReviewItem(r.Context(), c.Account.ID, kind, id)
		if errors.Is(err, store.ErrNotFound) {
			return errNoReviewItem
		}
		if err != nil {
			return err
		}
		f.Question, f.Hint, f.Origin, f.Ref = it.Question, it.Answer, store.TestOriginReview, testsets.ReviewRef(kind, id)
		if i18n.Supported(it.Lang) {
			f.Lang = it.Lang
		}
	}
	f.Hint = clip(maxTestHint, f.Hint)
	s.renderTestForm(w, r, c, f)
	return nil
}

// errNoMessage is the 404 of a transcript message that is not one of the account's visitor
// messages.
var errNoMessage = errs.New(errs.NotFound, "No such message.")

// readTestForm reads the form as the user sent it, and the test it asks for.
func readTestForm(r *http.Request) (testForm, testsets.Input) {
	f := testForm{Question: r.PostFormValue("question"), Lang: r.PostFormValue("lang"),
		Answerable: r.PostFormValue("answerable") != "no", Expect: r.PostFormValue("expect"),
		Product: r.PostFormValue("product"), Hint: clip(maxTestHint, r.PostFormValue("hint")),
		HintSource: r.PostFormValue("hint_source")}
	f.Origin, f.Ref = formOrigin(r.PostFormValue("origin"), r.PostFormValue("ref"))
	in := testsets.Input{Question: f.Question, Answerable: f.Answerable, Product: f.Product, Origin: f.Origin, OriginRef: f.Ref}
	if f.Lang != kbLangDetect {
		in.Lang = f.Lang // "" detects too; anything else but a language is refused by Validate
	}
	for _, e := range strings.Split(f.Expect, "\n") {
		in.Expect = append(in.Expect, strings.TrimSpace(e))
	}
	return f, in
}

// formOrigin is the origin the form's hidden fields claim, when well formed: a transcript's
// message id or a review item's kind and id. Anything else is a test typed in. The ids are
// not trusted beyond their form: every use of them (answering a review item through "answer
// this") looks them up within the account.
func formOrigin(origin, ref string) (string, string) {
	switch origin {
	case store.TestOriginTranscript:
		if n, err := strconv.ParseInt(ref, 10, 64); err == nil && n > 0 {
			return origin, strconv.FormatInt(n, 10)
		}
	case store.TestOriginReview:
		kind, v, _ := strings.Cut(ref, ":")
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 && validKind(kind) {
			return origin, testsets.ReviewRef(kind, n)
		}
	}
	return store.TestOriginHand, ""
}

func (s *Server) testsCreate(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	f, in := readTestForm(r)
	if _, err := s.d.Tests.Add(r.Context(), c.Account.ID, in); err != nil {
		return s.testFormError(w, r, c, f, err)
	}
	s.redirect(w, r, "/dashboard/tests", "flash.tests_added")
	return nil
}

// accountTest reads one of the account's tests; another account's is a 404.
func (s *Server) accountTest(ctx context.Context, c *reqCtx, id int64) (store.TestCase, error) {
	return s.d.Tests.Get(ctx, c.Account.ID, id)
}

// editForm is the edit form of tc as stored.
func editForm(tc store.TestCase) testForm {
	return testForm{ID: tc.ID, Question: tc.Question, Lang: tc.Lang, Answerable: tc.Answerable,
		Expect: strings.Join(tc.Expect, "\n"), Product: tc.Product, Origin: tc.Origin, Ref: tc.OriginRef}
}

func (s *Server) testsUpdate(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	tc, err := routeItem(r, c, s.accountTest)
	if err != nil {
		return err
	}
	f, in := readTestForm(r)
	f.ID, f.Origin, f.Ref = tc.ID, tc.Origin, tc.OriginRef // the origin stays (Update keeps it)
	if _, err := s.d.Tests.Update(r.Context(), c.Account.ID, tc.ID, in); err != nil {
		if k := errs.KindOf(err); k != errs.BadRequest && k != errs.TooMany {
			return err
		}
		// The test's page, with the form as sent and why it was refused.
		d, derr := s.testPage(r.Context(), c, tc)
		if derr != nil {
			return derr
		}
		d.Test.Form = &f
		s.formError(w, r, c, pageTests, err, d)
		return nil
	}
	s.redirect(w, r, testURL(tc.ID), "flash.tests_saved")
	return nil
}

func (s *Server) testsDelete(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id, err := routeItemID(r)
	if err != nil {
		return err
	}
	n, err := s.d.Tests.Delete(r.Context(), c.Account.ID, id)
	if err != nil {
		return err
	}
	if n == 0 {
		return errs.New(errs.NotFound, "No such test.")
	}
	s.redirect(w, r, "/dashboard/tests", "flash.tests_deleted")
	return nil
}

// testPageData is one test's page: the test, its result in the latest finished run, "answer
// this", and the edit form.
type testPageData struct {
	Test   store.TestCase
	Form   *testForm
	Run    *store.TestRun // the run Item's result comes from; nil: not run yet
	Item   *resultItem    // nil: the test was not in that run
	Answer *resultItem    // the "answer this" form when the test has no result to hang it on
}

func (s *Server) testsTestPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	tc, err := routeItem(r, c, s.accountTest)
	if err != nil {
		return err
	}
	d, err := s.testPage(r.Context(), c, tc)
	if err != nil {
		return err
	}
	s.render(w, r, c, pageTests, 0, d)
	return nil
}

// testPage builds a test's page with its latest result.
func (s *Server) testPage(ctx context.Context, c *reqCtx, tc store.TestCase) (testsData, error) {
	d := testsView("test", "tests")
	f := editForm(tc)
	p := &testPageData{Test: tc, Form: &f}
	d.Test = p
	run, results, err := s.lastResults(ctx, c.Account.ID)
	if err != nil {
		return d, err
	}
	p.Run = run
	if res, ok := results[tc.ID]; ok {
		it := newResultItem(res, &tc)
		p.Item = &it
	} else if tc.Answerable {
		p.Answer = &resultItem{TestResult: store.TestResult{TestID: tc.ID, Question: tc.Question, Lang: tc.Lang},
			Exists: true, CanAnswer: true}
	}
	return d, nil
}

// resultItem is one test's result as the run page and the test page show it, with its
// "answer this" form.
type resultItem struct {
	store.TestResult
	// Exists says the test is still in the set (a run keeps the results of tests deleted
	// since); CanAnswer says "answer this" is offered: it exists and is answerable.
	Exists, CanAnswer bool
	// Draft and Error are a refused answer, shown again in the form.
	Draft, Error string
	// Fixed is the notice after "answer this": the result shown is the test asked again.
	Fixed string
}

// MaxAnswer is the answer's limit, for the form.
func (resultItem) MaxAnswer() int { return testsets.MaxAnswerChars }

// newResultItem is res as shown; tc is its test, nil when it has been deleted since.
func newResultItem(res store.TestResult, tc *store.TestCase) resultItem {
	return resultItem{TestResult: res, Exists: tc != nil, CanAnswer: tc != nil && tc.Answerable}
}

// testsAnswer is "answer this": the answer becomes the curated Q&A entry of the test's
// question (AnswerThis), and the test is asked again at once. With htmx the result's block
// is replaced by the new result; a refused answer shows the form again with why. Without, the
// test's page answers, with the new result or the refused form.
func (s *Server) testsAnswer(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	tc, err := routeItem(r, c, s.accountTest)
	if err != nil {
		return err
	}
	answer := r.PostFormValue("answer")
	fix, err := s.d.Tests.AnswerThis(r.Context(), c.Account.ID, tc.ID, answer)
	if err != nil {
		if k := errs.KindOf(err); k != errs.BadRequest && k != errs.TooMany {
			return err
		}
		it := resultItem{TestResult: store.TestResult{TestID: tc.ID, Question: tc.Question, Lang: tc.Lang}, Exists: true,
			CanAnswer: tc.Answerable, Draft: answer, Error: s.errorText(c, err)}
		if isHTMX(r) {
			// The form alone: hx-target is the form's box.
			s.renderFragment(w, r, c, pageTests, "tests-fix-fragment", it)
			return nil
		}
		d, derr := s.testPage(r.Context(), c, tc)
		if derr != nil {
			return derr
		}
		if d.Test.Item != nil {
			d.Test.Item.Draft, d.Test.Item.Error = it.Draft, it.Error
		} else {
			d.Test.Answer = &it
		}
		s.render(w, r, c, pageTests, http.StatusBadRequest, d)
		return nil
	}
	it := newResultItem(fix.Result, &tc)
	it.Fixed = s.cat.T(c.Lang, "tests.fixed_fail")
	if fix.Result.Passed {
		it.Fixed = s.cat.T(c.Lang, "tests.fixed_pass")
	}
	if isHTMX(r) {
		// The whole result, not the form's box it was sent from.
		w.Header().Set("HX-Retarget", "#result-"+strconv.FormatInt(tc.ID, 10))
		w.Header().Set("HX-Reswap", "outerHTML")
		s.renderFragment(w, r, c, pageTests, "tests-result-fragment", it)
		return nil
	}
	d := testsView("test", "tests")
	f := editForm(tc)
	d.Test = &testPageData{Test: tc, Form: &f, Item: &it}
	s.render(w, r, c, pageTests, 0, d)
	return nil
}

// testsImportData is the import form and what the last upload did.
type testsImportData struct {
	MaxMiB int
	// Error is a problem with the upload as a whole; Lines are the file's bad lines, More how
	// many more there were beyond those listed.
	Error  string
	Lines  []kbLineError
	More   int
	Result *testsets.ImportResult
}

func (s *Server) testsImportPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d := testsView("import", "import")
	d.Import = &testsImportData{MaxMiB: testsets.MaxImportBytes >> 20}
	s.render(w, r, c, pageTests, 0, d)
	return nil
}

// testsImport imports a JSON Lines file as `svc tests import` does (testsets.Import): every
// line or none. The bad lines are listed by number, each with its reason in the user's
// language where the catalog has it.
func (s *Server) testsImport(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d := testsView("import", "import")
	imp := &testsImportData{MaxMiB: testsets.MaxImportBytes >> 20}
	d.Import = imp
	fail := func(status int, err error) error {
		imp.Error = s.errorText(c, err)
		s.render(w, r, c, pageTests, status, d)
		return nil
	}
	tooLarge := func() error {
		return fail(http.StatusRequestEntityTooLarge, invalid("err.tests.file_too_large", imp.MaxMiB))
	}
	// The route caps the body (router.upload); over it, parsing fails with MaxBytesError.
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return tooLarge()
		}
		return fail(http.StatusBadRequest, invalid("tests.import_error_no_file"))
	}
	file, fh, err := r.FormFile("file")
	if err != nil {
		return fail(http.StatusBadRequest, invalid("tests.import_error_no_file"))
	}
	defer file.Close()
	if fh.Size > testsets.MaxImportBytes {
		return tooLarge()
	}
	res, err := s.d.Tests.Import(r.Context(), c.Account.ID, file)
	if ie, ok := errors.AsType[*testsets.ImportError](err); ok {
		for _, l := range ie.Lines {
			reason := l.Err
			if l.Key != "" && s.cat.Has(l.Key) {
				reason = s.cat.T(c.Lang, l.Key, l.Args...)
			}
			imp.Lines = append(imp.Lines, kbLineError{Line: l.Line, Reason: reason})
		}
		imp.More = ie.More
		return fail(http.StatusBadRequest, invalid("tests.import_error_lines"))
	}
	if err != nil {
		if k := errs.KindOf(err); k != errs.BadRequest && k != errs.TooMany {
			return err
		}
		return fail(http.StatusBadRequest, err)
	}
	imp.Result = &res
	s.render(w, r, c, pageTests, 0, d)
	return nil
}

// testsExport answers the set as a JSON Lines file in the import format. It is written
// whole before it is sent, so a failure is an error page rather than half a file.
func (s *Server) testsExport(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	var buf bytes.Buffer
	if err := s.d.Tests.Export(r.Context(), c.Account.ID, &buf); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="svc-tests.jsonl"`)
	_, _ = w.Write(buf.Bytes())
	return nil
}
