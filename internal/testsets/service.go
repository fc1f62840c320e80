package testsets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"svc/internal/billing"
	"svc/internal/chat"
	"svc/internal/errs"
	"svc/internal/kb"
	"svc/internal/store"
)

// EventTestRun is the usage event of a run's questions answered by a model (one per batch
// of BatchSize questions, as a Studio call is one event); never written with the built-in
// engine.
const EventTestRun = "test_run"

// Defaults of a Service.
const (
	// BatchSize is how many questions are asked between two writes of a run's progress
	// (and, with a model, one hold and one charge).
	BatchSize = 10
	// DefaultStaleAfter is how long a running run's heartbeat may lapse before the run is
	// taken for dead (its process crashed). A live run beats at a fifth of it.
	DefaultStaleAfter = 5 * time.Minute
)

// Service keeps owners' test sets and runs them. Safe for concurrent use.
type Service struct {
	st         store.Store
	ans        chat.Answerer
	billed     bool
	now        func() time.Time
	log        *slog.Logger
	holdTTL    time.Duration
	staleAfter time.Duration
}

// Deps are a Service's collaborators.
type Deps struct {
	Store store.Store
	// Answerer answers the questions: the engine serve answers visitors with (the built-in
	// engine, or the model-backed one).
	Answerer chat.Answerer
	// Billed says the Answerer calls a language model: runs are then billed at the
	// account's rates like a Studio call. With the built-in engine (false) nothing is.
	Billed bool
	Now    func() time.Time
	Log    *slog.Logger
	// HoldTTL is how long a batch's reservation lasts unless settled; billing.DefaultHoldTTL
	// when zero.
	HoldTTL time.Duration
	// StaleAfter overrides DefaultStaleAfter (tests).
	StaleAfter time.Duration
}

// New returns a Service.
func New(d Deps) *Service {
	s := &Service{st: d.Store, ans: d.Answerer, billed: d.Billed, now: d.Now, log: d.Log, holdTTL: d.HoldTTL,
		staleAfter: d.StaleAfter}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.holdTTL <= 0 {
		s.holdTTL = billing.DefaultHoldTTL
	}
	if s.staleAfter <= 0 {
		s.staleAfter = DefaultStaleAfter
	}
	return s
}

// Billed reports whether runs are billed (a model answers).
func (s *Service) Billed() bool { return s.billed }

// account reads the account, a NotFound for a missing one.
func (s *Service) account(ctx context.Context, accountID int64) (store.Account, error) {
	a, err := s.st.GetAccount(ctx, accountID)
	if isNotFound(err) {
		return a, errs.Newf(errs.NotFound, "account %d does not exist", accountID)
	}
	return a, err
}

// Add adds one test. A test with the same question (Key) and language exists already: a
// BadRequest naming it.
func (s *Service) Add(ctx context.Context, accountID int64, in Input) (store.TestCase, error) {
	c, err := Validate(in)
	if err != nil {
		return c, err
	}
	if _, err := s.account(ctx, accountID); err != nil {
		return c, err
	}
	cases := []store.TestCase{c}
	added, _, err := s.st.AddTestCases(ctx, accountID, cases, MaxTests)
	switch {
	case errors.Is(err, store.ErrLimitReached):
		return c, errTooMany()
	case err != nil:
		return c, err
	case added == 0:
		return c, errs.Coded(errs.BadRequest, "err.tests.duplicate", "This question is already a test in that language.")
	}
	return cases[0], nil
}

// ImportResult is what an import did.
type ImportResult struct {
	Added      int `json:"added"`
	Duplicates int `json:"duplicates"` // lines whose question (and language) the set has already, or the file had before
	Total      int `json:"total"`      // the account's tests after the import
}

