package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"svc/internal/store"
)

const accountColumns = `id, name, email, plan, lang, balance_micro, sales_mode, tone_preset, tone_custom,
	send_rate_per_min, daily_answers, input_rate_micro, output_rate_micro, reserved_micro, marketing_rate_per_min,
	intelligence_rate_per_min, created_at, updated_at`

func scanAccount(row interface{ Scan(...any) error }) (store.Account, error) {
	var a store.Account
	dest, finish := accountFields(&a)
	err := row.Scan(dest...)
	finish()
	return a, err
}

// accountFields are the scan destinations of accountColumns for a, and what turns them into
// a's fields once scanned; a join scans them after another table's.
func accountFields(a *store.Account) (dest []any, finish func()) {
	var sales int
	var created, updated string
	return []any{&a.ID, &a.Name, &a.Email, &a.Plan, &a.Lang, &a.BalanceMicro, &sales, &a.TonePreset,
			&a.ToneCustom, &a.SendRatePerMin, &a.DailyAnswers, &a.InputRate, &a.OutputRate, &a.ReservedMicro,
			&a.MarketingRatePerMin, &a.IntelligenceRatePerMin, &created, &updated}, func() {
			a.SalesMode = sales != 0
			a.CreatedAt, a.UpdatedAt = ParseTS(created), ParseTS(updated)
		}
}

// CreateAccount inserts the account, its first key and the opening top-up in one transaction.
func (s *Store) CreateAccount(ctx context.Context, a *store.Account, key *store.APIKey) error {
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO accounts (name, email, plan, lang, balance_micro, sales_mode,
			tone_preset, tone_custom, send_rate_per_min, daily_answers, input_rate_micro, output_rate_micro,
			marketing_rate_per_min, intelligence_rate_per_min, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			a.Name, a.Email, a.Plan, a.Lang, a.BalanceMicro, BoolInt(a.SalesMode), a.TonePreset, a.ToneCustom,
			a.SendRatePerMin, a.DailyAnswers, a.InputRate, a.OutputRate, a.MarketingRatePerMin, a.IntelligenceRatePerMin,
			TS(now), TS(now)).Scan(&a.ID)
		if err != nil {
			return fmt.Errorf("insert account: %w", err)
		}
		a.CreatedAt, a.UpdatedAt = now, now
		if a.BalanceMicro > 0 {
			if _, err := tx.ExecContext(ctx, `INSERT INTO ledger (account_id, kind, amount_micro, balance_after, note, created_at)
				VALUES (?, 'topup', ?, ?, ?, ?)`, a.ID, a.BalanceMicro, a.BalanceMicro, store.LedgerNoteOpening, TS(now)); err != nil {
				return fmt.Errorf("insert opening balance: %w", err)
			}
		}
		if key != nil {
			key.AccountID = a.ID
			if err := insertKey(ctx, tx, key, now); err != nil {
				return err
			}
		}
		return nil
	})
}

// GetAccount reads one account.
func (s *Store) GetAccount(ctx context.Context, accountID int64) (store.Account, error) {
	a, err := scanAccount(s.r.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE id = ?`, accountID))
	if err != nil {
		return a, NotFound(err, "get account")
	}
	return a, nil
}

// FindAccountByName returns the oldest account with that name.
func (s *Store) FindAccountByName(ctx context.Context, name string) (store.Account, error) {
	a, err := scanAccount(s.r.QueryRowContext(ctx,
		`SELECT `+accountColumns+` FROM accounts WHERE name = ? ORDER BY id LIMIT 1`, name))
	if err != nil {
		return a, NotFound(err, "find account")
	}
	return a, nil
}

// UpdateAccount writes the settable fields; the balance only moves through the ledger.
func (s *Store) UpdateAccount(ctx context.Context, a *store.Account) error {
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE accounts SET name = ?, email = ?, plan = ?, lang = ?, sales_mode = ?,
			tone_preset = ?, tone_custom = ?, send_rate_per_min = ?, daily_answers = ?, input_rate_micro = ?,
			output_rate_micro = ?, marketing_rate_per_min = ?, intelligence_rate_per_min = ?, updated_at = ? WHERE id = ?`,
			a.Name, a.Email, a.Plan, a.Lang, BoolInt(a.SalesMode), a.TonePreset, a.ToneCustom, a.SendRatePerMin,
			a.DailyAnswers, a.InputRate, a.OutputRate, a.MarketingRatePerMin, a.IntelligenceRatePerMin, TS(now), a.ID)
		if err != nil {
			return fmt.Errorf("update account: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("update account %d: %w", a.ID, store.ErrNotFound)
		}
		a.UpdatedAt = now
		return nil
	})
}

// AddBalance moves the balance by amountMicro and records it in the ledger.
func (s *Store) AddBalance(ctx context.Context, accountID int64, amountMicro int64, note string) (int64, error) {
	now := s.now().UTC()
	var balance int64
	err := s.InTx(ctx, func(tx *Tx) error {
		err := tx.QueryRowContext(ctx, `UPDATE accounts SET balance_micro = balance_micro + ?, updated_at = ?
			WHERE id = ? AND balance_micro + ? >= 0 RETURNING balance_micro`,
			amountMicro, TS(now), accountID, amountMicro).Scan(&balance)
		if err == sql.ErrNoRows {
			if _, gerr := GetAccountTx(ctx, tx, accountID); gerr != nil {
				return gerr
			}
			return fmt.Errorf("add balance: %w", store.ErrInsufficientBalance)
		}
		if err != nil {
			return fmt.Errorf("add balance: %w", err)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO ledger (account_id, kind, amount_micro, balance_after, note, created_at)
			VALUES (?, 'topup', ?, ?, ?, ?)`, accountID, amountMicro, balance, note, TS(now))
		if err != nil {
			return fmt.Errorf("insert ledger: %w", err)
		}
		return nil
	})
	return balance, err
}

func GetAccountTx(ctx context.Context, tx *Tx, accountID int64) (store.Account, error) {
	a, err := scanAccount(tx.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE id = ?`, accountID))
	if err != nil {
		return a, NotFound(err, "get account")
	}
	return a, nil
}

// Ledger lists the account's balance movements, oldest first.
func (s *Store) Ledger(ctx context.Context, accountID int64) ([]store.LedgerEntry, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+LedgerColumns+` FROM ledger WHERE account_id = ? ORDER BY id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	defer rows.Close()
	var out []store.LedgerEntry
	for rows.Next() {
		e, err := ScanLedgerEntry(rows)
		if err != nil {
			return nil, fmt.Errorf("ledger: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

const LedgerColumns = `id, account_id, kind, amount_micro, balance_after, COALESCE(message_id, 0), note, created_at`

func ScanLedgerEntry(row interface{ Scan(...any) error }) (store.LedgerEntry, error) {
	var e store.LedgerEntry
	var created string
	err := row.Scan(&e.ID, &e.AccountID, &e.Kind, &e.AmountMicro, &e.BalanceAfter, &e.MessageID, &e.Note, &created)
	e.CreatedAt = ParseTS(created)
	return e, err
}
