package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"svc/internal/store"
)

// Owner test sets (store.TestSets; migrations 23 and PostgreSQL's 7). Every write that
// decides something for the account (the cap on its tests, its one running run) takes the
// account's row lock first, as money does, so two processes on one PostgreSQL database
// decide one after the other; SQLite's single writer does that by itself.

const testCaseColumns = `id, account_id, question, lang, qkey, expect, answerable, product, origin, origin_ref,
	created_at, updated_at`

func scanTestCase(row interface{ Scan(...any) error }) (store.TestCase, error) {
	var c store.TestCase
	var expect, created, updated string
	var answerable int
	err := row.Scan(&c.ID, &c.AccountID, &c.Question, &c.Lang, &c.Key, &expect, &answerable, &c.Product, &c.Origin,
		&c.OriginRef, &created, &updated)
	if err != nil {
		return c, err
	}
	c.Answerable = answerable != 0
	c.CreatedAt, c.UpdatedAt = ParseTS(created), ParseTS(updated)
	if err := json.Unmarshal([]byte(expect), &c.Expect); err != nil {
		return c, fmt.Errorf("test %d: expect %q: %w", c.ID, expect, err)
	}
	if c.Expect == nil {
		c.Expect = []string{}
	}
	return c, nil
}

func expectJSON(e []string) string {
	if len(e) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(e)
	return string(b)
}

// AddTestCases inserts cases, skipping duplicates, within the account's cap.
func (s *Store) AddTestCases(ctx context.Context, accountID int64, cases []store.TestCase, max int) (int, int, error) {
	for _, c := range cases {
		if c.Key == "" || c.Question == "" || c.Lang == "" || c.Origin == "" {
			return 0, 0, fmt.Errorf("add test cases: question, language, key and origin are required")
		}
	}
	now := s.now().UTC()
	var added, dups int
	err := s.InTx(ctx, func(tx *Tx) error {
		added, dups = 0, 0
		if err := s.d.LockExistingAccount(ctx, tx, accountID); err != nil {
			return err
		}
		var have int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM test_cases WHERE account_id = ?`, accountID).Scan(&have); err != nil {
			return fmt.Errorf("count test cases: %w", err)
		}
		for i := range cases {
			c := &cases[i]
			c.ID = 0
			var dup int64
			err := tx.QueryRowContext(ctx, `SELECT id FROM test_cases WHERE account_id = ? AND lang = ? AND qkey = ?`,
				accountID, c.Lang, c.Key).Scan(&dup)
			if err == nil {
				dups++
				continue
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("add test case: %w", err)
			}
			id, err := s.d.InsertID(ctx, tx, `INSERT INTO test_cases (account_id, question, lang, qkey, expect, answerable,
				product, origin, origin_ref, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, accountID,
				c.Question, c.Lang, c.Key, expectJSON(c.Expect), BoolInt(c.Answerable), c.Product, c.Origin, c.OriginRef,
				TS(now), TS(now))
			if err != nil {
				return fmt.Errorf("add test case: %w", err)
			}
			added++
			c.ID, c.AccountID, c.CreatedAt, c.UpdatedAt = id, accountID, now, now
		}
		if max > 0 && have+added > max {
			return fmt.Errorf("account %d would hold %d tests, more than %d: %w", accountID, have+added, max,
				store.ErrLimitReached)
		}
		return nil
	})
	if err != nil {
		for i := range cases {
			cases[i].ID = 0
		}
		return 0, 0, err
	}
	return added, dups, nil
}

