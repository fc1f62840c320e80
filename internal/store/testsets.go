package store

import (
	"context"
	"time"
)

// Owner test sets (issue 26): the questions an owner expects their assistant to answer (or
// to decline), and the runs that ask them all through the answer pipeline. The rules (what
// a test may hold, what passes, when a run starts, what it costs) are internal/testsets';
// the store keeps the records and makes the few decisions that must be one transaction:
// one running run per account, the cap on an account's tests, the results and the run's
// counts moving together, and a run's regression notice queued with its end.

// Where a test came from (TestCase.Origin).
const (
	TestOriginHand       = "hand"       // typed in by the owner
	TestOriginTranscript = "transcript" // a visitor's question in a transcript; OriginRef is the message id
	TestOriginReview     = "review"     // a review queue item; OriginRef is "<kind>:<id>"
	TestOriginImport     = "import"     // a JSON Lines file
)

// What started a run (TestRun.Trigger). The last three are the regression runs that follow a
// change of the knowledge base.
const (
	TestTriggerManual = "manual" // the dashboard's button
	TestTriggerCLI    = "cli"    // svc tests run
	TestTriggerCrawl  = "crawl"  // a crawl of one of the account's sites finished
	TestTriggerUpload = "upload" // documents were imported or uploaded, or a document deleted
	TestTriggerQA     = "qa"     // curated Q&A entries were added, edited or deleted
)

// A run's status (TestRun.Status).
const (
	TestRunRunning = "running"
	TestRunDone    = "done"
	TestRunFailed  = "failed" // stopped by an error, a shutdown, a crash (its heartbeat lapsed) or the balance
)

// NoticeTestsBroken is the owner mail that a regression run after a change of the KB passed
// fewer of the account's tests than the run before; its payload is TestsBrokenPayload.
const NoticeTestsBroken = "tests_broken"

