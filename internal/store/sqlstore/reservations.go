package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"svc/internal/store"
)

// Reservations hold part of an account's balance for an answer in progress. accounts.reserved_micro
// is always the sum of the account's rows in reservations: every statement that inserts or
// deletes a row moves the column in the same transaction, and rows are only ever deleted with
// DELETE ... RETURNING, so that of two transactions racing for one row only the one that
// deleted it gives its amount back.

// Reserve holds amountMicro of the account's free balance (balance less live reservations)
// for ttl, after releasing the account's lapsed reservations. With budget, the reservation
// also counts against the embed token's daily budget and is refused with ErrBudgetReached
// when the token's spend since budget.Since plus its live reservations is the limit or more.
//
// The budget check cannot race with another Reserve or SaveTurn of the same token: on SQLite
// the IMMEDIATE transaction (the one writer connection, the file lock across processes)
// serialises every writer from its first statement; on PostgreSQL the transaction first
// takes the account's row lock (Dialect.LockAccount), which SaveTurn takes too, and then the
// token's (tokenStatus, FOR UPDATE), always in that order. Either way what the sums read is
// still true at the insert.
func (s *Store) Reserve(ctx context.Context, accountID, amountMicro int64, ttl time.Duration, budget *store.TokenBudget) (store.Reservation, error) {
	r := store.Reservation{AccountID: accountID, AmountMicro: amountMicro}
	if amountMicro <= 0 {
		return r, fmt.Errorf("reserve %d micro-USD: the amount must be positive", amountMicro)
	}
	if ttl <= 0 {
		return r, fmt.Errorf("reserve for %v: the time to live must be positive", ttl)
	}
	if budget != nil {
		r.EmbedTokenID = budget.TokenID
	}
	now := s.now().UTC()
	err := s.InTx(ctx, func(tx *Tx) error {
		if err := s.d.LockAccount(ctx, tx, accountID); err != nil {
			return err
		}
		if budget != nil {
			if _, err := s.tokenStatus(ctx, tx, accountID, budget.TokenID); err != nil {
				return err
			}
		}
		if err := releaseLapsed(ctx, tx, accountID, now); err != nil {
			return err
		}
		if budget != nil {
			spend, reserved, err := tokenSpend(ctx, tx, accountID, budget.TokenID, budget.Since, now)
			if err != nil {
				return err
			}
			if spend+reserved >= budget.LimitMicro {
				return fmt.Errorf("reserve for embed token %d: %d spent and %d reserved of %d: %w", budget.TokenID,
					spend, reserved, budget.LimitMicro, store.ErrBudgetReached)
			}
		}
		res, err := tx.ExecContext(ctx, `UPDATE accounts SET reserved_micro = reserved_micro + ?
			WHERE id = ? AND balance_micro - reserved_micro >= ?`, amountMicro, accountID, amountMicro)
		if err != nil {
			return fmt.Errorf("reserve: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("reserve: %w", err)
		}
		if n == 0 {
			if _, err := GetAccountTx(ctx, tx, accountID); err != nil {
				return err
			}
			return fmt.Errorf("reserve %d micro-USD: %w", amountMicro, store.ErrInsufficientBalance)
		}
		r.CreatedAt, r.ExpiresAt = now, now.Add(ttl)
		if err := tx.QueryRowContext(ctx, `INSERT INTO reservations (account_id, embed_token_id, amount_micro, created_at,
			expires_at) VALUES (?, ?, ?, ?, ?) RETURNING id`, accountID, NullInt(r.EmbedTokenID), amountMicro,
			TS(r.CreatedAt), TS(r.ExpiresAt)).Scan(&r.ID); err != nil {
			return fmt.Errorf("insert reservation: %w", err)
		}
		return nil
	})
	if err != nil {
		return store.Reservation{}, err
	}
	return r, nil
}

// Release gives a reservation of the account back; one already gone is not an error.
func (s *Store) Release(ctx context.Context, accountID, reservationID int64) error {
	return s.InTx(ctx, func(tx *Tx) error {
		// The account's lock first, as SaveTurn takes it before it deletes the same row:
		// the other order deadlocked a release racing with a settle.
		if err := s.d.LockAccount(ctx, tx, accountID); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return nil // no account, so no reservation to give back
			}
			return err
		}
		return releaseReservation(ctx, tx, accountID, reservationID)
	})
}

func releaseReservation(ctx context.Context, tx *Tx, accountID, reservationID int64) error {
	var amount int64
	err := tx.QueryRowContext(ctx, `DELETE FROM reservations WHERE id = ? AND account_id = ? RETURNING amount_micro`,
		reservationID, accountID).Scan(&amount)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("release reservation: %w", err)
	}
	return unreserve(ctx, tx, accountID, amount)
}

// releaseLapsed releases the account's reservations that expired at or before now.
func releaseLapsed(ctx context.Context, tx *Tx, accountID int64, now time.Time) error {
	rows, err := tx.QueryContext(ctx, `DELETE FROM reservations WHERE account_id = ? AND expires_at <= ?
		RETURNING amount_micro`, accountID, TS(now))
	if err != nil {
		return fmt.Errorf("release lapsed reservations: %w", err)
	}
	var total int64
	for rows.Next() {
		var amount int64
		if err := rows.Scan(&amount); err != nil {
			rows.Close()
			return fmt.Errorf("release lapsed reservations: %w", err)
		}
		total += amount
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return fmt.Errorf("release lapsed reservations: %w", err)
	}
	return unreserve(ctx, tx, accountID, total)
}