// Import adds the tests of a JSON Lines file (Parse): every line or none. A bad line is an
// *ImportError (every bad line with its number); more tests than MaxTests in all is a
// TooMany, and nothing is stored either way. Duplicates are skipped, not errors, so the
// same file imported twice adds nothing the second time.
func (s *Service) Import(ctx context.Context, accountID int64, r io.Reader) (ImportResult, error) {
	if _, err := s.account(ctx, accountID); err != nil {
		return ImportResult{}, err
	}
	cases, err := Parse(r)
	if err != nil {
		return ImportResult{}, err
	}
	added, dups, err := s.st.AddTestCases(ctx, accountID, cases, MaxTests)
	if errors.Is(err, store.ErrLimitReached) {
		return ImportResult{}, errTooMany()
	}
	if err != nil {
		return ImportResult{}, err
	}
	total, err := s.st.CountTestCases(ctx, accountID)
	if err != nil {
		return ImportResult{}, err
	}
	return ImportResult{Added: added, Duplicates: dups, Total: total}, nil
}

// Update rewrites a test (its origin stays).
func (s *Service) Update(ctx context.Context, accountID, testID int64, in Input) (store.TestCase, error) {
	old, err := s.Get(ctx, accountID, testID)
	if err != nil {
		return old, err
	}
	in.Origin, in.OriginRef = old.Origin, old.OriginRef
	c, err := Validate(in)
	if err != nil {
		return c, err
	}
	c.ID, c.AccountID, c.CreatedAt = old.ID, accountID, old.CreatedAt
	err = s.st.UpdateTestCase(ctx, &c)
	switch {
	case isNotFound(err):
		return c, errNotFound("test", testID)
	case errors.Is(err, store.ErrConflict):
		return c, errs.Coded(errs.BadRequest, "err.tests.duplicate", "This question is already a test in that language.")
	}
	return c, err
}

// Delete deletes tests of the account and reports how many went.
func (s *Service) Delete(ctx context.Context, accountID int64, ids ...int64) (int, error) {
	return s.st.DeleteTestCases(ctx, accountID, ids)
}

// List returns the account's tests, oldest first.
func (s *Service) List(ctx context.Context, accountID int64) ([]store.TestCase, error) {
	if _, err := s.account(ctx, accountID); err != nil {
		return nil, err
	}
	return s.st.TestCases(ctx, accountID)
}

// Get returns one test; NotFound when it is not the account's.
func (s *Service) Get(ctx context.Context, accountID, testID int64) (store.TestCase, error) {
	c, err := s.st.GetTestCase(ctx, accountID, testID)
	if isNotFound(err) {
		return c, errNotFound("test", testID)
	}
	return c, err
}

// Export writes the account's tests in the import format.
func (s *Service) Export(ctx context.Context, accountID int64, w io.Writer) error {
	cases, err := s.List(ctx, accountID)
	if err != nil {
		return err
	}
	return Export(w, cases)
}

// Estimate is what a run of the account's set would cost, shown before it starts.
type Estimate struct {
	Tests  int  `json:"tests"`
	Billed bool `json:"billed"` // false: the built-in engine answers, and a run costs nothing
	// WorstMicro is the most the run can cost: every question at its answer's token budget
	// (what a send holds for it) at the account's rates. TypicalMicro is what it costs when
	// each answer costs what the account's recent answers cost on average (WorstMicro when
	// there are none yet), at most WorstMicro. Both 0 when not Billed.
	WorstMicro   int64 `json:"worst_micro"`
	TypicalMicro int64 `json:"typical_micro"`
	// BalanceMicro is what the account has free now (its balance less what is held).
	BalanceMicro int64 `json:"balance_micro"`
	// Affordable says the free balance covers TypicalMicro. A run that runs out of money
	// stops and is marked failed; what it asked until then is kept and billed.
	Affordable bool `json:"affordable"`
}

