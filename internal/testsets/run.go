package testsets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"svc/internal/billing"
	"svc/internal/engine"
	"svc/internal/errs"
	"svc/internal/eval"
	"svc/internal/store"
)

// Report is a finished run as `svc tests run` prints it (DECISIONS.md: run_id, total,
// passed, failed and results with q, passed, reply, source and lowConfidence; the rest is
// ours).
type Report struct {
	RunID   int64          `json:"run_id"`
	Status  string         `json:"status"`
	Trigger string         `json:"trigger"`
	Total   int            `json:"total"`
	Passed  int            `json:"passed"`
	Failed  int            `json:"failed"`
	Broken  int            `json:"broken"`
	Fixed   int            `json:"fixed"`
	Error   string         `json:"error,omitempty"`
	CostUSD float64        `json:"cost_usd"`
	Results []ReportResult `json:"results"`
}

// ReportResult is one test's line of a Report.
type ReportResult struct {
	TestID        int64  `json:"test_id"`
	Q             string `json:"q"`
	Lang          string `json:"lang"`
	Passed        bool   `json:"passed"`
	Reply         string `json:"reply"`
	Source        string `json:"source"`
	LowConfidence bool   `json:"lowConfidence"`
	Reason        string `json:"reason,omitempty"`
}

// ReportOf is a run and its results as a Report.
func ReportOf(r store.TestRun, results []store.TestResult) Report {
	rep := Report{RunID: r.ID, Status: r.Status, Trigger: r.Trigger, Total: r.Total, Passed: r.Passed, Failed: r.Failed,
		Broken: r.Broken, Fixed: r.Fixed, Error: r.Error, CostUSD: billing.USD(r.CostMicro),
		Results: make([]ReportResult, 0, len(results))}
	for _, x := range results {
		rep.Results = append(rep.Results, ReportResult{TestID: x.TestID, Q: x.Question, Lang: x.Lang, Passed: x.Passed,
			Reply: x.Reply, Source: x.Source, LowConfidence: x.LowConfidence, Reason: x.Reason})
	}
	return rep
}

// RunNow runs the account's whole set in the caller's goroutine (the CLI) and returns its
// report. ErrRunning when a run of the account is in progress.
func (s *Service) RunNow(ctx context.Context, accountID int64, trigger string) (Report, error) {
	run, cases, err := s.begin(ctx, accountID, trigger)
	if err != nil {
		return Report{}, err
	}
	stop := s.beat(ctx, run)
	final, err := s.execute(ctx, run, cases)
	stop()
	if err != nil {
		return Report{}, err
	}
	results, err := s.st.TestResults(context.WithoutCancel(ctx), accountID, final.ID)
	if err != nil {
		return Report{}, err
	}
	return ReportOf(final, results), nil
}

// begin checks that the account can run its set now and records the run as running.
func (s *Service) begin(ctx context.Context, accountID int64, trigger string) (*store.TestRun, []store.TestCase, error) {
	if !slices.Contains([]string{store.TestTriggerManual, store.TestTriggerCLI, store.TestTriggerCrawl,
		store.TestTriggerUpload, store.TestTriggerQA}, trigger) {
		return nil, nil, fmt.Errorf("test run trigger %q is not one of ours", trigger)
	}
	a, err := s.account(ctx, accountID)
	if err != nil {
		return nil, nil, err
	}
	cases, err := s.st.TestCases(ctx, accountID)
	if err != nil {
		return nil, nil, err
	}
	if len(cases) == 0 {
		return nil, nil, errNoTests
	}
	if s.billed && a.BalanceMicro-a.ReservedMicro <= 0 {
		return nil, nil, errNoBalance
	}
	kbs, err := s.st.KBState(ctx, accountID)
	if err != nil {
		return nil, nil, err
	}
	run := &store.TestRun{AccountID: accountID, Trigger: trigger, Total: len(cases), KBVersion: kbs.Version}
	err = s.st.StartTestRun(ctx, run, s.now().Add(-s.staleAfter), KeepRuns)
	if errors.Is(err, store.ErrConflict) {
		return nil, nil, ErrRunning
	}
	if err != nil {
		return nil, nil, err
	}
	return run, cases, nil
}