// TestCase is one test of an account's set.
type TestCase struct {
	ID        int64
	AccountID int64
	Question  string
	Lang      string // tr, en or de
	// Expect are substrings a right reply holds, every one (compared without case and
	// accents); empty for an unanswerable test.
	Expect []string
	// Answerable false: the right reply is the "I do not know" fallback.
	Answerable bool
	// Product, when set, must be among the reply's product cards (by name or URL).
	Product   string
	Origin    string // TestOrigin*
	OriginRef string // the message id or review item the test was made from; "" otherwise
	// Key is the test's question as the duplicate check compares it (with Lang): the
	// account holds one test per key and language. testsets computes it.
	Key       string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// TestRun is one run of an account's test set.
type TestRun struct {
	ID        int64
	AccountID int64
	Trigger   string // TestTrigger*
	Status    string // TestRun*
	// Total is how many tests the run asks; Done how many it has asked so far (the
	// progress), of which Passed passed and Failed did not.
	Total, Done, Passed, Failed int
	// PrevRunID is the account's latest completed run when this one completed (0: none):
	// Broken counts the tests that passed there and fail here, Fixed the reverse, and
	// Regressed says this run's pass rate is below that run's.
	PrevRunID     int64
	Broken, Fixed int
	Regressed     bool
	// KBVersion is the KB's version (KBState.Version) when the run started: a regression
	// run is skipped when nothing changed since the last run.
	KBVersion int64
	// CostMicro is what the run was billed (0 with the built-in engine).
	CostMicro int64
	// Error says why a failed run stopped.
	Error       string
	StartedAt   time.Time
	FinishedAt  time.Time // zero while running
	HeartbeatAt time.Time // moved on while the run is alive; a running run whose heartbeat lapsed died
}

// TestResult is one test's outcome in a run.
type TestResult struct {
	RunID  int64
	TestID int64
	Ord    int // the order the run asked the tests in
	// Question and Lang are the test's when it ran (it may be edited or deleted later).
	Question      string
	Lang          string
	Reply         string
	Source        string // the reply's source (store.Source*)
	LowConfidence bool
	Passed        bool
	// Reason says why the test failed; "" when it passed.
	Reason string
	// Products are the names of the reply's product cards.
	Products  []string
	CreatedAt time.Time
}

// TestsBrokenPayload is the payload of a NoticeTestsBroken notice.
type TestsBrokenPayload struct {
	RunID          int64  `json:"run_id"`
	Trigger        string `json:"trigger"`
	At             string `json:"at"` // the run's start, RFC 3339 UTC
	Total          int    `json:"total"`
	Passed         int    `json:"passed"`
	PreviousTotal  int    `json:"previous_total"`
	PreviousPassed int    `json:"previous_passed"`
	// Broken are the questions that passed in the previous run and fail now, at most a
	// mail's worth; BrokenCount counts them all.
	Broken      []BrokenTest `json:"broken"`
	BrokenCount int          `json:"broken_count"`
}

// BrokenTest is one question of a TestsBrokenPayload.
type BrokenTest struct {
	Question string `json:"q"`
	Lang     string `json:"lang"`
	Reason   string `json:"reason,omitempty"`
}

// TestSets stores owners' test sets and their runs.
type TestSets interface {
	// AddTestCases inserts cases (each with its Key set) in one transaction and fills their
	// ids and times. A case whose key and language the account already has, or that an
	// earlier case of the list has, is skipped and counted in dups. When the account would
	// then hold more than max tests it fails with ErrLimitReached and inserts nothing.
	AddTestCases(ctx context.Context, accountID int64, cases []TestCase, max int) (added, dups int, err error)
	// TestCases returns the account's tests, oldest first.
	TestCases(ctx context.Context, accountID int64) ([]TestCase, error)
	// GetTestCase returns one of the account's tests, or ErrNotFound.
	GetTestCase(ctx context.Context, accountID, testID int64) (TestCase, error)
	// UpdateTestCase writes c's question, language, key, expectations, answerable flag and
	// product. ErrNotFound when the account has no such test, ErrConflict when another of
	// its tests has c's key and language.
	UpdateTestCase(ctx context.Context, c *TestCase) error
	// DeleteTestCases deletes the account's tests among ids and reports how many went. The
	// results of past runs keep their copy of the question.
	DeleteTestCases(ctx context.Context, accountID int64, ids []int64) (int, error)
	// CountTestCases counts the account's tests.
	CountTestCases(ctx context.Context, accountID int64) (int, error)

	// StartTestRun inserts r as running (filling ID, Status, StartedAt and HeartbeatAt) in
	// one transaction with the account's row lock: a running run of the account whose
	// heartbeat is before staleBefore is first marked failed (it died), and when another is
	// still running it fails with ErrConflict and inserts nothing. It then deletes the
	// account's oldest finished runs beyond keep-1, with their results.
	StartTestRun(ctx context.Context, r *TestRun, staleBefore time.Time, keep int) error
	// SaveTestResults appends results to the running run runID and moves its Done, Passed
	// and Failed counts and its heartbeat (to at) in one transaction. ErrNotFound when the
	// account has no such run, ErrConflict when it is no longer running (marked failed as
	// stale meanwhile).
	SaveTestResults(ctx context.Context, accountID, runID int64, results []TestResult, at time.Time) error
	// TouchTestRun moves a running run's heartbeat to at (a run waiting for a worker).
	// ErrConflict when it is no longer running.
	TouchTestRun(ctx context.Context, accountID, runID int64, at time.Time) error
	// FinishTestRun ends the running run r.ID with r's Status (done or failed), Error,
	// PrevRunID, Broken, Fixed, Regressed, CostMicro and FinishedAt and, in the same
	// transaction, queues notice when it is not nil (as EnqueueNotice, by its dedupe key).
	// ErrConflict when the run is no longer running.
	FinishTestRun(ctx context.Context, r *TestRun, notice *Notice) error
	// FailStaleTestRuns marks failed, across every account, the running runs whose
	// heartbeat is before staleBefore (their process died) and reports how many.
	FailStaleTestRuns(ctx context.Context, staleBefore time.Time) (int, error)
	// TestRuns returns the account's runs, newest first, at most limit.
	TestRuns(ctx context.Context, accountID int64, limit int) ([]TestRun, error)
	// GetTestRun returns one of the account's runs, or ErrNotFound.
	GetTestRun(ctx context.Context, accountID, runID int64) (TestRun, error)
	// LastDoneTestRun returns the account's newest completed (done) run with an id below
	// beforeID (0: any), or ErrNotFound.
	LastDoneTestRun(ctx context.Context, accountID, beforeID int64) (TestRun, error)
	// LatestTestRegression returns the account's newest done run that Regressed, or
	// ErrNotFound.
	LatestTestRegression(ctx context.Context, accountID int64) (TestRun, error)
	// TestResults returns a run's results in the order they were asked.
	TestResults(ctx context.Context, accountID, runID int64) ([]TestResult, error)
}