// Estimate works out what a run of the account's whole set would cost.
func (s *Service) Estimate(ctx context.Context, accountID int64) (Estimate, error) {
	a, err := s.account(ctx, accountID)
	if err != nil {
		return Estimate{}, err
	}
	cases, err := s.st.TestCases(ctx, accountID)
	if err != nil {
		return Estimate{}, err
	}
	e := Estimate{Tests: len(cases), Billed: s.billed, BalanceMicro: a.BalanceMicro - a.ReservedMicro, Affordable: true}
	if !s.billed {
		return e, nil
	}
	e.WorstMicro = s.worst(a, cases)
	e.TypicalMicro = e.WorstMicro
	if avg, ok, err := s.st.AverageCost(ctx, accountID, 50); err != nil {
		return Estimate{}, err
	} else if ok {
		e.TypicalMicro = min(e.WorstMicro, avg*int64(len(cases)))
	}
	e.Affordable = e.BalanceMicro >= e.TypicalMicro
	return e, nil
}

// worst is the most answering cases may cost: each question at the answerer's budget for
// it, priced at the account's rates.
func (s *Service) worst(a store.Account, cases []store.TestCase) int64 {
	var total int64
	for _, c := range cases {
		in, out := s.ans.Budget(request(a, c), nil)
		total += billing.Cost(in, out, a.InputRate, a.OutputRate)
	}
	return total
}

// Fix is the outcome of AnswerThis.
type Fix struct {
	// QAID is the curated Q&A entry that now answers the test's question.
	QAID int64 `json:"qa_id"`
	// Result is the test asked again, after the entry was stored.
	Result store.TestResult `json:"result"`
}

// AnswerThis fixes a failed test in one step: answer becomes the curated Q&A entry for the
// test's question in its language (created, or the existing entry for that question
// edited: entries are keyed by question and language), as the review queue resolves an
// item; a test made from a review item resolves that item with it. Then the test is asked
// again at once and its new result returned.
func (s *Service) AnswerThis(ctx context.Context, accountID, testID int64, answer string) (Fix, error) {
	c, err := s.Get(ctx, accountID, testID)
	if err != nil {
		return Fix{}, err
	}
	answer = strings.TrimSpace(answer)
	switch {
	case !c.Answerable:
		// Its right reply is "I do not know": an answer would fail it. The owner edits the
		// test first when the assistant should know after all.
		return Fix{}, errs.Coded(errs.BadRequest, "err.tests.answer_unanswerable",
			"This test expects the assistant to say it does not know; make it answerable first.")
	case answer == "":
		return Fix{}, errs.Coded(errs.BadRequest, "err.tests.answer_required", "The answer is missing or empty.")
	case utf8.RuneCountInString(answer) > MaxAnswerChars:
		return Fix{}, errs.Coded(errs.BadRequest, "err.tests.answer_too_long", "The answer is longer than %d characters.", MaxAnswerChars)
	}
	doc, err := kb.CuratedAnswer(c.Question, answer, c.Lang)
	if err != nil {
		var le *kb.LineError
		if errors.As(err, &le) {
			return Fix{}, &errs.Error{Kind: errs.BadRequest, Safe: le.Reason, Key: le.Key, Args: le.Args}
		}
		return Fix{}, err
	}
	doc.AccountID = accountID
	if err := s.storeAnswer(ctx, accountID, c, &doc); err != nil {
		return Fix{}, err
	}
	res, err := s.RunTest(ctx, accountID, testID)
	if err != nil {
		return Fix{}, err
	}
	return Fix{QAID: doc.ID, Result: res}, nil
}

