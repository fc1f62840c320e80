package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"svc/internal/store"
)

// CheckLedger implements store.LedgerChecker. Every figure is read in one read transaction,
// so in WAL mode they all come from the same snapshot while `svc serve` keeps writing. The
// queries group by account, so checking every account costs a few scans, not one round of
// queries per account.
func (s *Store) CheckLedger(ctx context.Context, accountID int64, now time.Time) (store.LedgerReport, error) {
	var rep store.LedgerReport
	tx, err := s.r.Begin(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return rep, fmt.Errorf("check ledger: %w", err)
	}
	defer func() { _ = tx.Rollback() }()

	// scope restricts each query to the account when one is given (its argument goes last).
	scope, args := accountScope("account_id", accountID)
	own, ownArgs := accountScope("id", accountID)
	byID := map[int64]*store.AccountLedger{}
	rows, err := tx.QueryContext(ctx, `SELECT id, balance_micro, reserved_micro FROM accounts
		WHERE 1 = 1`+own+` ORDER BY id`, ownArgs...)
	if err != nil {
		return rep, fmt.Errorf("check ledger: accounts: %w", err)
	}
	for rows.Next() {
		a := store.AccountLedger{LedgerMicro: map[string]int64{}}
		if err := rows.Scan(&a.AccountID, &a.BalanceMicro, &a.ReservedMicro); err != nil {
			rows.Close()
			return rep, fmt.Errorf("check ledger: accounts: %w", err)
		}
		rep.Accounts = append(rep.Accounts, a)
	}
	if err := closeRows(rows); err != nil {
		return rep, fmt.Errorf("check ledger: accounts: %w", err)
	}
	if accountID != 0 && len(rep.Accounts) == 0 {
		return rep, fmt.Errorf("check ledger: account %d: %w", accountID, store.ErrNotFound)
	}
	for i := range rep.Accounts {
		byID[rep.Accounts[i].AccountID] = &rep.Accounts[i]
	}

	if err := eachRow(ctx, tx, `SELECT account_id, kind, SUM(amount_micro) FROM ledger WHERE 1 = 1`+scope+`
		GROUP BY account_id, kind`, args, func(r *sql.Rows) error {
		var id, sum int64
		var kind string
		if err := r.Scan(&id, &kind, &sum); err != nil {
			return err
		}
		if a := byID[id]; a != nil {
			a.LedgerMicro[kind] = sum
		}
		return nil
	}); err != nil {
		return rep, fmt.Errorf("check ledger: ledger sums: %w", err)
	}

	due := TS(now)
	if err := eachRow(ctx, tx, `SELECT account_id, COUNT(*), SUM(amount_micro),
		SUM(CASE WHEN expires_at <= ? THEN 1 ELSE 0 END), SUM(CASE WHEN expires_at <= ? THEN amount_micro ELSE 0 END),
		MIN(CASE WHEN expires_at <= ? THEN expires_at END)
		FROM reservations WHERE 1 = 1`+scope+` GROUP BY account_id`, append([]any{due, due, due}, args...),
		func(r *sql.Rows) error {
			var id, sum, expiredSum int64
			var n, expired int
			var oldest sql.NullString
			if err := r.Scan(&id, &n, &sum, &expired, &expiredSum, &oldest); err != nil {
				return err
			}
			if a := byID[id]; a != nil {
				a.Reservations, a.ReservationsMicro, a.Expired, a.ExpiredMicro = n, sum, expired, expiredSum
				a.OldestExpiry = NullTS(oldest)
			}
			return nil
		}); err != nil {
		return rep, fmt.Errorf("check ledger: reservations: %w", err)
	}

	// A charged event matches a ledger charge row of the same account, message (none for a
	// charge outside a conversation), type (the row's note) and amount. Both sides are
	// counted per such key in one grouped pass (no join, so it stays one sort however large
	// the tables): where a key has more events than rows, the surplus events lack their row.
	type gap struct {
		accountID, messageID int64
		eventType            string
		cost                 int64
		missing              int
	}
	var gaps []gap
	if err := eachRow(ctx, tx, `SELECT account_id, mid, typ, cost, SUM(ev) - SUM(lg) FROM (
			SELECT account_id, COALESCE(message_id, 0) AS mid, event_type AS typ, cost_micro AS cost, 1 AS ev, 0 AS lg, id AS eid
			FROM usage_events WHERE cost_micro > 0`+scope+`
			UNION ALL
			SELECT account_id, COALESCE(message_id, 0), note, -amount_micro, 0, 1, 0
			FROM ledger WHERE kind = '`+store.LedgerCharge+`'`+scope+`
		) u GROUP BY account_id, mid, typ, cost HAVING SUM(ev) > SUM(lg) ORDER BY account_id, MAX(eid)`,
		append(append([]any{}, args...), args...), func(r *sql.Rows) error {
			var g gap
			if err := r.Scan(&g.accountID, &g.messageID, &g.eventType, &g.cost, &g.missing); err != nil {
				return err
			}
			gaps = append(gaps, g)
			return nil
		}); err != nil {
		return rep, fmt.Errorf("check ledger: charges without ledger rows: %w", err)
	}
	for _, g := range gaps {
		a := byID[g.accountID]
		if a == nil {
			continue
		}
		a.UnledgeredCount += g.missing
		room := store.MaxUnledgeredListed - len(a.Unledgered)
		if room <= 0 {
			continue
		}
		// The newest events of the key are the ones without a row (rows are written with their
		// events, so a missing one is, by count, one of the surplus).
		// (message_id = ? finds a message's events by its index; IFNULL would scan.)
		byMessage, margs := "message_id IS NULL", []any{g.accountID}
		if g.messageID != 0 {
			byMessage, margs = "message_id = ?", append(margs, g.messageID)
		}
		if err := eachRow(ctx, tx, `SELECT id, created_at FROM usage_events WHERE account_id = ? AND `+byMessage+`
			AND event_type = ? AND cost_micro = ? ORDER BY id DESC LIMIT ?`,
			append(margs, g.eventType, g.cost, min(g.missing, room)), func(r *sql.Rows) error {
				e := store.UnledgeredEvent{MessageID: g.messageID, EventType: g.eventType, CostMicro: g.cost}
				var created string
				if err := r.Scan(&e.EventID, &created); err != nil {
					return err
				}
				e.CreatedAt = ParseTS(created)
				a.Unledgered = append(a.Unledgered, e)
				return nil
			}); err != nil {
			return rep, fmt.Errorf("check ledger: charges without ledger rows: %w", err)
		}
	}
	for i := range rep.Accounts {
		slices.SortFunc(rep.Accounts[i].Unledgered, func(x, y store.UnledgeredEvent) int { return cmp.Compare(x.EventID, y.EventID) })
	}
	return rep, nil
}

// accountScope is the condition (to follow a WHERE) and its argument that restrict a query
// to one account by col, or nothing when accountID is 0 (every account).
func accountScope(col string, accountID int64) (string, []any) {
	if accountID == 0 {
		return "", nil
	}
	return " AND " + col + " = ?", []any{accountID}
}

// eachRow runs a query in tx and calls fn for every row.
func eachRow(ctx context.Context, tx *Tx, query string, args []any, fn func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	for rows.Next() {
		if err := fn(rows); err != nil {
			rows.Close()
			return err
		}
	}
	return closeRows(rows)
}

func closeRows(rows *sql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}