func unreserve(ctx context.Context, tx *Tx, accountID, amount int64) error {
	if amount == 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE accounts SET reserved_micro = reserved_micro - ? WHERE id = ?`,
		amount, accountID); err != nil {
		return fmt.Errorf("release reserved balance: %w", err)
	}
	return nil
}

// chargeAttempts bounds the capped charge's retries. Inside SQLite's IMMEDIATE transaction,
// and under the account's row lock every caller holds on PostgreSQL, the free balance cannot
// move between the read and the update, so the second attempt always lands; the bound is a
// guard should a caller ever not hold it.
const chargeAttempts = 3

// charge takes amount from the account's free balance (balance less reservations) and returns
// what it took and the balance after. Uncapped, it takes all of amount or fails with
// ErrInsufficientBalance. Capped, it takes at most what is free plus overdraft, possibly
// nothing: overdraft (zero or more, only with capped) is how far below zero the free balance
// may go, the bound on what a settled hold can overdraw. The balance only moves through the
// conditional UPDATE, so whatever runs concurrently it never goes below what reservations
// hold less overdraft.
func charge(ctx context.Context, tx *Tx, accountID, amount int64, capped bool, overdraft int64) (taken, balance int64, err error) {
	if !capped || overdraft < 0 {
		overdraft = 0
	}
	want := amount
	for range chargeAttempts {
		err := tx.QueryRowContext(ctx, `UPDATE accounts SET balance_micro = balance_micro - ?
			WHERE id = ? AND balance_micro - reserved_micro + ? >= ? RETURNING balance_micro`,
			want, accountID, overdraft, want).Scan(&balance)
		if err == nil {
			return want, balance, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, 0, fmt.Errorf("charge: %w", err)
		}
		if !capped {
			return 0, 0, fmt.Errorf("charge %d micro-USD: %w", amount, store.ErrInsufficientBalance)
		}
		var free int64
		if err := tx.QueryRowContext(ctx, `SELECT balance_micro - reserved_micro, balance_micro FROM accounts WHERE id = ?`,
			accountID).Scan(&free, &balance); err != nil {
			return 0, 0, NotFound(err, "charge")
		}
		if free+overdraft <= 0 {
			return 0, balance, nil
		}
		want = min(free+overdraft, amount)
	}
	return 0, 0, fmt.Errorf("charge: the free balance kept changing: %w", store.ErrConflict)
}

// ReleaseReservations implements store.Billing. Rows are deleted with RETURNING and each
// account's column moved by what its deleted rows held, in one transaction, so a settle
// racing with the sweep gives each amount back exactly once.
func (s *Store) ReleaseReservations(ctx context.Context, expiredBy, createdBefore time.Time) (store.ReleasedReservations, error) {
	var out store.ReleasedReservations
	err := s.InTx(ctx, func(tx *Tx) error {
		out = store.ReleasedReservations{}
		// Where writers run in parallel the accounts' row locks come first, in id order, as
		// every transaction of an account takes its lock before it touches the account's
		// reservations (deleting the rows first and then locking the accounts deadlocked with
		// SaveTurn); only the locked accounts' rows are deleted, and a row that lapses
		// meanwhile waits for the next sweep. With one writer, every row goes at once.
		locked, every, err := s.d.LockReleasable(ctx, tx, expiredBy, createdBefore)
		if err != nil || (!every && len(locked) == 0) {
			return err
		}
		var rows *sql.Rows
		if every {
			rows, err = tx.QueryContext(ctx, `DELETE FROM reservations WHERE expires_at <= ? OR created_at < ?
			RETURNING account_id, amount_micro`, TS(expiredBy), TS(createdBefore))
		} else {
			args := []any{TS(expiredBy), TS(createdBefore)}
			for _, id := range locked {
				args = append(args, id)
			}
			rows, err = tx.QueryContext(ctx, `DELETE FROM reservations WHERE (expires_at <= ? OR created_at < ?)
			AND account_id IN (`+Placeholders(len(locked))+`) RETURNING account_id, amount_micro`, args...)
		}
		if err != nil {
			return fmt.Errorf("release reservations: %w", err)
		}
		held := map[int64]int64{}
		for rows.Next() {
			var account, amount int64
			if err := rows.Scan(&account, &amount); err != nil {
				rows.Close()
				return fmt.Errorf("release reservations: %w", err)
			}
			held[account] += amount
			out.Count++
			out.Micro += amount
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return fmt.Errorf("release reservations: %w", err)
		}
		if every {
			for account, amount := range held {
				if err := unreserve(ctx, tx, account, amount); err != nil {
					return err
				}
			}
		} else {
			for _, account := range locked { // in the order of their locks
				if err := unreserve(ctx, tx, account, held[account]); err != nil {
					return err
				}
			}
		}
		out.Accounts = len(held)
		return nil
	})
	return out, err
}