// storeAnswer stores the curated entry: through the review item the test came from when it
// is still open, else as an import (an upsert by question and language).
func (s *Service) storeAnswer(ctx context.Context, accountID int64, c store.TestCase, doc *store.Document) error {
	if c.Origin == store.TestOriginReview {
		if kind, id, ok := parseReviewRef(c.OriginRef); ok {
			var err error
			switch kind {
			case store.ReviewFallback:
				err = s.st.ResolveFallback(ctx, accountID, id, doc)
			case store.ReviewNotHelpful:
				err = s.st.ResolveReview(ctx, accountID, id, doc)
			default:
				err = store.ErrNotFound
			}
			if err == nil {
				return nil
			}
			if !isNotFound(err) {
				return err
			}
			// Resolved or dismissed meanwhile: the entry is stored on its own.
		}
	}
	docs := []store.Document{*doc}
	if _, err := s.st.ImportDocuments(ctx, accountID, docs); err != nil {
		return err
	}
	doc.ID = docs[0].ID // the store fills the ids of what it imported
	return nil
}

// Runs returns the account's runs, newest first (a run whose process died reads as
// failed).
func (s *Service) Runs(ctx context.Context, accountID int64, limit int) ([]store.TestRun, error) {
	if limit <= 0 || limit > KeepRuns {
		limit = KeepRuns
	}
	runs, err := s.st.TestRuns(ctx, accountID, limit)
	if err != nil {
		return nil, err
	}
	for i := range runs {
		s.settleStale(&runs[i])
	}
	return runs, nil
}

// Progress reads one run as it stands: while it runs, Done of Total asked so far.
func (s *Service) Progress(ctx context.Context, accountID, runID int64) (store.TestRun, error) {
	r, err := s.st.GetTestRun(ctx, accountID, runID)
	if isNotFound(err) {
		return r, errNotFound("run", runID)
	}
	if err != nil {
		return r, err
	}
	s.settleStale(&r)
	return r, nil
}

// settleStale shows a running run whose heartbeat lapsed as what it is: failed. The
// store's record is corrected by the next StartTestRun or FailStale.
func (s *Service) settleStale(r *store.TestRun) {
	if r.Status == store.TestRunRunning && r.HeartbeatAt.Before(s.now().Add(-s.staleAfter)) {
		r.Status, r.Error, r.FinishedAt = store.TestRunFailed, "interrupted: the process running it stopped", r.HeartbeatAt
	}
}

// FailStale marks failed every running run whose process died (its heartbeat lapsed);
// serve calls it when it starts.
func (s *Service) FailStale(ctx context.Context) (int, error) {
	return s.st.FailStaleTestRuns(ctx, s.now().Add(-s.staleAfter))
}

// RunView is one run with its results.
type RunView struct {
	Run     store.TestRun      `json:"run"`
	Results []store.TestResult `json:"results"`
}

// GetRun returns a run with every result so far.
func (s *Service) GetRun(ctx context.Context, accountID, runID int64) (RunView, error) {
	r, err := s.Progress(ctx, accountID, runID)
	if err != nil {
		return RunView{}, err
	}
	res, err := s.st.TestResults(ctx, accountID, runID)
	if err != nil {
		return RunView{}, err
	}
	return RunView{Run: r, Results: res}, nil
}

// Change is one test whose outcome differs between two runs.
type Change struct {
	TestID   int64  `json:"test_id"`
	Question string `json:"q"`
	Lang     string `json:"lang"`
	// Reason is why it fails in the later run (Broken); "" for Fixed.
	Reason string `json:"reason,omitempty"`
	// Reply is its reply in the later run.
	Reply string `json:"reply"`
}

// Diff is what changed between a run and the account's completed run before it.
type Diff struct {
	Run      store.TestRun  `json:"run"`
	Previous *store.TestRun `json:"previous,omitempty"` // nil: no completed run before it
	// Broken passed in Previous and fail in Run; Fixed the reverse. Tests in only one of
	// the two runs are in neither.
	Broken []Change `json:"broken"`
	Fixed  []Change `json:"fixed"`
}

