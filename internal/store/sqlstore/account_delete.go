package sqlstore

import (
	"context"
	"fmt"

	"svc/internal/store"
)

// AccountTables are the tables whose rows an account owns, each with an account_id column,
// in an order that deletes children before their parents (foreign keys are on). The ledger is
// not among them: its rows move to ledger_archive. A test fails when a table with an
// account_id column is missing here, so a new table cannot outlive its account unnoticed.
var AccountTables = []string{
	"sessions", "auth_tokens", "users",
	"feedback", "fallback_questions",
	"usage_calls", "usage_events",
	"answer_cache_terms", "answer_cache_docs", "answer_cache",
	"messages", "conversations",
	"test_results", "test_runs", "test_cases",
	"reservations", "notices", "embed_tokens",
	"daily_replies", "daily_usage",
	"chunk_vectors", "vector_models", "embedding_leases", "kb_stats", "chunks", "products", "articles", "documents",
	"site_pages", "sites",
	"api_keys",
}

// DeleteAccount deletes the account and everything it owns in one write transaction. The
// ledger rows move to ledger_archive as they are, and deleted_accounts keeps the account's
// id, name, plan and final balance (which those rows sum to), so the money that went through
// the account stays accounted for after the account is gone.
func (s *Store) DeleteAccount(ctx context.Context, accountID int64) (store.AccountDeletion, error) {
	now := s.now().UTC()
	out := store.AccountDeletion{AccountID: accountID, DeletedAt: now}
	err := s.InTx(ctx, func(tx *Tx) error {
		// The knowledge-base lock, then the account's row lock (ForUpdate), the order every
		// other transaction takes them in where writers run in parallel: no turn, hold or
		// import of the account is half done when its rows go, and the final balance read is
		// the final one.
		if err := s.d.LockKB(ctx, tx, accountID); err != nil {
			return err
		}
		var plan, created string
		err := tx.QueryRowContext(ctx, `SELECT name, plan, balance_micro, created_at FROM accounts WHERE id = ?`+s.d.ForUpdate(),
			accountID).Scan(&out.Name, &plan, &out.FinalBalanceMicro, &created)
		if err != nil {
			return NotFound(err, fmt.Sprintf("account %d", accountID))
		}
		// A crawl holding a site's lease would go on writing the account's documents: refuse
		// until it has ended (or its lease has lapsed) rather than race it.
		var crawling int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sites WHERE account_id = ? AND lease_until > ?`,
			accountID, TS(now)).Scan(&crawling); err != nil {
			return fmt.Errorf("crawls in progress: %w", err)
		}
		if crawling > 0 {
			return fmt.Errorf("account %d: %d crawls in progress: %w", accountID, crawling, store.ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO deleted_accounts (account_id, name, plan, final_balance_micro,
			created_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?)`, accountID, out.Name, plan, out.FinalBalanceMicro, created,
			TS(now)); err != nil {
			return fmt.Errorf("record deleted account: %w", err)
		}
		if out.LedgerKept, err = ExecCount(ctx, tx, `INSERT INTO ledger_archive (id, account_id, kind, amount_micro,
			balance_after, message_id, note, created_at) SELECT id, account_id, kind, amount_micro, balance_after,
			message_id, note, created_at FROM ledger WHERE account_id = ? ORDER BY id`, accountID); err != nil {
			return fmt.Errorf("archive ledger: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM ledger WHERE account_id = ?`, accountID); err != nil {
			return fmt.Errorf("delete ledger: %w", err)
		}
		if err := s.d.DeleteAccountIndex(ctx, tx, accountID); err != nil {
			return err
		}
		counts := map[string]*int{"conversations": &out.Conversations, "messages": &out.Messages,
			"documents": &out.Documents, "sites": &out.Sites, "embed_tokens": &out.EmbedTokens, "users": &out.Users,
			"api_keys": &out.Keys, "notices": &out.Notices}
		for _, table := range AccountTables {
			n, err := ExecCount(ctx, tx, `DELETE FROM `+table+` WHERE account_id = ?`, accountID)
			if err != nil {
				return fmt.Errorf("delete %s: %w", table, err)
			}
			if c := counts[table]; c != nil {
				*c = n
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM accounts WHERE id = ?`, accountID); err != nil {
			return fmt.Errorf("delete account: %w", err)
		}
		return nil
	})
	if err != nil {
		return store.AccountDeletion{}, err
	}
	return out, nil
}

// DeletedAccount reads a deleted account's record.
func (s *Store) DeletedAccount(ctx context.Context, accountID int64) (store.DeletedAccount, error) {
	d := store.DeletedAccount{AccountID: accountID}
	var created, deleted string
	err := s.r.QueryRowContext(ctx, `SELECT name, plan, final_balance_micro, created_at, deleted_at FROM deleted_accounts
		WHERE account_id = ?`, accountID).Scan(&d.Name, &d.Plan, &d.FinalBalanceMicro, &created, &deleted)
	if err != nil {
		return store.DeletedAccount{}, NotFound(err, fmt.Sprintf("deleted account %d", accountID))
	}
	d.CreatedAt, d.DeletedAt = ParseTS(created), ParseTS(deleted)
	return d, nil
}

// ArchivedLedger returns a deleted account's kept ledger rows, oldest first.
func (s *Store) ArchivedLedger(ctx context.Context, accountID int64) ([]store.LedgerEntry, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+LedgerColumns+` FROM ledger_archive WHERE account_id = ? ORDER BY id`,
		accountID)
	if err != nil {
		return nil, fmt.Errorf("archived ledger: %w", err)
	}
	defer rows.Close()
	out := []store.LedgerEntry{}
	for rows.Next() {
		e, err := ScanLedgerEntry(rows)
		if err != nil {
			return nil, fmt.Errorf("archived ledger: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