// TestCases returns the account's tests, oldest first.
func (s *Store) TestCases(ctx context.Context, accountID int64) ([]store.TestCase, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+testCaseColumns+` FROM test_cases WHERE account_id = ? ORDER BY id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("test cases: %w", err)
	}
	defer rows.Close()
	out := []store.TestCase{}
	for rows.Next() {
		c, err := scanTestCase(rows)
		if err != nil {
			return nil, fmt.Errorf("test cases: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// GetTestCase returns one of the account's tests.
func (s *Store) GetTestCase(ctx context.Context, accountID, testID int64) (store.TestCase, error) {
	c, err := scanTestCase(s.r.QueryRowContext(ctx, `SELECT `+testCaseColumns+` FROM test_cases WHERE id = ? AND account_id = ?`,
		testID, accountID))
	if err != nil {
		return store.TestCase{}, NotFound(err, fmt.Sprintf("test %d", testID))
	}
	return c, nil
}

// UpdateTestCase rewrites one of the account's tests.
func (s *Store) UpdateTestCase(ctx context.Context, c *store.TestCase) error {
	if c.Key == "" || c.Question == "" || c.Lang == "" {
		return fmt.Errorf("update test case: question, language and key are required")
	}
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		var other int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM test_cases WHERE account_id = ? AND lang = ? AND qkey = ? AND id <> ?`,
			c.AccountID, c.Lang, c.Key, c.ID).Scan(&other)
		if err == nil {
			return fmt.Errorf("test %d has that question already: %w", other, store.ErrConflict)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("update test case: %w", err)
		}
		res, err := tx.ExecContext(ctx, `UPDATE test_cases SET question = ?, lang = ?, qkey = ?, expect = ?, answerable = ?,
			product = ?, updated_at = ? WHERE id = ? AND account_id = ?`, c.Question, c.Lang, c.Key, expectJSON(c.Expect),
			BoolInt(c.Answerable), c.Product, TS(now), c.ID, c.AccountID)
		if err := OneRow(res, err, fmt.Sprintf("test %d", c.ID)); err != nil {
			return err
		}
		c.UpdatedAt = now
		return nil
	})
}

// DeleteTestCases deletes the account's tests among ids.
func (s *Store) DeleteTestCases(ctx context.Context, accountID int64, ids []int64) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	var n int
	err := s.InTx(ctx, func(tx *Tx) error {
		n = 0
		for _, id := range ids {
			k, err := ExecCount(ctx, tx, `DELETE FROM test_cases WHERE id = ? AND account_id = ?`, id, accountID)
			if err != nil {
				return fmt.Errorf("delete test %d: %w", id, err)
			}
			n += k
		}
		return nil
	})
	return n, err
}