// Diff compares a run with the account's completed run before it.
func (s *Service) Diff(ctx context.Context, accountID, runID int64) (Diff, error) {
	v, err := s.GetRun(ctx, accountID, runID)
	if err != nil {
		return Diff{}, err
	}
	d := Diff{Run: v.Run, Broken: []Change{}, Fixed: []Change{}}
	prev, err := s.st.LastDoneTestRun(ctx, accountID, runID)
	if isNotFound(err) {
		return d, nil
	}
	if err != nil {
		return Diff{}, err
	}
	before, err := s.st.TestResults(ctx, accountID, prev.ID)
	if err != nil {
		return Diff{}, err
	}
	d.Previous = &prev
	d.Broken, d.Fixed = compare(before, v.Results)
	return d, nil
}

// compare lists the tests of after that broke or were fixed since before.
func compare(before, after []store.TestResult) (broken, fixed []Change) {
	was := make(map[int64]bool, len(before))
	for _, r := range before {
		was[r.TestID] = r.Passed
	}
	broken, fixed = []Change{}, []Change{}
	for _, r := range after {
		p, ok := was[r.TestID]
		switch {
		case !ok:
		case p && !r.Passed:
			broken = append(broken, Change{TestID: r.TestID, Question: r.Question, Lang: r.Lang, Reason: r.Reason, Reply: r.Reply})
		case !p && r.Passed:
			fixed = append(fixed, Change{TestID: r.TestID, Question: r.Question, Lang: r.Lang, Reply: r.Reply})
		}
	}
	return broken, fixed
}

// Regression is the overview's line "N tests broke after the crawl of <time>": the latest
// completed run that passed fewer tests than the one before it, with tests that broke.
type Regression struct {
	Run store.TestRun `json:"run"`
	// Trigger and At are what the run followed and when it started.
	Trigger string    `json:"trigger"`
	At      time.Time `json:"at"`
	Broken  []Change  `json:"broken"`
	// Current says no completed run has followed it: the regression still stands.
	Current bool `json:"current"`
}

// LatestRegression returns the account's latest regression; ok false when it has none.
func (s *Service) LatestRegression(ctx context.Context, accountID int64) (Regression, bool, error) {
	r, err := s.st.LatestTestRegression(ctx, accountID)
	if isNotFound(err) {
		return Regression{}, false, nil
	}
	if err != nil {
		return Regression{}, false, err
	}
	d, err := s.Diff(ctx, accountID, r.ID)
	if err != nil {
		return Regression{}, false, err
	}
	last, err := s.st.LastDoneTestRun(ctx, accountID, 0)
	if err != nil && !isNotFound(err) {
		return Regression{}, false, err
	}
	return Regression{Run: r, Trigger: r.Trigger, At: r.StartedAt, Broken: d.Broken, Current: last.ID == r.ID}, true, nil
}

// errNoBalance is a billed run of an account without money.
var errNoBalance = errs.Coded(errs.TooMany, "err.tests.balance_insufficient",
	"The account balance is insufficient for a test run; top up the balance and retry.")

// wrapf keeps a cause behind a message for the logs.
func wrapf(err error, format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, err)...)
}

// Summary is what a page heading the test set shows: how many tests, the latest run (while
// it runs, its progress) and the regression that still stands, if any.
type Summary struct {
	Tests      int            `json:"tests"`
	Last       *store.TestRun `json:"last,omitempty"`
	Regression *Regression    `json:"regression,omitempty"` // only while Current
}

// Summary reads the account's Summary.
func (s *Service) Summary(ctx context.Context, accountID int64) (Summary, error) {
	n, err := s.st.CountTestCases(ctx, accountID)
	if err != nil {
		return Summary{}, err
	}
	out := Summary{Tests: n}
	runs, err := s.Runs(ctx, accountID, 1)
	if err != nil {
		return Summary{}, err
	}
	if len(runs) > 0 {
		out.Last = &runs[0]
	}
	reg, ok, err := s.LatestRegression(ctx, accountID)
	if err != nil {
		return Summary{}, err
	}
	if ok && reg.Current {
		out.Regression = &reg
	}
	return out, nil
}