// beat keeps run's heartbeat moving until the returned stop is called, so that a run
// waiting for a worker or on a slow answer is not taken for dead.
func (s *Service) beat(ctx context.Context, run *store.TestRun) (stop func()) {
	bctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(s.staleAfter / 5)
		defer t.Stop()
		for {
			select {
			case <-bctx.Done():
				return
			case <-t.C:
				if err := s.st.TouchTestRun(bctx, run.AccountID, run.ID, s.now()); err != nil && bctx.Err() == nil {
					s.log.Warn("test run heartbeat", "account", run.AccountID, "run", run.ID, "err", err)
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}

// request is the engine request of a test's question as a visitor of a would send it, for
// the answerer's token budget.
func request(a store.Account, c store.TestCase) engine.Request {
	return engine.Request{AccountID: a.ID, Question: c.Question, Lang: c.Lang, Tone: a.TonePreset, SalesMode: a.SalesMode,
		Business: a.Name, ToneCustom: a.ToneCustom}
}

// errOutOfMoney stops a billed run whose account cannot pay for its next batch.
var errOutOfMoney = errors.New("stopped: the account balance ran out")

// execute asks every test of a started run, writing its progress batch by batch, and
// finishes it: done with its comparison with the previous completed run (and, for a
// regression run that broke tests, the owner's notice), or failed with the reason. It
// returns the finished run; err is a store failure that left the run unfinished (its
// heartbeat then lapses and it reads as failed).
func (s *Service) execute(ctx context.Context, run *store.TestRun, cases []store.TestCase) (store.TestRun, error) {
	cause := s.ask(ctx, run, cases)
	wctx := context.WithoutCancel(ctx) // the run's end is written even when ctx ended
	run.Status = store.TestRunDone
	var notice *store.Notice
	switch {
	case cause == nil:
		var err error
		if notice, err = s.compareWithPrevious(wctx, run); err != nil {
			return *run, err
		}
	case ctx.Err() != nil:
		run.Status, run.Error = store.TestRunFailed, "interrupted: stopped before the end"
	case errors.Is(cause, errOutOfMoney):
		run.Status, run.Error = store.TestRunFailed, cause.Error()
	default:
		s.log.Error("test run failed", "account", run.AccountID, "run", run.ID, "err", cause)
		run.Status, run.Error = store.TestRunFailed, "failed: "+clip(cause.Error(), 300)
		if e, ok := errs.As(cause); ok {
			run.Error = "failed: " + e.Safe
		}
	}
	fresh, err := s.st.GetTestRun(wctx, run.AccountID, run.ID)
	if err != nil {
		return *run, err
	}
	run.Done, run.Passed, run.Failed = fresh.Done, fresh.Passed, fresh.Failed
	run.FinishedAt = s.now().UTC()
	if err := s.st.FinishTestRun(wctx, run, notice); err != nil {
		return *run, err
	}
	return *run, nil
}

// ask asks every test of run in order, saving the results (and, billed, charging for them)
// batch by batch. It returns why it stopped early, nil when every test was asked.
func (s *Service) ask(ctx context.Context, run *store.TestRun, cases []store.TestCase) error {
	a, err := s.account(ctx, run.AccountID)
	if err != nil {
		return err
	}
	asker, err := eval.NewAsker(ctx, s.st, s.ans, run.AccountID)
	if err != nil {
		return err
	}
	for lo := 0; lo < len(cases); lo += BatchSize {
		batch := cases[lo:min(lo+BatchSize, len(cases))]
		results, err := s.askBatch(ctx, a, asker, batch, lo, run)
		if len(results) > 0 {
			if serr := s.st.SaveTestResults(context.WithoutCancel(ctx), run.AccountID, run.ID, results, s.now()); serr != nil {
				return serr
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// askBatch asks one batch, under one hold and one charge when billed. It returns the
// results it has, and why it stopped before the batch's end.
func (s *Service) askBatch(ctx context.Context, a store.Account, asker *eval.Asker, batch []store.TestCase, first int,
	run *store.TestRun) ([]store.TestResult, error) {
	var hold store.Reservation
	if s.billed {
		var err error
		if hold, err = s.reserve(ctx, a, s.worst(a, batch)); err != nil {
			return nil, err
		}
	}
	results := make([]store.TestResult, 0, len(batch))
	var charges []store.Charge
	var stopped error
	for i, c := range batch {
		if err := ctx.Err(); err != nil {
			stopped = err
			break
		}
		res, ch, err := s.askOne(ctx, asker, c)
		if err != nil {
			stopped = err
			break
		}
		res.Ord = first + i
		results = append(results, res)
		charges = append(charges, ch...)
	}
	if s.billed {
		cost, err := s.settle(ctx, a, charges, hold.ID)
		if err != nil {
			return results, err
		}
		run.CostMicro += cost
	}
	return results, stopped
}

// askOne asks one test and judges the reply. A question the pipeline refuses as the
// client's fault (never expected: tests are validated as messages are) is a failed result,
// not a failed run.
func (s *Service) askOne(ctx context.Context, asker *eval.Asker, c store.TestCase) (store.TestResult, []store.Charge, error) {
	res := store.TestResult{TestID: c.ID, Question: c.Question, Lang: c.Lang}
	asked, err := asker.Ask(ctx, c.Question, c.Lang)
	if err != nil {
		if e, ok := errs.As(err); ok && e.Kind == errs.BadRequest {
			res.Reason = ReasonError + ": " + e.Safe
			return res, nil, nil
		}
		return res, nil, err
	}
	r := asked.Reply
	res.Reply, res.Source, res.LowConfidence = r.Body, r.Source, r.LowConfidence
	for _, p := range r.Products {
		res.Products = append(res.Products, p.Name)
	}
	res.Passed, res.Reason = Check(c, r)
	return res, asked.Charges, nil
}

// RunTest asks one test again, now, and returns its result; no run is recorded (the
// dashboard shows it in place of the test's last result). Billed like a run's batch.
func (s *Service) RunTest(ctx context.Context, accountID, testID int64) (store.TestResult, error) {
	c, err := s.Get(ctx, accountID, testID)
	if err != nil {
		return store.TestResult{}, err
	}
	a, err := s.account(ctx, accountID)
	if err != nil {
		return store.TestResult{}, err
	}
	if s.billed && a.BalanceMicro-a.ReservedMicro <= 0 {
		return store.TestResult{}, errNoBalance
	}
	asker, err := eval.NewAsker(ctx, s.st, s.ans, accountID)
	if err != nil {
		return store.TestResult{}, err
	}
	var hold store.Reservation
	if s.billed {
		if hold, err = s.reserve(ctx, a, s.worst(a, []store.TestCase{c})); err != nil {
			if errors.Is(err, errOutOfMoney) {
				return store.TestResult{}, errNoBalance
			}
			return store.TestResult{}, err
		}
	}
	res, charges, err := s.askOne(ctx, asker, c)
	if s.billed {
		if _, serr := s.settle(ctx, a, charges, hold.ID); serr != nil && err == nil {
			err = serr
		}
	}
	if err != nil {
		return store.TestResult{}, err
	}
	res.CreatedAt = s.now().UTC()
	return res, nil
}

// reserve holds worst for a batch, as a Studio generation holds its worst case; a refusal
// is judged by billing.AfterRefusal: a spent balance stops the run (errOutOfMoney); a free
// balance below worst with nothing else held is held whole; money held by the account's
// answers in progress is waited for a little (a run is not in a hurry), then stops it too.
func (s *Service) reserve(ctx context.Context, a store.Account, worst int64) (store.Reservation, error) {
	if worst <= 0 {
		return store.Reservation{}, nil
	}
	for try := 0; ; try++ {
		r, err := s.st.Reserve(ctx, a.ID, worst, s.holdTTL, nil)
		if !errors.Is(err, store.ErrInsufficientBalance) {
			return r, err
		}
		now, err := s.st.GetAccount(ctx, a.ID)
		if err != nil {
			return r, err
		}
		switch verdict, free := billing.AfterRefusal(now.BalanceMicro, now.ReservedMicro, worst); verdict {
		case billing.Spent:
			return r, errOutOfMoney
		case billing.HoldWhatIsFree:
			r, err = s.st.Reserve(ctx, a.ID, free, s.holdTTL, nil)
			if !errors.Is(err, store.ErrInsufficientBalance) {
				return r, err
			}
		}
		if try == 20 {
			return r, errOutOfMoney
		}
		select {
		case <-ctx.Done():
			return r, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// settle charges what a batch's answers cost, as one usage event releasing its hold in the
// same transaction (store.ChargeUsage: the hold and the charge commit together), and
// returns what was charged. Free answers (cached, fallbacks, a provider's outage) cost
// nothing; with nothing to charge, the hold is only released.
func (s *Service) settle(ctx context.Context, a store.Account, charges []store.Charge, holdID int64) (int64, error) {
	c := &store.Charge{EventType: EventTestRun}
	for _, ch := range charges {
		if ch.AmountMicro <= 0 {
			continue
		}
		c.AmountMicro += ch.AmountMicro
		c.InputTokens += ch.InputTokens
		c.OutputTokens += ch.OutputTokens
		c.Calls = append(c.Calls, ch.Calls...)
	}
	wctx := context.WithoutCancel(ctx)
	if c.AmountMicro == 0 {
		if holdID != 0 {
			if err := s.st.Release(wctx, a.ID, holdID); err != nil {
				s.log.Error("release test run reservation", "account", a.ID, "err", err)
			}
		}
		return 0, nil
	}
	capped, err := s.st.ChargeUsage(wctx, a.ID, c, holdID)
	if err != nil {
		return 0, err
	}
	if capped > 0 {
		s.log.Warn("test run batch cost more than the free balance; the excess was written off", "account", a.ID,
			"written_off_micro", capped)
	}
	return c.AmountMicro, nil
}

// maxMailed is how many broken questions a regression mail lists.
const maxMailed = 20

// compareWithPrevious sets run's comparison with the account's previous completed run and,
// for a regression run (after a crawl, upload or Q&A edit) whose pass rate fell with
// tests broken, returns the owner's notice.
func (s *Service) compareWithPrevious(ctx context.Context, run *store.TestRun) (*store.Notice, error) {
	prev, err := s.st.LastDoneTestRun(ctx, run.AccountID, run.ID)
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	before, err := s.st.TestResults(ctx, run.AccountID, prev.ID)
	if err != nil {
		return nil, err
	}
	after, err := s.st.TestResults(ctx, run.AccountID, run.ID)
	if err != nil {
		return nil, err
	}
	broken, fixed := compare(before, after)
	passed := 0
	for _, r := range after {
		if r.Passed {
			passed++
		}
	}
	run.PrevRunID, run.Broken, run.Fixed = prev.ID, len(broken), len(fixed)
	// A lower pass rate, with tests that broke: a rate that fell only because failing
	// tests were added is not a regression of the assistant.
	run.Regressed = len(broken) > 0 && len(after) > 0 && prev.Total > 0 &&
		int64(passed)*int64(prev.Total) < int64(prev.Passed)*int64(len(after))
	if !run.Regressed || !automatic(run.Trigger) {
		return nil, nil
	}
	p := store.TestsBrokenPayload{RunID: run.ID, Trigger: run.Trigger, At: run.StartedAt.UTC().Format(time.RFC3339),
		Total: len(after), Passed: passed, PreviousTotal: prev.Total, PreviousPassed: prev.Passed, BrokenCount: len(broken)}
	for _, b := range broken[:min(len(broken), maxMailed)] {
		p.Broken = append(p.Broken, store.BrokenTest{Question: clip(b.Question, 300), Lang: b.Lang, Reason: clip(b.Reason, 200)})
	}
	body, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	return &store.Notice{AccountID: run.AccountID, Kind: store.NoticeTestsBroken, DedupeKey: fmt.Sprintf("tests:%d", run.ID),
		Payload: string(body)}, nil
}

// automatic reports whether a trigger is a change of the KB (a regression run), not a
// person asking.
func automatic(trigger string) bool {
	return trigger == store.TestTriggerCrawl || trigger == store.TestTriggerUpload || trigger == store.TestTriggerQA
}