// CountTestCases counts the account's tests.
func (s *Store) CountTestCases(ctx context.Context, accountID int64) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM test_cases WHERE account_id = ?`, accountID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count test cases: %w", err)
	}
	return n, nil
}

const testRunColumns = `id, account_id, trigger_kind, status, total, done, passed, failed, prev_run_id, broken, fixed,
	regressed, kb_version, cost_micro, error, started_at, finished_at, heartbeat_at`

func scanTestRun(row interface{ Scan(...any) error }) (store.TestRun, error) {
	var r store.TestRun
	var regressed int
	var started, finished, beat string
	err := row.Scan(&r.ID, &r.AccountID, &r.Trigger, &r.Status, &r.Total, &r.Done, &r.Passed, &r.Failed, &r.PrevRunID,
		&r.Broken, &r.Fixed, &regressed, &r.KBVersion, &r.CostMicro, &r.Error, &started, &finished, &beat)
	r.Regressed = regressed != 0
	r.StartedAt, r.FinishedAt, r.HeartbeatAt = ParseTS(started), ParseTS(finished), ParseTS(beat)
	return r, err
}

// staleRunError is the error a run gets when its heartbeat lapsed.
const staleRunError = "interrupted: the process running it stopped"

// StartTestRun inserts r as the account's one running run.
func (s *Store) StartTestRun(ctx context.Context, r *store.TestRun, staleBefore time.Time, keep int) error {
	if r.Trigger == "" {
		return fmt.Errorf("start test run: no trigger")
	}
	now := s.now().UTC()
	var id int64
	err := s.InTx(ctx, func(tx *Tx) error {
		if err := s.d.LockExistingAccount(ctx, tx, r.AccountID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE test_runs SET status = ?, error = ?, finished_at = heartbeat_at
			WHERE account_id = ? AND status = ? AND heartbeat_at < ?`, store.TestRunFailed, staleRunError, r.AccountID,
			store.TestRunRunning, TS(staleBefore)); err != nil {
			return fmt.Errorf("fail stale test runs: %w", err)
		}
		var running int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM test_runs WHERE account_id = ? AND status = ?`, r.AccountID,
			store.TestRunRunning).Scan(&running)
		if err == nil {
			return fmt.Errorf("account %d: test run %d is running: %w", r.AccountID, running, store.ErrConflict)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("running test run: %w", err)
		}
		if keep > 0 {
			if err := pruneTestRuns(ctx, tx, r.AccountID, keep-1); err != nil {
				return err
			}
		}
		id, err = s.d.InsertID(ctx, tx, `INSERT INTO test_runs (account_id, trigger_kind, status, total, kb_version,
			started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, r.AccountID, r.Trigger, store.TestRunRunning, r.Total,
			r.KBVersion, TS(now), TS(now))
		if err != nil {
			if s.d.UniqueViolation(err) {
				return fmt.Errorf("account %d: a test run is running: %w", r.AccountID, store.ErrConflict)
			}
			return fmt.Errorf("start test run: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	r.ID, r.Status, r.StartedAt, r.HeartbeatAt = id, store.TestRunRunning, now, now
	r.Done, r.Passed, r.Failed, r.FinishedAt, r.Error = 0, 0, 0, time.Time{}, ""
	return nil
}

// pruneTestRuns deletes the account's finished runs beyond the newest keep, with their
// results.
func pruneTestRuns(ctx context.Context, tx *Tx, accountID int64, keep int) error {
	rows, err := tx.QueryContext(ctx, `SELECT id FROM test_runs WHERE account_id = ? AND status <> ? ORDER BY id DESC`,
		accountID, store.TestRunRunning)
	if err != nil {
		return fmt.Errorf("prune test runs: %w", err)
	}
	var old []int64
	for n := 0; rows.Next(); n++ {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fmt.Errorf("prune test runs: %w", err)
		}
		if n >= keep {
			old = append(old, id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("prune test runs: %w", err)
	}
	for _, id := range old {
		if _, err := tx.ExecContext(ctx, `DELETE FROM test_results WHERE run_id = ?`, id); err != nil {
			return fmt.Errorf("prune test run %d: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM test_runs WHERE id = ?`, id); err != nil {
			return fmt.Errorf("prune test run %d: %w", id, err)
		}
	}
	return nil
}

// runningRun checks inside tx that runID is the account's and running.
func runningRun(ctx context.Context, tx *Tx, accountID, runID int64) error {
	var status string
	err := tx.QueryRowContext(ctx, `SELECT status FROM test_runs WHERE id = ? AND account_id = ?`, runID, accountID).Scan(&status)
	if err != nil {
		return NotFound(err, fmt.Sprintf("test run %d", runID))
	}
	if status != store.TestRunRunning {
		return fmt.Errorf("test run %d is %s: %w", runID, status, store.ErrConflict)
	}
	return nil
}

// SaveTestResults appends results to a running run and moves its counts.
func (s *Store) SaveTestResults(ctx context.Context, accountID, runID int64, results []store.TestResult, at time.Time) error {
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		if err := runningRun(ctx, tx, accountID, runID); err != nil {
			return err
		}
		passed := 0
		for _, r := range results {
			products := "[]"
			if len(r.Products) > 0 {
				b, _ := json.Marshal(r.Products)
				products = string(b)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO test_results (run_id, account_id, test_id, ord, question, lang,
				reply, source, low_confidence, passed, reason, products, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				runID, accountID, r.TestID, r.Ord, r.Question, r.Lang, r.Reply, r.Source, BoolInt(r.LowConfidence),
				BoolInt(r.Passed), r.Reason, products, TS(now)); err != nil {
				return fmt.Errorf("save test result %d: %w", r.TestID, err)
			}
			if r.Passed {
				passed++
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE test_runs SET done = done + ?, passed = passed + ?, failed = failed + ?,
			heartbeat_at = ? WHERE id = ?`, len(results), passed, len(results)-passed, TS(at), runID)
		if err != nil {
			return fmt.Errorf("save test results: %w", err)
		}
		return nil
	})
}

// TouchTestRun moves a running run's heartbeat.
func (s *Store) TouchTestRun(ctx context.Context, accountID, runID int64, at time.Time) error {
	return s.InTx(ctx, func(tx *Tx) error {
		if err := runningRun(ctx, tx, accountID, runID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE test_runs SET heartbeat_at = ? WHERE id = ?`, TS(at), runID)
		return err
	})
}

// FinishTestRun ends a running run, with its notice in the same transaction.
func (s *Store) FinishTestRun(ctx context.Context, r *store.TestRun, notice *store.Notice) error {
	if r.Status != store.TestRunDone && r.Status != store.TestRunFailed {
		return fmt.Errorf("finish test run: status %q", r.Status)
	}
	now := s.now().UTC()
	if r.FinishedAt.IsZero() {
		r.FinishedAt = now
	}
	return s.InTx(ctx, func(tx *Tx) error {
		if err := runningRun(ctx, tx, r.AccountID, r.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE test_runs SET status = ?, error = ?, prev_run_id = ?, broken = ?, fixed = ?,
			regressed = ?, cost_micro = ?, finished_at = ?, heartbeat_at = ? WHERE id = ?`, r.Status, r.Error, r.PrevRunID,
			r.Broken, r.Fixed, BoolInt(r.Regressed), r.CostMicro, TS(r.FinishedAt), TS(r.FinishedAt), r.ID); err != nil {
			return fmt.Errorf("finish test run: %w", err)
		}
		if notice != nil {
			if _, err := InsertNotice(ctx, tx, notice, now); err != nil {
				return err
			}
		}
		return nil
	})
}

// FailStaleTestRuns marks failed the running runs whose heartbeat lapsed.
func (s *Store) FailStaleTestRuns(ctx context.Context, staleBefore time.Time) (int, error) {
	var n int
	err := s.InTx(ctx, func(tx *Tx) error {
		var err error
		n, err = ExecCount(ctx, tx, `UPDATE test_runs SET status = ?, error = ?, finished_at = heartbeat_at
			WHERE status = ? AND heartbeat_at < ?`, store.TestRunFailed, staleRunError, store.TestRunRunning, TS(staleBefore))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("fail stale test runs: %w", err)
	}
	return n, nil
}

// TestRuns returns the account's runs, newest first.
func (s *Store) TestRuns(ctx context.Context, accountID int64, limit int) ([]store.TestRun, error) {
	if limit <= 0 {
		return []store.TestRun{}, nil
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+testRunColumns+` FROM test_runs WHERE account_id = ? ORDER BY id DESC LIMIT ?`,
		accountID, limit)
	if err != nil {
		return nil, fmt.Errorf("test runs: %w", err)
	}
	defer rows.Close()
	out := []store.TestRun{}
	for rows.Next() {
		r, err := scanTestRun(rows)
		if err != nil {
			return nil, fmt.Errorf("test runs: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// GetTestRun returns one of the account's runs.
func (s *Store) GetTestRun(ctx context.Context, accountID, runID int64) (store.TestRun, error) {
	r, err := scanTestRun(s.r.QueryRowContext(ctx, `SELECT `+testRunColumns+` FROM test_runs WHERE id = ? AND account_id = ?`,
		runID, accountID))
	if err != nil {
		return store.TestRun{}, NotFound(err, fmt.Sprintf("test run %d", runID))
	}
	return r, nil
}

// LastDoneTestRun returns the account's newest done run below beforeID (0: any).
func (s *Store) LastDoneTestRun(ctx context.Context, accountID, beforeID int64) (store.TestRun, error) {
	if beforeID <= 0 {
		beforeID = 1 << 62
	}
	r, err := scanTestRun(s.r.QueryRowContext(ctx, `SELECT `+testRunColumns+` FROM test_runs WHERE account_id = ? AND id < ?
		AND status = ? ORDER BY id DESC LIMIT 1`, accountID, beforeID, store.TestRunDone))
	if err != nil {
		return store.TestRun{}, NotFound(err, "last done test run")
	}
	return r, nil
}

// LatestTestRegression returns the account's newest done run that regressed.
func (s *Store) LatestTestRegression(ctx context.Context, accountID int64) (store.TestRun, error) {
	r, err := scanTestRun(s.r.QueryRowContext(ctx, `SELECT `+testRunColumns+` FROM test_runs WHERE account_id = ?
		AND status = ? AND regressed = 1 ORDER BY id DESC LIMIT 1`, accountID, store.TestRunDone))
	if err != nil {
		return store.TestRun{}, NotFound(err, "latest test regression")
	}
	return r, nil
}

// TestResults returns a run's results in the order they were asked.
func (s *Store) TestResults(ctx context.Context, accountID, runID int64) ([]store.TestResult, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT run_id, test_id, ord, question, lang, reply, source, low_confidence, passed,
		reason, products, created_at FROM test_results WHERE run_id = ? AND account_id = ? ORDER BY ord, test_id`, runID, accountID)
	if err != nil {
		return nil, fmt.Errorf("test results: %w", err)
	}
	defer rows.Close()
	out := []store.TestResult{}
	for rows.Next() {
		var r store.TestResult
		var low, passed int
		var products, created string
		if err := rows.Scan(&r.RunID, &r.TestID, &r.Ord, &r.Question, &r.Lang, &r.Reply, &r.Source, &low, &passed, &r.Reason,
			&products, &created); err != nil {
			return nil, fmt.Errorf("test results: %w", err)
		}
		r.LowConfidence, r.Passed, r.CreatedAt = low != 0, passed != 0, ParseTS(created)
		if err := json.Unmarshal([]byte(products), &r.Products); err != nil {
			return nil, fmt.Errorf("test result %d/%d: products: %w", runID, r.TestID, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
